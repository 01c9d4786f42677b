"""pivot.Env: a World as a control environment (docs/python.md "Control environments").

    env = pivot.Env(pivot.load_scene("cart_pole"), reward=..., done=...)
    observation = env.reset()
    observation, reward, done, info = env.step(action)   # action: the actuators' targets

Pure Python over pivot.World; no dependency beyond NumPy.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ._pivot import World


class Env:
    """A World as an environment: reset() → observation, step(action) → (observation, reward,
    done, info).

    action: one target per actuator, in actuator order (world.actuators[i].target), held for
    `steps` steps of the World. The observation is observe(world) (default:
    world.observation(), each actuated joint's (q, q̇) then the sensors' values). reward(world,
    observation, action) → float (default 0); done(world, observation) → bool (default never);
    on_reset(world) runs after reset() restored the initial state, e.g. to perturb it;
    max_steps: done after this many step() calls (info["truncated"] is True then).

    reset() puts back the state the World had when the Env was made (World.save/restore), in
    place: `env.world` stays the same object.
    """

    def __init__(self, world: World, *,
                 reward: Callable[[World, np.ndarray, np.ndarray], float] | None = None,
                 done: Callable[[World, np.ndarray], bool] | None = None,
                 observe: Callable[[World], np.ndarray] | None = None,
                 on_reset: Callable[[World], None] | None = None,
                 steps: int = 1, max_steps: int | None = None) -> None:
        if steps < 1:
            raise ValueError(f"Env: steps must be at least 1 (got {steps})")
        self.world = world
        self.steps = steps
        self.max_steps = max_steps
        self.step_count = 0
        self._reward = reward
        self._done = done
        self._observe = observe if observe is not None else World.observation
        self._on_reset = on_reset
        self._actuators = [world.actuators[i] for i in range(len(world.actuators))]
        self._initial = world.save()

    @property
    def action_size(self) -> int:
        """k: the World's actuator count"""
        return len(self._actuators)

    def reset(self) -> np.ndarray:
        """the initial state back (and on_reset); returns the observation"""
        self.world.restore(self._initial)
        if self._on_reset is not None:
            self._on_reset(self.world)
        self.step_count = 0
        return np.asarray(self._observe(self.world), dtype=np.float64)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, dict[str, Any]]:
        """sets the actuators' targets to `action`, steps; returns (observation, reward, done,
        info) with info = {"time", "report" (the last step's), "truncated"}"""
        a = np.asarray(action, dtype=np.float64).reshape(-1)
        if a.shape != (self.action_size,):
            raise ValueError(f"Env.step: the action must have shape ({self.action_size},), one "
                             f"target per actuator (got {np.shape(action)})")
        for actuator, target in zip(self._actuators, a):
            actuator.target = float(target)
        report = self.world.step(self.steps)
        self.step_count += 1
        observation = np.asarray(self._observe(self.world), dtype=np.float64)
        reward = 0.0 if self._reward is None else float(self._reward(self.world, observation, a))
        done = False if self._done is None else bool(self._done(self.world, observation))
        truncated = self.max_steps is not None and self.step_count >= self.max_steps
        info = {"time": self.world.time, "report": report, "truncated": truncated}
        return observation, reward, done or truncated, info
