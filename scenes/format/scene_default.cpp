// The built-in default scene of `pivot run` with no scene file; scenes/default.json holds the
// same text (tests/scenes checks that both resolve to the same scene).
#include "pivot/scenes/scene.hpp"

namespace pivot {

std::string_view default_scene_json() {
  static constexpr std::string_view kText = R"json({
  "pivot_scene": 1,
  "name": "default",
  "description": "Six 0.2 m boxes on ball joints, pinned to the world at one end, start 30 degrees below the horizontal turning at 2 rad/s about the vertical through the pin, and swing under gravity. Needs no contacts.",
  "settings": {
    "dt": 0.001,
    "duration": 2,
    "gravity": [0, 0, -9.81],
    "stabilization": "post",
    "output_rate_hz": 100
  },
  "bodies": [
    {
      "name": "link1",
      "shape": {"type": "box", "half_extents": [0.1, 0.02, 0.02]},
      "mass": 0.5,
      "position": [0.0866025403784, 0, 1.45],
      "quat_wxyz": [0.965925826289, 0, 0.258819045103, 0],
      "velocity": [0, 0.173205080757, 0],
      "angular_velocity": [0, 0, 2]
    },
    {
      "name": "link2",
      "shape": {"type": "box", "half_extents": [0.1, 0.02, 0.02]},
      "mass": 0.5,
      "position": [0.259807621135, 0, 1.35],
      "quat_wxyz": [0.965925826289, 0, 0.258819045103, 0],
      "velocity": [0, 0.519615242271, 0],
      "angular_velocity": [0, 0, 2]
    },
    {
      "name": "link3",
      "shape": {"type": "box", "half_extents": [0.1, 0.02, 0.02]},
      "mass": 0.5,
      "position": [0.433012701892, 0, 1.25],
      "quat_wxyz": [0.965925826289, 0, 0.258819045103, 0],
      "velocity": [0, 0.866025403784, 0],
      "angular_velocity": [0, 0, 2]
    },
    {
      "name": "link4",
      "shape": {"type": "box", "half_extents": [0.1, 0.02, 0.02]},
      "mass": 0.5,
      "position": [0.606217782649, 0, 1.15],
      "quat_wxyz": [0.965925826289, 0, 0.258819045103, 0],
      "velocity": [0, 1.2124355653, 0],
      "angular_velocity": [0, 0, 2]
    },
    {
      "name": "link5",
      "shape": {"type": "box", "half_extents": [0.1, 0.02, 0.02]},
      "mass": 0.5,
      "position": [0.779422863406, 0, 1.05],
      "quat_wxyz": [0.965925826289, 0, 0.258819045103, 0],
      "velocity": [0, 1.55884572681, 0],
      "angular_velocity": [0, 0, 2]
    },
    {
      "name": "link6",
      "shape": {"type": "box", "half_extents": [0.1, 0.02, 0.02]},
      "mass": 0.5,
      "position": [0.952627944163, 0, 0.95],
      "quat_wxyz": [0.965925826289, 0, 0.258819045103, 0],
      "velocity": [0, 1.90525588833, 0],
      "angular_velocity": [0, 0, 2]
    }
  ],
  "joints": [
    {"type": "ball", "name": "pin", "body_a": "link1", "body_b": "world", "anchor": [0, 0, 1.5]},
    {
      "type": "ball",
      "name": "joint1",
      "body_a": "link2",
      "body_b": "link1",
      "anchor": [0.173205080757, 0, 1.4]
    },
    {
      "type": "ball",
      "name": "joint2",
      "body_a": "link3",
      "body_b": "link2",
      "anchor": [0.346410161514, 0, 1.3]
    },
    {
      "type": "ball",
      "name": "joint3",
      "body_a": "link4",
      "body_b": "link3",
      "anchor": [0.519615242271, 0, 1.2]
    },
    {
      "type": "ball",
      "name": "joint4",
      "body_a": "link5",
      "body_b": "link4",
      "anchor": [0.692820323028, 0, 1.1]
    },
    {
      "type": "ball",
      "name": "joint5",
      "body_a": "link6",
      "body_b": "link5",
      "anchor": [0.866025403784, 0, 1]
    }
  ]
}
)json";
  return kText;
}

}  // namespace pivot
