#pragma once
// pivot.World's actuators, sensors, observation and copies (docs/python.md "Actuators and
// sensors", "Copies and checkpoints"), bound on the World class by bind_world.

#include <pybind11/pybind11.h>

#include "world_handle.hpp"

namespace pivot::python {

void bind_world_control(pybind11::module_& m, pybind11::class_<WorldHandle>& world);

}  // namespace pivot::python
