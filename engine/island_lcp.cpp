// The entries of an island's mixed LCP: see island_lcp.hpp.
#include "pivot/engine/island_lcp.hpp"

#include <algorithm>

namespace pivot::detail {

IslandLcp::IslandLcp(const ConstraintSet& rows, const IslandInput& in) : rows_(rows), in_(in) {
  if (!std::is_sorted(in.bodies.begin(), in.bodies.end()))
    for (std::size_t i = 0; i < in.bodies.size(); ++i) local_[in.bodies[i]] = static_cast<int>(i);
  if (!std::is_sorted(in.unilaterals.begin(), in.unilaterals.end()))
    for (std::size_t i = 0; i < in.unilaterals.size(); ++i)
      local_uni_[in.unilaterals[i]] = static_cast<int>(i);
  nv_ = 6 * static_cast<int>(in.bodies.size());
  ne_ = static_cast<int>(in.equalities.size());
  L_.nu = static_cast<int>(in.unilaterals.size());
  for (int c : in.cones) L_.nf += static_cast<int>(rows.cones[c].directions.size());
  L_.nm = static_cast<int>(in.motors.size());
  L_.nc = static_cast<int>(in.cones.size());
  L_.f0 = L_.nu;
  L_.mp0 = L_.f0 + L_.nf;
  L_.mm0 = L_.mp0 + L_.nm;
  L_.gc0 = L_.mm0 + L_.nm;
  L_.gm0 = L_.gc0 + L_.nc;
  L_.m = L_.gm0 + L_.nm;
}

Eigen::VectorXd IslandLcp::equality_regularization(double relative) const {
  Eigen::VectorXd reg = Eigen::VectorXd::Zero(nv_ + ne_);
  const Eigen::VectorXd diag = in_.M_tilde.diagonal();
  for (int e = 0; e < ne_; ++e) {
    double s = 0.0;
    for_each_entry(rows_.equalities[in_.equalities[e]],
                   [&](int col, double value) { s += value * value / diag(col); });
    reg(nv_ + e) = relative * std::max(s, 1e-300);
  }
  return reg;
}

IslandOutput IslandLcp::output(const Eigen::VectorXd& x, const lcp::LcpResult& lcp) const {
  IslandOutput out;
  output(x, lcp, out);
  return out;
}

void IslandLcp::output(const Eigen::VectorXd& x, const lcp::LcpResult& lcp,
                       IslandOutput& out) const {
  const Eigen::VectorXd& z = lcp.z;
  out.status = lcp::LcpStatus::solved;
  out.pivots = lcp.pivots;
  out.warm_started = lcp.path == lcp::StartPath::warm_start;
  out.active_set.assign(lcp.active_set.begin(), lcp.active_set.end());
  out.lcp_size = L_.m;
  out.velocity = x.head(nv_);
  out.lambda_eq = x.tail(ne_);
  out.lambda_uni = z.head(L_.nu);
  out.lambda_cone.resize(static_cast<std::size_t>(L_.nc));
  int f = L_.f0;
  for (int c = 0; c < L_.nc; ++c) {
    const auto k = static_cast<int>(rows_.cones[in_.cones[c]].directions.size());
    out.lambda_cone[static_cast<std::size_t>(c)] = z.segment(f, k);
    f += k;
  }
  out.lambda_motor = z.segment(L_.mp0, L_.nm) - z.segment(L_.mm0, L_.nm);
  out.set_direct_answer();
  out.times = IslandTimes{};
}

}  // namespace pivot::detail
