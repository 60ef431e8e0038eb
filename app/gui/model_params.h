// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The robot panel's view of the model's parameters: the named drivetrain, servo, friction and
/// soft-body parameters of sim/parameters.h, the names `gapsim-cli params` lists and `--set`
/// takes (`LKneePitch/servo/gain`, `legs/typeA/gear/D_g`, ...), and its parameter files
/// (CSV `name,value`). Here only as thin wrappers that edit a copy, so a failed file leaves the
/// model as it was.

#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim::gui {

struct ModelParameter {
  std::string name;
  double value = 0;
  std::string unit;  ///< "1/s", "N m", ...
  std::string description;
};

/// All parameters of `model` (sim/parameters.h's listParameters).
std::vector<ModelParameter> modelParameters(const RobotModel& model);

/// Sets one parameter (InputError for an unknown name or an invalid value; model unchanged then).
void setModelParameter(RobotModel& model, const std::string& name, double value);

/// Writes every parameter of `model` to `path` (InputError if that fails).
void saveParameterFile(const std::string& path, const RobotModel& model);

/// Applies a parameter file to `model`; on InputError (file, line, name) `model` is unchanged.
void loadParameterFile(const std::string& path, RobotModel& model);

}  // namespace gapsim::gui
