// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The parameter registry of a robot model: every parameter a user can address by name, as a
/// list of subtrees. A subtree is a prefix (a joint, a drivetrain group, `link/<name>`, `solver`,
/// a MABEL leg, ...) with the leaves of one field table (motorgear/param_access.h) and the objects
/// of the model it reads and writes; a parameter's name is `<prefix>/<leaf>`. listParameters,
/// setParameter, the plausibility check of a value a user wrote, `gapsim-cli params`, the GUI's
/// parameter tree and calibration spaces all go through this list (sim/parameters.h is their
/// interface), so a parameter added here is known to every one of them.
///
/// Where a parameter lives:
///   joint drives           <joint>/<leaf>, <drivetrain group>/<leaf>, */<leaf> (every joint with it)
///   soft links             <link>/soft/<leaf>, <soft group>/<leaf>, */soft/<leaf>
///   rigid-body data        link/<link with an inertial>/{mass,com_x,com_y,com_z}
///   MABEL                  <mabel_leg name>/<leaf>, <compliant_ground name>/<leaf>
///   world                  contact/mu, solver/{iterations,iterations_plain,min_inertia,...}
///   scene                  scene/<box>/{x,y,z}
///   reality effects        reality/{command_delay_s,backlash_rad,...,imu_bias_rad,gyro_bias_rad_s}
///                          (listed where not off; sim/reality_effects.h)

#include <functional>
#include <string>
#include <vector>

#include "motorgear/param_access.h"
#include "sim/robot_model.h"

namespace gapsim {

struct ParamSubtree {
  std::string prefix;                          ///< "LKneePitch", "legs/typeA", "link/Torso", "solver"
  std::vector<motorgear::ParamInfo> leaves;    ///< listed (listParameters) and settable
  std::vector<motorgear::ParamInfo> unlisted;  ///< settable only: wildcards, options the file leaves unset
  /// The leaf's value (of the subtree's first object for a group).
  std::function<double(const RobotModel&, const std::string& leaf)> get;
  /// Sets the leaf on every object of the subtree and validates each; all or nothing. Throws
  /// std::invalid_argument with the rule the value breaks.
  std::function<void(RobotModel&, const std::string& leaf, double value)> set;
  /// The first name component shared by the family ("link", "solver"), and how its names are
  /// formed, for the message on a name of that family that names nothing.
  std::string family, family_form;
};

/// Every subtree of `model`, in listing order: drivetrain and soft groups, joints, soft links,
/// links, MABEL legs and grounds, contact, solver, scene boxes, reality effects; the wildcards last. The
/// subtrees refer to joints, links and boxes by index: use them with `model` or a copy of it
/// whose structure is unchanged (parameter values may differ).
std::vector<ParamSubtree> parameterTree(const RobotModel& model);

/// A name resolved in a tree: the subtree and the leaf (a pointer into the subtree's leaves).
struct ParamMatch {
  const ParamSubtree* subtree = nullptr;
  const motorgear::ParamInfo* leaf = nullptr;
};

/// Every subtree that `name` addresses (a group and a joint of the same name are both hit).
std::vector<ParamMatch> findParameter(const std::vector<ParamSubtree>& tree, const std::string& name);

/// Why `name` names nothing in `model` (whose tree is `tree`): the family's form when the first
/// component names a family, the closest listed name when one is near, and the command that
/// lists them all.
std::string unknownParameterMessage(const std::vector<ParamSubtree>& tree, const std::string& name,
                                    const RobotModel& model);

}  // namespace gapsim
