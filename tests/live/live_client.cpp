// A WebSocket client for the tests of `pivot serve` (tests/live/CMakeLists.txt, run by
// live_test.py): one scenario per run against a server at HOST PORT, exit 0 when every check
// passes, 1 with the failed check on stderr. Synchronous Boost.Beast.
//
//   live_client HOST PORT pull BODY       a pull moves BODY towards the target (engine state)
//   live_client HOST PORT robust          garbage, oversized, unknown messages: errors, and
//                                         the run is still served
//   live_client HOST PORT disconnect BODY the driver vanishes mid-drag: the pull is released
//                                         and control passes on
//   live_client HOST PORT second BODY     a second viewer cannot drive until control is free
//   live_client HOST PORT record BODY     a scripted session of every interaction (for
//                                         --record; the caller compares the hashes)
//   live_client HOST PORT overflow        1e999 in a message is an error, and control still
//                                         passes between viewers
//   live_client HOST PORT ranges BODY     out-of-range values (set_dt 1e300, an origin of
//                                         1e300 m, ...) are refused and the run goes on
//   live_client HOST PORT failed BODY     a step that fails is reported, and a reset and resume
//                                         bring the run back
//   live_client HOST PORT flood           a viewer that sends and never reads (the caller
//                                         measures the server's memory), then a new viewer is
//                                         served
//   live_client HOST PORT throws          a flood of throws is rate-limited and a new viewer
//                                         is served at once
//   live_client HOST PORT actuator NAME   the bodies message lists the actuators; set_target
//                                         moves NAME's target (frames show it), bad ones are
//                                         refused (with --record: the recording replays it)
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(bool ok, const std::string& what) {
  if (!ok) throw Failure(what);
}

