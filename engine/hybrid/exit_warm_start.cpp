// The LCP's warm start from a leaving pair's contact impulse (exit_warm_start.hpp).
#include "pivot/engine/hybrid/exit_warm_start.hpp"

#include <algorithm>
#include <limits>

namespace pivot::detail {

namespace {

// the force direction a row applies to `body` (its linear part), or zero if it does not act
Vec3 direction_on(const RowRef& r, int body) {
  if (r.body_a == body) return r.J_A.tail<3>().transpose();
  if (r.body_b == body) return r.J_B.tail<3>().transpose();
  return Vec3::Zero();
}

bool of_pair(const Contact& c, const ExitImpulse& e) {
  return (c.body_a == e.body && c.body_b == e.partner) ||
         (c.body_b == e.body && c.body_a == e.partner);
}

}  // namespace

std::vector<int> exit_warm_start(const std::vector<ExitImpulse>& exits, const ConstraintSet& rows,
                                 const IslandInput& island, const std::vector<Contact>& contacts,
                                 int first_contact_row) {
  std::vector<int> active;
  // island_lcp.hpp's offsets
  const int nu = static_cast<int>(island.unilaterals.size());
  std::vector<int> f_offset(island.cones.size());
  int nf = 0;
  for (std::size_t j = 0; j < island.cones.size(); ++j) {
    f_offset[j] = nu + nf;
    nf += static_cast<int>(rows.cones[island.cones[j]].directions.size());
  }
  const int gc0 = nu + nf + 2 * static_cast<int>(island.motors.size());
  const auto contact_of_row = [&](int global) -> const Contact* {
    const int c = global - first_contact_row;
    if (global < first_contact_row || c >= static_cast<int>(contacts.size())) return nullptr;
    return &contacts[c];
  };
  for (const ExitImpulse& e : exits) {
    // the pair's contact in this island nearest the reduced contact point
    int best = -1;
    double best_d = std::numeric_limits<double>::infinity();
    for (int i = 0; i < nu; ++i) {
      const Contact* c = contact_of_row(island.unilaterals[i]);
      if (!c || !of_pair(*c, e)) continue;
      const double d = (0.5 * (c->p_WCa + c->p_WCb) - e.p_W).norm();
      if (d < best_d) {
        best_d = d;
        best = i;
      }
    }
    if (best < 0) continue;
    const int global = island.unilaterals[best];
    const Vec3 n = direction_on(rows.unilaterals[global], e.body);
    if (!(n.dot(e.impulse_W) > 0.0)) continue;  // not pushing: nothing active
    active.push_back(best);
    const Vec3 it = e.impulse_W - n.dot(e.impulse_W) * n;
    if (!(it.norm() > 1e-9 * e.impulse_W.norm())) continue;
    for (std::size_t j = 0; j < island.cones.size(); ++j) {
      const FrictionCone& cone = rows.cones[island.cones[j]];
      if (cone.normal_row != global) continue;
      // the directions by alignment with ι_t
      std::vector<std::pair<double, int>> order;
      for (std::size_t k = 0; k < cone.directions.size(); ++k)
        order.emplace_back(-direction_on(cone.directions[k], e.body).dot(it), static_cast<int>(k));
      std::sort(order.begin(), order.end());
      active.push_back(f_offset[j] + order[0].second);
      if (e.sliding)
        active.push_back(gc0 + static_cast<int>(j));
      else if (order.size() > 1 && order[1].first < 0.0)
        active.push_back(f_offset[j] + order[1].second);
    }
  }
  std::sort(active.begin(), active.end());
  active.erase(std::unique(active.begin(), active.end()), active.end());
  return active;
}

}  // namespace pivot::detail
