// LiveSession::finish (live_session.hpp): the recording of a live run, written as `pivot run`
// writes a run, apart from the session's stepping so that the message handling builds without
// the run writer (tests/fuzz/fuzz_live_messages.cpp).
#include <fmt/core.h>

#include <cstdio>

#include "commands.hpp"
#include "live/live_session.hpp"
#include "pivot/scenes/run_length.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

// mesh files by absolute path, so that the recorded scene.json loads from its own folder
void absolute_meshes(SceneShape& shape) {
  if (!shape.obj_path.empty())
    shape.obj = fs::absolute(shape.obj_path).string();
  for (SceneCompoundChild& child : shape.children)
    for (SceneShape& s : child.shape) absolute_meshes(s);
}

}  // namespace

std::vector<std::string> LiveSession::finish() {
  std::vector<std::string> lines;
  if (record_.empty()) return lines;
  // the recording: the scene, its events and an "end" at the last step; `pivot run` of it
  // writes the run folder, and its final hash must be the live one
  Scene recorded = scene_;
  for (SceneBody& b : recorded.bodies)
    if (b.shape) absolute_meshes(*b.shape);
  recorded.interactions = events_;
  SceneInteraction end;
  end.type = InteractionType::end;
  end.step = world_->step_count();
  recorded.interactions.push_back(end);
  if (end.step > 0)
    recorded.settings.duration = step_time(end.step, scene_.settings.world.time_step);
  const std::string text = resolved_scene_json(recorded);
  // read back from its own text, as `pivot run DIR/scene.json` will
  const Scene reread = parse_scene(
      text, scene_.source.empty() ? fs::path(".") : fs::path(scene_.source).parent_path(),
      (record_ / "scene.json").string());
  run_scene(reread, record_, {.quiet = true});
  {
    std::FILE* f = std::fopen((record_ / "scene.json").string().c_str(), "wb");
    if (!f)
      throw std::runtime_error(fmt::format("cannot write {}", (record_ / "scene.json").string()));
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok)
      throw std::runtime_error(fmt::format("error writing {}", (record_ / "scene.json").string()));
  }
  const std::string live = hash_to_hex(hash());
  lines.push_back(fmt::format("recorded {} steps and {} interactions into {}", end.step,
                              events_.size(), record_.string()));
  lines.push_back(fmt::format("live final hash {}", live));
  return lines;
}

}  // namespace pivot::cli
