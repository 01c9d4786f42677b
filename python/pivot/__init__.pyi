# Type stubs of the pivot Python module (docs/python.md).
from os import PathLike
from pathlib import Path
from typing import Any, Literal, Sequence, overload

import numpy as np
import numpy.typing as npt

from . import lcp as lcp, shapes as shapes

__version__: str
WORLD: int  # the world as a joint's or spring's body (-1)

Vector3 = Sequence[float] | npt.NDArray[np.float64]
Scene = str | PathLike[str] | dict[str, Any]

class Error(ValueError):
    source: str  # the input (a file, or "<dict>"); "" when not about an input
    place: str  # a JSON pointer ("/bodies/2/mass") or "line L, column C"; may be ""

class Shape:
    @property
    def type(self) -> str: ...

class WorldSettings:
    def __init__(self, **settings: Any) -> None: ...
    # generated: the settings table (engine/world_settings_table.hpp, settings-tables --write)
    time_step: float  # s
    gravity: npt.NDArray[np.float64]  # m/s²
    friction_directions: int
    stabilization: str  # "post", "baumgarte" or "none"
    hybrid: bool
    baumgarte_alpha: float  # 1/s
    implicit_forces: bool
    contact_margin: float  # m
    restitution_threshold: float  # m/s
    post_step_cap: float  # m
    max_post_steps: int
    limit_margin: float  # m
    hybrid_entry_steps: int
    hybrid_point_tolerance: float  # m
    hybrid_max_normal_speed: float  # m/s
    hybrid_dt_max: float  # s
    hybrid_tolerance: float
    hybrid_mu_static: float
    hybrid_mu_spin_static: float  # m
    hybrid_slip_threshold: float  # m/s
    hybrid_spin_threshold: float  # rad/s
    hybrid_min_slide_time: float  # s
    hybrid_rolling: bool
    hybrid_slip_regularization: float  # m/s
    hybrid_mu_rolling: float  # m
    hybrid_mu_spinning: float  # m
    hybrid_rolling_stick: bool
    hybrid_torque_regularization: float  # rad/s
    dimension: int
    friction_direction_offset: float  # rad
    threads: int
    small_islands: bool
    record_lcps: bool
    profile: bool
    # end of the generated settings

class World:
    # one call at a time: a call while another thread's call (e.g. its step, which releases
    # the GIL) is running raises RuntimeError("World is in use by another thread ...")
    def __init__(self, settings: WorldSettings | None = None) -> None: ...
    def add_body(self, name: str = "", mass: float = 1.0, shape: Shape | None = None,
                 position: Vector3 = ..., quat_wxyz: Sequence[float] = ...,
                 velocity: Vector3 = ..., angular_velocity: Vector3 = ..., fixed: bool = False,
                 density: float = 0.0, inertia_diag: Vector3 | None = None,
                 friction: float = 0.5, restitution: float = 0.0) -> int: ...
    def add_ball_joint(self, body_a: int, body_b: int, anchor: Vector3, name: str = "") -> int: ...
    def add_hinge_joint(self, body_a: int, body_b: int, anchor: Vector3, axis: Vector3,
                        limits: tuple[float, float] | None = None,
                        motor: tuple[float, float] | None = None, name: str = "") -> int: ...
    def add_slider_joint(self, body_a: int, body_b: int, anchor: Vector3, axis: Vector3,
                         limits: tuple[float, float] | None = None,
                         motor: tuple[float, float] | None = None, name: str = "") -> int: ...
    def add_universal_joint(self, body_a: int, body_b: int, anchor: Vector3, axis_a: Vector3,
                            axis_b: Vector3, name: str = "") -> int: ...
    def add_fixed_joint(self, body_a: int, body_b: int, anchor: Vector3, name: str = "") -> int: ...
    def add_force(self, body: int, force: Vector3 = ..., torque: Vector3 = ...) -> None: ...
    def add_spring(self, body_a: int, point_a: Vector3, body_b: int, point_b: Vector3,
                   stiffness: float, damping: float = 0.0, rest_length: float = 0.0) -> None: ...
    def step(self, n: int = 1) -> dict[str, Any]: ...
    @property
    def time(self) -> float: ...
    @property
    def step_count(self) -> int: ...
    @property
    def body_count(self) -> int: ...
    @property
    def joint_count(self) -> int: ...
    @property
    def settings(self) -> WorldSettings: ...  # a copy
    def find_body(self, name: str) -> int: ...
    @property
    def positions(self) -> npt.NDArray[np.float64]: ...  # (n, 3)
    @property
    def quaternions_wxyz(self) -> npt.NDArray[np.float64]: ...  # (n, 4)
    @property
    def twists(self) -> npt.NDArray[np.float64]: ...  # (n, 6): ω then v
    def set_state(self, body: int, position: Vector3, quat_wxyz: Sequence[float],
                  twist: Sequence[float]) -> None: ...
    def apply_impulse(self, body: int, impulse: Vector3, point: Vector3) -> None: ...
    def contacts(self) -> dict[str, npt.NDArray[Any]]: ...
    def report(self) -> dict[str, Any]: ...
    def kinetic_energy(self) -> float: ...
    def potential_energy(self) -> float: ...
    def max_joint_error(self) -> float: ...
    def max_penetration(self) -> float: ...
    def joint_impulse(self, joint: int) -> npt.NDArray[np.float64]: ...
    def set_hybrid(self, on: bool) -> None: ...
    def state_hash(self) -> str: ...

def load_scene(scene: Scene) -> World: ...
@overload
def run_scene(scene: Scene, duration: float | None = None,
              frames: Literal[False] = False) -> tuple[World, dict[str, Any]]: ...
@overload
def run_scene(scene: Scene, duration: float | None = None, *, frames: Literal[True]
              ) -> tuple[World, dict[str, Any], dict[str, npt.NDArray[np.float64]]]: ...
def run(scene: Scene, duration: float | None = None,
        out: str | PathLike[str] | None = None) -> dict[str, Any]: ...
def cli_path() -> str: ...
def scene_folders() -> list[Path]: ...
