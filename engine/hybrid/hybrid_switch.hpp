#pragma once
// The World's hybrid switch (internal; docs/hybrid.md "The World switch"): which pairs are in
// reduced contact coordinates, the entry rule, their advance inside World::step, and the exits.
// It owns the reduced pairs; World calls it at two points of the step (before_lcp, after_step)
// and when a user sets a state. It reaches the World only through the operations of
// HybridHost (hybrid_host.hpp), passed to each call (never stored), so a World stays movable.

#include <Eigen/Core>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "pivot/collision/contact.hpp"
#include "pivot/engine/hybrid/exit_warm_start.hpp"
#include "pivot/engine/hybrid/hybrid_host.hpp"
#include "pivot/engine/hybrid/reduced_contact_integrator.hpp"
#include "pivot/engine/step_report.hpp"

namespace pivot::detail {

/// a pair in reduced mode
struct ReducedPair {
  int body = -1, partner = -1;  ///< body 1 (free) and body 2 (fixed, or free: partner_free)
  bool partner_free = false;
  ReducedContactModel model;
  ReducedContactState state;
  Pose next_pose{};  ///< after this step's advance
  Vec6 next_twist = Vec6::Zero();
  Pose next_pose2{};  ///< the free partner's, after this step's advance
  Vec6 next_twist2 = Vec6::Zero();
};

/// the longest re-entry back-off after failed reduced integrations, in steps
inline constexpr int kMaxEntryBackoff = 256;

class HybridSwitch {
 public:
  /// the pairs in reduced mode
  [[nodiscard]] const std::vector<ReducedPair>& pairs() const { return pairs_; }
  /// everything of the switch that carries from one step to the next (checkpoints,
  /// hybrid_checkpoint.hpp): the reduced pairs with their reduced state, this step's departures
  /// (empty between steps), the exit impulses the next LCP may read, the per-body entry
  /// streaks, failed exits and back-off steps, and the events not yet reported
  struct State {
    std::vector<ReducedPair> pairs, departures;
    std::vector<ExitImpulse> exit_impulses;
    std::vector<int> streak, failures, backoff;
    std::vector<SwitchEvent> pending;
  };
  [[nodiscard]] State state() const {
    return {pairs_, departures_, exit_impulses_, streak_, failures_, backoff_, pending_};
  }
  void set_state(State s) {
    pairs_ = std::move(s.pairs);
    departures_ = std::move(s.departures);
    exit_impulses_ = std::move(s.exit_impulses);
    streak_ = std::move(s.streak);
    failures_ = std::move(s.failures);
    backoff_ = std::move(s.backoff);
    pending_ = std::move(s.pending);
  }
  /// the pairs that separated inside this step: out of reduced mode since the separation
  /// instant, their bodies flown free to the step's end (next_pose, next_twist); kept until
  /// the World has written their poses (end_departures)
  [[nodiscard]] const std::vector<ReducedPair>& departures() const { return departures_; }
  /// forgets this step's departures (World::integrate_positions, after writing their poses)
  void end_departures() { departures_.clear(); }
  /// the contact impulses f_c h of the pairs that left at the start of this step and whose
  /// step the LCP takes (exit_warm_start.hpp: its warm start)
  [[nodiscard]] const std::vector<ExitImpulse>& exit_impulses() const { return exit_impulses_; }
  /// true while the body is advanced in reduced coordinates (either body of a free pair), or
  /// flown free by the switch to the end of the step in which its pair separated
  [[nodiscard]] bool is_reduced(int body) const;
  /// pair k leaves reduced mode at time `time` (< 0: the start of the step; the event is
  /// reported with the step)
  void exit(HybridHost& w, std::size_t k, std::string reason, double time = -1.0);
  /// an impulse wrench (τ; f) at the body's centre of mass, world axes, between steps: true when
  /// the body's reduced pair keeps it (World::apply_impulse); false when the body is in no pair,
  /// or its pair cannot keep it and has left reduced mode (exit "impulse: …")
  bool apply_impulse(HybridHost& w, int body, const Vec6& wrench_W);
  /// true when (a, b), in either order, is a pair in reduced mode or one of this step's
  /// departures: its contacts are not the LCP's (collision detection skips it)
  [[nodiscard]] bool is_reduced_pair(int a, int b) const;
  /// removes contacts between a reduced body and its partner
  void drop_reduced_contacts(std::vector<Contact>& contacts) const;
  /// before the LCP: exits where needed, advances the others by h, drops their pair contacts
  /// from `contacts` (f_ext: the step's external wrenches, 6 per body)
  void before_lcp(HybridHost& w, std::vector<Contact>& contacts, const Eigen::VectorXd& f_ext);
  /// after the step: the entry rule on this step's contacts; enters the pairs that qualify
  void after_step(HybridHost& w);
  /// the entries and exits since the last call
  [[nodiscard]] std::vector<SwitchEvent> take_switches() {
    std::vector<SwitchEvent> out = std::move(pending_);
    pending_.clear();
    return out;
  }

