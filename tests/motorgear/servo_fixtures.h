// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test fixtures: servos whose commands a test can work out by hand.
#include "motorgear/dynamixel_servo.h"
#include "motorgear/ideal_servo.h"

namespace gapsim::test {

/// An ideal servo commanding 20 1/s per rad of error, at most 2 rad/s, with at most 7.5 N m.
inline motorgear::IdealServo::Params idealServo() {
  motorgear::IdealServo::Params p;
  p.gain_1_s = 20.0;
  p.max_velocity_rad_s = 2.0;
  p.fmax_Nm = 7.5;
  return p;
}

/// A Dynamixel servo without damping (kd 0: the torque is the explicit -kp e), kp 10 N m/rad
/// clamped at +-0.75 N m, the goal delayed 3 ms (three steps of 1 ms).
inline motorgear::DynamixelServo::Params delayedExplicitServo() {
  motorgear::DynamixelServo::Params p;
  p.kp_Nm_rad = 10;
  p.kd_Nm_s_rad = 0.0;
  p.tau_min_Nm = -0.75;
  p.tau_max_Nm = 0.75;
  p.delay_s = 0.003;
  return p;
}

}  // namespace gapsim::test
