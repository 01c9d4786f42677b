// Actuators on a joint's free coordinate: see actuator.hpp.
#include "pivot/engine/actuator.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

const char* to_string(ActuatorType type) {
  switch (type) {
    case ActuatorType::effort:
      return "effort";
    case ActuatorType::position:
      return "position";
    case ActuatorType::velocity:
      return "velocity";
  }
  return "?";
}

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw Error(fmt::format("actuator \"{}\": {}", name, what));
}

void check_keys(const std::string& name, const std::vector<std::pair<double, double>>& keys) {
  if (keys.empty()) fail(name, "the target has no keys");
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!std::isfinite(keys[i].first) || !std::isfinite(keys[i].second))
      fail(name, fmt::format("target key {} is not finite", i));
    if (i > 0 && !(keys[i].first > keys[i - 1].first))
      fail(name, fmt::format("target key {}: times must increase strictly", i));
  }
}

}  // namespace

Actuator::Actuator(ActuatorSettings s) : s_(std::move(s)) {
  const auto finite_nonneg = [&](double x, const char* what) {
    if (!std::isfinite(x) || x < 0.0)
      fail(s_.name, fmt::format("{} must be finite and >= 0", what));
  };
  finite_nonneg(s_.kp, "kp");
  finite_nonneg(s_.kd, "kd");
  if (std::isnan(s_.effort_limit) || !(s_.effort_limit > 0.0))
    fail(s_.name, "effort_limit must be > 0");
  if (s_.type == ActuatorType::position && !(s_.kp + s_.kd > 0.0))
    fail(s_.name, "a position servo needs kp + kd > 0");
  if (s_.type == ActuatorType::velocity && !(s_.kd > 0.0))
    fail(s_.name, "a velocity servo needs kd > 0");
  check_keys(s_.name, s_.keys);
}

double Actuator::target(double t) const {
  const auto& k = s_.keys;
  if (t <= k.front().first) return k.front().second;
  if (t >= k.back().first) return k.back().second;
  const auto it = std::upper_bound(k.begin(), k.end(), t,
                                   [](double x, const auto& key) { return x < key.first; });
  const auto& [t1, v1] = *it;
  const auto& [t0, v0] = *(it - 1);
  const double s = (t - t0) / (t1 - t0);
  return v0 + s * (v1 - v0);
}

void Actuator::set_target(double value) {
  if (!std::isfinite(value)) fail(s_.name, "the target must be finite");
  s_.keys.assign(1, {0.0, value});
}

void Actuator::set_keys(std::vector<std::pair<double, double>> keys) {
  check_keys(s_.name, keys);
  s_.keys = std::move(keys);
}

Actuator::ServoRow Actuator::servo_row(double q, double t, double h) const {
  ServoRow row;
  row.max_impulse = h * s_.effort_limit;
  if (s_.type == ActuatorType::velocity) {
    // kp = 0: c = 1 / (h kd), b = q̇_ref
    row.compliance = 1.0 / (h * s_.kd);
    row.target = target(t);
    return row;
  }
  const double q_ref = target(t + h);
  const double qdot_ref = s_.keys.size() > 1 ? (q_ref - target(t)) / h : 0.0;
  const double k = h * s_.kp + s_.kd;  // > 0 (checked)
  row.compliance = 1.0 / (h * k);
  row.target = (s_.kp * (q_ref - q) + s_.kd * qdot_ref) / k;
  return row;
}

double Actuator::commanded_effort(double t) const {
  return std::clamp(target(t), -s_.effort_limit, s_.effort_limit);
}

}  // namespace pivot
