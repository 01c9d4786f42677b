#!/usr/bin/env python3
"""The non-convex pair of the dense-contact scene (docs/distributed-contact.md), after the
knight and axe of Barbic 2007 (section 3.13, Table 3.1): many surface points touching at once.
Written to scenes/meshes/ with the helpers (and checks) of sdf_meshes.py:

  comb.obj           a comb: a 100 x 20 x 10 mm bar (x in [-50, 50] mm, y in [-10, 10], z in
                     [0, 10]) with five 8 x 20 x 15 mm teeth hanging below it (z in [-15, 0]),
                     centred at x = -40, -20, 0, 20, 40 mm
  slotted_block.obj  a 120 x 40 x 30 mm block (top at z = 0) with five blind pockets 10 x 24 x
                     20 mm under the teeth: 1 mm clearance per side along x, 2 mm along y, and
                     5 mm below the teeth's tips when the bar rests on the block's top

Every coordinate is a whole millimetre, so with 1 mm voxels the pockets' walls and bottoms lie
on grid planes (docs/distributed-contact.md, limits: trilinear interpolation undershoots near
a concave crease between grid planes). Resting, the bar's underside (about 1,000 mm^2 of it over
the ridges between the pockets) touches the top face, and the teeth's sides lie 1-2 mm from the
pockets' walls: with a 2 mm contact margin, thousands of the comb's shell points are in
contact before reduction.

Usage: tools/scenes/dense_contact_meshes.py [OUT_DIR]   (default: scenes/meshes beside this tool)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdf_meshes import cells_mesh, write_obj  # noqa: E402

MM = 0.001
TOOL = "tools/scenes/dense_contact_meshes.py"


def comb():
    xs = [x * MM for x in (-50, -44, -36, -24, -16, -4, 4, 16, 24, 36, 44, 50)]
    ys = [y * MM for y in (-10, 10)]
    zs = [z * MM for z in (-15, 0, 10)]
    # the bar is the upper layer; the teeth the odd cells of the lower one
    return cells_mesh(xs, ys, zs, lambda i, j, k: k == 1 or i % 2 == 1)


def slotted_block():
    xs = [x * MM for x in (-60, -45, -35, -25, -15, -5, 5, 15, 25, 35, 45, 60)]
    ys = [y * MM for y in (-20, -12, 12, 20)]
    zs = [z * MM for z in (-30, -20, 0)]
    return cells_mesh(xs, ys, zs, lambda i, j, k: not (i % 2 == 1 and j == 1 and k == 1))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "scenes", "meshes")
    os.makedirs(out, exist_ok=True)
    write_obj(os.path.join(out, "comb.obj"), *comb(),
              "comb: 100 x 20 x 10 mm bar, five 8 x 20 x 15 mm teeth below it", TOOL)
    write_obj(os.path.join(out, "slotted_block.obj"), *slotted_block(),
              "block 120 x 40 x 30 mm (top at z = 0), five pockets 10 x 24 x 20 mm", TOOL)


if __name__ == "__main__":
    main()
