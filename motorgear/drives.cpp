// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/drives.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gapsim::motorgear {

SolverTerms IdealServoDrive::step(double, const DriveInput& in) {
  SolverTerms t;
  const double e = in.target_rad - in.q_rad;
  t.motor_velocity_rad_s = std::clamp(p_.gain_1_s * e, -p_.max_velocity_rad_s, p_.max_velocity_rad_s);
  t.motor_fmax_Nm = p_.fmax_Nm;
  return t;
}

MotoflexDrive::MotoflexDrive(const JointDrivetrain::Params& p, double dry_friction_Nm, double damping_Nm_s_rad,
                             double q0_rad)
    : chain_(p), friction_Nm_(dry_friction_Nm), damping_(damping_Nm_s_rad) {
  chain_.reset(q0_rad, 0.0);
}

SolverTerms MotoflexDrive::step(double dt_s, const DriveInput& in) {
  SolverTerms t;
  t.has_explicit_torque = true;
  t.explicit_torque_Nm = chain_.step(dt_s, in.target_rad, in.q_encoder_rad, in.qd_rad_s);
  t.motor_fmax_Nm = friction_Nm_;
  return t;
}

DynamixelDrive::DynamixelDrive(const DynamixelServo::Params& p, double dt_s, double q0_rad) : p_(p) {
  const auto n_delay = static_cast<std::size_t>(std::lround(p.delay_s / dt_s));
  delay_line_.assign(n_delay, q0_rad);
}

SolverTerms DynamixelDrive::step(double, const DriveInput& in) {
  // The goal of n steps ago (dead time of the bus and firmware).
  double goal = in.target_rad;
  if (!delay_line_.empty()) {
    std::swap(goal, delay_line_[delay_next_]);
    delay_next_ = (delay_next_ + 1) % delay_line_.size();
  }
  const double e = in.q_encoder_rad - goal;
  SolverTerms t;
  if (p_.kd_Nm_s_rad > 0) {
    // tau = clamp(-kp e - kd qd, tau_min, tau_max) as the damper row: target -kp e / kd, CFM 1/kd,
    // qd taken at the end of the step. speed_max clamps the target (the drive term to +-kd speed_max).
    double v = -p_.kp_Nm_rad * e / p_.kd_Nm_s_rad;
    if (p_.speed_max_rad_s > 0) v = std::clamp(v, -p_.speed_max_rad_s, p_.speed_max_rad_s);
    // The row's bound is symmetric: take the clamp on the side the law pushes to.
    const double push = p_.kd_Nm_s_rad * (v - in.qd_rad_s);
    t.damper_velocity_rad_s = v;
    t.damper_fmax_Nm = push >= 0 ? p_.tau_max_Nm : -p_.tau_min_Nm;
  } else {
    t.has_explicit_torque = true;
    t.explicit_torque_Nm = std::clamp(-p_.kp_Nm_rad * e, p_.tau_min_Nm, p_.tau_max_Nm);
  }
  t.motor_fmax_Nm = p_.kc_Nm;
  return t;
}

}  // namespace gapsim::motorgear
