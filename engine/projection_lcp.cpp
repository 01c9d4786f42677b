// The projection LCP with a free metric: see projection_lcp.hpp.
#include "pivot/engine/projection_lcp.hpp"

#include <algorithm>

#include "pivot/constraints/contact_rows.hpp"

namespace pivot {

Pose displace(const Pose& pose, const Vec6& dp) {
  Pose out = pose;
  out.p_WB = pose.p_WB + dp.tail<3>();
  if (!dp.head<3>().isZero(0.0)) out.q_WB = (quat_exp(dp.head<3>()) * pose.q_WB).normalized();
  return out;
}

ProjectionResult solve_projection(const std::vector<Contact>& contacts,
                                  const std::vector<Pose>& poses, const std::vector<Mat6>& W,
                                  const lcp::LemkeOptions& lemke) {
  const auto n = static_cast<Eigen::Index>(poses.size());
  ProjectionResult out;
  out.dp = Eigen::VectorXd::Zero(6 * n);
  auto movable = [&](int b) { return b >= 0 && !W[static_cast<std::size_t>(b)].isZero(0.0); };
  // the rows g_c + J_c dp ≥ 0 with a movable side (J: one 6-block per body)
  struct Row {
    int a, b;
    Row6 J_A, J_B;
    double g;
  };
  std::vector<Row> rows;
  for (const Contact& c : contacts) {
    if (!movable(c.body_a) && !movable(c.body_b)) {
      if (contact_position_bias(c.gap, c.p_WCa, c.p_WCb) < 0.0) ++out.immovable;
      continue;
    }
    const Vec3 x_A = c.body_a >= 0 ? poses[static_cast<std::size_t>(c.body_a)].p_WB : Vec3::Zero();
    const Vec3 x_B = c.body_b >= 0 ? poses[static_cast<std::size_t>(c.body_b)].p_WB : Vec3::Zero();
    const ContactRow r = contact_row(c.p_WCa, x_A, c.p_WCb, x_B, c.n_BA_W);
    rows.push_back({c.body_a, c.body_b, r.J_A, r.J_B, contact_position_bias(c.gap, c.p_WCa, c.p_WCb)});
  }
  const auto m = static_cast<Eigen::Index>(rows.size());
  out.rows = static_cast<int>(m);
  if (m == 0) return out;
  // W Jᵀ column by column (6n × m), then A = J W Jᵀ
  Eigen::MatrixXd WJt = Eigen::MatrixXd::Zero(6 * n, m);
  for (Eigen::Index k = 0; k < m; ++k) {
    const Row& r = rows[static_cast<std::size_t>(k)];
    if (movable(r.a))
      WJt.block<6, 1>(6 * r.a, k) += W[static_cast<std::size_t>(r.a)] * r.J_A.transpose();
    if (movable(r.b))
      WJt.block<6, 1>(6 * r.b, k) += W[static_cast<std::size_t>(r.b)] * r.J_B.transpose();
  }
  lcp::LcpProblem problem;
  problem.M = Eigen::MatrixXd::Zero(m, m);
  problem.q.resize(m);
  for (Eigen::Index k = 0; k < m; ++k) {
    const Row& r = rows[static_cast<std::size_t>(k)];
    problem.q(k) = r.g;
    for (Eigen::Index l = 0; l < m; ++l) {
      double v = 0.0;
      if (r.a >= 0) v += r.J_A.dot(WJt.block<6, 1>(6 * r.a, l));
      if (r.b >= 0) v += r.J_B.dot(WJt.block<6, 1>(6 * r.b, l));
      problem.M(k, l) = v;
    }
  }
  problem.name = "animator projection";
  lcp::LcpResult result = lcp::solve_lemke(problem, lemke);
  out.status = result.status;
  out.pivots = result.pivots;
  if (!result.ok() || !result.z.allFinite()) {
    // no feasible answer (a ray) or a failed solve: no correction at all this pass, reported.
    // (The engine's compliant fallback, J W Jᵀ + εI, would answer with displacements of the
    // order overlap / ε: an animator wants the overlap shown, not the body thrown away.)
    out.message = result.message;
    out.fallback = true;
    return out;
  }
  out.dp = WJt * result.z;
  if (!out.dp.allFinite()) out.dp.setZero();
  return out;
}

}  // namespace pivot
