#pragma once
// The object behind a Python pivot.World (docs/python.md "Threads", "Copies and checkpoints"):
// the World, its sensors, the record of how it was built, and a flag that one call at a time
// holds.
//
// World.step releases the GIL while it steps, so another Python thread can call into the same
// World meanwhile; a World is not safe to use from two threads at once (an add_body during a
// step reallocates what the step reads). Every binding that touches the World holds the flag
// for the whole call (WorldHandle::Use); a call that finds it held raises RuntimeError at once,
// before touching the World. The flag is an atomic exchange, so the check holds without the
// GIL too (a free-threaded interpreter).
//
// The record (world_record.hpp) is what World.save() writes besides the engine's checkpoint:
// a World has no description of itself that rebuilds it (a scene cannot hold a constant force
// or a body added after steps), so the handle keeps every call that changed its structure.

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pivot/engine/sensors.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"

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

/// what rebuilds a World's structure: the scene it was built from (if any), then the
/// structural calls in order as bytes (world_record.hpp), with the engine checkpoints taken
/// where a structural call followed a change of state (a step, set_state, ...)
struct WorldRecord {
  std::shared_ptr<const Scene> scene;  ///< null: the first op is the World's settings
  std::string scene_json;              ///< the scene's resolved JSON, made at the first save
  std::string ops;                     ///< the ops, concatenated
  bool state_changed = false;          ///< since the last op: a snapshot precedes the next op
  std::string broken;                  ///< non-empty: why the record cannot rebuild the World
};

/// the Python World's sensors (engine/sensors.hpp), observed after each of its steps
struct WorldSensors {
  SensorSet set;
  std::vector<SensorSettings> settings;  ///< as added, in order
  bool primed = false;                   ///< observed once before the first step
};

class WorldHandle {
 public:
  WorldHandle(World world, WorldRecord record)
      : world_(std::move(world)), record_(std::move(record)) {}
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
    [[nodiscard]] WorldRecord& record() const { return h_->record_; }
    [[nodiscard]] WorldSensors& sensors() const { return h_->sensors_; }

   private:
    WorldHandle* h_;
  };

 private:
  World world_;
  WorldRecord record_;
  WorldSensors sensors_;
  std::atomic<bool> busy_{false};
};

}  // namespace pivot::python