/// one viewer's connection; keeps what the server said last
class Viewer {
 public:
  Viewer(const std::string& host, const std::string& port) : ws_(ioc_) {
    tcp::resolver resolver(ioc_);
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(5));
    beast::get_lowest_layer(ws_).connect(resolver.resolve(host, port));
    ws_.handshake(host + ":" + port, "/ws");
    ws_.read_message_max(64 << 20);
  }

  void send(const std::string& text) {
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(5));
    ws_.text(true);
    ws_.write(net::buffer(text));
  }
  void send(const json& j) { send(j.dump()); }

  /// the next message; throws on a closed connection or after 5 s
  json receive() {
    beast::flat_buffer buffer;
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(5));
    ws_.read(buffer);
    json j = json::parse(beast::buffers_to_string(buffer.data()));
    const std::string type = j.value("type", "");
    if (type == "bodies") bodies = j;
    if (type == "control") in_control = j["in_control"].get<bool>();
    if (type == "frame") frame = j;
    if (type == "error") last_error = j["message"].get<std::string>();
    return j;
  }

  /// messages until `done` holds for one, within `seconds`
  json until(const std::function<bool(const json&)>& done, double seconds,
             const std::string& what) {
    const auto end = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < end) {
      json j = receive();
      if (done(j)) return j;
    }
    throw Failure("timed out waiting for " + what);
  }

  json next_frame() {
    return until([](const json& j) { return j["type"] == "frame"; }, 5, "a frame");
  }
  /// the error answering the last message (frames before it are skipped)
  std::string next_error(const std::string& what) {
    return until([](const json& j) { return j["type"] == "error"; }, 5,
                 "an error for " + what)["message"]
        .get<std::string>();
  }

  /// the index of a body in the frames' poses
  int slot(const std::string& name) const {
    const auto& list = bodies["bodies"];
    const auto& dynamic = bodies["dynamic"];
    for (std::size_t s = 0; s < dynamic.size(); ++s)
      if (list[dynamic[s].get<std::size_t>()]["name"] == name) return static_cast<int>(s);
    throw Failure("no moving body named " + name);
  }
  static std::vector<double> position(const json& frame, int slot) {
    const auto& p = frame["poses"];
    return {p[7 * slot].get<double>(), p[7 * slot + 1].get<double>(),
            p[7 * slot + 2].get<double>()};
  }

  /// gone without a close handshake, as a crashed browser tab
  void vanish() {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(ws_).socket().close(ec);
  }

  json bodies, frame;
  bool in_control = false;
  std::string last_error;

 private:
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
};

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/// connects and waits for the bodies, the control message and a frame
void greet(Viewer& v) {
  v.until([&](const json&) { return !v.bodies.is_null() && !v.frame.is_null(); }, 5,
          "the bodies and a frame");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// the body moves towards a target 0.4 m away: within 1.5 s the distance falls below a third
void scenario_pull(Viewer& v, const std::string& body) {
  greet(v);
  check(v.in_control, "the first viewer is in control");
  const int slot = v.slot(body);
  const auto p0 = Viewer::position(v.frame, slot);
  const std::vector<double> target{p0[0] + 0.3, p0[1] - 0.2, p0[2] + 0.2};
  const double d0 = distance(p0, target);
  v.send(json{{"type", "pull"}, {"body", body}, {"point", {0, 0, 0}}, {"target", target}});
  const long step0 = v.next_frame()["step"].get<long>();
  const auto end = Clock::now() + std::chrono::milliseconds(2500);
  double best = d0;
  while (Clock::now() < end) {
    const json f = v.next_frame();
    check(!f["pull"].is_null(), "the frames show the pull");
    best = std::min(best, distance(Viewer::position(f, slot), target));
    if (best < d0 / 3 && f["step"].get<long>() > step0) break;
  }
  std::printf("pull: distance to the target %.4f m -> %.4f m (real-time factor %.2f)\n", d0, best,
              v.frame["rtf"].get<double>());
  check(best < d0 / 3, "the pulled body came within a third of its distance to the target");
  v.send(json{{"type", "release"}});
  v.until([](const json& j) { return j["type"] == "frame" && j["pull"].is_null(); }, 5,
          "a frame without the pull after release");
}

// every bad message gets an error naming what was wrong, and the steps go on after it
void scenario_robust(Viewer& v, const std::string& host, const std::string& port) {
  greet(v);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"this is not JSON {", "malformed JSON"},
      {"[1, 2, 3]", "\"type\""},
      {std::string(20000, ' ') + "{}", "longer than the limit"},
      {R"({"type": "teleport"})", "unknown message type \"teleport\""},
      {R"({"type": "pull", "body": "no such body", "target": [0, 0, 1]})", "no body named"},
      {R"({"type": "pull", "body": "ground", "target": [0, 0, 1]})", "is fixed"},
      {R"({"type": "set_dt", "dt": -1})", "/dt: expected a positive number"},
      {R"({"type": "throw", "origin": [0, 0, 1], "direction": [0, 0, 0], "speed": 1})",
       "/direction"},
      {R"({"type": "throw", "origin": [0, 0, 1], "direction": [1, 0, 0], "speed": 1e300})",
       "/speed"},
      {R"({"type": "move", "target": [0, 0, 1]})", "no pull is active"},
      {R"({"type": "pause", "now": true})", "/now: unknown key"},
      {R"({"type": "hybrid", "on": "yes"})", "/on: expected true or false"},
  };
  for (const auto& [text, expected] : bad) {
    const long before = v.next_frame()["step"].get<long>();
    v.send(text);
    const std::string error = v.next_error(text.substr(0, 40));
    check(contains(error, expected),
          "the error for \"" + text.substr(0, 40) + "\" says \"" + expected + "\": " + error);
    long after = before;
    for (int i = 0; i < 20 && after <= before; ++i) after = v.next_frame()["step"].get<long>();
    check(after > before, "the run goes on after \"" + text.substr(0, 40) + "\"");
  }
  // a frame over the hard limit closes this connection (status 1009); the server goes on
  bool closed = false;
  try {
    v.send(std::string(1100 * 1024, 'x'));
    for (int i = 0; i < 200; ++i) v.receive();
  } catch (const Failure&) {
    throw;
  } catch (const std::exception&) {
    closed = true;
  }
  check(closed, "a 1.1 MB frame closes the connection");
  Viewer again(host, port);
  greet(again);
  const long s1 = again.next_frame()["step"].get<long>();
  long s2 = s1;
  for (int i = 0; i < 20 && s2 <= s1; ++i) s2 = again.next_frame()["step"].get<long>();
  check(s2 > s1, "a new viewer sees the run going on after the oversized frame");
  std::printf("robust: %zu bad messages answered, the run served throughout\n", bad.size());
}