 private:
  /// hybrid_entry_steps = 0: enters the pairs whose contacts qualify at the start of the step
  void enter_at_start(HybridHost& w, const std::vector<Contact>& contacts,
                      const Eigen::VectorXd& f_ext);
  /// a free body with a smooth surface, not reduced, no joint on it
  [[nodiscard]] bool candidate(const HybridHost& w, int body) const;
  /// a smooth partner of `body`: fixed, or free and then of higher index, not reduced, with no
  /// joint and no contact in `contacts` but with `body`
  template <class C>
  [[nodiscard]] bool partner(const HybridHost& w, int body, int partner,
                             const std::vector<C>& contacts) const;
  /// projects the body onto the contact manifold with its partner and enters reduced mode if
  /// the contact is clean (converged, gap and normal speed within tolerance; with
  /// need_normal_force also a compressive reduced normal force); false otherwise
  /// (f_ext: the step's external wrenches, 6 per body, for the normal-force check; gravity only
  /// when null)
  bool try_enter(HybridHost& w, int body, int partner, const Vec3& p_W_guess,
                 bool need_normal_force, const Eigen::VectorXd* f_ext = nullptr);
  /// pair k separated at `separated.time` inside the step that ends at t_end: it leaves reduced
  /// mode at that instant and its bodies fly free to t_end under the step's external wrench and
  /// gravity (free_flight.hpp); false (nothing changed) if that state is not finite
  bool depart(HybridHost& w, std::size_t k, const ReducedContactState& separated, double t_end,
              const Eigen::VectorXd& f_ext, const std::string& reason);
  /// pair k leaves at the start of the step and the LCP takes the step: its contact impulse
  /// f_c h at that state into exit_impulses_, then exit
  void hand_to_lcp(HybridHost& w, std::size_t k, std::string reason);

  std::vector<ReducedPair> pairs_;
  std::vector<ReducedPair> departures_;     ///< separated inside this step (departures())
  std::vector<ExitImpulse> exit_impulses_;  ///< of this step's exits to the LCP
  std::vector<int> streak_;                 ///< per body: consecutive steps meeting the entry rule
  /// Re-entry back-off after a failed reduced integration (docs/hybrid.md "The World switch"):
  /// per body, the failed exits since its last step completed in reduced mode, and the steps
  /// it must still wait before it may enter again (2^failures steps after the failing one, at
  /// most kMaxEntryBackoff). The
  /// same stiff contact otherwise re-entered every other step and spent the integrator's whole
  /// substep budget each time (a step fuzz finding: 12 failures in 50 steps, 0.11 s each).
  std::vector<int> failures_;
  std::vector<int> backoff_;
  void resize_backoff(int bodies);
  [[nodiscard]] bool backing_off(int body) const {
    return body < static_cast<int>(backoff_.size()) && backoff_[body] > 0;
  }
  std::vector<SwitchEvent> pending_;  ///< entries and exits not yet reported
};

}  // namespace pivot::detail
