#!/usr/bin/env python3
"""The closed triangle meshes of the sdf scenes (docs/distributed-contact.md), written to
scenes/meshes/:

  peg.obj           a square peg, 21 x 21 x 40 mm, centred at the origin
  holed_block.obj   an 80 x 80 x 40 mm block (top at z = 0.02) with a blind square hole
                    22 x 22 x 20 mm from the top: 0.5 mm clearance per side around the peg.
                    The hole's walls (x, y = +-0.011) and bottom (z = 0) lie on the planes of
                    a 1 mm grid: trilinear interpolation of a distance field undershoots near a
                    concave crease whose faces lie between grid planes (by up to ~h/2, a false
                    penetration), and is exact-or-above when they lie on them
                    (docs/distributed-contact.md, limits).
  bumpy_plate.obj   a 200 x 100 mm plate, 10 mm thick, whose top carries smooth bumps along x:
                    z = 0.005 + 0.0005 (1 - cos(2 pi x / 0.02)) (1 mm high, 20 mm apart)
  sled.obj          a 40 x 30 x 10 mm box that slides over the bumps

Boxy solids are unions of cells of one rectilinear grid, so every face is split on the same
grid lines and the surface is conforming (no T-junctions); the plate is a height field closed
by flat sides and bottom. Every mesh is checked before it is written: each directed edge once,
its reverse once (closed, consistently oriented), and a positive volume (outward winding).

Usage: tools/scenes/sdf_meshes.py [OUT_DIR]   (default: scenes/meshes beside this tool)
"""
import math
import os
import sys
from collections import Counter


def cells_mesh(xs, ys, zs, filled):
    """The boundary of the union of the cells (i, j, k) with filled(i, j, k), cell (i, j, k)
    spanning [xs[i], xs[i+1]] x [ys[j], ys[j+1]] x [zs[k], zs[k+1]]; quads split in two."""
    verts, index, tris = [], {}, []

    def vid(i, j, k):
        if (i, j, k) not in index:
            index[(i, j, k)] = len(verts)
            verts.append((xs[i], ys[j], zs[k]))
        return index[(i, j, k)]

    n = (len(xs) - 1, len(ys) - 1, len(zs) - 1)

    def inside(c):
        return all(0 <= c[a] < n[a] for a in range(3)) and filled(*c)

    for i in range(n[0]):
        for j in range(n[1]):
            for k in range(n[2]):
                if not filled(i, j, k):
                    continue
                for axis in range(3):
                    for side in (0, 1):
                        nb = [i, j, k]
                        nb[axis] += 1 if side else -1
                        if inside(tuple(nb)):
                            continue
                        # the face's 4 corners, counter-clockwise seen from outside
                        u, v = (axis + 1) % 3, (axis + 2) % 3
                        base = [i, j, k]
                        base[axis] += side
                        corners = []
                        for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
                            c = list(base)
                            c[u] += du
                            c[v] += dv
                            corners.append(vid(*c))
                        if not side:  # the face looks along -axis: reverse
                            corners.reverse()
                        a, b, c, d = corners
                        tris += [(a, b, c), (a, c, d)]
    return verts, tris


def height_field_mesh(x0, x1, y0, y1, nx, ny, top, bottom):
    """A solid under z = top(x, y) above z = bottom on [x0, x1] x [y0, y1], nx x ny quads."""
    verts, tris = [], []
    xs = [x0 + (x1 - x0) * i / nx for i in range(nx + 1)]
    ys = [y0 + (y1 - y0) * j / ny for j in range(ny + 1)]
    T = {}
    B = {}
    for i, x in enumerate(xs):
        for j, y in enumerate(ys):
            T[i, j] = len(verts)
            verts.append((x, y, top(x, y)))
            B[i, j] = len(verts)
            verts.append((x, y, bottom))
    for i in range(nx):
        for j in range(ny):
            a, b, c, d = T[i, j], T[i + 1, j], T[i + 1, j + 1], T[i, j + 1]
            tris += [(a, b, c), (a, c, d)]  # up
            a, b, c, d = B[i, j], B[i, j + 1], B[i + 1, j + 1], B[i + 1, j]
            tris += [(a, b, c), (a, c, d)]  # down
    # the sides: the boundary loop counter-clockwise seen from above, each edge with its wall
    loop = [(i, 0) for i in range(nx)] + [(nx, j) for j in range(ny)] + \
           [(i, ny) for i in range(nx, 0, -1)] + [(0, j) for j in range(ny, 0, -1)]
    for m, p in enumerate(loop):
        q = loop[(m + 1) % len(loop)]
        a, b, c, d = B[p], B[q], T[q], T[p]
        tris += [(a, b, c), (a, c, d)]
    return verts, tris


def check(verts, tris, name):
    directed = Counter()
    for t in tris:
        for e in range(3):
            directed[t[e], t[(e + 1) % 3]] += 1
    for (a, b), uses in directed.items():
        if uses != 1 or directed[b, a] != 1:
            raise SystemExit(f"{name}: edge {a}-{b} is not shared by exactly two opposite triangles")
    volume = 0.0
    for a, b, c in tris:
        ax, ay, az = verts[a]
        bx, by, bz = verts[b]
        cx, cy, cz = verts[c]
        volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6
    if volume <= 0:
        raise SystemExit(f"{name}: volume {volume} is not positive")
    return volume


def write_obj(path, verts, tris, comment, tool="tools/scenes/sdf_meshes.py"):
    volume = check(verts, tris, os.path.basename(path))
    with open(path, "w") as f:
        f.write(f"# {comment}\n# written by {tool}; volume {volume:.9g} m^3\n")
        for x, y, z in verts:
            f.write(f"v {x:.9g} {y:.9g} {z:.9g}\n")
        for a, b, c in tris:
            f.write(f"f {a + 1} {b + 1} {c + 1}\n")
    print(f"{path}: {len(verts)} vertices, {len(tris)} triangles, volume {volume:.6g} m^3")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "scenes", "meshes")
    os.makedirs(out, exist_ok=True)

    box = lambda hx, hy, hz: cells_mesh([-hx, hx], [-hy, hy], [-hz, hz], lambda i, j, k: True)
    write_obj(os.path.join(out, "peg.obj"), *box(0.0105, 0.0105, 0.02), "square peg 21 x 21 x 40 mm")

    a, h = 0.04, 0.011
    xs = [-a, -h, h, a]
    write_obj(os.path.join(out, "holed_block.obj"),
              *cells_mesh(xs, xs, [-0.02, 0.0, 0.02], lambda i, j, k: not (i == 1 and j == 1 and k == 1)),
              "block 80 x 80 x 40 mm, blind hole 22 x 22 x 20 mm from the top (z = 0.02)")

    bump = lambda x, y: 0.005 + 0.0005 * (1 - math.cos(2 * math.pi * x / 0.02))
    write_obj(os.path.join(out, "bumpy_plate.obj"),
              *height_field_mesh(-0.1, 0.1, -0.05, 0.05, 200, 4, bump, -0.005),
              "plate 200 x 100 x 10 mm, 1 mm bumps every 20 mm along x")
    write_obj(os.path.join(out, "sled.obj"), *box(0.02, 0.015, 0.005), "sled 40 x 30 x 10 mm")


if __name__ == "__main__":
    main()