// the driver disconnects mid-drag: the other viewer sees the pull released and gets control
void scenario_disconnect(const std::string& host, const std::string& port,
                         const std::string& body) {
  auto a = std::make_unique<Viewer>(host, port);
  greet(*a);
  check(a->in_control, "the first viewer is in control");
  Viewer b(host, port);
  greet(b);
  check(!b.in_control, "the second viewer is not in control");
  const auto p = Viewer::position(a->frame, a->slot(body));
  a->send(json{{"type", "pull"}, {"body", body}, {"target", {p[0], p[1], p[2] + 0.3}}});
  b.until([](const json& j) { return j["type"] == "frame" && !j["pull"].is_null(); }, 5,
          "the pull in the other viewer's frames");
  a->vanish();
  b.until([](const json& j) { return j["type"] == "frame" && j["pull"].is_null(); }, 10,
          "the pull released after the driver vanished");
  // the control message may come before or after the first frame without the pull
  b.until([&](const json&) { return b.in_control; }, 10, "control passed to the remaining viewer");
  std::printf("disconnect: pull released, control passed on\n");
}

// only the viewer in control drives; release_control and take_control hand it over
void scenario_second(const std::string& host, const std::string& port, const std::string& body) {
  Viewer a(host, port);
  greet(a);
  Viewer b(host, port);
  greet(b);
  check(a.in_control && !b.in_control, "the first viewer drives, the second watches");
  for (const char* text : {R"({"type": "pause"})", R"({"type": "take_control"})"}) {
    b.send(std::string(text));
    check(contains(b.next_error(text), "is in control"), std::string("refused: ") + text);
  }
  b.send(json{{"type", "pull"}, {"body", body}, {"target", {0, 0, 1}}});
  check(contains(b.next_error("pull"), "is in control"), "the watcher's pull is refused");
  check(a.next_frame()["pull"].is_null(), "and no pull happened");
  a.send(json{{"type", "release_control"}});
  a.until([&](const json& j) { return j["type"] == "control" && !a.in_control; }, 5,
          "the release of control");
  b.send(json{{"type", "take_control"}});
  b.until([&](const json& j) { return j["type"] == "control" && b.in_control; }, 5,
          "control taken by the second viewer");
  a.send(json{{"type", "pause"}});
  check(contains(a.next_error("pause"), "is in control"), "the first viewer now watches");
  b.send(json{{"type", "pause"}});
  b.until([](const json& j) { return j["type"] == "frame" && j["paused"].get<bool>(); }, 5,
          "the run paused by the new driver");
  std::printf("second: one driver at a time\n");
}

// every interaction once, for --record (the caller stops the server and compares hashes)
void scenario_record(Viewer& v, const std::string& body) {
  greet(v);
  const auto wait_steps = [&](long n) {
    const long s0 = v.next_frame()["step"].get<long>();
    while (v.next_frame()["step"].get<long>() < s0 + n) {
    }
  };
  const auto p = Viewer::position(v.frame, v.slot(body));
  v.send(json{{"type", "pull"},
              {"body", body},
              {"point", {0.01, 0.02, 0}},
              {"target", {p[0] + 0.2, p[1], p[2] + 0.1}}});
  wait_steps(40);
  v.send(json{{"type", "move"}, {"target", {p[0] + 0.4, p[1] + 0.1, p[2] + 0.1}}});
  wait_steps(40);
  v.send(json{{"type", "throw"},
              {"origin", {p[0] - 2.0, p[1] - 2.0, p[2] + 0.5}},
              {"direction", {1, 1, -0.2}},
              {"speed", 6.0},
              {"radius", 0.08}});
  wait_steps(40);
  v.send(json{{"type", "release"}});
  v.send(json{{"type", "pause"}});
  v.send(json{{"type", "step"}});
  v.send(json{{"type", "step"}});
  v.send(json{{"type", "set_dt"}, {"dt", 0.002}});
  v.send(json{{"type", "hybrid"}, {"on", true}});
  v.send(json{{"type", "resume"}});
  wait_steps(30);
  v.send(json{{"type", "hybrid"}, {"on", false}});
  v.send(json{{"type", "pull"}, {"body", "thrown-1"}, {"target", {p[0], p[1], p[2] + 1.0}}});
  wait_steps(30);
  check(v.bodies["bodies"].size() > 0 && v.bodies["bodies"].back()["name"] == "thrown-1",
        "the thrown ball is among the bodies");
  std::printf("record: step %ld\n", v.next_frame()["step"].get<long>());
}

