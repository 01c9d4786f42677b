#pragma once
// World::HybridAccess (internal): the World's side of detail::HybridHost, the operations the
// hybrid switch needs (hybrid/hybrid_host.hpp). A nested class of World, so it reaches World's
// members without friendship; made for one call of the switch, with that call's h.

#include <algorithm>
#include <vector>

#include "pivot/engine/hybrid/hybrid_host.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

class World::HybridAccess final : public detail::HybridHost {
 public:
  /// `h`: the step's (StepContext::h) inside a step, settings().time_step between steps
  HybridAccess(World& world, double h) : w_(world), h_(h) {}
  [[nodiscard]] const WorldSettings& settings() const override { return w_.settings_; }
  [[nodiscard]] double time_step() const override { return h_; }
  [[nodiscard]] double time() const override { return w_.time_; }
  [[nodiscard]] RigidBodySet& bodies() override { return w_.set_; }
  [[nodiscard]] const RigidBodySet& bodies() const override { return w_.set_; }
  [[nodiscard]] bool has_joint(int body) const override {
    return std::any_of(w_.joints_.begin(), w_.joints_.end(), [body](const auto& j) {
      return j->body_a() == body || j->body_b() == body;
    });
  }
  [[nodiscard]] const std::vector<ContactInfo>& last_contacts() const override {
    return w_.contacts_;
  }
  [[nodiscard]] StepReport& report() override { return w_.report_; }
  [[nodiscard]] RunTotals& totals() override { return w_.totals_; }
  void restore_skipped_contacts(int a, int b, std::vector<Contact>& contacts) override {
    w_.restore_skipped_contacts(a, b, contacts);
  }

 private:
  World& w_;
  double h_;
};

}  // namespace pivot
