#pragma once
// A live run (`pivot serve`, docs/cli.md "pivot serve"): one World stepped in real time (or
// slower), driven by the viewers' JSON messages, and its state as JSON frames. No networking
// here (live_server.hpp carries the messages); everything runs on the server's one thread.
//
// Interactions (pull, move, release, throw, set_dt, hybrid) go through the scene format's
// InteractionDriver and are kept with their step numbers, so that `--record DIR` writes a
// scene whose `pivot run` reproduces the live run's final hash.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"

namespace pivot::cli {

/// what handling one message did, for the server to tell the viewers
/// the balls a live run throws at most between resets: each is a body every step handles
inline constexpr int kMaxLiveThrows = 100;

struct LiveReply {
  std::optional<std::string> error;  ///< a message for the sender ({"type":"error",...})
  bool bodies_changed = false;       ///< a throw or reset: every viewer needs the new bodies
};

class LiveSession {
 public:
  /// builds the World from `scene`; `record`: the folder a recording goes to (empty: none)
  LiveSession(Scene scene, std::filesystem::path record);
  ~LiveSession();
  LiveSession(const LiveSession&) = delete;
  LiveSession& operator=(const LiveSession&) = delete;

  /// whether a message of this "type" drives the run (only the viewer in control may send it)
  [[nodiscard]] static bool drives(const std::string& type);
  /// handles one parsed message (its size and JSON syntax checked by the caller); never throws
  LiveReply handle(const nlohmann::json& message);

  /// steps towards real time: `wall` seconds passed since the last call; stops after `budget`
  /// seconds of stepping (the run then falls behind real time, which the factor shows)
  void advance(double wall, double budget);
  /// the frame every viewer gets: step, time, real-time factor, paused, poses (7 per moving
  /// body: x y z qw qx qy qz), the pull; with `contacts`, the last step's contacts too
  [[nodiscard]] std::string frame_json(bool contacts) const;
  /// the bodies' shapes (shapes.json's format) and which of them move: sent on connection and
  /// after a throw or a reset
  [[nodiscard]] std::string bodies_json() const;
  /// releases the pull, if one is active, as a release message would (a driver that left)
  void release_pull();

  /// writes the recording (when asked for): the run folder of `pivot run` on the recorded
  /// scene, and the scene as DIR/scene.json; returns the lines to print (live_record.cpp)
  [[nodiscard]] std::vector<std::string> finish();

  [[nodiscard]] const World& world() const { return *world_; }
  [[nodiscard]] bool paused() const { return paused_; }
  /// why the run failed, when it did (frames say "failed": true and this as "failure")
  [[nodiscard]] const std::optional<std::string>& failure() const { return failure_; }
  [[nodiscard]] std::uint64_t hash() const;

 private:
  void apply(SceneInteraction event);
  void reset();
  void step_once();
  [[nodiscard]] SceneInteraction parse(const nlohmann::json& message) const;

  Scene scene_;  // as loaded: what reset rebuilds
  Scene shown_;  // the scene plus the balls thrown, for bodies_json
  std::filesystem::path record_;
  std::unique_ptr<Simulation> sim_;  // the steps with their checks and tallies
  World* world_ = nullptr;           // sim_->world()
  std::unique_ptr<InteractionDriver> driver_;
  std::vector<SceneInteraction> events_;  // since the last reset, with their steps
  bool paused_ = false;
  double behind_ = 0.0;  // simulated seconds owed to real time
  int bodies_version_ = 0;
  // real-time factor over the last half second: simulated / wall seconds
  double window_sim_ = 0.0, window_wall_ = 0.0, rtf_ = 0.0;
  // why the run failed (a step threw or left a non-finite state): paused until a reset
  std::optional<std::string> failure_;
  // the last step that counted failures since the last reset, with its warning (their number
  // is the Simulation's summary's failed_steps)
  std::optional<std::string> last_step_failure_;
};

}  // namespace pivot::cli