// a number beyond a double (1e999) is an error for the sender, whose messages are still read:
// it can release control, the other viewer take it, and a viewer that leaves after sending it
// hands control on
void scenario_overflow(const std::string& host, const std::string& port) {
  auto a = std::make_unique<Viewer>(host, port);
  greet(*a);
  Viewer b(host, port);
  greet(b);
  check(a->in_control && !b.in_control, "the first viewer drives, the second watches");
  a->send(std::string("1e999"));
  check(contains(a->next_error("1e999"), "malformed JSON"), "1e999 is malformed JSON");
  a->send(std::string(R"({"type": "set_dt", "dt": 1e999})"));
  check(contains(a->next_error("dt 1e999"), "malformed JSON"), "a message holding 1e999 too");
  a->send(json{{"type", "release_control"}});
  a->until([&](const json& j) { return j["type"] == "control" && !a->in_control; }, 5,
           "the release of control after 1e999");
  b.send(json{{"type", "take_control"}});
  b.until([&](const json& j) { return j["type"] == "control" && b.in_control; }, 5,
          "take_control by the other viewer after 1e999");
  // the new driver sends 1e999 and leaves: control returns to the first viewer
  b.send(std::string("[1e999]"));
  check(contains(b.next_error("[1e999]"), "malformed JSON"), "[1e999] is malformed JSON");
  b.vanish();
  a->until([&](const json&) { return a->in_control; }, 10,
           "control back to the first viewer after the driver left");
  a->send(json{{"type", "pause"}});
  a->until([](const json& j) { return j["type"] == "frame" && j["paused"].get<bool>(); }, 5,
           "the run paused by the first viewer again");
  std::printf("overflow: 1e999 answered, control passed both ways\n");
}

// values beyond the scene format's limits are refused as in a scene file, and the run goes on
void scenario_ranges(Viewer& v, const std::string& body) {
  greet(v);
  const std::vector<std::pair<json, std::string>> bad = {
      {{{"type", "set_dt"}, {"dt", 1e300}}, "/dt: 1e+300 s is outside the range"},
      {{{"type", "set_dt"}, {"dt", 1e-300}}, "/dt: 1e-300 s is outside the range"},
      {{{"type", "throw"}, {"origin", {1e300, 0, 1}}, {"direction", {1, 0, 0}}, {"speed", 1}},
       "/origin/0: 1e+300 m is beyond the limit of 1e+09 m"},
      {{{"type", "throw"},
        {"origin", {0, 0, 1}},
        {"direction", {1, 0, 0}},
        {"speed", 1},
        {"density", 1e300}},
       "/density"},
      {{{"type", "pull"}, {"body", body}, {"target", {0, 0, 1e300}}}, "/target/2"},
      {{{"type", "pull"}, {"body", body}, {"target", {0, 0, 1}}, {"stiffness", 1e300}},
       "/stiffness"},
  };
  for (const auto& [message, expected] : bad) {
    const long before = v.next_frame()["step"].get<long>();
    v.send(message);
    const std::string error = v.next_error(message.dump());
    check(contains(error, expected),
          "the error for " + message.dump() + " says \"" + expected + "\": " + error);
    long after = before;
    for (int i = 0; i < 20 && after <= before; ++i) {
      const json f = v.next_frame();
      check(!f["failed"].get<bool>(), "the run has not failed after " + message.dump());
      check(f["dt"].get<double>() == 0.005, "the time step is unchanged");
      after = f["step"].get<long>();
    }
    check(after > before, "the run goes on after " + message.dump());
  }
  std::printf("ranges: %zu out-of-range messages refused\n", bad.size());
}

