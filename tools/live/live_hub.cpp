// pivot serve's message handling (live_hub.hpp): control, contacts, rate limits, and the
// session's messages, with every failure turned into an error for the sender.
#include "live/live_hub.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

namespace pivot::cli {
namespace {

using json = nlohmann::json;

}  // namespace

bool RateLimit::take(double now) {
  // tokens refill at `rate` a second since the last call, up to `burst`
  if (last_ >= 0.0 && now > last_) tokens_ = std::min(burst_, tokens_ + (now - last_) * rate_);
  if (last_ < 0.0 || now > last_) last_ = now;
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

LiveHub::LiveHub(LiveSession& session, HubLimits limits, Sink sink, bool quiet)
    : session_(&session), limits_(limits), sink_(std::move(sink)), quiet_(quiet) {}

void LiveHub::log(int viewer, std::string_view what) const {
  if (!quiet_) fmt::print(stderr, "pivot serve: viewer {}: {}\n", viewer, what);
}

LiveHub::ViewerState* LiveHub::find(int viewer) {
  const auto it =
      std::find_if(viewers_.begin(), viewers_.end(), [&](const auto& v) { return v.id == viewer; });
  return it == viewers_.end() ? nullptr : &*it;
}

void LiveHub::joined(int viewer) {
  if (find(viewer)) return;
  viewers_.push_back({.id = viewer,
                      .messages = RateLimit(limits_.messages_per_second, limits_.message_burst),
                      .throws = RateLimit(limits_.throws_per_second, limits_.throw_burst),
                      .logs = RateLimit(limits_.logs_per_second, limits_.log_burst)});
  log(viewer, "connected");
  if (controller_ < 0) controller_ = viewer;
  sink_(viewer, std::make_shared<const std::string>(session_->bodies_json()), false);
  send_control(viewer);
}

void LiveHub::left(int viewer) {
  if (!find(viewer)) return;
  std::erase_if(viewers_, [&](const auto& v) { return v.id == viewer; });
  log(viewer, "disconnected");
  if (controller_ != viewer) return;
  // the driver went away: its pull ends; control passes to the oldest viewer left
  session_->release_pull();
  controller_ = viewers_.empty() ? -1 : viewers_.front().id;
  for (const auto& w : viewers_) send_control(w.id);
}

void LiveHub::message(int viewer, std::string_view text, double now) noexcept {
  try {
    ViewerState* v = find(viewer);
    if (!v) return;  // not (or no longer) a viewer
    if (!v->messages.take(now)) {
      if (!v->throttled)
        error(viewer,
              fmt::format("more than {:g} messages a second: messages are dropped until the "
                          "rate falls",
                          limits_.messages_per_second),
              now);
      v->throttled = true;
      return;
    }
    v->throttled = false;
    handle(*v, text, now);
  } catch (const std::exception& e) {
    // (handle answers every failure it expects; this is the last line, e.g. out of memory)
    try {
      error(viewer, fmt::format("internal error: {}", e.what()));
    } catch (...) {
    }
  } catch (...) {
  }
}

void LiveHub::handle(ViewerState& v, std::string_view text, double now) {
  if (text.size() > limits_.max_message)
    return error(v.id,
                 fmt::format("message of {} bytes is longer than the limit of {} bytes",
                             text.size(), limits_.max_message),
                 now);
  json m;
  try {
    m = json::parse(text);
  } catch (const json::parse_error& e) {
    return error(v.id, fmt::format("malformed JSON: {}", e.what()), now);
  } catch (const json::exception& e) {
    // a number beyond a double's range (1e999) is out_of_range, not a parse_error
    return error(v.id, fmt::format("malformed JSON: {}", e.what()), now);
  }
  const std::string type = m.is_object() && m.contains("type") && m["type"].is_string()
                               ? m["type"].get<std::string>()
                               : std::string();
  if (type == "take_control" || type == "release_control") {
    if (type == "take_control" && controller_ >= 0 && controller_ != v.id)
      return error(v.id,
                   fmt::format("viewer {} is in control; it must send release_control or "
                               "leave first",
                               controller_),
                   now);
    if (type == "release_control" && controller_ == v.id) {
      session_->release_pull();
      controller_ = -1;
    } else if (type == "take_control") {
      controller_ = v.id;
    }
    for (const auto& w : viewers_) send_control(w.id);
    return;
  }
  if (type == "contacts") {
    if (!m.contains("on") || !m["on"].is_boolean())
      return error(v.id, "contacts: expected {\"type\": \"contacts\", \"on\": true or false}", now);
    v.contacts = m["on"].get<bool>();
    return;
  }
  if (LiveSession::drives(type) && controller_ != v.id)
    return error(v.id,
                 controller_ >= 0
                     ? fmt::format("viewer {} is in control; send take_control when it has "
                                   "released it",
                                   controller_)
                     : std::string("no viewer is in control: send take_control first"),
                 now);
  if (type == "throw" && !v.throws.take(now))
    return error(v.id,
                 fmt::format("throw: more than {:g} throws a second (bursts of {:g}): "
                             "this one is dropped",
                             limits_.throws_per_second, limits_.throw_burst),
                 now);
  const LiveReply reply = session_->handle(m);
  if (reply.error) return error(v.id, *reply.error, now);
  if (reply.bodies_changed) broadcast_bodies();
  broadcast_frame();  // the change is seen at once (a step or reset while paused, too)
}

void LiveHub::tick(double wall, double budget) noexcept {
  try {
    session_->advance(wall, budget);
  } catch (const std::exception& e) {
    // (advance reports a failed step in the frames; anything else is logged, never fatal)
    if (!quiet_)
      fmt::print(stderr, "pivot serve: internal error while stepping (the server goes on): {}\n",
                 e.what());
  } catch (...) {
  }
  try {
    broadcast_frame();
  } catch (const std::exception& e) {
    if (!quiet_)
      fmt::print(stderr, "pivot serve: internal error in a frame (the server goes on): {}\n",
                 e.what());
  } catch (...) {
  }
}

void LiveHub::error(int viewer, const std::string& what, double now) {
  // (a parser's message quotes what it read: never more than kMaxErrorChars of it go back)
  std::string text = what.size() > kMaxErrorChars ? what.substr(0, kMaxErrorChars) + "..." : what;
  // the log is rate-limited too: a viewer sending garbage must not flood stderr (a pipe that
  // fills blocks the server)
  ViewerState* v = find(viewer);
  if (!v || now < 0.0 || v->logs.take(now)) {
    if (v && v->unlogged > 0)
      log(viewer, fmt::format("({} more errors not logged)", std::exchange(v->unlogged, 0)));
    log(viewer, "error: " + text);
  } else {
    ++v->unlogged;
  }
  sink_(viewer,
        std::make_shared<const std::string>(
            json{{"type", "error"}, {"message", std::move(text)}}.dump(
                -1, ' ', false, json::error_handler_t::replace)),
        false);
}

void LiveHub::send_control(int viewer) {
  sink_(viewer,
        std::make_shared<const std::string>(json{
            {"type", "control"},
            {"viewer", viewer},
            {"in_control", controller_ == viewer},
            {"controller", controller_}}.dump()),
        false);
}

void LiveHub::broadcast_bodies() {
  const auto bodies = std::make_shared<const std::string>(session_->bodies_json());
  for (const auto& w : viewers_) sink_(w.id, bodies, false);
}

void LiveHub::broadcast_frame() {
  std::shared_ptr<const std::string> plain, with_contacts;
  for (const auto& v : viewers_) {
    auto& text = v.contacts ? with_contacts : plain;
    if (!text) text = std::make_shared<const std::string>(session_->frame_json(v.contacts));
    sink_(v.id, text, true);
  }
}

}  // namespace pivot::cli
