#include "live/live_session.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "replay/replay_geometry.hpp"

namespace pivot::cli {
namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

// message types that drive the run, and those any viewer may send
constexpr const char* kDriving[] = {"pull", "move",  "release", "throw",  "pause",     "resume",
                                    "step", "reset", "set_dt",  "hybrid", "set_target"};

// a slider's range for an actuator's target when its joint gives none: an angle's half turn,
// a metre, a turn per second or a metre per second
constexpr double kDefaultAngleRange = 3.141592653589793;      // rad
constexpr double kDefaultLengthRange = 1.0;                   // m
constexpr double kDefaultAngleRateRange = 6.283185307179586;  // rad/s
constexpr double kDefaultLengthRateRange = 1.0;               // m/s

// what a viewer's slider for actuator `a` offers: its name, type, unit, range and target now
ojson actuator_json(const World& w, const SceneActuator& sa, const SceneJoint& joint,
                    const Actuator& a) {
  const bool hinge = joint.type() == JointType::hinge;
  std::optional<JointLimits> limits;
  if (const auto* h = std::get_if<HingeJointSettings>(&joint.settings)) limits = h->limits;
  if (const auto* s = std::get_if<SliderJointSettings>(&joint.settings)) limits = s->limits;
  double lo = 0.0, hi = 0.0;
  std::string unit;
  switch (a.type()) {
    case ActuatorType::position:
      unit = hinge ? "rad" : "m";
      if (limits) {
        lo = limits->lower, hi = limits->upper;
      } else {
        hi = hinge ? kDefaultAngleRange : kDefaultLengthRange;
        lo = -hi;
      }
      break;
    case ActuatorType::velocity:
      unit = hinge ? "rad/s" : "m/s";
      hi = joint.velocity_limit.value_or(hinge ? kDefaultAngleRateRange : kDefaultLengthRateRange);
      lo = -hi;
      break;
    case ActuatorType::effort:
      unit = hinge ? "N m" : "N";
      hi = a.settings().effort_limit;
      lo = -hi;
      break;
  }
  ojson j;
  j["name"] = sa.settings.name;
  j["type"] = to_string(a.type());
  j["unit"] = unit;
  j["min"] = lo;
  j["max"] = hi;
  j["target"] = a.target(w.time());
  return j;
}

}  // namespace

LiveSession::LiveSession(Scene scene, fs::path record)
    : scene_(std::move(scene)), record_(std::move(record)) {
  scene_.interactions.clear();
  reset();
}

LiveSession::~LiveSession() = default;

bool LiveSession::drives(const std::string& type) {
  return std::find(std::begin(kDriving), std::end(kDriving), type) != std::end(kDriving);
}

void LiveSession::reset() {
  // the driver holds a reference to the World: drop it first
  driver_.reset();
  sim_ = std::make_unique<Simulation>(scene_);
  world_ = &sim_->world();
  driver_ = std::make_unique<InteractionDriver>(*world_);
  shown_ = scene_;
  events_.clear();
  behind_ = 0.0;
  failure_.reset();
  last_step_failure_.reset();
  ++bodies_version_;
}

std::uint64_t LiveSession::hash() const {
  return state_hash(*world_);
}

SceneInteraction LiveSession::parse(const json& message) const {
  // the message is an event of the scene format without its step (and a pull may leave its
  // stiffness and damping to default_pull); the strict scene reader checks it
  json event = message;
  event["step"] = world_->step_count();
  if (event.value("type", "") == "pull" && event.contains("body") && event["body"].is_string()) {
    const std::string name = event["body"].get<std::string>();
    const int body = world_->find_body(name);
    if (body < 0) throw Error(fmt::format("pull: no body named \"{}\"", name));
    {
      const PullDefaults d = default_pull(world_->bodies().body(body).mass);
      if (!event.contains("stiffness")) event["stiffness"] = d.stiffness;
      if (!event.contains("damping")) event["damping"] = d.damping;
    }
  }
  return parse_interaction(event.dump(), "message");
}