// a step that fails (the largest time step and the stiffest pull towards a point 1e9 m away)
// is reported in the frames (a step whose report counts failures, or a run stopped as failed).
// The first steps of that pull may still solve: which step first fails depends on the solver's
// rounding (tens of steps, when the poses have grown to ~1e24 m), so up to 1000 are taken;
// reset, set_dt and resume bring the run back with finite poses and no failure
void scenario_failed(Viewer& v, const std::string& body) {
  greet(v);
  v.send(json{{"type", "pause"}});
  v.send(json{{"type", "set_dt"}, {"dt", 1e12}});
  v.send(json{{"type", "pull"}, {"body", body}, {"target", {1e9, 1e9, 1e9}}, {"stiffness", 1e30}});
  const auto reported = [](const json& f) {
    return f["failed"].get<bool>() || f["failed_steps"].get<long>() > 0;
  };
  json f;
  for (int i = 0; i < 1000; ++i) {
    v.send(json{{"type", "step"}});
    f = v.until([](const json& j) { return j["type"] == "frame" || j["type"] == "error"; }, 5,
                "a frame after a step");
    if (f["type"] == "frame" && reported(f)) break;
  }
  check(f["type"] == "frame" && reported(f),
        "a failing step is reported: " + f.dump().substr(0, 400));
  const std::string why = f["failed"].get<bool>() ? f["failure"].get<std::string>()
                                                  : f["step_failure"].get<std::string>();
  check(!why.empty(), "the frame says why the step failed");
  if (!f["failed"].get<bool>())
    for (const auto& x : f["poses"]) check(x.is_number(), "finite poses unless the run failed");
  const long failed_at = f["step"].get<long>();
  if (f["failed"].get<bool>()) {
    v.send(json{{"type", "resume"}});
    check(contains(v.next_error("resume"), "reset it first"), "resume of a failed run is refused");
  }
  v.send(json{{"type", "reset"}});
  v.send(json{{"type", "set_dt"}, {"dt", 0.005}});
  v.send(json{{"type", "resume"}});
  const json g = v.until(
      [](const json& j) {
        return j["type"] == "frame" && !j["paused"].get<bool>() && j["step"].get<long>() > 20;
      },
      10, "the run going again after reset and resume");
  check(
      !g["failed"].get<bool>() && g["failed_steps"].get<long>() == 0 && g["step_failure"].is_null(),
      "no failure after the reset: " + g.dump().substr(0, 300));
  for (const auto& x : g["poses"]) check(x.is_number(), "finite poses after the reset");
  std::printf("failed: step %ld reported (%s); reset and resume ran to step %ld\n", failed_at,
              why.substr(0, 100).c_str(), g["step"].get<long>());
}

// a viewer that sends bad messages and never reads what comes back; then a new viewer is
// served and can drive (the caller checks the server's memory)
void scenario_flood(const std::string& host, const std::string& port) {
  Viewer a(host, port);
  // an unterminated string: the parser's error quotes what it read (15 kB)
  const std::string garbage = "\"" + std::string(15000, 'a');
  for (int i = 0; i < 4000; ++i) a.send(garbage);
  Viewer b(host, port);
  greet(b);
  const long s1 = b.next_frame()["step"].get<long>();
  long s2 = s1;
  for (int i = 0; i < 40 && s2 <= s1; ++i) s2 = b.next_frame()["step"].get<long>();
  check(s2 > s1, "a new viewer sees the run going on after the flood");
  std::printf("flood: 4000 messages of 15 kB sent unread; a new viewer served at step %ld\n", s2);
}

// a driver throws as fast as it can for 2 s: throws beyond the rate are refused, and a viewer
// joining meanwhile gets the bodies and frames at once
void scenario_throws(const std::string& host, const std::string& port) {
  Viewer a(host, port);
  greet(a);
  const std::size_t bodies0 = a.bodies["bodies"].size();
  const json throw_ball = {{"type", "throw"},
                           {"origin", {-2, 0, 1}},
                           {"direction", {1, 0, 0}},
                           {"speed", 5.0},
                           {"radius", 0.05}};
  const auto start = Clock::now();
  int sent = 0;
  while (Clock::now() - start < std::chrono::seconds(2)) {
    for (int i = 0; i < 20; ++i, ++sent) a.send(throw_ball);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // about 1000 a second
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto joined = Clock::now();
  Viewer b(host, port);
  greet(b);
  const double wait = std::chrono::duration<double>(Clock::now() - joined).count();
  const std::size_t thrown = b.bodies["bodies"].size() - bodies0;
  std::printf("throws: %d sent in %.1f s, %zu balls thrown, a new viewer greeted in %.2f s\n", sent,
              seconds, thrown, wait);
  // 10 at once, then 5 a second (live_hub.hpp HubLimits)
  check(thrown <= static_cast<std::size_t>(10 + 5 * seconds + 2), "throws are rate-limited");
  check(thrown >= 5, "throws within the rate are applied");
  check(wait < 3.0, "a new viewer is greeted within 3 s of a throw flood");
  const long s1 = b.next_frame()["step"].get<long>();
  long s2 = s1;
  for (int i = 0; i < 40 && s2 <= s1; ++i) s2 = b.next_frame()["step"].get<long>();
  check(s2 > s1, "the run goes on after the throw flood");
}
}  // namespace

