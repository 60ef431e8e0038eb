// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The robot model's editable parameters as named scalars, '/' separated as everywhere in gapsim
/// (`LKneePitch/servo/gain_1_s`, `torso/mass_kg`, `solver/dt_s`, `contact/mu`), with bounds. The
/// GUI's robot panel edits a copy of the model through these names and saves them as a parameter
/// file: one `name value` per line, `#` comments, SI units as the names say.
///
/// Only what the current core model has: ideal servos, joint damping and friction, link masses,
/// solver and contact settings. The drivetrain parameters join under the same scheme when the
/// model carries them.

#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim::gui {

struct ModelParameter {
  std::string name;
  double value = 0;
  double min = 0, max = 0;  ///< inclusive
  bool integer = false;
  std::string unit;         ///< for tooltips ("1/s", "N m", ...)
};

/// All parameters of `model`, in a stable order (solver, contact, joints, links).
std::vector<ModelParameter> modelParameters(const RobotModel& model);

/// Sets one parameter on `model`. Throws InputError("", 0, name, ...) for an unknown name or a
/// value outside the bounds (or not an integer where one is required).
void setModelParameter(RobotModel& model, const std::string& name, double value);

/// Writes every parameter of `model` to `path` (InputError if the file cannot be written).
void saveParameterFile(const std::string& path, const RobotModel& model);

/// Applies a parameter file to `model`. Throws InputError(path, line, name, ...) on the first bad
/// line; `model` is then unchanged (the edits go to a copy first).
void loadParameterFile(const std::string& path, RobotModel& model);

}  // namespace gapsim::gui
