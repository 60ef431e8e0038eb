// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/servo_drive.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "motorgear/joint_rig.h"

namespace gapsim::motorgear {
namespace {

constexpr double kUnbounded_Nm = 1e6;  // a bound the voltage-limited rows never reach

double sgn(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

}  // namespace

// ---- VoltageServoDrive --------------------------------------------------------------------------

void VoltageServoDrive::Params::validate() const {
  using detail::num;
  firmware.validate();
  motor.validate();
  if (!(motor.K_e_V_s_rad > 0))
    throw std::invalid_argument("VoltageServoDrive: the motor needs a back-EMF constant K_e > 0, got " +
                                num(motor.K_e_V_s_rad) + " V s/rad");
  if (!(gear_ratio > 0) || !std::isfinite(gear_ratio))
    throw std::invalid_argument("VoltageServoDrive: gear ratio must be > 0, got " + num(gear_ratio));
  if (!(delay_s >= 0 && delay_s <= 1))
    throw std::invalid_argument("VoltageServoDrive: delay_s must be in [0, 1] s, got " + num(delay_s));
}

double VoltageServoDrive::Params::backEmfDamping_Nm_s_rad() const {
  return gear_ratio * gear_ratio * motor.K_t_Nm_A * motor.K_e_V_s_rad / motor.R_Ohm;
}

VoltageServoDrive::VoltageServoDrive(const Params& p, double dt_s, double q0_rad) : p_(p) {
  p_.validate();
  p_.motor.S = 1.0;
  p_.motor.B_v_Nm_s_rad = 0.0;
  fw_ = DynamixelFirmware(p_.firmware);
  motor_ = DcMotor(p_.motor);
  quasi_static_ = p_.motor.electricalTimeConstant_s() < dt_s / 20.0;
  b_emf_ = p_.backEmfDamping_Nm_s_rad();
  delay_line_.assign(static_cast<std::size_t>(std::lround(p_.delay_s / dt_s)), q0_rad);
}

SolverTerms VoltageServoDrive::step(double dt_s, const DriveInput& in) {
  double goal = in.target_rad;
  if (!delay_line_.empty()) {
    std::swap(goal, delay_line_[delay_next_]);
    delay_next_ = (delay_next_ + 1) % delay_line_.size();
  }
  const double duty = fw_.step(dt_s, goal, in.q_encoder_rad, in.qd_rad_s);
  double U = duty * p_.firmware.supply_V;
  const double N = p_.gear_ratio, Ke = p_.motor.K_e_V_s_rad;
  const double cap = p_.firmware.moving_speed_rad_s;
  SolverTerms t;
  if (quasi_static_) {
    double v0 = U / (N * Ke);  // (1): the no-load speed of U
    if (cap > 0) v0 = std::clamp(v0, -cap, cap);
    t.damper_velocity_rad_s = v0;
    t.damper_fmax_Nm = kUnbounded_Nm;
  } else {
    if (cap > 0) U = std::clamp(U, -N * Ke * cap, N * Ke * cap);
    t.has_explicit_torque = true;
    t.explicit_torque_Nm = N * motor_.step(dt_s, U, in.qd_rad_s, N * in.qd_rad_s);
  }
  return t;
}

// ---- GearFrictionDrive --------------------------------------------------------------------------

GearFrictionDrive::GearFrictionDrive(std::unique_ptr<Drive> inner, const GearFriction::Params& friction)
    : inner_(std::move(inner)), f_(friction) {
  if (!inner_) throw std::invalid_argument("GearFrictionDrive: no inner drive");
}

SolverTerms GearFrictionDrive::step(double dt_s, const DriveInput& in) {
  SolverTerms t = inner_->step(dt_s, in);
  const double b = inner_->damping_Nm_s_rad();
  double tau_m = t.has_explicit_torque ? t.explicit_torque_Nm : 0.0;
  if (b > 0 && t.damper_fmax_Nm > 0)
    tau_m += std::clamp(b * (t.damper_velocity_rad_s - in.qd_rad_s), -t.damper_fmax_Nm, t.damper_fmax_Nm);
  const GearFriction::Params& fp = f_.params();
  const GearFriction::Budget g = f_.budget(tau_m, in.load_torque_Nm, in.qd_rad_s);
  last_tau_m_ = tau_m;
  last_budget_ = g.coulomb_Nm;
  if (fp.b_v_Nm_s_rad > 0) {
    if (b > 0) t.damper_velocity_rad_s *= b / (b + fp.b_v_Nm_s_rad);
    else t.damper_velocity_rad_s = 0.0;
  }
  if (t.motor_velocity_rad_s != 0 && t.motor_fmax_Nm > 0) {
    // The motor row is a velocity servo: friction cannot share it, apply the sliding torque.
    t.has_explicit_torque = true;
    t.explicit_torque_Nm -= g.coulomb_Nm * sgn(in.qd_rad_s);
  } else {
    t.motor_velocity_rad_s = 0.0;
    t.motor_fmax_Nm += g.coulomb_Nm;
  }
  if (fp.b_2_Nm_s2_rad2 > 0) {
    t.has_explicit_torque = true;
    t.explicit_torque_Nm -= fp.b_2_Nm_s2_rad2 * in.qd_rad_s * std::abs(in.qd_rad_s);
  }
  return t;
}

// ---- BacklashDrive ------------------------------------------------------------------------------

void BacklashDrive::Params::validate() const {
  using detail::num;
  if (!(width_rad >= 0) || !std::isfinite(width_rad) || !(drive_inertia_kgm2 > 0) || !std::isfinite(drive_inertia_kgm2))
    throw std::invalid_argument("BacklashDrive: need width >= 0 and drive inertia > 0, got " + num(width_rad) +
                                " rad, " + num(drive_inertia_kgm2) + " kg m^2");
}

BacklashDrive::BacklashDrive(std::unique_ptr<Drive> inner, const Params& p, double q0_rad)
    : inner_(std::move(inner)), p_(p), theta_m_(q0_rad) {
  if (!inner_) throw std::invalid_argument("BacklashDrive: no inner drive");
  p_.validate();
  contact_ = p_.width_rad == 0;
}

SolverTerms BacklashDrive::step(double dt_s, const DriveInput& in) {
  if (p_.width_rad == 0) return inner_->step(dt_s, in);
  const double h = 0.5 * p_.width_rad;
  if (contact_) {  // the sides are locked: the drive moves with the joint
    theta_m_ = in.q_rad - side_ * h;
    w_m_ = in.qd_rad_s;
  }
  DriveInput d = in;
  d.q_rad = theta_m_;
  d.qd_rad_s = w_m_;
  if (p_.encoder == Encoder::Motor) d.q_encoder_rad = theta_m_;
  if (!contact_) d.load_torque_Nm = 0.0;
  const SolverTerms t = inner_->step(dt_s, d);
  // Where the drive side would go on its own (its terms on J_m).
  const double v_free = solveJointRows(p_.drive_inertia_kgm2, w_m_, dt_s, 0.0, inner_->damping_Nm_s_rad(), t);
  const double theta_free = theta_m_ + dt_s * v_free;
  const double delta = in.q_rad + dt_s * in.qd_rad_s - theta_free;
  if (std::abs(delta) < h) {  // free play: nothing reaches the joint
    contact_ = false;
    theta_m_ = theta_free;
    w_m_ = v_free;
    SolverTerms none;
    none.damper_fmax_Nm = 0.0;
    return none;
  }
  contact_ = true;
  side_ = delta > 0 ? 1 : -1;
  return t;
}

// ---- DynamixelServoModel ------------------------------------------------------------------------

DynamixelServoModel DynamixelServoModel::fromPreset(const DynamixelPreset& p) {
  DynamixelServoModel m;
  m.drive.firmware = p.firmware;
  m.drive.motor = motorFromDatasheet(p.datasheet);
  m.drive.gear_ratio = p.datasheet.gear_ratio;
  return m;
}

void DynamixelServoModel::validate() const {
  drive.validate();
  friction.validate();
  backlash.validate();
}

std::unique_ptr<Drive> makeDynamixelServoDrive(const DynamixelServoModel& m, double dt_s, double q0_rad) {
  m.validate();
  std::unique_ptr<Drive> d = std::make_unique<VoltageServoDrive>(m.drive, dt_s, q0_rad);
  d = std::make_unique<GearFrictionDrive>(std::move(d), m.friction);
  if (m.backlash.width_rad > 0) d = std::make_unique<BacklashDrive>(std::move(d), m.backlash, q0_rad);
  return d;
}

}  // namespace gapsim::motorgear
