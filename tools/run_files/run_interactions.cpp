#include "run_files/run_interactions.hpp"

#include <fmt/core.h>

#include <cstdio>

namespace pivot::cli {

InteractionPlayer::InteractionPlayer(const Scene& scene, World& world) : scene_(&scene) {
  if (!scene.interactions.empty()) driver_ = std::make_unique<InteractionDriver>(world);
}

std::optional<long> InteractionPlayer::end_step() const {
  if (!scene_->interactions.empty() && scene_->interactions.back().type == InteractionType::end)
    return scene_->interactions.back().step;
  return std::nullopt;
}

bool InteractionPlayer::throws() const {
  for (const SceneInteraction& e : scene_->interactions)
    if (e.type == InteractionType::throw_ball) return true;
  return false;
}

void InteractionPlayer::apply_until(long steps) {
  const auto& events = scene_->interactions;
  for (; next_ < events.size() && events[next_].step <= steps; ++next_) {
    try {
      driver_->apply(events[next_]);
    } catch (const Error& e) {
      throw Error(scene_->source, fmt::format("/interactions/{}", next_), e.what());
    }
  }
}

void InteractionPlayer::warn_unapplied() const {
  const auto& events = scene_->interactions;
  std::size_t left = 0;
  for (std::size_t i = next_; i < events.size(); ++i)
    if (events[i].type != InteractionType::end) ++left;
  if (left > 0)
    fmt::print(stderr, "pivot: warning: {} interaction(s) after the run's last step were not "
                       "applied (from /interactions/{})\n", left, next_);
}

}  // namespace pivot::cli
