#!/usr/bin/env python3
"""Initial states of the Kry 2000 App. B rattleback scenes (scenes/rattleback_*.json).

App. B gives the starts in contact coordinates q = (s, t, u, v, psi) and rates (Kry 2000
section 9.1): spin start q = (0.45, 0.45, 0.5, 0.5, 0), qdot = (0, 0, 0, 0, -1); tap start
q = (0.15, 0.5, 0.5, 0.5, 0) at rest. A scene gives the pose and twist in world coordinates, so
this script maps them: the pose is ^2_1E(q) (Kry & Pai 2002 eq. 9) with body 2 the App. B floor
(world = floor frame), the twist the derivative of that pose along qdot (dual numbers, exact).
It is independent of the C++ code (plain Python, an independent construction).

Geometry: rattleback patch = the App. B control points scaled by
(0.6, 0.2, 0.2), turned by -0.174 rad about z, moved by (0, 0, 0.2), in the body frame (centre of
mass at the origin); floor = the flat App. B patch [-1.5, 1.5]^2 at z = 0.

    python3 tools/scenes/kry_rattleback.py [--write]
        prints the body state of both starts; --write: scenes/rattleback_{spin,tap,
        frictionless}.json
"""
import json
import math


class Dual:
    """a + b eps, eps^2 = 0: exact first derivatives"""

    __slots__ = ("a", "b")

    def __init__(self, a, b=0.0):
        self.a, self.b = a, b

    def __add__(self, o):
        return Dual(self.a + o.a, self.b + o.b) if isinstance(o, Dual) else Dual(self.a + o, self.b)

    __radd__ = __add__

    def __sub__(self, o):
        return Dual(self.a - o.a, self.b - o.b) if isinstance(o, Dual) else Dual(self.a - o, self.b)

    def __rsub__(self, o):
        return Dual(o - self.a, -self.b)

    def __neg__(self):
        return Dual(-self.a, -self.b)

    def __mul__(self, o):
        if isinstance(o, Dual):
            return Dual(self.a * o.a, self.a * o.b + self.b * o.a)
        return Dual(self.a * o, self.b * o)

    __rmul__ = __mul__

    def __truediv__(self, o):
        if isinstance(o, Dual):
            return Dual(self.a / o.a, (self.b * o.a - self.a * o.b) / (o.a * o.a))
        return Dual(self.a / o, self.b / o)

    def __rtruediv__(self, o):
        return Dual(o / self.a, -o * self.b / (self.a * self.a))


def val(x):
    return x.a if isinstance(x, Dual) else x


def der(x):
    return x.b if isinstance(x, Dual) else 0.0


def dsqrt(x):
    if isinstance(x, Dual):
        r = math.sqrt(x.a)
        return Dual(r, x.b / (2 * r))
    return math.sqrt(x)


def dcos(x):
    return Dual(math.cos(x.a), -math.sin(x.a) * x.b) if isinstance(x, Dual) else math.cos(x)


def dsin(x):
    return Dual(math.sin(x.a), math.cos(x.a) * x.b) if isinstance(x, Dual) else math.sin(x)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def unit(a):
    n = dsqrt(dot(a, a))
    return [x / n for x in a]


def matmul(A, B):
    return [[sum((A[i][k] * B[k][j] for k in range(len(B))), 0.0) for j in range(len(B[0]))]
            for i in range(len(A))]


ROT = -0.174  # App. B: rotate = -0.174 [0 0 1], radians


def rattleback(s, t):
    """point and first partials of the App. B rattleback patch in the body frame"""
    c, si = math.cos(ROT), math.sin(ROT)
    # the control points are linear in x, y and z = -(e_i + e_j) with e = (1, 0, 0, 1), so the
    # bicubic is x = 3s - 1.5, y = 3t - 1.5, z = -(E(s) + E(t)), E(s) = (1-s)^3 + s^3
    x, y = 3 * s - 1.5, 3 * t - 1.5
    z = -((1 - s) * (1 - s) * (1 - s) + s * s * s + (1 - t) * (1 - t) * (1 - t) + t * t * t)
    zs = -(-3 * (1 - s) * (1 - s) + 3 * s * s)
    zt = -(-3 * (1 - t) * (1 - t) + 3 * t * t)

    def place(p, offset):  # scale (0.6, 0.2, 0.2), turn about z, offset
        X, Y, Z = 0.6 * p[0], 0.2 * p[1], 0.2 * p[2]
        return [c * X - si * Y + offset[0], si * X + c * Y + offset[1], Z + offset[2]]

    return (place([x, y, z], [0, 0, 0.2]), place([3.0, 0.0, zs], [0, 0, 0]),
            place([0.0, 3.0, zt], [0, 0, 0]))


