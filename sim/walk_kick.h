// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A keyframe kick for the Nao: shift the weight onto the support foot, lift the kicking foot,
/// wind back, swing forward, hold, retract, put it down, shift back, return to the initial pose.
///
/// The keyframes are Cartesian (COM and kicking-sole pose, both feet's soles in the world); between
/// two keyframes COM and sole move along the quintic smoothstep (zero velocity and acceleration at
/// the keyframes) and are sampled every frame_period_s; each sample is turned into leg joints by
/// ComPoser (whole-body COM on the wanted point, analytic IK). The first keyframe is the robot's
/// initial pose, reached from there by a joint-space blend, and the last returns to it. The COM is
/// placed statically (over the support foot during single support), so the kick is quasi-static
/// except for the swing itself (swing_s).

#include "sim/walk_generator.h"

namespace gapsim {

struct KickParams {
  LegSide kicking_foot = LegSide::Right;
  double com_height_m = 0.25;          ///< COM height above the soles during the kick (m)
  double com_over_support_y_m = 0.05;  ///< COM distance from the robot's centre line, over the support foot (m)
  double com_x_m = 0.01;               ///< COM ahead of the ankles (m)
  double foot_spacing_m = 0.1;         ///< distance between the two sole frames (m)
  double lift_m = 0.03;                ///< kicking sole height when lifted (m)
  double inward_m = 0.02;              ///< kicking sole moved towards the support foot while in the air (m)
  double wind_back_m = 0.05;           ///< kicking sole behind the ankle line before the swing (m)
  double reach_m = 0.09;               ///< kicking sole ahead of the ankle line after the swing (m)
  double swing_s = 0.2;                ///< duration of the forward swing (s)
  double shift_s = 1.5;                ///< weight shift onto / back from the support foot (s)
  double frame_period_s = 0.02;        ///< sample period of the generated frames (s)
  /// Throws InputError(field = parameter) for values out of range.
  void validate() const;
};

/// Plans the kick. Throws InputError for bad parameters or poses out of reach / beyond limits.
GeneratedMotion planKick(const RobotModel& model, const KickParams& params = {});

}  // namespace gapsim
