// Fuzz target: the message handling of `pivot serve` (tools/pivot/live_hub.hpp) without
// sockets, on a small scene (docs/reliability.md).
//
// The input is lines (split at '\n'); each is one event from one of three viewers:
//   a TEXT, b TEXT, c TEXT   viewer 1, 2 or 3 sends the WebSocket message TEXT (joining first
//                            when it is not connected)
//   A, B, C                  viewer 1, 2 or 3 leaves (its read loop ended)
//   t                        a tick: one step when the run is going, and a frame to everyone
// Every line also advances the clock by 1 ms (the rate limits see a burst).
//
// Contract: no exception leaves the hub (its message() and tick() are noexcept: an escape is
// std::terminate, a crash); every message sent is JSON with a "type", to a connected viewer;
// the driver is a connected viewer or none; a frame that does not say "failed" carries only
// finite poses (a non-finite state is always reported); a failed run recovers on "reset".
// Seeds: tests/fuzz/corpus/live_messages.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "live/live_hub.hpp"
#include "live/live_session.hpp"
#include "pivot/scenes/scene.hpp"

namespace {

using json = nlohmann::json;

// a box on the ground and a pendulum: contacts, a joint, bodies to pull
constexpr const char* kScene = R"({
  "pivot_scene": 1, "name": "fuzz-live",
  "settings": {"dt": 0.005, "duration": 1.0},
  "bodies": [
    {"name": "ground", "fixed": true, "shape": {"type": "plane", "normal": [0, 0, 1], "offset": 0}},
    {"name": "box", "mass": 1.0, "position": [0, 0, 0.1],
     "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}},
    {"name": "bob", "mass": 0.5, "position": [1, 0, 1],
     "shape": {"type": "sphere", "radius": 0.05}}
  ],
  "joints": [{"type": "ball", "body_a": "bob", "body_b": "world", "anchor": [1, 0, 1.5]}]
})";

const pivot::Scene& scene() {
  static const pivot::Scene s = pivot::parse_scene(kScene, "/nonexistent/pivot-fuzz", "<fuzz>");
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using pivot::fuzz::finding;
  if (size > 64 * 1024) return 0;  // (run.sh's -max_len is far below)
  pivot::Scene s = scene();
  s.settings.world.threads = 1;
  pivot::cli::LiveSession session(s, {});
  std::set<int> connected;
  int sent = 0;
  pivot::cli::LiveHub hub(
      session, {},
      [&](int viewer, const std::shared_ptr<const std::string>& text, bool frame) {
        ++sent;
        if (!connected.contains(viewer))
          finding("a message to viewer " + std::to_string(viewer) + ", not connected");
        json j;
        try {
          j = json::parse(*text);
        } catch (const std::exception& e) {
          finding(std::string("a message that is not JSON: ") + e.what());
        }
        if (!j.is_object() || !j.contains("type") || !j["type"].is_string())
          finding("a message without a type: " + text->substr(0, 200));
        if (frame != (j["type"] == "frame")) finding("a frame not sent as one, or the reverse");
        if (j["type"] == "frame" && !j["failed"].get<bool>())
          for (const auto& x : j["poses"])
            if (!x.is_number() || !std::isfinite(x.get<double>()))
              finding("a frame with a non-finite pose and \"failed\": false: " +
                      text->substr(0, 300));
      },
      /*quiet=*/true);

  const std::string_view input(reinterpret_cast<const char*>(data), size);
  double now = 0.0;
  std::size_t pos = 0;
  int lines = 0;
  while (pos <= input.size() && lines < 256) {
    const std::size_t end = std::min(input.find('\n', pos), input.size());
    const std::string_view line = input.substr(pos, end - pos);
    pos = end + 1;
    ++lines;
    now += 0.001;
    if (line.empty()) continue;
    const char c = line[0];
    if (c >= 'a' && c <= 'c') {
      const int viewer = c - 'a' + 1;
      if (connected.insert(viewer).second) hub.joined(viewer);
      hub.message(viewer, line.size() >= 2 ? line.substr(2) : std::string_view(), now);
    } else if (c >= 'A' && c <= 'C') {
      const int viewer = c - 'A' + 1;
      hub.left(viewer);
      connected.erase(viewer);
    } else if (c == 't') {
      hub.tick(0.02, 0.0);
    }
    const int driver = hub.controller();
    if (driver >= 0 && !connected.contains(driver))
      finding("viewer " + std::to_string(driver) + " drives but is not connected");
  }

  // whatever happened, a reset by whoever drives brings the run back
  if (!connected.empty()) {
    int driver = hub.controller();
    if (driver < 0) {
      driver = *connected.begin();
      hub.message(driver, R"({"type": "take_control"})", now += 1.0);
    }
    if (hub.controller() != driver) finding("take_control with no driver was refused");
    hub.message(driver, R"({"type": "reset"})", now += 1.0);
    if (session.failure()) finding("the run is still failed after a reset");
    if (session.world().step_count() != 0) finding("a reset did not restart the run");
  }
  (void)sent;
  return 0;
}
