#!/usr/bin/env python3
"""Blobs in bowls (Kry 2000 §6.3, Fig. 6.3): a lumpy marble in a shallow plate, both Loop
subdivision surfaces, with gravity and dynamic friction: the control meshes
scenes/meshes/loop_plate.obj and scenes/meshes/loop_marble.obj, the plate's LCP mesh
scenes/meshes/loop_plate_limit.obj, and scenes/lumpy_marble_in_plate.json.

What the thesis gives: the "plate" of its Fig. 4.3, 192 patches after its one global
subdivision, and a lumpy marble; the marble "slides almost to the centre of the plate and then
starts to roll"; the point of the test is curved-curved contact, where H is dense. No sizes,
masses or numbers. Its meshes are not published, so:

  - the plate is a closed control mesh of 48 triangles (the thesis' 192 patches are 48 triangles
    after its one global subdivision; here no triangle has two extraordinary vertices, so Pivot
    evaluates the same limit surface as 48 patches): a dished top (a centre vertex, a ring of 6
    and a rim of 12) and a bottom of the same topology sharing the rim; 30 cm across at the
    control mesh, 24 cm at the limit surface, whose top is a shallow dish;
  - the marble is an icosahedron (20 triangles, 80 patches after one subdivision, all 12
    vertices extraordinary) whose three mirror-symmetric vertex groups are pushed out or in:
    (0, ±1, ±φ) by +15 %, (±1, ±φ, 0) by −5 %, (±φ, 0, ±1) unchanged. The lumps keep the mirror
    symmetry in the three coordinate planes, so the body axes are principal (the scene format
    takes principal moments only) and the three moments differ. About 4 cm across, glass
    (2500 kg/m^3), the centre of mass at the origin.

Mass properties and extents come from the limit surfaces approximated by LEVELS subdivision
steps with Loop's limit masks (tools/scenes/kry_bowl.py, plain Python).

    python3 tools/scenes/lumpy_marble_plate.py [--write]
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kry_bowl  # noqa: E402
import loop_bowl_table  # noqa: E402
import scene_json  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LEVELS = 4
PLATE_RING, PLATE_RIM = 0.06, 0.15  # control radii of the top's inner ring and of the rim, m
PLATE_RING_Z, PLATE_RIM_Z, PLATE_BOTTOM_Z = 0.002, 0.02, -0.012  # control heights, m
PLATE_LCP_LEVELS = 2  # the LCP mesh: the limit surface after this many steps (768 triangles)
MARBLE_RADIUS, MARBLE_DENSITY = 0.02, 2500.0
LUMPS = (1.15, 0.95, 1.0)  # radius factors of the icosahedron's three vertex groups
FRICTION = 0.05  # Coulomb mu of both bodies: low, so that the marble slides before it rolls


def plate():
    """the plate's control mesh: top (centre, ring of 6, rim of 12) and bottom (centre, ring of
    6) sharing the rim; faces counter-clockwise seen from outside"""
    V, F = [], []
    V.append((0.0, 0.0, 0.0))  # top centre
    top_ring = list(range(1, 7))
    for i in range(6):
        a = 2 * math.pi * i / 6
        V.append((PLATE_RING * math.cos(a), PLATE_RING * math.sin(a), PLATE_RING_Z))
    rim = list(range(7, 19))
    for i in range(12):
        a = 2 * math.pi * i / 12
        V.append((PLATE_RIM * math.cos(a), PLATE_RIM * math.sin(a), PLATE_RIM_Z))
    bottom_centre = len(V)
    V.append((0.0, 0.0, PLATE_BOTTOM_Z))
    bottom_ring = list(range(len(V), len(V) + 6))
    for i in range(6):
        a = 2 * math.pi * i / 6
        V.append((PLATE_RING * math.cos(a), PLATE_RING * math.sin(a), PLATE_BOTTOM_Z))

    def cap(centre, ring, up):
        faces = []
        for i in range(6):
            a, a1 = ring[i], ring[(i + 1) % 6]
            b0, b1, b2 = rim[2 * i], rim[2 * i + 1], rim[(2 * i + 2) % 12]
            faces += [(centre, a, a1), (a, b0, b1), (a, b1, a1), (a1, b1, b2)]
        return faces if up else [(f[0], f[2], f[1]) for f in faces]

    F = cap(0, top_ring, True) + cap(bottom_centre, bottom_ring, False)
    return V, F


def icosahedron():
    p = (1 + math.sqrt(5)) / 2
    groups = [[(0, s1, s2 * p) for s1 in (-1, 1) for s2 in (-1, 1)],
              [(s1, s2 * p, 0) for s1 in (-1, 1) for s2 in (-1, 1)],
              [(s1 * p, 0, s2) for s1 in (-1, 1) for s2 in (-1, 1)]]
    V, group = [], []
    for g, pts in enumerate(groups):
        for q in pts:
            V.append(q)
            group.append(g)
    # the 20 faces: triples of mutually adjacent vertices (edge length 2), outward
    F = []
    n = len(V)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if all(abs(math.dist(V[a], V[b]) - 2.0) < 1e-9 for a, b in ((i, j), (j, k), (i, k))):
                    a, b, c = V[i], V[j], V[k]
                    e1 = [b[t] - a[t] for t in range(3)]
                    e2 = [c[t] - a[t] for t in range(3)]
                    nrm = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                           e1[0] * e2[1] - e1[1] * e2[0]]
                    out = sum(nrm[t] * (a[t] + b[t] + c[t]) for t in range(3)) > 0
                    F.append((i, j, k) if out else (i, k, j))
    assert len(F) == 20
    return V, F, group


def marble():
    V0, F, group = icosahedron()
    # scaled so that the unperturbed limit surface has radius MARBLE_RADIUS
    L0, _ = loop_bowl_table.limit_mesh(V0, F)
    r0 = sum(math.sqrt(sum(c * c for c in q)) for q in L0) / len(L0)
    V = [tuple(c * MARBLE_RADIUS / r0 * LUMPS[g] for c in q) for q, g in zip(V0, group)]
    L, LF = loop_bowl_table.limit_mesh(V, F)
    vol, com, inertia = loop_bowl_table.mass_properties(L, LF)
    assert all(abs(c) < 1e-12 for c in com), com  # mirror symmetric
    off = max(abs(inertia[i][j]) for i in range(3) for j in range(3) if i != j)
    assert off < 1e-12 * inertia[0][0], inertia  # principal axes
    mass = MARBLE_DENSITY * vol
    I = [MARBLE_DENSITY * inertia[k][k] for k in range(3)]
    return V, F, L, mass, I


def main():
    pV, pF = plate()
    pL, pLF = loop_bowl_table.limit_mesh(pV, pF)
    lcp_V, lcp_F = pV, pF
    for _ in range(PLATE_LCP_LEVELS):
        lcp_V, lcp_F = kry_bowl.loop_step(lcp_V, lcp_F)
    lcp_V = kry_bowl.limit_positions(lcp_V, lcp_F)
    mV, mF, mL, mass, I = marble()
    pe, me = loop_bowl_table.extents(pL), loop_bowl_table.extents(mL)
    def top_height(r, tol=0.004):
        """the top surface's height at radius r: the highest limit point near that radius"""
        return max(q[2] for q in pL if abs(math.hypot(q[0], q[1]) - r) < tol)

    z_centre = top_height(0.0)
    print(f"plate: {len(pF)} control triangles; limit surface {1e3 * (pe[0][1] - pe[0][0]):.1f} x "
          f"{1e3 * (pe[1][1] - pe[1][0]):.1f} x {1e3 * (pe[2][1] - pe[2][0]):.1f} mm, "
          f"top centre at z = {1e3 * z_centre:.2f} mm, rim top at z = {1e3 * pe[2][1]:.2f} mm")
    for r in (0.02, 0.04, 0.06, 0.08, 0.10):
        print(f"  dish height at r = {100 * r:.0f} cm: {1e3 * (top_height(r) - z_centre):.2f} mm")
    print(f"marble: limit surface {1e3 * (me[0][1] - me[0][0]):.1f} x {1e3 * (me[1][1] - me[1][0]):.1f}"
          f" x {1e3 * (me[2][1] - me[2][0]):.1f} mm, mass {1e3 * mass:.2f} g, principal moments "
          + ", ".join(f"{x:.4e}" for x in I) + " kg m^2")
    if "--write" not in sys.argv:
        return
    meshes = os.path.join(ROOT, "scenes", "meshes")
    loop_bowl_table.write_obj(
        os.path.join(meshes, "loop_plate.obj"), pV, pF,
        ["Loop control mesh of the plate of scenes/lumpy_marble_in_plate.json (Kry 2000 §6.3's",
         "plate: 48 triangles, as its 192 patches before their subdivision).",
         "tools/scenes/lumpy_marble_plate.py"])
    loop_bowl_table.write_obj(
        os.path.join(meshes, "loop_plate_limit.obj"), lcp_V, lcp_F,
        [f"The LCP shape of the plate of scenes/lumpy_marble_in_plate.json: its Loop limit surface",
         f"after {PLATE_LCP_LEVELS} subdivision steps, vertices at their limit positions.",
         "tools/scenes/lumpy_marble_plate.py"])
    loop_bowl_table.write_obj(
        os.path.join(meshes, "loop_marble.obj"), mV, mF,
        ["Loop control mesh of the lumpy marble of scenes/lumpy_marble_in_plate.json: an",
         "icosahedron with its three vertex groups pushed out or in (principal axes = body axes,",
         "centre of mass at the origin). tools/scenes/lumpy_marble_plate.py"])
    start_x = 0.05
    z_surface = top_height(start_x, 0.002)
    scene = {
        "pivot_scene": 1,
        "name": "lumpy marble in plate",
        "description": ("Kry 2000 §6.3 (Fig. 6.3), blobs in bowls: a lumpy marble (4 cm, glass, "
                        "an icosahedron's Loop surface with lumps) thrown into a shallow plate "
                        "(24 cm, 48 control triangles), both Loop subdivision surfaces "
                        "evaluated exactly, low friction (0.05). Curved-curved contact, where "
                        "the contact Jacobian H is dense: the marble lands, enters reduced "
                        "coordinates, slides through the centre and back, then rolls near it. "
                        "Control meshes: tools/scenes/lumpy_marble_plate.py."),
        "settings": {"dt": 0.01, "duration": 3.0, "output_rate_hz": 100, "hybrid": True,
                     "hybrid_entry_steps": 0},
        "bodies": [
            {"name": "plate", "fixed": True,
             "shape": {"type": "mesh", "obj": "meshes/loop_plate_limit.obj"},
             "friction": FRICTION, "restitution": 0.0,
             "smooth_surface": {"type": "loop", "obj": "meshes/loop_plate.obj"}},
            {"name": "marble", "mass": mass, "inertia_diag": I,
             "position": [start_x, 0.0, z_surface - me[2][0] + 0.005],
             "velocity": [-0.3, 0.05, 0.0],
             "shape": {"type": "convex", "surface_samples": 4},
             "friction": FRICTION, "restitution": 0.0,
             "smooth_surface": {"type": "loop", "obj": "meshes/loop_marble.obj"}},
        ],
    }
    scene_json.write(os.path.join(ROOT, "scenes", "lumpy_marble_in_plate.json"), scene)


if __name__ == "__main__":
    main()
