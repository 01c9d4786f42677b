"""Tests of pivot.World's actuators, sensors and copies, pivot.Env and pivot.Batch
(docs/python.md, docs/control.md "From Python"), run by CTest with the built module on
PYTHONPATH. Expected values are closed forms of the step (semi-implicit Euler under a constant
force), gravity at rest, and separate Worlds stepped one by one: a copy, a loaded World and a
batch copy must equal the World they stand for bit for bit."""

import copy
import math
import os
import pickle
import sys
import unittest
from pathlib import Path

import numpy as np

import pivot

SCENES = Path(os.environ.get("PIVOT_SCENES_DIR", Path(__file__).resolve().parents[2] / "scenes"))
CART_POLE = str(SCENES / "cart_pole.json")


def slider_world(h=1e-3):
    """a 2 kg box on a slider along +x (the world relative to the box: axis -x makes q = x)"""
    w = pivot.World(pivot.WorldSettings(time_step=h, gravity=(0, 0, 0)))
    box = w.add_body(name="box", mass=2.0, shape=pivot.shapes.box((0.1, 0.1, 0.1)))
    w.add_slider_joint(box, pivot.WORLD, anchor=(0, 0, 0), axis=(-1, 0, 0), name="rail")
    return w


def rich_world():
    """contacts (a box on a plane), joints (a pendulum on a hinge, a ball chain), an actuator
    (a position servo on the hinge), a constant force, a spring and sensors"""
    w = pivot.World(pivot.WorldSettings(time_step=2e-3))
    ground = w.add_body(name="ground", shape=pivot.shapes.plane((0, 0, 1), 0.0), fixed=True)
    box = w.add_body(name="box", mass=1.0, shape=pivot.shapes.box((0.1, 0.1, 0.1)),
                     position=(0, 0, 0.12), velocity=(0.3, 0, 0))
    arm = w.add_body(name="arm", mass=0.5, shape=pivot.shapes.capsule(0.03, 0.2),
                     position=(1, 0, 1.0), quat_wxyz=(math.cos(0.6), 0, math.sin(0.6), 0))
    bob = w.add_body(name="bob", mass=0.2, shape=pivot.shapes.sphere(0.05), position=(2, 0, 0.8))
    hinge = w.add_hinge_joint(arm, pivot.WORLD, anchor=(1, 0, 1.2), axis=(0, 1, 0),
                              name="shoulder")
    w.add_ball_joint(bob, pivot.WORLD, anchor=(2, 0, 1.1))
    w.add_force(box, force=(0.5, 0, 0))
    w.add_spring(bob, (0, 0, 0), ground, (2.5, 0, 0), stiffness=20.0, damping=0.5)
    w.add_actuator(hinge, type="position", kp=40.0, kd=2.0, effort_limit=3.0, target=0.2,
                   name="servo")
    w.add_sensor("joint", name="shoulder", joint="shoulder")
    w.add_sensor("contact", name="box_on_ground", body="box", other="ground")
    w.add_sensor("imu", name="imu", body="arm", position=(0, 0, 0.1))
    return w


def drive(worlds, steps, start=0):
    """the same changing targets for every World, then `steps` steps each"""
    for k in range(start, start + steps):
        for w in worlds:
            w.actuators["servo"].target = 0.3 * math.sin(0.05 * k)
            w.step()


def same(test, a, b, sensors=True):
    """equal states; with `sensors`, equal observations (a loaded World's sensors read the
    values now until its next step, without the last step's impulses, which are not saved)"""
    test.assertEqual(a.state_hash(), b.state_hash())
    k = 2 * len(a.actuators)
    np.testing.assert_array_equal(a.observation()[:k], b.observation()[:k])
    if sensors:
        np.testing.assert_array_equal(a.observation(), b.observation())
    np.testing.assert_array_equal(a.twists, b.twists)
    test.assertEqual(a.time, b.time)
    test.assertEqual(a.step_count, b.step_count)