void LiveSession::apply(SceneInteraction event) {
  event.step = world_->step_count();
  // a ball is checked and named before it is added, so the shown scene stays in step
  std::optional<SceneBody> ball;
  if (event.type == InteractionType::throw_ball) ball = driver_->thrown_ball(event);
  driver_->apply(event);
  if (ball) {
    shown_.bodies.push_back(std::move(*ball));
    ++bodies_version_;
  }
  events_.push_back(std::move(event));
}

void LiveSession::release_pull() {
  if (!driver_->pull().active()) return;
  SceneInteraction e;
  e.type = InteractionType::release;
  apply(e);
}

LiveReply LiveSession::handle(const json& message) {
  LiveReply reply;
  if (!message.is_object() || !message.contains("type") || !message["type"].is_string()) {
    reply.error = "expected a JSON object with a \"type\" string";
    return reply;
  }
  const std::string type = message["type"].get<std::string>();
  const auto no_keys = [&](std::initializer_list<const char*> allowed) {
    for (const auto& item : message.items()) {
      // (a named copy, not a structured binding: clang 14 cannot capture one in a lambda)
      const std::string& key = item.key();
      if (key != "type" && std::find_if(allowed.begin(), allowed.end(),
                                        [&](const char* a) { return key == a; }) == allowed.end())
        return std::optional<std::string>(fmt::format("message: /{}: unknown key", key));
    }
    return std::optional<std::string>();
  };
  try {
    if (type == "pause" || type == "resume" || type == "step" || type == "reset") {
      if (auto bad = no_keys({})) {
        reply.error = bad;
        return reply;
      }
      if (type == "pause") paused_ = true;
      if (type == "resume") {
        if (failure_) throw Error(fmt::format("the run failed ({}): reset it first", *failure_));
        paused_ = false;
        behind_ = 0.0;
      }
      if (type == "step") {
        if (failure_) throw Error(fmt::format("the run failed ({}): reset it first", *failure_));
        paused_ = true;
        step_once();
      }
      if (type == "reset") {
        reset();
        reply.bodies_changed = true;
      }
      return reply;
    }
    if (type == "pull" || type == "move" || type == "release" || type == "throw" ||
        type == "set_dt" || type == "hybrid" || type == "set_target") {
      if (message.contains("step"))
        throw Error(
            "message: /step: unknown key (the server applies an interaction at its "
            "current step)");
      if ((type == "move" || type == "release") && !driver_->pull().active())
        throw Error(fmt::format("{}: no pull is active", type));
      if (type == "throw" && driver_->thrown() >= kMaxLiveThrows)
        throw Error(
            fmt::format("throw: {} balls thrown since the last reset, the limit of a "
                        "live run: reset it to throw more",
                        driver_->thrown()));
      const int before = bodies_version_;
      apply(parse(message));
      reply.bodies_changed = bodies_version_ != before;
      return reply;
    }
    reply.error = fmt::format(
        "unknown message type \"{}\" (expected pull, move, release, throw, pause, resume, step, "
        "reset, set_dt, hybrid, set_target, take_control or contacts)",
        type);
  } catch (const std::exception& e) {
    reply.error = e.what();
  }
  return reply;
}

void LiveSession::step_once() {
  // a step that throws or leaves a non-finite state fails the run: paused, reported in every
  // frame, until a reset (the World is rebuilt then)
  // a step whose report counts failures (an island's LCP failed with its fallback, a body put
  // back by the state guard: docs/step.md) is counted and named in the frames; the run goes on
  try {
    const StepReport& report = sim_->step();
    if (report.failures > 0) {
      last_step_failure_ = fmt::format(
          "step {}: {}", world_->step_count(),
          report.warnings.empty() ? std::string("failed") : report.warnings.front().message);
    }
    if (sim_->summary().status == RunStatus::not_finite) failure_ = sim_->summary().failure;
  } catch (const std::exception& e) {
    failure_ = fmt::format("step {} failed: {}", world_->step_count() + 1, e.what());
  }
  if (failure_) paused_ = true;
}

