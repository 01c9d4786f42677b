#include "pivot/collision/sdf_query.hpp"

#include "pivot/collision/sdf_manifold.hpp"
#include "pivot/collision/sdf_model.hpp"
#include "pivot/core/error.hpp"

namespace pivot {

struct SdfQuery::Impl {
  ShapePtr shell, field;
  detail::TraversalCache cache;
};

SdfQuery::SdfQuery(ShapePtr shell, ShapePtr field) : impl_(std::make_unique<Impl>()) {
  if (!shell || !field || shell->type != ShapeType::sdf || field->type != ShapeType::sdf)
    throw Error("sdf query: both shapes must be sdf shapes");
  impl_->shell = std::move(shell);
  impl_->field = std::move(field);
}

SdfQuery::~SdfQuery() = default;

SdfQueryStats SdfQuery::traverse(const Pose& shell_pose, const Pose& field_pose, double margin,
                                 long budget, bool coherence, bool reduce) {
  const detail::SdfModel& a = *impl_->shell->sdf;
  const detail::SdfModel& b = *impl_->field->sdf;
  detail::TraversalSettings settings;
  settings.margin = margin;
  settings.budget = budget;
  settings.coherence = coherence;
  detail::TraversalStats st;
  const Mat3 R_A = shell_pose.q_WB.normalized().toRotationMatrix();
  const Mat3 R_B = field_pose.q_WB.normalized().toRotationMatrix();
  std::size_t contacts = 0;
  if (reduce)
    contacts = detail::shell_contacts(a.shell, R_A, shell_pose.p_WB, b.field, R_B,
                                      field_pose.p_WB, settings, impl_->cache, &st)
                   .size();
  else
    (void)detail::traverse_point_tree(a.shell, b.field, R_B.transpose() * R_A,
                                      R_B.transpose() * (shell_pose.p_WB - field_pose.p_WB),
                                      settings, impl_->cache, &st);
  SdfQueryStats out;
  out.points = static_cast<int>(a.shell.points.size());
  out.levels = a.shell.levels();
  out.touching = st.touching;
  out.contacts = static_cast<int>(contacts);
  out.visited = st.visited;
  out.skipped = st.skipped;
  out.queries = st.queries;
  out.depth = st.depth;
  return out;
}

SdfQueryStats SdfQuery::brute_force(const Pose& shell_pose, const Pose& field_pose, double margin) {
  const detail::SdfModel& a = *impl_->shell->sdf;
  const detail::SdfModel& b = *impl_->field->sdf;
  const Mat3 R_A = shell_pose.q_WB.normalized().toRotationMatrix();
  const Mat3 R_B = field_pose.q_WB.normalized().toRotationMatrix();
  const auto hits = detail::brute_force_points(a.shell, b.field, R_B.transpose() * R_A,
                                               R_B.transpose() * (shell_pose.p_WB - field_pose.p_WB),
                                               margin);
  SdfQueryStats out;
  out.points = static_cast<int>(a.shell.points.size());
  out.levels = a.shell.levels();
  out.touching = static_cast<int>(hits.size());
  out.visited = out.points;
  out.queries = out.points;
  out.depth = out.levels - 1;
  return out;
}

}  // namespace pivot
