// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Internal to the compile step (sim/compile*.cpp): what the decisions share while they run.

#include <Eigen/Geometry>
#include <vector>

#include "sim/compiled_model.h"
#include "sim/reality.h"
#include "sim/robot_model.h"

namespace gapsim::detail {

/// What the compile step's functions read and write: the model, the output, and the link
/// structure decided on the way (rigid groups, poses).
struct CompileContext {
  const RobotModel& m;
  CompiledModel& out;
  std::vector<bool> rigid;                      ///< per joint: fixed, or welded
  std::vector<int> group_of;                    ///< per link: first link of its rigid group
  std::vector<bool> is_static;                  ///< per link: fixed to the world
  std::vector<const SoftLink*> soft_of;         ///< per link: its soft-link spec (segments > 1), or null
  std::vector<int> moving_joint;                ///< per link: the non-rigid joint whose child it is, or -1
  std::vector<Eigen::Isometry3d> pose_build;    ///< link poses, build configuration
  std::vector<Eigen::Isometry3d> pose_initial;  ///< link poses, initial pose
  const RealityEffects* reality = nullptr;      ///< drive effects wrapped around each hinge drive (sim/reality.h)
  struct SoftPlan {
    const SoftLink* spec;
    int first_body;
    Eigen::Vector3d axis_link;  ///< link frame vector from the link origin to its child joint
  };
  std::vector<SoftPlan> soft_plans;
};

/// Bodies: rigid groups and soft segments with their mass properties (sim/compile_bodies.cpp).
void compileBodies(CompileContext& c);
/// Light bodies between two heavier ones get their lighter neighbour's smallest principal moment
/// (SolverSettings::light_link_mass_ratio; sim/compile_light_links.cpp).
void regulariseLightLinks(CompileContext& c);
/// Robot joints, their drives and damper rows (sim/compile_joints.cpp).
void compileJoints(CompileContext& c);
/// Universal joints between soft-link segments (sim/compile_joints.cpp).
void compileSoftJoints(CompileContext& c);
/// The planar base's motor rows (sim/compile_joints.cpp).
void compilePlanarBase(CompileContext& c);

}  // namespace gapsim::detail
