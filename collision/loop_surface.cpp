#include "pivot/collision/loop_surface.hpp"

#include <fmt/format.h>

#include "pivot/collision/loop_ev_chart.hpp"
#include "pivot/collision/loop_mesh.hpp"
#include "pivot/collision/loop_patch.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"

namespace pivot {

using detail::LoopMesh;

namespace {

// a triangle all of whose vertices are interior; how many of them are extraordinary
bool is_patch(const LoopMesh& mesh, const std::array<int, 3>& t) {
  return mesh.interior(t[0]) && mesh.interior(t[1]) && mesh.interior(t[2]);
}
int ev_count(const LoopMesh& mesh, const std::array<int, 3>& t) {
  int n = 0;
  for (const int v : t) n += mesh.valence(v) != 6;
  return n;
}

// A closed control mesh (every vertex interior) bounds a solid, and the limit surface's normal
// p_u × p_v points out of it only when the triangles wind counter-clockwise seen from outside,
// as for mesh and sdf shapes (mesh_file.hpp check_closed_mesh): the enclosed volume
//   V = Σ_triangles a · (b × c) / 6
// is then positive. Wound inward, every contact normal would point into the body. An open mesh
// (a plate) has no inside: its winding picks the side that touches, and is kept as given.
void check_outward(const LoopMesh& mesh, const std::vector<Vec3>& points,
                   const std::string& source) {
  for (int v = 0; v < mesh.vertex_count(); ++v)
    if (!mesh.interior(v)) return;
  double volume = 0.0;
  for (const auto& t : mesh.faces())
    volume += points[t[0]].dot(points[t[1]].cross(points[t[2]])) / 6.0;
  if (!(volume > 0.0))
    throw Error(fmt::format("loop surface \"{}\": the closed control mesh encloses a volume of "
                            "{:.6g} m³: its triangles must wind counter-clockwise seen from "
                            "outside (the mesh is wound inward)",
                            source, volume));
}

}  // namespace

LoopSurface::LoopSurface(std::vector<Vec3> points, std::vector<std::array<int, 3>> triangles,
                         std::string source)
    : points_(std::move(points)) {
  if (source.empty()) source = "control mesh";
  for (std::size_t i = 0; i < points_.size(); ++i)
    if (!points_[i].allFinite())
      throw Error(fmt::format("loop surface \"{}\": control point {} is not finite", source, i));
  LoopMesh mesh(static_cast<int>(points_.size()), std::move(triangles), source);
  check_outward(mesh, points_, source);

  // Kry 2000 §5.2: one global subdivision step when a patch has two or more EVs
  bool needs_step = false;
  for (const auto& t : mesh.faces())
    needs_step = needs_step || (is_patch(mesh, t) && ev_count(mesh, t) > 1);
  if (needs_step) {
    LoopMesh::Refined fine = mesh.subdivide();
    std::vector<Vec3> next(fine.stencils.size());
    for (std::size_t i = 0; i < next.size(); ++i)
      next[i] = detail::apply_stencil(fine.stencils[i], points_);
    points_ = std::move(next);
    mesh = std::move(fine.mesh);
    subdivided_ = true;
  }

  domain_.vertices = {Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)};
  std::vector<int> patch_of_face(mesh.face_count(), -1);
  for (int f = 0; f < mesh.face_count(); ++f) {
    std::array<int, 3> t = mesh.face(f);
    if (!is_patch(mesh, t)) continue;
    // the EV (if any) first
    for (int r = 0; r < 3 && mesh.valence(t[0]) == 6; ++r) t = {t[1], t[2], t[0]};
    Patch p;
    p.corners = t;
    p.valence = mesh.valence(t[0]);
    if (p.valence == 6) {
      const std::array<int, 12> ids = detail::loop_regular_vertices(mesh, t[0], t[1], t[2]);
      std::array<Vec3, 12> control;
      for (int i = 0; i < 12; ++i) control[i] = points_[ids[i]];
      p.regular = detail::loop_regular_coefficients(control);
    } else {
      if (static_cast<int>(bases_.size()) <= p.valence) bases_.resize(p.valence + 1);
      if (!bases_[p.valence])
        bases_[p.valence] = std::make_shared<detail::LoopEvBasis>(detail::loop_ev_basis(p.valence));
      const detail::LoopEvBasis& basis = *bases_[p.valence];
      const std::vector<int> ids = detail::loop_ev_vertices(mesh, t[0], t[1], t[2]);
      p.C0.resize(static_cast<int>(ids.size()), 3);
      for (std::size_t i = 0; i < ids.size(); ++i)
        p.C0.row(static_cast<int>(i)) = points_[ids[i]].transpose();
      if (basis.diagonal) p.C_hat = basis.V_inverse * p.C0.cast<std::complex<double>>();
    }
    patch_of_face[f] = patch_count();
    patches_.push_back(std::move(p));
  }
  // the regular charts around the EVs whose N patches all exist (loop_ev_chart.hpp)
  const double cut = kEvChartCut;
  cut_domain_.vertices = {Vec2(cut, 0), Vec2(1, 0), Vec2(0, 1), Vec2(0, cut)};
  for (int a = 0; a < mesh.vertex_count(); ++a) {
    if (mesh.valence(a) == 6 || !mesh.interior(a)) continue;
    std::vector<int> ring;
    for (const auto& t : mesh.faces())  // a face at a gives the ring's first vertex
      for (int k = 0; k < 3 && ring.empty(); ++k)
        if (t[k] == a) ring = mesh.ring(a, t[(k + 1) % 3]);
    std::vector<int> around;
    std::vector<Eigen::MatrixXd> C0;
    for (std::size_t j = 0; j < ring.size(); ++j) {
      const int f = mesh.face_of_edge(a, ring[j]);
      const int pi = f < 0 ? -1 : patch_of_face[f];
      if (pi < 0 || patches_[pi].corners[0] != a) break;
      around.push_back(pi);
      C0.push_back(patches_[pi].C0);
    }
    if (around.size() != ring.size()) continue;
    std::shared_ptr<const detail::LoopEvChart> chart;
    try {
      chart = std::make_shared<detail::LoopEvChart>(bases_[mesh.valence(a)], around, C0, cut);
    } catch (const Error&) {
      continue;  // no chart fits: the patches keep Stam's parameterization up to the EV
    }
    for (std::size_t j = 0; j < around.size(); ++j) {
      patches_[around[j]].chart = static_cast<int>(patches_.size() + charts_.size());
      patches_[around[j]].sector = static_cast<int>(j);
    }
    charts_.push_back(std::move(chart));
  }
  if (patches_.empty())
    throw Error(
        fmt::format("loop surface \"{}\": no triangle has all three vertices inside the "
                    "mesh (every triangle touches the boundary)",
                    source));
  // links: edge e of a patch runs corners[e] → corners[e + 1]; across it the triangle holding
  // the reversed edge, whose own edge runs the other way (g(α) = 1 − α, Kry & Pai 2002 §3.5)
  for (Patch& p : patches_)
    for (int e = 0; e < 3; ++e) {
      const int x = p.corners[e], y = p.corners[(e + 1) % 3];
      const int g = mesh.face_of_edge(y, x);
      if (g < 0 || patch_of_face[g] < 0) continue;
      const Patch& q = patches_[patch_of_face[g]];
      for (int k = 0; k < 3; ++k)
        if (q.corners[k] == y && q.corners[(k + 1) % 3] == x)
          p.links[e] = PatchEdgeLink{patch_of_face[g], k, true};
    }
}

