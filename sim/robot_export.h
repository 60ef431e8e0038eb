// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A RobotModel (with calibrated parameters applied, e.g. by loadParameterFile) written for other
/// simulators: URDF and MuJoCo's MJCF (`gapsim-cli export`, docs/robot-format.md "Export").
///
/// URDF keeps every link's mass, COM and inertia, every joint's frame, axis, limits, mimic, and
/// the joint friction that runs (the file's `<dynamics friction>` plus the drivetrain's dry
/// friction) and damping, geometry with the URIs and colours of the file. Numbers are written as the
/// shortest text that reads back as the same double: a URDF read by gapsim and written again keeps
/// its numbers exactly (rotations to rounding, ~1e-16, through rpy).
/// What URDF cannot say (drivetrains, armature, soft links, sensors, the `<gapsim>` element) is not
/// written. A floating base is the URDF default; a planar base is a `planar` joint from `world`.
///
/// MJCF (MuJoCo 2.2): links joined by fixed joints (or welded by the compile step) become one body
/// with the combined inertia; a free root gets a `<freejoint>`, a `world` root is the world body;
/// hinge and slide joints with range, damping, `frictionloss` (the dry friction) and `armature`
/// (the drivetrain's reflected rotor inertia, at least kp dt^2 / margin^2 on actuated joints: see
/// MjcfOptions); mimic joints as `<equality><joint polycoef>`; collision geometry as primitives or
/// inline meshes (MuJoCo collides their hulls, as gapsim does); every actuated joint a `<position>`
/// actuator, with the Dynamixel's kp, kd, Coulomb term and torque clamp where the joint has one.
/// MuJoCo 2.2 has no DC-motor actuator, so a MoToFlex joint is a position servo of gain kp_Nm_rad
/// and force limit the joint's effort.

#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim {

std::string writeUrdf(const RobotModel& m);

/// Actuator and joint settings of the MJCF (measured with bench/mujoco_walk.cpp). Why these numbers:
///  - kp_Nm_rad = 200: the walk needs the servos to hold the leg geometry under load. The stance
///    knee of the walking Nao carries torques of the order of its 3 N m effort limit (5 kg, COM
///    some centimetres behind the bent knee), so at kp = 100 the knee lags 0.03 rad before it
///    saturates and the robot falls after 3 s of walking. Of kp = 100, 150, 175,
///    200, 225, 250 (walk_200mm_s_1s.csv, ankle balance on) only 175 and 200 walked the whole
///    motion; the others fell after 3 to 6 s. A position-controlled walk is chaotic: small
///    changes (a gain, the mimic joint's armature) flip the outcome, so do not read more into it.
///  - force limit: Joint::servo.fmax_Nm, which the loader sets to the URDF effort limit (3.0 to
///    3.3 N m on the Nao's legs): the cap of gapsim's ideal servo, which --plain walks with.
///  - damping 0.5 N m s/rad (plus the file's joint damping): about critical on a leg joint
///    (effective inertia ~2e-3 kg m^2 with the reflected rotor, c = 2 sqrt(kp I) = 1.3) and a lag
///    c/kp of 2.5 ms, well under the 10 ms balance period (0.8 fell in every trial, 0.3 in most).
///    MuJoCo's Euler integrator treats joint damping implicitly, so it costs no stability.
///  - armature: the reflected rotor inertia sigma^2 J_rotor of the joint's drivetrain (what gapsim
///    adds to the body), but on an actuated joint at least kp dt^2 / 0.5^2 = 8e-4 kg m^2. Why the
///    floor: the position actuator's spring is explicit in MuJoCo's semi-implicit Euler, which is
///    stable for w dt < 2 with w = sqrt(kp / I); the floor keeps w dt <= 0.5 even for a hand or
///    wrist whose own inertia is ~1e-5 kg m^2 (w dt > 2 without it: the arm explodes).
struct MjcfOptions {
  double kp_Nm_rad = 200.0;       ///< position actuator gain of joints without their own (ideal, MoToFlex)
  double damping_Nms_rad = 0.5;   ///< added to actuated (and mimic) joints
  double stability_margin = 0.5;  ///< required w dt of the stiffest actuated joint
  bool joint_friction = true;     ///< write the dry friction as frictionloss
  std::string model_name;         ///< default: the robot's name
};

struct Mjcf {
  std::string xml;
  std::vector<std::string> body_of_link;  ///< MuJoCo body carrying each link ("world" for static links)
};

Mjcf writeMjcf(const RobotModel& m, const MjcfOptions& options = {});

}  // namespace gapsim