class Actuators(unittest.TestCase):
    def test_effort_moves_as_the_closed_form(self):
        # a constant force F on mass m, semi-implicit Euler: v_n = n h F/m,
        # x_n = h² (F/m) n (n + 1) / 2
        h, F, m, n = 1e-3, 3.0, 2.0, 400
        w = slider_world(h)
        a = w.add_actuator("rail", type="effort", effort_limit=10.0)
        self.assertEqual(a, 0)
        self.assertEqual(list(w.actuators), ["rail"])  # the joint's name by default
        self.assertEqual(w.actuators.keys(), ["rail"])
        self.assertIn("rail", w.actuators)
        self.assertEqual(len(w.actuators), 1)
        w.actuators["rail"].target = F
        self.assertEqual(w.actuators["rail"].target, F)
        self.assertEqual(w.actuators[0].type, "effort")
        w.step(n)
        q, qd = w.observation()
        self.assertAlmostEqual(qd, n * h * F / m, delta=1e-12)
        self.assertAlmostEqual(q, h * h * F / m * n * (n + 1) / 2, delta=1e-12)
        self.assertAlmostEqual(w.positions[0, 0], q, delta=1e-12)
        self.assertEqual(w.actuators["rail"].effort, F)

    def test_effort_is_clamped_to_its_limit(self):
        w = slider_world()
        w.add_actuator(0, type="effort", effort_limit=1.5, target=-4.0, name="push")
        w.step(10)
        self.assertEqual(w.actuators["push"].effort, -1.5)
        self.assertAlmostEqual(w.twists[0, 3], -10 * 1e-3 * 1.5 / 2.0, delta=1e-15)

    def test_key_framed_target(self):
        w = slider_world()
        w.add_actuator("rail", target=[(0.0, 0.0), (1.0, 2.0)])
        w.step(500)
        self.assertAlmostEqual(w.actuators["rail"].target, 1.0, delta=1e-12)

    def test_bad_definitions_name_the_actuator(self):
        w = slider_world()
        bob = w.add_body(name="bob", mass=1.0, position=(0, 0, -1))
        w.add_ball_joint(bob, pivot.WORLD, anchor=(0, 0, 0), name="ball")
        for kwargs, words in [
            (dict(joint="ball", name="a1"), ["a1"]),
            (dict(joint="nowhere", name="a2"), ["nowhere"]),
            (dict(joint="rail", type="torque", name="a3"), ["torque"]),
            (dict(joint="rail", type="position", kp=-1.0, kd=1.0, name="a4"), ["a4"]),
            (dict(joint=7, name="a5"), ["a5"]),
        ]:
            with self.subTest(**kwargs), self.assertRaises(pivot.Error) as e:
                w.add_actuator(**kwargs)
            for word in words:
                self.assertIn(word, str(e.exception))
        self.assertEqual(len(w.actuators), 0)
        with self.assertRaises(KeyError):
            w.actuators["a1"]
        with self.assertRaises(IndexError):
            w.actuators[3]


class Sensors(unittest.TestCase):
    def test_imu_at_rest_reads_minus_g_and_joint_sensor_reads_q(self):
        g = 9.81
        w = pivot.World(pivot.WorldSettings(time_step=1e-3, gravity=(0, 0, -g)))
        # turned 90° about x: the sensor frame's y is the world's z
        box = w.add_body(name="box", mass=1.0, quat_wxyz=(math.sqrt(0.5), math.sqrt(0.5), 0, 0))
        w.add_fixed_joint(box, pivot.WORLD, anchor=(0, 0, 0))
        w.add_sensor("imu", name="imu", body="box")
        self.assertEqual(w.sensors["imu"].fields[:3], ["ax", "ay", "az"])
        w.step(20)
        a = w.sensors["imu"].read()
        self.assertIsInstance(a, np.ndarray)
        np.testing.assert_allclose(a[:3], [0, g, 0], atol=1e-9)
        self.assertEqual(w.sensors["imu"].time, w.time)  # observed after each step

        s = slider_world()
        s.add_actuator("rail", target=1.0)
        s.add_sensor("joint", name="rail", joint="rail")
        s.step(30)
        np.testing.assert_array_equal(s.sensors["rail"].read()[:2], s.observation()[:2])
        self.assertEqual(s.sensors["rail"].fields[:2], ["q", "qd"])
        self.assertEqual(len(s.observation()), 2 + len(s.sensors["rail"].fields))

    def test_actuator_sensor_reads_target_value_error_effort(self):
        s = slider_world()
        s.add_actuator("rail", type="position", kp=100.0, kd=10.0, effort_limit=50.0, target=0.2)
        s.add_sensor("actuator", name="servo", actuator="rail")
        s.step(5)
        self.assertEqual(s.sensors["servo"].fields, ["target", "value", "error", "effort"])
        target, value, error, effort = s.sensors["servo"].read()
        q = s.sensors["servo"].read()[1]
        self.assertEqual(target, 0.2)
        self.assertEqual(error, target - value)
        self.assertEqual(effort, s.actuators["rail"].effort)
        # the copy carries the actuator sensor too (a record of the World's construction)
        c = copy.deepcopy(s)
        np.testing.assert_array_equal(c.sensors["servo"].read(), [target, q, error, effort])
        with self.assertRaises(pivot.Error) as e:
            s.add_sensor("actuator", name="x", actuator="nobody")
        self.assertIn("nobody", str(e.exception))

    def test_bad_definitions_name_the_sensor(self):
        w = slider_world()
        for kwargs, word in [
            (dict(type="imu", name="s1", body=5), "s1"),
            (dict(type="joint", name="s2"), "s2"),
            (dict(type="gyro", name="s3", body=0), "gyro"),
            (dict(type="range", name="s4", body=0, max_range=-1.0), "s4"),
            (dict(type="joint", name="s5", joint=3), "s5"),
            (dict(type="imu", name="s6", body="nobody"), "nobody"),
        ]:
            with self.subTest(**kwargs), self.assertRaises(pivot.Error) as e:
                w.add_sensor(**kwargs)
            self.assertIn(word, str(e.exception))
        self.assertEqual(len(w.sensors), 0)
        w.add_sensor("imu", name="imu", body=0)
        with self.assertRaises(pivot.Error) as e:
            w.add_sensor("imu", name="imu", body=0)
        self.assertIn("imu", str(e.exception))
        w.step(3)  # no stale bad sensor left behind
        with self.assertRaises(KeyError):
            w.sensors["s1"]