def floor(u, v):
    return [3 * u - 1.5, 3 * v - 1.5, u * 0.0], [3.0, 0.0, 0.0], [0.0, 3.0, 0.0]


def frame(surface, s, t):
    """the contact frame [x y z c] of Kry & Pai 2002 eq. 5-6 (y = z x x)"""
    c, cs, ct = surface(s, t)
    x = unit(cs)
    z = unit(cross(cs, ct))
    y = cross(z, x)
    return [[x[0], y[0], z[0], c[0]], [x[1], y[1], z[1], c[1]], [x[2], y[2], z[2], c[2]],
            [0.0, 0.0, 0.0, 1.0]]


def inverse(E):
    R = [[E[i][j] for j in range(3)] for i in range(3)]
    p = [E[0][3], E[1][3], E[2][3]]
    Rt = [[R[j][i] for j in range(3)] for i in range(3)]
    q = [-dot(Rt[i], p) for i in range(3)]
    return [Rt[0] + [q[0]], Rt[1] + [q[1]], Rt[2] + [q[2]], [0.0, 0.0, 0.0, 1.0]]


def align(psi):
    c, s = dcos(psi), dsin(psi)
    return [[c, -s, 0.0, 0.0], [-s, -c, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]


def pose(q):
    """^2_1E(q) = ^2_2cE(u, v) diag(R_psi, 1) ^1c_1E(s, t)  (Kry & Pai 2002 eq. 9)"""
    s, t, u, v, psi = q
    return matmul(matmul(frame(floor, u, v), align(psi)), inverse(frame(rattleback, s, t)))


def quat_wxyz(R):
    """unit quaternion [w, x, y, z] of a rotation matrix (Shepperd's method)"""
    tr = R[0][0] + R[1][1] + R[2][2]
    if tr > 0:
        S = math.sqrt(tr + 1.0) * 2
        q = [0.25 * S, (R[2][1] - R[1][2]) / S, (R[0][2] - R[2][0]) / S, (R[1][0] - R[0][1]) / S]
    elif R[0][0] > R[1][1] and R[0][0] > R[2][2]:
        S = math.sqrt(1.0 + R[0][0] - R[1][1] - R[2][2]) * 2
        q = [(R[2][1] - R[1][2]) / S, 0.25 * S, (R[0][1] + R[1][0]) / S, (R[0][2] + R[2][0]) / S]
    elif R[1][1] > R[2][2]:
        S = math.sqrt(1.0 + R[1][1] - R[0][0] - R[2][2]) * 2
        q = [(R[0][2] - R[2][0]) / S, (R[0][1] + R[1][0]) / S, 0.25 * S, (R[1][2] + R[2][1]) / S]
    else:
        S = math.sqrt(1.0 + R[2][2] - R[0][0] - R[1][1]) * 2
        q = [(R[1][0] - R[0][1]) / S, (R[0][2] + R[2][0]) / S, (R[1][2] + R[2][1]) / S, 0.25 * S]
    n = math.sqrt(sum(x * x for x in q))
    q = [x / n for x in q]
    return q if q[0] >= 0 else [-x for x in q]


def world_state(q, qdot):
    """COM position, [w, x, y, z], COM velocity and angular velocity (world) of body 1"""
    E = pose([Dual(q[k], qdot[k]) for k in range(5)])
    R = [[val(E[i][j]) for j in range(3)] for i in range(3)]
    Rd = [[der(E[i][j]) for j in range(3)] for i in range(3)]
    W = [[sum(Rd[i][k] * R[j][k] for k in range(3)) for j in range(3)] for i in range(3)]  # Rdot R^T
    w = [W[2][1], W[0][2], W[1][0]]
    return ([val(E[i][3]) for i in range(3)], quat_wxyz(R), [der(E[i][3]) for i in range(3)], w)


def energy(x, w, v, R):
    """kinetic + potential (g = 9.81, zero height at z = 0), mass 5, inertia diag(1, 10, 10)"""
    wb = [sum(R[k][i] * w[k] for k in range(3)) for i in range(3)]
    return (0.5 * (1 * wb[0] ** 2 + 10 * wb[1] ** 2 + 10 * wb[2] ** 2) +
            0.5 * 5 * dot(v, v) + 5 * 9.81 * x[2])


def clean(x):
    """rounding noise of an exact value (0, 1) removed"""
    r = float(round(x))
    return r if abs(x - r) < 1e-15 * max(1.0, abs(x)) else x


STARTS = {"spin": ([0.45, 0.45, 0.5, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0, -1.0]),
          "tap": ([0.15, 0.5, 0.5, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0])}
GRID = [-1.5, -0.5, 0.5, 1.5]
# App. B control points, P_ij at 4 i + j: x = GRID[i], y = GRID[j], z = -2 corners, -1 edges, 0 inside
PATCH = [[x, y, float(-((i in (0, 3)) + (j in (0, 3))))] for i, x in enumerate(GRID)
         for j, y in enumerate(GRID)]
FLOOR = [[x, y, 0.0] for x in GRID for y in GRID]


def rattleback_body(start, friction):
    x, quat, v, w = world_state(*STARTS[start])
    return {
        "name": "rattleback",
        "smooth_surface": {"type": "bezier", "patches": [PATCH], "scale": [0.6, 0.2, 0.2],
                           "quat_wxyz": [math.cos(ROT / 2), 0.0, 0.0, math.sin(ROT / 2)],
                           "position": [0.0, 0.0, 0.2]},
        "shape": {"type": "convex", "surface_samples": 32},
        "mass": 5.0, "inertia_diag": [1.0, 10.0, 10.0], "centre_of_mass": [0.0, 0.0, 0.0],
        "position": [clean(c) for c in x], "quat_wxyz": quat,
        "velocity": [clean(c) for c in v], "angular_velocity": [clean(c) for c in w],
        "friction": friction}


def scene(name, description, duration, start, friction, floor_surface):
    ground = {"name": "floor", "fixed": True,
              "shape": {"type": "plane", "normal": [0.0, 0.0, 1.0], "offset": 0.0},
              "smooth_surface": floor_surface, "friction": friction}
    return {"pivot_scene": 1, "name": name, "description": description,
            "settings": {"dt": 0.01, "duration": duration, "output_rate_hz": 100, "hybrid": True,
                         "hybrid_entry_steps": 0},
            "bodies": [ground, rattleback_body(start, friction)]}


def write_scenes(folder):
    import scene_json
    app_b_floor = {"type": "bezier", "patches": [FLOOR]}
    ref = ("Kry 2000 App. B rattleback (one bicubic Bezier patch, mass 5, inertia diag(1, 10, "
           "10)) on the App. B floor, g = 9.81, in Kry & Pai reduced contact coordinates from "
           "t = 0 (hybrid_entry_steps 0; docs/hybrid.md 'Rattleback and bowl scenes')")
    scenes = {
        "rattleback_spin": scene(
            "rattleback spin", f"{ref}: spin start (omega_z = +1 rad/s, counter-clockwise), "
            "mu = 0.3; it turns clockwise after about 25 s.", 32.0, "spin", 0.3, app_b_floor),
        "rattleback_tap": scene(
            "rattleback tap", f"{ref}: tap start (tilted onto one end, at rest), mu = 0.3; it "
            "starts spinning clockwise.", 10.0, "tap", 0.3, app_b_floor),
        "rattleback_frictionless": scene(
            "rattleback frictionless", f"{ref}: spin start without friction (an unbounded "
            "plane as floor: it drifts 2.8 m); it never reverses and conserves energy.",
            32.0, "spin", 0.0, {"type": "plane"}),
    }
    for stem, sc in scenes.items():
        scene_json.write(os.path.join(folder, stem + ".json"), sc)


if __name__ == "__main__":
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    for name, (q, qdot) in STARTS.items():
        x, quat, v, w = world_state(q, qdot)
        R = [[val(e) for e in row[:3]] for row in pose(q)[:3]]
        print(name, json.dumps({"position": x, "quat_wxyz": quat, "velocity": v,
                                "angular_velocity": w}))
        print("  energy", repr(energy(x, w, v, R)))
    if "--write" in sys.argv:
        write_scenes(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                  "scenes"))