LoopSurface::~LoopSurface() = default;

const PatchDomain& LoopSurface::domain(int patch) const {
  return patch < patch_count() ? domain_ : charts_[patch - patch_count()]->domain();
}

const PatchDomain& LoopSurface::contact_domain(int patch) const {
  return patch < patch_count() && patches_[patch].chart >= 0 ? cut_domain_ : domain(patch);
}

SurfacePoint LoopSurface::contact_chart(const SurfacePoint& sp) const {
  if (sp.patch >= patch_count()) {
    const detail::LoopEvChart& c = *charts_[sp.patch - patch_count()];
    if (c.domain().contains(sp.uv)) return sp;
    const auto at = c.patch_point(sp.uv);
    return at ? SurfacePoint{c.patches()[at->first], at->second} : sp;
  }
  const Patch& p = patches_[sp.patch];
  if (p.chart < 0 || sp.uv.sum() >= kEvChartCut) return sp;
  return {p.chart, charts_[p.chart - patch_count()]->chart_point(p.sector, sp.uv)};
}

// A patch with a chart: edges 0-2 of its contact domain are parts of the triangle's edges 0-2
// (the same point is found on the full edge and carried over by the edge link), edge 3 is the
// cut v + w = kEvChartCut, across which lies the chart. A chart's edges lead back to the patch
// that holds the point.
std::optional<SurfacePoint> LoopSurface::across_contact_edge(int patch, int edge,
                                                             double alpha) const {
  if (patch >= patch_count()) {
    const detail::LoopEvChart& c = *charts_[patch - patch_count()];
    const auto at = c.patch_point(c.domain().edge_point(edge, alpha));
    if (!at) return std::nullopt;
    return SurfacePoint{c.patches()[at->first], at->second};
  }
  const Patch& p = patches_[patch];
  if (p.chart < 0) {
    const std::optional<SurfacePoint> o = across_edge(*this, patch, edge, alpha);
    return o ? std::optional(contact_chart(*o)) : o;
  }
  const Vec2 uv = cut_domain_.edge_point(edge, alpha);
  if (edge == 3)
    return SurfacePoint{p.chart, charts_[p.chart - patch_count()]->chart_point(p.sector, uv)};
  const std::optional<SurfacePoint> o =
      across_edge(*this, patch, edge, domain_.edge_parameter(edge, uv));
  return o ? std::optional(contact_chart(*o)) : o;
}

int LoopSurface::patch_valence(int patch) const {
  if (patch >= patch_count()) return patches_[charts_[patch - patch_count()]->patches()[0]].valence;
  return patches_[patch].valence;
}

SurfaceJet LoopSurface::evaluate(int patch, const Vec2& uv) const {
  if (patch >= patch_count()) return charts_[patch - patch_count()]->jet(uv);
  const Patch& p = patches_[patch];
  if (p.valence == 6) return detail::loop_quartic_jet(p.regular, uv);
  return detail::loop_ev_jet(*bases_[p.valence], p.C0, p.C_hat, uv);
}

std::vector<SurfacePoint> LoopSurface::samples() const {
  std::vector<SurfacePoint> out;
  out.reserve(patches_.size());
  for (int i = 0; i < patch_count(); ++i) out.push_back({i, Vec2(1.0 / 3.0, 1.0 / 3.0)});
  return out;
}

std::shared_ptr<const LoopSurface> load_loop_surface(const std::string& path, const Vec3& scale) {
  const ShapePtr mesh = load_mesh_file(path, scale);
  return std::make_shared<LoopSurface>(mesh->points, mesh->triangles, path);
}

}  // namespace pivot