class Copies(unittest.TestCase):
    def test_deepcopy_save_load_pickle_step_on_bit_for_bit(self):
        original = rich_world()
        drive([original], 150)
        self.assertGreater(len(original.contacts()["gap"]), 0)
        copies = [copy.deepcopy(original), copy.copy(original),
                  pivot.World.load(original.save()), pickle.loads(pickle.dumps(original))]
        for i, c in enumerate(copies):
            same(self, c, original, sensors=i < 2)
            self.assertEqual(list(c.actuators), ["servo"])
            self.assertEqual(list(c.sensors), ["shoulder", "box_on_ground", "imu"])
        drive([original] + copies, 300, start=150)
        for c in copies:
            with self.subTest(copy=copies.index(c)):
                same(self, c, original)
                for name in original.sensors:
                    np.testing.assert_array_equal(c.sensors[name].read(),
                                                  original.sensors[name].read())
        # copies are independent
        copies[1].step(5)
        self.assertEqual(original.step_count + 5, copies[1].step_count)

    def test_structure_added_after_steps_is_rebuilt_at_the_same_poses(self):
        w = rich_world()
        drive([w], 40)
        w.set_state(2, position=(1.1, 0, 0.95), quat_wxyz=(1, 0, 0, 0), twist=np.zeros(6))
        extra = w.add_body(name="extra", mass=0.3, shape=pivot.shapes.sphere(0.04),
                           position=(2, 0.2, 0.6))
        w.add_ball_joint(extra, w.find_body("bob"), anchor=(2, 0.1, 0.7))
        drive([w], 20, start=40)
        c = pivot.World.load(w.save())
        same(self, c, w, sensors=False)
        drive([w, c], 100, start=60)
        same(self, c, w)

    def test_scene_world_copies(self):
        w = pivot.load_scene(CART_POLE)
        w.actuators["push"].target = 2.0
        w.step(100)
        c = pivot.World.load(w.save())
        d = copy.deepcopy(w)
        for x in (w, c, d):
            x.actuators["push"].target = -1.0
            x.step(200)
        same(self, c, w)
        same(self, d, w)

    def test_restore_puts_the_state_back_in_place(self):
        w = rich_world()
        drive([w], 30)
        saved = w.save()
        twin = pivot.World.load(saved)
        drive([w], 50, start=30)
        w.restore(saved)
        same(self, w, twin, sensors=False)
        drive([w, twin], 50, start=30)
        same(self, w, twin)
        with self.assertRaises(pivot.Error):
            slider_world().restore(saved)

    def test_bad_bytes_are_refused(self):
        saved = rich_world().save()
        for bad in [b"", b"PIVOTCKP" + saved[8:], saved[:-1], saved[:100] + bytes([saved[100] ^ 1])
                    + saved[101:]]:
            with self.assertRaises(pivot.Error):
                pivot.World.load(bad)


