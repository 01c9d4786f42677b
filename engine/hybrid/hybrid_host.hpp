#pragma once
// What the hybrid switch (hybrid_switch.hpp) reads and changes of the World it serves, as named
// operations (internal). The World implements it (World::HybridAccess, world_hybrid_access.hpp)
// and hands it to each call of the switch with the step's quantities; the switch keeps no
// pointer to the World, so a World stays movable, and it reaches nothing else of it.

#include <vector>

#include "pivot/collision/contact.hpp"
#include "pivot/engine/rigid_body_set.hpp"
#include "pivot/engine/step_report.hpp"

namespace pivot {
struct WorldSettings;
struct ContactInfo;
}  // namespace pivot

namespace pivot::detail {

class HybridHost {
 public:
  /// the World's settings: the hybrid_* entry rule and models, gravity, the interrupt check
  [[nodiscard]] virtual const WorldSettings& settings() const = 0;
  /// h: the step's (StepContext::h) inside a step, the World's time step between steps
  [[nodiscard]] virtual double time_step() const = 0;
  /// the World's clock: the step's start in before_lcp, its end in after_step
  [[nodiscard]] virtual double time() const = 0;
  /// the bodies: the switch reads every model and moves the poses and twists of its pairs
  [[nodiscard]] virtual RigidBodySet& bodies() = 0;
  [[nodiscard]] virtual const RigidBodySet& bodies() const = 0;
  /// true when a joint holds the body (a jointed body never enters reduced mode)
  [[nodiscard]] virtual bool has_joint(int body) const = 0;
  /// the last step's contacts with their impulses (the entry rule's N steps)
  [[nodiscard]] virtual const std::vector<ContactInfo>& last_contacts() const = 0;
  /// this step's report: warnings and the reduced integrator's step sizes
  [[nodiscard]] virtual StepReport& report() = 0;
  /// the run's totals: reduced_entries, reduced_exits
  [[nodiscard]] virtual RunTotals& totals() = 0;
  /// puts back into `contacts` the contacts of the pair (a, b) that the step's detection
  /// skipped (a reduced pair leaving to the LCP at the start of the step)
  virtual void restore_skipped_contacts(int a, int b, std::vector<Contact>& contacts) = 0;

 protected:
  ~HybridHost() = default;
};

}  // namespace pivot::detail
