#!/usr/bin/env python3
"""The three mesh files of scenes/mesh_bin.json, one per format (docs/meshes.md):

- bin_l_block.stl  an L-shaped block (binary STL, one triangle record per face: no shared
                   vertices; Pivot welds the coincident corners), collides as its convex parts;
- bin_hex_prism.ply  a hexagonal prism (ASCII PLY, indexed), collides as its hull;
- bin_u_block.glb  a U-shaped block (binary glTF 2.0, +y up as glTF defines it), collides as
                   its convex parts.

Each is a prism over a polygon with its cap triangulated by hand, counter-clockwise seen from
outside; the script checks that every mesh is closed and that its volume is the polygon's area
times the height before writing. Run from the repository root: python3 tools/scenes/mesh_bin.py
"""
import json
import math
import os
import struct
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenes", "meshes")


def prism(poly, caps, height):
    """vertices and triangles of the prism over `poly` (counter-clockwise), z in [0, height];
    `caps`: the polygon's triangles (counter-clockwise, indices into poly)"""
    n = len(poly)
    verts = [(x, y, 0.0) for x, y in poly] + [(x, y, height) for x, y in poly]
    tris = []
    for a, b, c in caps:
        tris.append((a, c, b))              # bottom, seen from below
        tris.append((n + a, n + b, n + c))  # top
    for i in range(n):
        j = (i + 1) % n
        tris.append((i, j, n + j))
        tris.append((i, n + j, n + i))
    return verts, tris


def area(poly):
    return 0.5 * sum(poly[i][0] * poly[(i + 1) % len(poly)][1] -
                     poly[(i + 1) % len(poly)][0] * poly[i][1] for i in range(len(poly)))


def check(verts, tris, expected_volume, name):
    edges = {}
    for t in tris:
        for k in range(3):
            e = (t[k], t[(k + 1) % 3])
            edges[e] = edges.get(e, 0) + 1
    for (a, b), uses in edges.items():
        if uses != 1 or edges.get((b, a)) != 1:
            sys.exit(f"{name}: edge {a}-{b} is not shared by exactly two opposite triangles")
    volume = 0.0
    for a, b, c in tris:
        p, q, r = verts[a], verts[b], verts[c]
        volume += (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0]) +
                   p[2] * (q[0] * r[1] - q[1] * r[0])) / 6.0
    if abs(volume - expected_volume) > 1e-12:
        sys.exit(f"{name}: volume {volume} is not {expected_volume}")


def write_stl(path, verts, tris):
    with open(path, "wb") as f:
        f.write(b"pivot mesh_bin.py: binary STL".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", 0.0, 0.0, 0.0))
            for i in t:
                f.write(struct.pack("<3f", *verts[i]))
            f.write(struct.pack("<H", 0))


def write_ply(path, verts, tris):
    with open(path, "w") as f:
        f.write("ply\nformat ascii 1.0\ncomment pivot mesh_bin.py\n")
        f.write(f"element vertex {len(verts)}\nproperty float x\nproperty float y\nproperty float z\n")
        f.write(f"element face {len(tris)}\nproperty list uchar int vertex_indices\nend_header\n")
        for v in verts:
            f.write("%r %r %r\n" % v)
        for t in tris:
            f.write("3 %d %d %d\n" % t)


def write_glb(path, verts, tris):
    # glTF is +y up: Pivot's (x, y, z) is stored as (x, z, -y)
    stored = [(x, z, -y) for x, y, z in verts]
    positions = b"".join(struct.pack("<3f", *v) for v in stored)
    indices = b"".join(struct.pack("<3H", *t) for t in tris)
    while len(indices) % 4:
        indices += b"\0"
    lo = [min(v[k] for v in stored) for k in range(3)]
    hi = [max(v[k] for v in stored) for k in range(3)]
    doc = {
        "asset": {"version": "2.0", "generator": "pivot mesh_bin.py"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": len(positions) + len(indices)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(positions)},
                        {"buffer": 0, "byteOffset": len(positions), "byteLength": 6 * len(tris)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": len(verts),
                       "type": "VEC3", "min": lo, "max": hi},
                      {"bufferView": 1, "componentType": 5123, "count": 3 * len(tris),
                       "type": "SCALAR"}],
    }
    text = json.dumps(doc, separators=(",", ":")).encode()
    while len(text) % 4:
        text += b" "
    binary = positions + indices
    with open(path, "wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<I4s", len(text), b"JSON") + text)
        f.write(struct.pack("<I4s", len(binary), b"BIN\0") + binary)


def main():
    # L: arms 0.125 m long, 0.0625 m wide and thick (sizes exact in 32-bit floats: 1/32 m
    # steps, so that every format stores them exactly)
    w, t, h = 0.125, 0.0625, 0.0625
    L = [(0, 0), (w, 0), (w, t), (t, t), (t, w), (0, w)]
    L_caps = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]
    v, tr = prism(L, L_caps, h)
    check(v, tr, area(L) * h, "L block")
    write_stl(os.path.join(OUT, "bin_l_block.stl"), v, tr)

    # hexagonal prism, circumradius 0.04 m, 0.06 m tall
    hexagon = [(0.04 * math.cos(k * math.pi / 3), 0.04 * math.sin(k * math.pi / 3)) for k in range(6)]
    hex_caps = [(0, k, k + 1) for k in range(1, 5)]
    v, tr = prism(hexagon, hex_caps, 0.0625)
    check(v, tr, area(hexagon) * 0.0625, "hex prism")
    write_ply(os.path.join(OUT, "bin_hex_prism.ply"), v, tr)

    # U: 0.125 x 0.09375 m, posts and bar 0.03125 m thick, 0.0625 m tall
    W, H, T = 0.125, 0.09375, 0.03125
    U = [(0, 0), (W, 0), (W, H), (W - T, H), (W - T, T), (T, T), (T, H), (0, H)]
    U_caps = [(0, 1, 4), (1, 2, 3), (1, 3, 4), (0, 4, 5), (0, 5, 6), (0, 6, 7)]
    v, tr = prism(U, U_caps, 0.0625)
    check(v, tr, area(U) * 0.0625, "U block")
    write_glb(os.path.join(OUT, "bin_u_block.glb"), v, tr)


if __name__ == "__main__":
    main()
