#pragma once
// The LCP's warm start when a reduced pair leaves (internal; docs/hybrid.md "The World switch",
// warm start on exit). A pair handed back to the LCP at the start of a step carried, the instant
// before, the contact wrench f_c of the reduced dynamics (Kry & Pai 2002 §3.3: the wrench by
// back-substitution); over the step the LCP's contact impulse is close to f_c h. Lemke's warm
// start (lcp/lemke.hpp) takes a guessed active set, so the impulse is turned into one: the rows
// of the pair's contact that would carry f_c h. [DERIVED: the hybrid switch is this project's
// design, not the papers'.]

#include <vector>

#include "pivot/collision/contact.hpp"
#include "pivot/core/spatial.hpp"
#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"

namespace pivot::detail {

/// the contact impulse of a pair that left reduced mode at the start of a step
struct ExitImpulse {
  int body = -1, partner = -1;    ///< body 1 and body 2 of the pair
  Vec3 impulse_W = Vec3::Zero();  ///< f_c h on body 1 (world axes), N s
  Vec3 p_W = Vec3::Zero();        ///< the contact point, world, m
  bool sliding = false;           ///< the friction mode was sliding (else static or none)
};

/// The guessed active set (indices i of the island LCP's z with z_i > 0, in island_lcp.hpp's
/// layout z = (λ_u, λ_f, λ_m⁺, λ_m⁻, γ_c, γ_m)) for an island that holds the contact of one or
/// more exits; empty when it holds none. Per exit, among the contacts of its pair in the island
/// (contact rows start at `first_contact_row` of rows.unilaterals, in the order of `contacts`),
/// the one nearest the reduced contact point p_W:
///   - its normal row, if the impulse pushes body 1 along it (n·ι > 0);
///   - with a tangential impulse ι_t = ι − (n·ι) n above 1e-9 |ι|: the friction direction
///     best aligned with ι_t, and, for a static contact, the next best (the two span the
///     tangent plane and bracket ι_t), for a sliding one its cone's γ (Cline 2002 eq. 2.48:
///     γ > 0 is the sliding speed).
[[nodiscard]] std::vector<int> exit_warm_start(const std::vector<ExitImpulse>& exits,
                                               const ConstraintSet& rows, const IslandInput& island,
                                               const std::vector<Contact>& contacts,
                                               int first_contact_row);

}  // namespace pivot::detail
