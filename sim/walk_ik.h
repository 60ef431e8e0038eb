// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Closed-form inverse kinematics of the Nao legs, including the HipYawPitch joint that both legs
/// share (one motor: RHipYawPitch mimics LHipYawPitch with multiplier 1).
///
/// Chain of one leg, torso frame -> sole frame (all joint frames have rpy = 0 in the zero pose):
///   T_sole = Tr(h) * R_hyp(theta) * Rx(hr) * Ry(hp) * Tr(0,0,-l1) * Ry(kp) * Tr(0,0,-l2)
///            * Ry(ap) * Rx(ar) * Tr(0,0,-l3)
/// h = hip offset (0, +-0.05, -0.085) m, l1 = thigh 0.1 m, l2 = tibia 0.1029 m, l3 = ankle to
/// sole 0.04511 m (all read from the robot model, so FK and IK agree exactly). The HipYawPitch
/// axis is Rx(phi) * e_y with phi = -pi/4 (left, axis (0, 0.707, -0.707)) or +pi/4 (right), so
///   R_hyp(theta) = Rx(phi) Ry(theta) Rx(-phi).
///
/// Solution with a given theta (position and sole normal exact, 5 joints for 5 constraints):
///   a  = R_hyp^T (ankle - h)                       ankle = sole origin + R_sole (0,0,l3)
///   hr = atan2(a_y, -a_z)                          the leg's plane contains the x axis
///   kp = acos((|a|^2 - l1^2 - l2^2) / (2 l1 l2))   law of cosines, knee bent backwards (kp >= 0)
///   hp = alpha(Rx(-hr) a) - alpha(v),  v = (-l2 sin kp, 0, -l1 - l2 cos kp),
///        alpha(w) = atan2(-w_x, -w_z)              (alpha(Ry(p) w) = alpha(w) + p)
///   n  = Ry(-(hp+kp)) Rx(-hr) R_hyp^T R_sole e_z = (cos ar sin ap, -sin ar, cos ar cos ap)
///   ap = atan2(n_x, n_z),  ar = atan2(-n_y, hypot(n_x, n_z))
/// The foot's rotation about its own normal is then whatever theta gives: exact when theta is the
/// foot's own HipYawPitch, below.
///
/// theta of one foot pose (6 joints for 6 constraints): from the foot side, the hip seen in the
/// ankle-roll frame lies in its x-z plane, which gives ar, then kp, then ap; the remaining
/// rotation M = R_sole Rx(-ar) Ry(-(kp+ap)) = R_hyp Rx(hr) Ry(hp), so
///   Rx(-phi) M = Ry(theta) Rx(hr - phi) Ry(hp)          (Y-X-Y Euler angles)
/// and theta = atan2(Q01, Q21) * sign(hr - phi), Q = Rx(-phi) M; hr - phi keeps its sign over the
/// whole hip roll range (left: hr + pi/4 in [0.41, 1.58] rad).
///
/// Both legs: theta = mean of the two feet's own thetas, then each leg is solved with it. When
/// the two foot poses are consistent with one theta (feet yawed symmetrically about the torso,
/// as the walk generator plans them), both feet are reached exactly.
///
/// Out-of-reach poses and joint limits throw InputError naming the leg or the joint, the value
/// and the limit.

#include <Eigen/Geometry>
#include <array>
#include <string>

#include "sim/robot_model.h"

