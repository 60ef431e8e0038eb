// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The kinds of joint drive (robot_model.h DriveKind), each answered by its row here: its name in
/// the robot file and in `info --compiled`, which joints it can drive, which of the joint's own
/// settings apply, its parameter leaves, presets and reflected inertia. Building the motorgear
/// drive that runs a kind is sim/drive_registry.h. A new kind: a motorgear class, a row here and a
/// case in each switch of drive_kinds.cpp and drive_registry.cpp (the compiler lists them).

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim {

struct DriveKindInfo {
  DriveKind kind;
  std::string_view type;   ///< its name in <drivetrain type="...">
  std::string_view title;  ///< what `info --compiled` calls it
  /// It drives hinges only: on a slider the joint's ideal servo (<servo>) runs instead.
  bool hinge_only;
  /// The joint's <servo> settings (gain, fmax, max_velocity) are what drives it.
  bool ideal_servo;
  /// The joint's dry friction (friction/dry, the ODE joint motor's FMax) is a parameter of it.
  bool dry_friction;
  /// Its torque comes from outside the joint (Simulation::addJointTorque_Nm): a coupled drive
  /// such as MABEL's legs may drive the joint.
  bool external_torque;
  /// The MoToFlex chain (motorgear::JointDrivetrain): the compile step settles its parameters
  /// (compile_joints.cpp) and the recorder logs its probes.
  bool motoflex_chain;
};

/// Every kind, in the order the robot-file reference lists their types.
std::span<const DriveKindInfo> driveKinds();
const DriveKindInfo& driveKindInfo(DriveKind kind);
/// The kind whose <drivetrain type> is `type`; none for an unknown name.
std::optional<DriveKind> driveKindOfType(std::string_view type);
/// The types in driveKinds() order, for the robot-file reader's choice of @type.
std::vector<std::string> driveTypeNames();

/// Servo parameters are leaves under `servo/`: the joint's ideal servo (servo/gain) and the servo
/// laws of the Dynamixel kinds (servo/kp).
inline constexpr std::string_view kServoLeafPrefix = "servo/";
/// `info` with every name under kServoLeafPrefix.
std::vector<motorgear::ParamInfo> servoLeaves(std::vector<motorgear::ParamInfo> info);
/// The servo's own parameter name of a leaf under kServoLeafPrefix; throws std::invalid_argument
/// for another leaf.
std::string servoParamName(const std::string& leaf);

/// The drive's own parameter leaves (the MoToFlex chain's `motor/K_t`, a servo's `servo/kp`),
/// without the joint's (friction/dry, the ideal servo's): none for kinds without parameters.
std::vector<motorgear::ParamInfo> driveLeaves(const Drivetrain& d);
/// One of driveLeaves(d) by name; throws std::invalid_argument for another name.
double driveLeaf(const Drivetrain& d, const std::string& leaf);
/// Sets one of driveLeaves(d) and validates the drive; throws std::invalid_argument (and d may
/// be left changed: callers set a copy).
void setDriveLeaf(Drivetrain& d, const std::string& leaf, double value);
/// Checks the drive's parameters; throws std::invalid_argument with the offending numbers.
void validateDrive(const Drivetrain& d);
/// Replaces the drive's parameters by the named preset of its kind (typeA, typeB for the
/// MoToFlex chain; a Dynamixel model for the voltage servo); throws std::invalid_argument naming
/// the presets there are.
void applyDrivePreset(Drivetrain& d, const std::string& preset);
/// Reflected rotor inertia sigma^2 J_rotor ("armature") the drive adds about the joint axis (kg m^2).
double driveArmature_kgm2(const Drivetrain& d);

/// A drive whose law is a position servo's (kp, kd, Coulomb friction, torque limit), for
/// exporters that write a position actuator (robot_export.cpp): the identified Dynamixel law.
/// None for the others.
struct PositionServoLaw {
  double kp_Nm_rad;
  double kd_Nm_s_rad;
  double kc_Nm;
  double tau_max_Nm;
};
std::optional<PositionServoLaw> positionServoLaw(const Drivetrain& d);

/// One line on what drives a movable joint that is not a mimic, with the numbers that set it
/// apart (`info`'s joints table): "MoToFlex legs/typeB (sigma 130.85, ...)", "passive".
std::string driveSummary(const Joint& j);

/// A joint that nothing drives: an ideal servo without force (<servo fmax_Nm="0">), such as
/// MABEL's unactuated boom joints.
bool passiveJoint(const Joint& j);

}  // namespace gapsim