class Env(unittest.TestCase):
    def test_reset_step_hooks(self):
        world = pivot.load_scene(CART_POLE)
        world.add_sensor("joint", name="pole", joint="pole_hinge")
        calls = []
        env = pivot.Env(world, reward=lambda w, o, a: -abs(o[2]), done=lambda w, o: abs(o[2]) > 0.3,
                        on_reset=lambda w: calls.append(w.time), steps=5, max_steps=1000)
        self.assertEqual(env.action_size, 1)
        first = env.reset()
        self.assertEqual(calls, [0.0])
        np.testing.assert_array_equal(first[:4], [0, 0, 0, 0])
        # an unbalanced push: the pole leans back (θ < 0) until done
        trace = []
        done = False
        while not done:
            o, r, done, info = env.step([5.0])
            trace.append(o)
            self.assertEqual(r, -abs(o[2]))
        self.assertFalse(info["truncated"])
        self.assertGreater(o[2] * -1, 0.3)
        self.assertAlmostEqual(info["time"], env.step_count * 5e-3, delta=1e-12)
        # reset puts the World back in place: the same actions give the same observations
        np.testing.assert_array_equal(env.reset(), first)
        self.assertIs(env.world, world)
        for expected in trace:
            np.testing.assert_array_equal(env.step([5.0])[0], expected)
        with self.assertRaises(ValueError) as e:
            env.step([1.0, 2.0])
        self.assertIn("(1,)", str(e.exception))


class Batch(unittest.TestCase):
    def test_eight_copies_equal_eight_separate_runs(self):
        n, rounds, steps = 8, 40, 5
        batch = pivot.Batch(CART_POLE, n)
        self.assertEqual((batch.size, batch.action_size, batch.observation_size), (n, 1, 2))
        rng = np.random.default_rng(3)
        actions = rng.uniform(-15, 15, size=(rounds, n, 1))
        worlds = [pivot.load_scene(CART_POLE) for _ in range(n)]
        for r in range(rounds):
            got = batch.step(actions[r], steps=steps)
            self.assertEqual(got.shape, (n, 2))
            for i, w in enumerate(worlds):
                w.actuators["push"].target = actions[r, i, 0]
                w.step(steps)
                np.testing.assert_array_equal(got[i], w.observation())
        self.assertEqual(batch.state_hashes(), [w.state_hash() for w in worlds])
        self.assertEqual(len(set(batch.state_hashes())), n)  # different actions, different runs
        # reset: the initial state again, and the same run again
        np.testing.assert_array_equal(batch.reset(), np.zeros((n, 2)))
        for r in range(rounds):
            batch.step(actions[r], steps=steps)
        self.assertEqual(batch.state_hashes(), [w.state_hash() for w in worlds])

    def test_wrong_shapes_name_the_expected_shape(self):
        batch = pivot.Batch("cart_pole", 8)
        for bad in [np.zeros(8), np.zeros((8, 2)), np.zeros((7, 1)), np.zeros((8, 1, 1))]:
            with self.subTest(shape=bad.shape), self.assertRaises(ValueError) as e:
                batch.step(bad)
            self.assertIn("(8, 1)", str(e.exception))
        with self.assertRaises(pivot.Error):
            batch.step(np.full((8, 1), np.nan))
        with self.assertRaises(pivot.Error):
            batch.step(np.zeros((8, 1)), steps=0)
        with self.assertRaises(pivot.Error):
            pivot.Batch("cart_pole", 0)


class Stub(unittest.TestCase):
    def test_the_stub_names_what_the_module_has(self):
        # every method and property the stub gives World, Batch, Env, Actuator and Sensor exists
        import re
        stub = (Path(__file__).resolve().parents[2] / "python/pivot/__init__.pyi").read_text()
        for cls in ["World", "Batch", "Env", "Actuator", "Sensor"]:
            block = re.search(rf"^class {cls}\b.*?(?=^class |^def |\Z)", stub, re.S | re.M).group(0)
            names = set(re.findall(r"^    def (\w+)", block, re.M))
            names |= set(re.findall(r"^    (\w+): ", block, re.M))
            self.assertTrue(names, cls)
            for name in names - {"__init__"}:
                with self.subTest(cls=cls, name=name):
                    self.assertTrue(hasattr(getattr(pivot, cls), name) or
                                    name in ("world", "steps", "max_steps", "step_count"),
                                    f"pivot.{cls}.{name}")


if __name__ == "__main__":
    print(f"pivot {pivot.__version__} from {pivot.__file__}", file=sys.stderr)
    unittest.main(verbosity=2)
