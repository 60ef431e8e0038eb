// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Forward kinematics of a RobotModel's link tree (pure Eigen, no ODE): the world pose of every
/// link frame for given joint values. The ODE builder uses it to place bodies, the ground
/// clearance of the initial pose is computed from it, and tests cross-check ODE against it.

#include <vector>

#include "sim/robot_model.h"

namespace gapsim {

/// World pose of every link frame. `q` has one value per joint (rad or m; ignored for fixed
/// joints). The root link sits at `root_pose` (identity for the `world` root).
std::vector<Eigen::Isometry3d> linkPoses(const RobotModel& m, const std::vector<double>& q,
                                         const Eigen::Isometry3d& root_pose);

/// The pose of a joint's child link frame relative to its parent link frame at value q.
Eigen::Isometry3d jointTransform(const Joint& j, double q);

/// Lowest z (m) of the collision geometry of all links that are not fixed to `world`.
/// Returns +infinity when there is no collision geometry.
double lowestCollisionPoint_m(const RobotModel& m, const std::vector<Eigen::Isometry3d>& link_poses);

/// The root pose the model starts from: initial_root_pose, lowered or raised so that the lowest
/// collision geometry is ground_clearance_m above z = 0 when the model asks for that.
Eigen::Isometry3d initialRootPose(const RobotModel& m);

}  // namespace gapsim
