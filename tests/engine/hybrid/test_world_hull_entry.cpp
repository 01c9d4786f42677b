// The World's entry rule (docs/hybrid.md "The World switch", entry) for bodies whose collision
// proxy is a sampled hull: resting on a facet of the hull, the LCP's contact is a face of 3-4
// points centimetres apart (Bullet's manifold: one touching corner at a time, the others
// speculative within the contact margin), while the smooth surfaces touch at one point. The
// rule asks the smooth surfaces (one contact from every touching proxy point), so such a body
// enters reduced coordinates under the default rule (hybrid_entry_steps = 10).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "loop_blob.hpp"
#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

struct HullRun {
  int entries = 0, exits = 0;
  double t_entry = -1.0;
  double spread_before_entry = 0.0;  // of the LCP's contact points in the step before the entry
  int points_before_entry = 0;
  bool reduced_at_end = false;
};

// a blob (mass 1 kg) with its hull of 4 × 4 samples a patch as the LCP shape, turned by q, its
// smooth surface's lowest point `drop` above the ground plane; default settings but hybrid,
// 0.5 s at the default step (1 ms)
HullRun settle(const SmoothSurfacePtr& surface, const Quat& q, double drop, int samples_per_patch) {
  WorldSettings s;
  s.hybrid = true;
  World w(s);
  w.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  const std::vector<Vec3> samples = surface_grid_points(*surface, samples_per_patch);
  double lowest = 1e300;
  for (const Vec3& p : surface_grid_points(*surface, 16)) lowest = std::min(lowest, (q * p).z());
  const int b = w.add_body({.name = "blob",
                            .mass = 1.0,
                            .centre_of_mass = Vec3::Zero(),
                            .shape = make_convex(samples),
                            .p_WS = Vec3(0, 0, drop - lowest),
                            .q_WB = q,
                            .smooth_surface = surface});
  HullRun out;
  double spread = 0.0;
  int points = 0;
  while (w.time() < 0.5 - 1e-9) {
    const StepReport& rep = w.step();
    for (const SwitchEvent& ev : rep.switches) {
      if (ev.entered && ++out.entries == 1) {
        out.t_entry = ev.time;
        out.spread_before_entry = spread;
        out.points_before_entry = points;
      }
      if (!ev.entered) ++out.exits;
    }
    // the LCP's contact points on the blob this step
    spread = 0.0;
    points = 0;
    const auto& cs = w.contacts();
    for (const ContactInfo& a : cs) {
      ++points;
      for (const ContactInfo& c : cs)
        spread = std::max(spread, (a.contact.p_WCa - c.contact.p_WCa).norm());
    }
  }
  out.reduced_at_end = w.in_reduced_mode(b);
  return out;
}

}  // namespace

TEST_CASE(
    "hybrid: a Loop blob resting on a facet of its sampled hull enters reduced mode "
    "under the default entry rule",
    "[engine][hybrid][loop]") {
  // the octahedron blob turned so that the centre of an octahedron face, a regular patch of the
  // limit surface, points down: the hull rests on its bottom facet
  const auto blob = test::octahedron_blob(Vec3(0.05, 0.05, 0.05));
  const Quat q = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), -Vec3::UnitZ());
  const HullRun r = settle(blob, q, 1e-4, 3);
  INFO("entries " << r.entries << " at t = " << r.t_entry << " s, exits " << r.exits
                  << "; before the entry " << r.points_before_entry << " contact points "
                  << r.spread_before_entry << " m apart");
  CHECK(r.entries == 1);
  CHECK(r.exits == 0);
  CHECK(r.reduced_at_end);
  // it lay on a facet: several LCP points, spread beyond hybrid_point_tolerance (1 mm)
  CHECK(r.points_before_entry >= 3);
  CHECK(r.spread_before_entry > 1e-3);
  // ten LCP steps of contact (1 ms each) after the landing
  CHECK(r.t_entry > 0.0);
  CHECK(r.t_entry < 0.05);
}
