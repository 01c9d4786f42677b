#pragma once
// The interactions of a scene (a recorded live run, `pivot serve --record`) replayed by
// `pivot run`: each event is applied after its step (pivot/scenes/interaction.hpp), through the
// same InteractionDriver as the live run, so the re-run ends on the recorded final hash.

#include <cstddef>
#include <memory>
#include <optional>

#include "pivot/scenes/scene.hpp"

namespace pivot::cli {

class InteractionPlayer {
 public:
  /// nothing to do when the scene has no interactions (the World gets no pull force then)
  InteractionPlayer(const Scene& scene, World& world);
  /// the step of the "end" event, if there is one: the run's length
  [[nodiscard]] std::optional<long> end_step() const;
  /// whether any event throws a ball
  [[nodiscard]] bool throws() const;
  /// applies every event not yet applied with step ≤ `steps`; a failing event is pivot::Error
  /// naming /interactions/i
  void apply_until(long steps);
  /// a warning on stderr for events after the run's last step (e.g. a shorter --duration)
  void warn_unapplied() const;

 private:
  const Scene* scene_;
  std::unique_ptr<InteractionDriver> driver_;
  std::size_t next_ = 0;
};

}  // namespace pivot::cli
