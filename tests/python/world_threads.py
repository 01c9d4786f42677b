"""Two threads hammer one pivot.World (tests/python/test_pivot.py, class Threads): thread A
steps it in chunks (World.step releases the GIL), thread B adds bodies, steps and reads the
positions meanwhile. Every call either runs whole or raises RuntimeError "World is in use by
another thread"; the World must stay consistent. Runs in a child process (a crash, as an
unguarded World gave, is then a failed test, not a dead test runner) and prints one JSON line
of counts for the parent to check."""

import json
import threading
import time

import numpy as np

import pivot

SECONDS = 1.5

w = pivot.World(pivot.WorldSettings(time_step=1e-3))
w.add_body(name="ground", fixed=True, shape=pivot.shapes.box((5.0, 5.0, 0.5)),
           position=(0, 0, -0.5))
for i in range(6):
    w.add_body(name=f"box{i}", mass=1.0, shape=pivot.shapes.box((0.1, 0.1, 0.1)),
               position=(0.3 * i, 0.0, 0.1 + 0.25 * i))
start_bodies = w.body_count

counts = {"a_steps": 0, "a_refused": 0, "b_steps": 0, "b_adds": 0, "b_reads": 0,
          "b_refused": 0, "other_errors": []}
lock = threading.Lock()
deadline = time.monotonic() + SECONDS


def refused(e, who):
    if "in use by another thread" not in str(e):
        with lock:
            counts["other_errors"].append(f"{who}: {e!r}")
        return
    with lock:
        counts[who + "_refused"] += 1


def thread_a():
    while time.monotonic() < deadline:
        try:
            w.step(20)
            counts["a_steps"] += 20
        except RuntimeError as e:
            refused(e, "a")


def thread_b():
    k = 0
    while time.monotonic() < deadline:
        k += 1
        try:
            if k % 3 == 0:
                w.add_body(name=f"ball{k}", mass=0.5, shape=pivot.shapes.sphere(0.05),
                           position=(-1.0, 0.05 * (k % 40), 0.5))
                counts["b_adds"] += 1
            elif k % 3 == 1:
                w.step(1)
                counts["b_steps"] += 1
            else:
                p = w.positions
                assert np.isfinite(p).all()
                counts["b_reads"] += 1
        except RuntimeError as e:
            refused(e, "b")


threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
for t in threads:
    t.start()
for t in threads:
    t.join()
counts["step_count"] = w.step_count
counts["body_count"] = w.body_count
counts["start_bodies"] = start_bodies
counts["finite"] = bool(np.isfinite(w.positions).all() and np.isfinite(w.twists).all())
print(json.dumps(counts))
