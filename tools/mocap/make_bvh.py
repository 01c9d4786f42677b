#!/usr/bin/env python3
"""Motion-capture clips from closed-form motion, for the motion-capture-driven character
(Cline 2002 §5.1; docs/character.md). No capture data can be downloaded where Pivot is built,
so the project writes its own BVH files:

  arm_swing.bvh  a shoulder, elbow and wrist (7 rotational DOF) on a still torso: the arm
                 swings forward and back while the elbow bends (Cline's Fig. 5.2 shows an arm
                 sequence);
  walk.bvh       a 54-DOF skeleton with a 3-segment spine as in Cline's Fig. 5.1: the root's
                 6 DOF, 3 spine ball joints, the neck, clavicles, shoulders, wrists, hips and
                 ankles (ball joints, 3 DOF each), elbows, knees and toes (hinges, 1 DOF each):
                 6 + 9 + 3 + 2 (3 + 3 + 1 + 3) + 2 (3 + 1 + 3 + 1) = 54. A walk at 1.2 m/s
                 with a gait period of 1.1 s; every channel moves (periodic in the period).

The files are Y-up in centimetres, as capture files usually are (the character's scene key
says "up": "y" and "scale": 0.01). Angles are smooth sums of sines of the gait frequency, so
the clips are periodic and the character's spline fit (docs/character.md) sees smooth data.

    python3 tools/mocap/make_bvh.py [OUT_DIR]    (default: scenes/mocap)
"""
import math
import os
import sys

RATE = 120.0  # frames per second


class Joint:
    def __init__(self, name, offset, channels, children=(), end=None):
        self.name, self.offset, self.channels = name, offset, channels
        self.children, self.end = list(children), end


ROT3 = ["Zrotation", "Xrotation", "Yrotation"]
ROOT6 = ["Xposition", "Yposition", "Zposition"] + ROT3


def write_joint(j, depth, out, root=False):
    ind = "\t" * depth
    out.append(f"{ind}{'ROOT' if root else 'JOINT'} {j.name}")
    out.append(ind + "{")
    out.append(f"{ind}\tOFFSET {j.offset[0]:g} {j.offset[1]:g} {j.offset[2]:g}")
    out.append(f"{ind}\tCHANNELS {len(j.channels)} {' '.join(j.channels)}".rstrip())
    for c in j.children:
        write_joint(c, depth + 1, out)
    if j.end is not None:
        out += [ind + "\tEnd Site", ind + "\t{",
                f"{ind}\t\tOFFSET {j.end[0]:g} {j.end[1]:g} {j.end[2]:g}", ind + "\t}"]
    out.append(ind + "}")


def joints_in_order(j):
    yield j
    for c in j.children:
        yield from joints_in_order(c)


def write_bvh(path, root, duration, motion):
    """motion(t) -> {joint name: [values in channel order]} (missing joints: zeros)"""
    out = ["HIERARCHY"]
    write_joint(root, 0, out, root=True)
    frames = int(round(duration * RATE)) + 1
    out += ["MOTION", f"Frames: {frames}", f"Frame Time: {1.0 / RATE:.10g}"]
    order = list(joints_in_order(root))
    for f in range(frames):
        values = motion(f / RATE)
        row = []
        for j in order:
            v = values.get(j.name, [0.0] * len(j.channels))
            assert len(v) == len(j.channels), j.name
            row += [f"{x:.6f}" for x in v]
        out.append(" ".join(row))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return len(order), sum(len(j.channels) for j in order)


def arm():
    hand = Joint("RWrist", (0, -26, 0), ROT3, end=(0, -18, 0))
    elbow = Joint("RElbow", (0, -28, 0), ["Xrotation"], [hand])
    shoulder = Joint("RShoulder", (-18, 0, 0), ROT3, [elbow])
    return Joint("Torso", (0, 140, 0), ROOT6, [shoulder])


def arm_motion(t):
    w = 2 * math.pi * 0.8  # 0.8 Hz swing
    s = math.sin(w * t)
    return {
        "Torso": [0, 0, 0, 0, 0, 0],
        # Z X Y: abduction, flexion (negative X swings the arm forward, +z), twist
        "RShoulder": [-8 - 4 * math.sin(2 * w * t), -35 * s, 10 * math.sin(w * t + 0.5)],
        "RElbow": [-35 - 25 * math.sin(w * t - 0.6)],
        "RWrist": [5 * math.sin(w * t), -10 * math.sin(w * t + 1.0), 8 * math.cos(w * t)],
    }


