#pragma once
// shapes.json of a run (docs/viewer.md "shapes.json"): what the replay viewer draws for each
// body, in the body's (centre-of-mass) frame. Primitives are written by their sizes, convex
// shapes by their points (the viewer takes the hull), meshes by their triangles, compounds as
// their children, and smooth surfaces tessellated from their own evaluation; a body's visual
// geometry (a URDF link's <visual>, docs/models.md) as "visual" parts with their colours.

#include <nlohmann/json.hpp>

namespace pivot {
class World;
struct Scene;
}  // namespace pivot

namespace pivot::cli {

/// grid cells per side of each patch when a smooth surface is tessellated
inline constexpr int kSurfaceCells = 24;

/// the shapes of `world`'s bodies (built from `scene`, at its initial state): one entry per
/// body in body order with its name, whether it is fixed, its initial pose, its parts and,
/// for a body whose scene gives a bounded smooth surface, that surface as triangles
[[nodiscard]] nlohmann::ordered_json replay_shapes(const Scene& scene, const World& world);

}  // namespace pivot::cli