namespace gapsim {

enum class LegSide { Left, Right };

/// One leg's joint angles (rad), in chain order.
struct LegAngles {
  double hip_yaw_pitch = 0, hip_roll = 0, hip_pitch = 0, knee_pitch = 0, ankle_pitch = 0, ankle_roll = 0;
  std::array<double, 6> asArray() const {
    return {hip_yaw_pitch, hip_roll, hip_pitch, knee_pitch, ankle_pitch, ankle_roll};
  }
};

struct LegPairAngles {
  LegAngles left, right;
};

/// The dimensions the IK needs, read from a Nao-like model.
struct NaoLegGeometry {
  Eigen::Vector3d hip_offset_left_m{0, 0.05, -0.085};  ///< LHipYawPitch origin in the torso frame
  Eigen::Vector3d hip_offset_right_m{0, -0.05, -0.085};
  double thigh_m = 0.1;                                             ///< hip to knee (along -z in the zero pose)
  double tibia_m = 0.1029;                                          ///< knee to ankle
  double foot_height_m = 0.04511;                                   ///< ankle to sole
  double hyp_axis_angle_left_rad = -0.25 * 3.14159265358979323846;  ///< phi of the left axis
  double hyp_axis_angle_right_rad = 0.25 * 3.14159265358979323846;
};

class NaoLegIk {
 public:
  /// The 12 leg joints by name ({L,R}{HipYawPitch,HipRoll,HipPitch,KneePitch,AnklePitch,
  /// AnkleRoll}) and the sole frames l_sole/r_sole (if absent: 0.04511 m below the ankle).
  /// Throws InputError when the model's leg does not have the Nao structure this solver assumes
  /// (a missing joint, an axis that is not x/y or the +-45 degree HipYawPitch axis, an offset
  /// between the hip joints or between the ankle joints).
  explicit NaoLegIk(const RobotModel& model);

  const NaoLegGeometry& geometry() const { return g_; }
  /// Joint indices in the model of one leg, chain order (as LegAngles).
  const std::array<int, 6>& jointIndices(LegSide side) const { return side == LegSide::Left ? left_ : right_; }

  /// Sole pose in the torso frame for given angles (closed-form FK of the chain above).
  Eigen::Isometry3d forward(LegSide side, const LegAngles& q) const;

  /// Exact 6-joint solution of one foot pose (sole frame in the torso frame); its own theta.
  LegAngles solve(LegSide side, const Eigen::Isometry3d& sole_in_torso) const;
  /// The solution with a given HipYawPitch theta: ankle position and sole normal exact.
  LegAngles solveWithHipYawPitch(LegSide side, const Eigen::Isometry3d& sole_in_torso, double hip_yaw_pitch_rad) const;
  /// The HipYawPitch angle of one foot pose.
  double hipYawPitchOf(LegSide side, const Eigen::Isometry3d& sole_in_torso) const;
  /// Both feet with the common theta = mean of the two feet's own.
  LegPairAngles solveBoth(const Eigen::Isometry3d& left_sole_in_torso,
                          const Eigen::Isometry3d& right_sole_in_torso) const;

  /// Throws InputError(field = joint name) if an angle is outside the model's joint limits
  /// (tolerance tol_rad), e.g. "LKneePitch: 2.2000 rad is beyond the joint limit 2.1126 rad
  /// (range [-0.0923, 2.1126])". `context` is appended to the message (e.g. " at t = 3.20 s").
  void checkLimits(LegSide side, const LegAngles& q, const std::string& context = {}, double tol_rad = 1e-9) const;

  /// Writes both legs' angles into a full joint vector of the model (RHipYawPitch gets the
  /// common value, as its mimic would).
  void writeJoints(const LegPairAngles& q, std::vector<double>& model_q) const;

 private:
  Eigen::Vector3d hipOffset(LegSide s) const {
    return s == LegSide::Left ? g_.hip_offset_left_m : g_.hip_offset_right_m;
  }
  double axisAngle(LegSide s) const {
    return s == LegSide::Left ? g_.hyp_axis_angle_left_rad : g_.hyp_axis_angle_right_rad;
  }

  struct JointLimits {
    std::string name;
    double lower = 0, upper = 0;
  };
  NaoLegGeometry g_;
  std::array<int, 6> left_{}, right_{};
  std::array<JointLimits, 6> left_limits_, right_limits_;
};

}  // namespace gapsim
