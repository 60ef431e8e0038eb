// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Every drivetrain and soft-body parameter of a robot, addressable by name:
///   <joint or group>/<component>/<param>     e.g. legs/typeA/gear/D_g, LKneePitch/motor/B_v
///   <soft group or link>/<param>             e.g. legs/soft/D_B, LThigh/soft/D_B
///   link/<link>/{mass,com_x,com_y,com_z}     rigid-body data of a link with an inertial (kg; m in
///                                            the link frame); a new mass scales the inertia tensor
///                                            by new/old (same radius of gyration)
///   scene/<box>/{x,y,z}                      centre of a static scene box (a wall) in the world
///   contact/mu                               Coulomb friction of every contact (floor, scene boxes)
/// `*` as prefix addresses every joint that has the parameter (`*/enable/gear=0`). The same names
/// serve `--set`, parameter files, the GUI panels and calibration.
///
/// Parameter files are CSV with a header `name,value` (further columns, e.g. the bounds of a
/// calibration's parameter space, are allowed and ignored here); `#` lines are comments.

#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim {

struct ParameterEntry {
  std::string name;
  double value = 0;
  std::string unit;
  std::string description;
  /// A derived view (motorgear::ParamInfo::sets): the full name of the parameter setting this one
  /// sets; empty for a field of its own.
  std::string sets = {};
};

/// All names with their current values: group-level names first (value of the group's first
/// member), then per joint and per soft link.
std::vector<ParameterEntry> listParameters(const RobotModel& model);

/// Sets `name` on every joint or soft link it addresses and re-validates what changed. Throws
/// InputError(file, line, name, ...) for an unknown name or an invalid value; file and line only
/// serve the message.
void setParameter(RobotModel& model, const std::string& name, double value, const std::string& file = "", int line = 0);

/// Refuses, with InputError(file, line, name, ...), a value outside the plausible range of the
/// parameter's unit (sim/plausible.h: e.g. 1e-320 V s/rad as a back-EMF constant, a 1e6 m COM).
/// `what` (e.g. "lower bound") goes before the value in the message. Unknown names pass:
/// setParameter names them.
void checkParameterValue(const RobotModel& model, const std::string& name, double value, const std::string& file = "",
                         int line = 0, const std::string& what = "");

/// checkParameterValue, then setParameter: for a value a user wrote (a parameter file, --set, a
/// robot file's <param>). Programs that compute a value call setParameter.
void setInputParameter(RobotModel& model, const std::string& name, double value, const std::string& file = "",
                       int line = 0);

/// Parses "name=value" (the command line's --set) and applies it with setInputParameter.
void setParameterAssignment(RobotModel& model, const std::string& assignment);

/// Applies a parameter file (setInputParameter per line); on an error (InputError with file, line, name) the model is
/// unchanged.
void loadParameterFile(RobotModel& model, const std::string& path);

/// Writes every parameter (listParameters) as a parameter file.
void writeParameterFile(const RobotModel& model, const std::string& path);

/// "Plain ODE": every joint an ideal position servo, every link rigid, and the solver's inertia
/// floor and QuickStep iterations the ones the file states for plain runs
/// (SolverSettings::plain_min_inertia_kgm2, plain_iterations), if any.
void makePlain(RobotModel& model);

}  // namespace gapsim