// the actuator NAME is offered with a range; a set_target within it is applied (the frames'
// targets show it) and the joint follows; an unknown actuator and a value beyond the scene
// format's bound are refused with errors naming them
void scenario_actuator(Viewer& v, const std::string& name) {
  greet(v);
  check(v.in_control, "the first viewer is in control");
  const json& list = v.bodies["actuators"];
  check(list.is_array() && !list.empty(), "the bodies message lists the actuators");
  int index = -1;
  for (std::size_t a = 0; a < list.size(); ++a)
    if (list[a]["name"] == name) index = static_cast<int>(a);
  check(index >= 0, "the actuator " + name + " is listed");
  const json& entry = list[static_cast<std::size_t>(index)];
  const double lo = entry["min"].get<double>(), hi = entry["max"].get<double>();
  check(lo < hi, "the actuator's slider range is not empty");
  const double value = lo + 0.6 * (hi - lo);
  v.send(json{{"type", "set_target"}, {"actuator", name}, {"value", value}});
  v.until(
      [&](const json& j) {
        return j["type"] == "frame" && j.contains("targets") &&
               j["targets"][static_cast<std::size_t>(index)].get<double>() == value;
      },
      5, "a frame with the new target");
  v.send(json{{"type", "set_target"}, {"actuator", "nobody"}, {"value", 0.1}});
  const std::string unknown = v.next_error("an unknown actuator");
  check(contains(unknown, "no actuator named \"nobody\""), "unknown actuator: " + unknown);
  v.send(json{{"type", "set_target"}, {"actuator", name}, {"value", 1e300}});
  const std::string huge = v.next_error("a value of 1e300");
  check(contains(huge, "/value"), "a value of 1e300: " + huge);
  const long s0 = v.next_frame()["step"].get<long>();
  while (v.next_frame()["step"].get<long>() < s0 + 100) {
  }
  std::printf("actuator: %s target %.4f (range %.3f .. %.3f), step %ld\n", name.c_str(), value, lo,
              hi, v.frame["step"].get<long>());
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: live_client HOST PORT SCENARIO [BODY]\n");
    return 2;
  }
  const std::string host = argv[1], port = argv[2], scenario = argv[3];
  const std::string body = argc > 4 ? argv[4] : "";
  try {
    if (scenario == "pull") {
      Viewer v(host, port);
      scenario_pull(v, body);
    } else if (scenario == "robust") {
      Viewer v(host, port);
      scenario_robust(v, host, port);
    } else if (scenario == "disconnect") {
      scenario_disconnect(host, port, body);
    } else if (scenario == "second") {
      scenario_second(host, port, body);
    } else if (scenario == "record") {
      Viewer v(host, port);
      scenario_record(v, body);
    } else if (scenario == "overflow") {
      scenario_overflow(host, port);
    } else if (scenario == "ranges") {
      Viewer v(host, port);
      scenario_ranges(v, body);
    } else if (scenario == "failed") {
      Viewer v(host, port);
      scenario_failed(v, body);
    } else if (scenario == "flood") {
      scenario_flood(host, port);
    } else if (scenario == "throws") {
      scenario_throws(host, port);
    } else if (scenario == "actuator") {
      Viewer v(host, port);
      scenario_actuator(v, body);
    } else {
      std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
      return 2;
    }
  } catch (const Failure& f) {
    std::fprintf(stderr, "live_client %s: FAILED: %s\n", scenario.c_str(), f.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "live_client %s: error: %s\n", scenario.c_str(), e.what());
    return 1;
  }
  return 0;
}
