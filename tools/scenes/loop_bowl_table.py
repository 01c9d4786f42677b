#!/usr/bin/env python3
"""The bowl thrown on a table (Kry & Pai 2002 §4.2, Table II, Figs. 6-9) as Loop subdivision
surfaces: the control meshes scenes/meshes/loop_bowl.obj and scenes/meshes/loop_table.obj, and
scenes/bowl_on_table.json.

What the paper gives: both bodies are Loop surfaces (bowl 14 patches, table 60), the table about
40 cm square with rounded edges, the bowl about 13 cm across and 11 cm high, "a little less than
1 kg", thrown with spin; slip threshold 5 mm/s. Its control meshes are not published, so:

  - the bowl is the 14-triangle, 9-vertex bowl of Kry 2000 App. B.2 in the face order
    reconstructed in tools/scenes/kry_bowl.py, scaled (affine invariance: the limit surface
    scales with its control points) so that its limit surface is 13 cm across and 11 cm high;
    mass 0.95 kg, uniform density; the control points are moved so the centre of mass is the
    body origin;
  - the table is a box cage, 8 x 8 quads on top and bottom, one layer on the sides, every quad
    split in two; its limit surface is flat (z = 0) wherever a patch's 12 control points all lie
    on the top, and rounded near the edges.

Mass properties and extents come from the limit surface approximated by LEVELS subdivision
steps with Loop's limit masks (the functions of kry_bowl.py, plain Python).

    python3 tools/scenes/loop_bowl_table.py [--write]
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kry_bowl  # noqa: E402
import scene_json  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LEVELS = 4
BOWL_ACROSS, BOWL_HEIGHT, BOWL_MASS = 0.13, 0.11, 0.95
TABLE_SIDE, TABLE_THICKNESS, TABLE_QUADS = 0.44, 0.03, 8
FRICTION = 0.3  # Coulomb mu of both bodies (the pair's sqrt(mu_A mu_B) = 0.3)

# Rolling and spinning friction (Kry 2000 §4.4.1, eqs. 4.27-4.30: torques mu_r f_n and mu_s f_n;
# reduced coordinates only). Kry & Pai 2002 §4.2: the thrown bowl "gradually comes to rest" in
# each 3 s run; rolling without slip does no work, so without these the bowl keeps spinning and
# rocking (docs/loop-surfaces.md). The paper gives no values (it mentions only "viscous
# damping"); the thesis' rattleback used mu_r = 0.003, mu_s = 0.0001 in App. B's units (§6.4),
# tuned to suppress a second spin reversal, not measured. Physical orders of magnitude for a
# ceramic bowl on a wooden table:
#   - MU_ROLLING, the rolling resistance length (the lever arm of the normal force ahead of the
#     contact point): engineering ballpark tables give about 0.1 mm for hardened steel balls on
#     steel, 0.5 mm for iron on iron and 1.5 mm for wood on wood. Rolling resistance is the
#     hysteresis of the material that deforms, and on a wooden table that is the wood (a glazed
#     ceramic is tens of times stiffer than wood across the grain), so the wood-on-wood value:
#     1.5 mm. (At 1 mm, the middle of the range, the 10 ms run settles only at 2.5 s.)
#   - MU_SPINNING, the torque per newton of Coulomb friction over a contact patch of radius a:
#     (3 pi / 16) mu a for a Hertz pressure distribution (the integral of mu p(rho) rho over the
#     disc, p = p0 sqrt(1 - rho^2/a^2), divided by the load (2/3) pi a^2 p0). A smooth Hertz
#     contact of this bowl on wood across the grain (E* about 1 GPa, load 9.3 N, radius of
#     curvature 5-10 cm) has a = 0.7-0.9 mm, a foot ring of 3 cm radius would give mu R = 9 mm;
#     the glaze and grain roughen a real contact beyond Hertz, so a = 3 mm: 0.5 mm.
MU_ROLLING, MU_SPINNING = 1.5e-3, 5e-4


def limit_mesh(V, F, levels=LEVELS):
    for _ in range(levels):
        V, F = kry_bowl.loop_step(V, F)
    return kry_bowl.limit_positions(V, F), F


def extents(V):
    return [(min(p[k] for p in V), max(p[k] for p in V)) for k in range(3)]


def mass_properties(V, F):
    """volume, centre of mass and inertia about it of a closed triangle mesh of unit density
    (signed tetrahedra from the origin; the canonical-tetrahedron covariance)"""
    vol = 0.0
    c = [0.0, 0.0, 0.0]
    C = [[0.0] * 3 for _ in range(3)]  # second moments ∫ x_i x_j
    for f in F:
        a, b, d = (V[i] for i in f)
        det = (a[0] * (b[1] * d[2] - b[2] * d[1]) - a[1] * (b[0] * d[2] - b[2] * d[0]) +
               a[2] * (b[0] * d[1] - b[1] * d[0]))
        v = det / 6.0
        vol += v
        for k in range(3):
            c[k] += v * (a[k] + b[k] + d[k]) / 4.0
        for i in range(3):
            for j in range(3):
                s = (a[i] * a[j] + b[i] * b[j] + d[i] * d[j] +
                     (a[i] + b[i] + d[i]) * (a[j] + b[j] + d[j]))
                C[i][j] += det / 120.0 * s
    com = [x / vol for x in c]
    # about the centre of mass: C_com = C − vol com comᵀ; I = tr(C) 1 − C
    Cc = [[C[i][j] - vol * com[i] * com[j] for j in range(3)] for i in range(3)]
    tr = Cc[0][0] + Cc[1][1] + Cc[2][2]
    inertia = [[(tr if i == j else 0.0) - Cc[i][j] for j in range(3)] for i in range(3)]
    return vol, com, inertia


def bowl():
    V0 = [tuple(p) for p in kry_bowl.VERTICES]
    F = [tuple(i - 1 for i in f) for f in kry_bowl.FACES]
    L, LF = limit_mesh(V0, F)
    ext = extents(L)
    across = max(ext[0][1] - ext[0][0], ext[1][1] - ext[1][0])
    sxy, sz = BOWL_ACROSS / across, BOWL_HEIGHT / (ext[2][1] - ext[2][0])
    V = [(p[0] * sxy, p[1] * sxy, p[2] * sz) for p in V0]
    L = [(p[0] * sxy, p[1] * sxy, p[2] * sz) for p in L]
    vol, com, inertia = mass_properties(L, LF)
    V = [tuple(p[k] - com[k] for k in range(3)) for p in V]
    L = [tuple(p[k] - com[k] for k in range(3)) for p in L]
    density = BOWL_MASS / vol
    I = [[density * x for x in row] for row in inertia]
    return V, F, L, density, I


def table():
    n, nz = TABLE_QUADS, 1
    h = TABLE_SIDE / n
    index = {}
    V = []

    def vid(i, j, k):
        key = (i, j, k)
        if key not in index:
            index[key] = len(V)
            V.append((-TABLE_SIDE / 2 + i * h, -TABLE_SIDE / 2 + j * h,
                      -TABLE_THICKNESS + k * TABLE_THICKNESS / nz))
        return index[key]

    F = []

    def quad(a, b, c, d):  # counter-clockwise seen from outside
        F.append((a, b, c))
        F.append((a, c, d))

    for i in range(n):
        for j in range(n):
            quad(vid(i, j, nz), vid(i + 1, j, nz), vid(i + 1, j + 1, nz), vid(i, j + 1, nz))
            quad(vid(i, j, 0), vid(i, j + 1, 0), vid(i + 1, j + 1, 0), vid(i + 1, j, 0))
    for t in range(n):
        for k in range(nz):
            quad(vid(n, t, k), vid(n, t + 1, k), vid(n, t + 1, k + 1), vid(n, t, k + 1))
            quad(vid(0, t, k), vid(0, t, k + 1), vid(0, t + 1, k + 1), vid(0, t + 1, k))
            quad(vid(t, n, k), vid(t, n, k + 1), vid(t + 1, n, k + 1), vid(t + 1, n, k))
            quad(vid(t, 0, k), vid(t + 1, 0, k), vid(t + 1, 0, k + 1), vid(t, 0, k + 1))
    return V, F


def write_obj(path, V, F, header):
    with open(path, "w") as f:
        for line in header:
            f.write(f"# {line}\n")
        for p in V:
            f.write("v {:.17g} {:.17g} {:.17g}\n".format(*p))
        for t in F:
            f.write("f {} {} {}\n".format(*(i + 1 for i in t)))
    print("wrote", path)


def main():
    bV, bF, bL, density, I = bowl()
    tV, tF = table()
    tL, tLF = limit_mesh(tV, tF, 3)
    be, te = extents(bL), extents(tL)
    print(f"bowl: limit surface {1e3 * (be[0][1] - be[0][0]):.1f} x {1e3 * (be[1][1] - be[1][0]):.1f}"
          f" x {1e3 * (be[2][1] - be[2][0]):.1f} mm, bottom at z = {1e3 * be[2][0]:.2f} mm below the"
          f" centre of mass; density {density:.1f} kg/m^3, mass {BOWL_MASS} kg")
    print("bowl inertia about the centre of mass, kg m^2:")
    for row in I:
        print("   ", " ".join(f"{x: .6e}" for x in row))
    print(f"table: limit surface {1e3 * (te[0][1] - te[0][0]):.1f} x {1e3 * (te[1][1] - te[1][0]):.1f}"
          f" x {1e3 * (te[2][1] - te[2][0]):.1f} mm, top at z = {te[2][1]:.3g} m")
    flat = [p for p in tL if abs(p[2]) < 1e-12]
    half = max(max(abs(p[0]), abs(p[1])) for p in flat)
    print(f"table: the top is flat (z = 0 to 1e-12) out to |x|, |y| = {1e3 * half:.1f} mm")
    if "--write" not in sys.argv:
        return
    meshes = os.path.join(ROOT, "scenes", "meshes")
    write_obj(os.path.join(meshes, "loop_bowl.obj"), bV, bF,
              ["Loop control mesh of the bowl of scenes/bowl_on_table.json: Kry 2000 App. B.2's bowl",
               "(faces as reconstructed in tools/scenes/kry_bowl.py), scaled to a 13 x 11 cm limit",
               "surface, centre of mass at the origin. tools/scenes/loop_bowl_table.py"])
    write_obj(os.path.join(meshes, "loop_table.obj"), tV, tF,
              ["Loop control mesh of the table of scenes/bowl_on_table.json: a box cage, top at z = 0.",
               "tools/scenes/loop_bowl_table.py"])
    drop_height = 0.12 - be[2][0]  # bottom 12 cm above the table
    scene = {
        "pivot_scene": 1,
        "name": "bowl on table",
        "description": ("Kry & Pai 2002 §4.2 (Table II, Figs. 6-9): a bowl (13 x 11 cm, 0.95 kg) "
                        "thrown with spin onto a table (44 cm square cage, rounded edges), both "
                        "Loop subdivision surfaces evaluated exactly. It bounces in the LCP, then "
                        "the hybrid mode takes the single smooth contact in reduced coordinates "
                        "(slip threshold 5 mm/s), where rolling (1.5 mm) and spinning (0.5 mm) "
                        "friction torques (Kry 2000 eqs. 4.27-4.30) bring it to rest. Control "
                        "meshes: tools/scenes/loop_bowl_table.py (the bowl is Kry 2000 App. B.2's, "
                        "reconstructed and scaled)."),
        "settings": {"dt": 0.01, "duration": 3.0, "output_rate_hz": 100, "hybrid": True,
                     "hybrid_slip_threshold": 0.005, "hybrid_entry_steps": 0,
                     "hybrid_mu_rolling": MU_ROLLING, "hybrid_mu_spinning": MU_SPINNING},
        "bodies": [
            {"name": "table", "fixed": True,
             # the LCP's shape: a box whose top is the limit surface's flat top (z = 0) and
             # whose sides are the limit surface's extent; the rounded edges are the smooth
             # surface's only (a mesh of the limit surface costs 4.6 ms a step in Bullet)
             "shape": {"type": "box", "half_extents": [te[0][1], te[1][1], TABLE_THICKNESS / 2]},
             "position": [0.0, 0.0, -TABLE_THICKNESS / 2],
             "friction": FRICTION, "restitution": 0.3,
             "smooth_surface": {"type": "loop", "obj": "meshes/loop_table.obj",
                                "position": [0.0, 0.0, TABLE_THICKNESS / 2]}},
            {"name": "bowl", "mass": BOWL_MASS,
             "inertia_diag": [I[0][0], I[1][1], I[2][2]],
             "position": [0.0, 0.0, drop_height],
             "axis_angle_deg": {"axis": [1, 0, 0], "angle": 20},
             "velocity": [0.4, 0.1, 0.0], "angular_velocity": [0.0, 0.0, 6.0],
             "shape": {"type": "convex", "surface_samples": 4},
             "friction": FRICTION, "restitution": 0.3,
             "smooth_surface": {"type": "loop", "obj": "meshes/loop_bowl.obj"}},
        ],
    }
    scene_json.write(os.path.join(ROOT, "scenes", "bowl_on_table.json"), scene)


if __name__ == "__main__":
    main()