def body():
    def arm_chain(side):  # side +1 left (+x), -1 right
        p = "L" if side > 0 else "R"
        wrist = Joint(p + "Wrist", (0, -26, 0), ROT3, end=(0, -18, 0))
        elbow = Joint(p + "Elbow", (0, -28, 0), ["Xrotation"], [wrist])
        shoulder = Joint(p + "Shoulder", (side * 15, 0, 0), ROT3, [elbow])
        return Joint(p + "Clavicle", (side * 3, 12, 0), ROT3, [shoulder])

    def leg_chain(side):
        p = "L" if side > 0 else "R"
        toe = Joint(p + "Toe", (0, -6, 14), ["Xrotation"], end=(0, 0, 6))
        ankle = Joint(p + "Ankle", (0, -42, 0), ROT3, [toe])
        knee = Joint(p + "Knee", (0, -42, 0), ["Xrotation"], [ankle])
        return Joint(p + "Hip", (side * 9, -6, 0), ROT3, [knee])

    neck = Joint("Neck", (0, 15, 0), ROT3, end=(0, 22, 0))
    spine3 = Joint("Spine3", (0, 15, 0), ROT3, [neck, arm_chain(1), arm_chain(-1)])
    spine2 = Joint("Spine2", (0, 15, 0), ROT3, [spine3])
    spine1 = Joint("Spine1", (0, 10, 0), ROT3, [spine2])
    return Joint("Hips", (0, 0, 0), ROOT6, [spine1, leg_chain(1), leg_chain(-1)])


PERIOD = 1.1  # s, one gait cycle (two steps)
SPEED = 120.0  # cm/s


def walk_motion(t):
    w = 2 * math.pi / PERIOD
    ph = w * t
    m = {}
    # the root: forward along +z, a vertical bob at twice the gait frequency, a lateral sway
    m["Hips"] = [2.0 * math.sin(ph), 95 + 2.0 * math.cos(2 * ph), SPEED * t,
                 3 * math.sin(ph), 2 * math.sin(2 * ph + 0.3), 6 * math.sin(ph + 0.2)]
    for i, name in enumerate(["Spine1", "Spine2", "Spine3"]):
        m[name] = [-2 * math.sin(ph), 1.5 + 1.0 * math.sin(2 * ph + 0.1 * i),
                   -4 * math.sin(ph + 0.2)]
    m["Neck"] = [1.5 * math.sin(ph), -2 + 1.5 * math.sin(2 * ph), 3 * math.sin(ph)]
    for side, sgn in (("L", 1.0), ("R", -1.0)):
        q = ph if side == "L" else ph + math.pi  # the right side half a cycle later
        # legs: hip flexion (negative X: thigh forward), knee flexion (positive X bends it
        # back), ankle, toe
        m[side + "Hip"] = [sgn * (3 + 2 * math.sin(q)), -20 * math.sin(q) - 5,
                           sgn * 4 * math.sin(q + 0.4)]
        m[side + "Knee"] = [25 + 22 * math.sin(q - 1.8) + 8 * math.sin(2 * q - 0.5)]
        m[side + "Ankle"] = [sgn * 2 * math.sin(q), 8 * math.sin(q - 0.9), sgn * 3 * math.sin(q)]
        m[side + "Toe"] = [10 + 10 * math.sin(q + 1.2)]
        # arms swing against the legs of the same side
        m[side + "Clavicle"] = [sgn * 2 * math.sin(2 * q), 3 * math.sin(q), 2 * math.sin(q)]
        m[side + "Shoulder"] = [sgn * (6 + 2 * math.sin(2 * q)), 20 * math.sin(q),
                                sgn * 5 * math.sin(q + 0.3)]
        m[side + "Elbow"] = [-25 - 12 * math.sin(q + 0.4)]
        m[side + "Wrist"] = [sgn * 4 * math.sin(q), -6 * math.sin(q + 0.5), 5 * math.sin(q)]
    return m


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join("scenes", "mocap")
    os.makedirs(out_dir, exist_ok=True)
    n, c = write_bvh(os.path.join(out_dir, "arm_swing.bvh"), arm(), 2.5, arm_motion)
    print(f"arm_swing.bvh: {n} joints, {c} channels")
    n, c = write_bvh(os.path.join(out_dir, "walk.bvh"), body(), 2 * PERIOD, walk_motion)
    print(f"walk.bvh: {n} joints, {c} channels")
    if c != 54:
        raise SystemExit(f"walk.bvh has {c} channels, the skeleton of Fig. 5.1 has 54")


if __name__ == "__main__":
    main()