void LiveSession::advance(double wall, double budget) {
  using Clock = std::chrono::steady_clock;
  double simulated = 0.0;
  if (!paused_ && !failure_) {
    // at most a tenth of a second is owed, so a stall does not make the run race afterwards
    behind_ = std::min(behind_ + wall, 0.1);
    const auto start = Clock::now();
    while (!paused_ && !failure_ && behind_ >= world_->settings().time_step) {
      const double h = world_->settings().time_step;
      step_once();
      behind_ -= h;
      simulated += h;
      if (std::chrono::duration<double>(Clock::now() - start).count() > budget) {
        behind_ = 0.0;  // slower than real time: the factor says so
        break;
      }
    }
  }
  window_sim_ += simulated;
  window_wall_ += wall;
  if (window_wall_ >= 0.5) {
    rtf_ = paused_ ? 0.0 : window_sim_ / window_wall_;
    window_sim_ = window_wall_ = 0.0;
  }
}

std::string LiveSession::frame_json(bool contacts) const {
  const World& w = *world_;
  json j;
  j["type"] = "frame";
  j["step"] = w.step_count();
  j["t"] = w.time();
  j["dt"] = w.settings().time_step;
  j["rtf"] = rtf_;
  j["paused"] = paused_;
  j["failed"] = failure_.has_value();
  j["failure"] = failure_ ? json(*failure_) : json(nullptr);
  j["failed_steps"] = sim_->summary().failed_steps;
  j["step_failure"] = last_step_failure_ ? json(*last_step_failure_) : json(nullptr);
  j["hybrid"] = w.settings().hybrid;
  j["bodies_version"] = bodies_version_;
  std::vector<double> poses;
  for (int i = 0; i < w.body_count(); ++i) {
    if (!w.bodies().body(i).moves()) continue;
    const Pose p = w.pose(i);
    poses.insert(poses.end(), {p.p_WB.x(), p.p_WB.y(), p.p_WB.z(), p.q_WB.w(), p.q_WB.x(),
                               p.q_WB.y(), p.q_WB.z()});
  }
  j["poses"] = poses;
  if (w.actuator_count() > 0) {  // the actuators' targets now, in bodies_json's order
    std::vector<double> targets;
    for (int a = 0; a < w.actuator_count(); ++a) targets.push_back(w.actuator(a).target(w.time()));
    j["targets"] = targets;
  }
  const PullForce& pull = driver_->pull();
  if (pull.active()) {
    const PullSettings& s = pull.settings();
    const Vec3 p = w.pose(s.body).to_world(s.p_BP);
    j["pull"] = {{"body", s.body},
                 {"point", {p.x(), p.y(), p.z()}},
                 {"target", {s.p_WT.x(), s.p_WT.y(), s.p_WT.z()}}};
  } else {
    j["pull"] = nullptr;
  }
  if (contacts) {
    std::vector<double> c;
    for (const ContactInfo& info : w.contacts()) {
      const Contact& k = info.contact;
      c.insert(c.end(), {k.p_WCb.x(), k.p_WCb.y(), k.p_WCb.z(), k.n_BA_W.x(), k.n_BA_W.y(),
                         k.n_BA_W.z(), info.normal_impulse});
    }
    j["contacts"] = c;
  }
  return j.dump();
}

std::string LiveSession::bodies_json() const {
  ojson j;
  j["type"] = "bodies";
  j["scene"] = scene_.name;
  j["bodies_version"] = bodies_version_;
  j["bodies"] = replay_shapes(shown_, *world_)["bodies"];
  j["dimension"] = world_->settings().dimension;  // 2: the page throws discs, offers no hybrid
  ojson dynamic = ojson::array();
  for (int i = 0; i < world_->body_count(); ++i)
    if (world_->bodies().body(i).moves()) dynamic.push_back(i);
  j["dynamic"] = dynamic;
  // one slider per actuator (docs/viewer.md "Live runs"); a set_target message moves it
  ojson actuators = ojson::array();
  for (std::size_t a = 0; a < scene_.actuators.size(); ++a) {
    const SceneActuator& sa = scene_.actuators[a];
    actuators.push_back(actuator_json(*world_, sa,
                                      scene_.joints[static_cast<std::size_t>(sa.settings.joint)],
                                      world_->actuator(static_cast<int>(a))));
  }
  j["actuators"] = actuators;
  return j.dump();
}

}  // namespace pivot::cli
