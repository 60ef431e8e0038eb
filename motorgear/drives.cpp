// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/drives.h"

#include <cmath>
#include <utility>

namespace gapsim::motorgear {

SolverTerms IdealServoDrive::step(double, const DriveInput& in) {
  SolverTerms t;
  t.motor_velocity_rad_s = servo_.velocity_rad_s(in.target_rad, in.q_rad);
  t.motor_fmax_Nm = servo_.fmax_Nm();
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
  p_.validate();
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
  return DynamixelServo::solverTerms(p_, goal, in.q_encoder_rad, in.qd_rad_s);
}

}  // namespace gapsim::motorgear
