#pragma once
// The object behind a Python pivot.World (docs/python.md "Threads"): the World and a flag that
// one call at a time holds.
//
// World.step releases the GIL while it steps, so another Python thread can call into the same
// World meanwhile; a World is not safe to use from two threads at once (an add_body during a
// step reallocates what the step reads). Every binding that touches the World holds the flag
// for the whole call (WorldHandle::Use); a call that finds it held raises RuntimeError at once,
// before touching the World. The flag is an atomic exchange, so the check holds without the
// GIL too (a free-threaded interpreter).

#include <atomic>
#include <stdexcept>
#include <utility>

#include "pivot/engine/world.hpp"

namespace pivot::python {

/// a call found the World held by another (raised as RuntimeError: not a bad input)
class WorldInUse : public std::runtime_error {
 public:
  WorldInUse()
      : std::runtime_error(
            "World is in use by another thread (a World serves one call at a time: wait for "
            "the other thread's call, e.g. its step, to return, or give each thread its own "
            "World)") {}
};

class WorldHandle {
 public:
  explicit WorldHandle(World world) : world_(std::move(world)) {}
  WorldHandle(const WorldHandle&) = delete;
  WorldHandle& operator=(const WorldHandle&) = delete;

  /// the World for the duration of one call; throws WorldInUse when another call holds it
  class Use {
   public:
    explicit Use(WorldHandle& h) : h_(&h) {
      if (h.busy_.exchange(true, std::memory_order_acquire)) throw WorldInUse();
    }
    ~Use() { h_->busy_.store(false, std::memory_order_release); }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;
    World& operator*() const { return h_->world_; }
    World* operator->() const { return &h_->world_; }

   private:
    WorldHandle* h_;
  };

 private:
  World world_;
  std::atomic<bool> busy_{false};
};

}  // namespace pivot::python
