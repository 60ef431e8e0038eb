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
    : WrappingDrive(std::move(inner), "GearFrictionDrive"), f_(friction) {}

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
    if (b > 0)
      t.damper_velocity_rad_s *= b / (b + fp.b_v_Nm_s_rad);
    else
      t.damper_velocity_rad_s = 0.0;
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
    : WrappingDrive(std::move(inner), "BacklashDrive"), p_(p), theta_m_(q0_rad) {
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

CommandDelayDrive::CommandDelayDrive(std::unique_ptr<Drive> inner, double delay_s, double dt_s, double target0_rad)
    : WrappingDrive(std::move(inner), "CommandDelayDrive") {
  if (!(delay_s >= 0) || !std::isfinite(delay_s) || !(dt_s > 0))
    throw std::invalid_argument("CommandDelayDrive: need delay >= 0 and dt > 0, got " + detail::num(delay_s) + " s, " +
                                detail::num(dt_s) + " s");
  line_.assign(static_cast<std::size_t>(std::lround(delay_s / dt_s)), target0_rad);
}

SolverTerms CommandDelayDrive::step(double dt_s, const DriveInput& in) {
  DriveInput d = in;
  if (!line_.empty()) {
    std::swap(d.target_rad, line_[next_]);
    next_ = (next_ + 1) % line_.size();
  }
  return inner_->step(dt_s, d);
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
  if (!(armature_kgm2 >= 0) || !std::isfinite(armature_kgm2))
    throw std::invalid_argument("DynamixelServoModel: armature must be finite and >= 0, got " +
                                detail::num(armature_kgm2) + " kg m^2");
}

std::vector<ParamInfo> DynamixelServoModel::paramInfo() {
  std::vector<ParamInfo> out = DynamixelFirmware::Params::paramInfo();
  for (const ParamInfo& i : DcMotor::Params::paramInfo())
    if (i.name == "R" || i.name == "K_t" || i.name == "K_e" || i.name == "L") out.push_back(i);
  out.push_back({"ratio", "-", "gear ratio N (motor turns per output turn)"});
  out.push_back({"delay_s", "s", "goal dead time (whole steps)"});
  out.push_back({"armature", "kg*m^2", "reflected rotor inertia added to the joint"});
  out.push_back({"stall_torque", "N*m", "output stall torque N K_t V / R at the supply voltage (sets K_t)", "K_t"});
  out.push_back({"no_load_speed", "rad/s", "output no-load speed V / (N K_e) at the supply voltage (sets K_e)", "K_e"});
  for (ParamInfo i : GearFriction::Params::paramInfo()) {
    i.name = "friction/" + i.name;
    out.push_back(i);
  }
  out.push_back({"backlash/width", "rad", "total play between drive and joint (0: none)"});
  out.push_back({"backlash/drive_inertia", "kg*m^2", "inertia of the drive side inside the play"});
  out.push_back({"backlash/encoder", "-", "encoder side: 0 output (joint), 1 motor (before the play)"});
  return out;
}

double DynamixelServoModel::get(std::string_view name) const {
  const double N = drive.gear_ratio, V = drive.firmware.supply_V;
  if (name == "R") return drive.motor.R_Ohm;
  if (name == "K_t") return drive.motor.K_t_Nm_A;
  if (name == "K_e") return drive.motor.K_e_V_s_rad;
  if (name == "L") return drive.motor.L_H;
  if (name == "ratio") return N;
  if (name == "delay_s") return drive.delay_s;
  if (name == "armature") return armature_kgm2;
  if (name == "stall_torque") return stallTorque_Nm(drive.motor, N, V);
  if (name == "no_load_speed") return noLoadSpeed_rad_s(drive.motor, N, V);
  if (name.rfind("friction/", 0) == 0) return friction.get(name.substr(9));
  if (name == "backlash/width") return backlash.width_rad;
  if (name == "backlash/drive_inertia") return backlash.drive_inertia_kgm2;
  if (name == "backlash/encoder") return backlash.encoder == BacklashDrive::Encoder::Motor ? 1.0 : 0.0;
  return drive.firmware.get(name);  // throws with the firmware's names for an unknown one
}

void DynamixelServoModel::set(std::string_view name, double v) {
  const double N = drive.gear_ratio, V = drive.firmware.supply_V;
  if (name == "R")
    drive.motor.R_Ohm = v;
  else if (name == "K_t")
    drive.motor.K_t_Nm_A = v;
  else if (name == "K_e")
    drive.motor.K_e_V_s_rad = v;
  else if (name == "L")
    drive.motor.L_H = v;
  else if (name == "ratio")
    drive.gear_ratio = v;
  else if (name == "delay_s")
    drive.delay_s = v;
  else if (name == "armature")
    armature_kgm2 = v;
  else if (name == "stall_torque")
    drive.motor.K_t_Nm_A = v * drive.motor.R_Ohm / (N * V);
  else if (name == "no_load_speed")
    drive.motor.K_e_V_s_rad = V / (N * v);
  else if (name.rfind("friction/", 0) == 0)
    friction.set(name.substr(9), v);
  else if (name == "backlash/width")
    backlash.width_rad = v;
  else if (name == "backlash/drive_inertia")
    backlash.drive_inertia_kgm2 = v;
  else if (name == "backlash/encoder")
    backlash.encoder = toBool(v, "backlash/encoder") ? BacklashDrive::Encoder::Motor : BacklashDrive::Encoder::Output;
  else
    drive.firmware.set(name, v);
}

std::unique_ptr<Drive> makeDynamixelServoDrive(const DynamixelServoModel& m, double dt_s, double q0_rad) {
  m.validate();
  std::unique_ptr<Drive> d = std::make_unique<VoltageServoDrive>(m.drive, dt_s, q0_rad);
  d = std::make_unique<GearFrictionDrive>(std::move(d), m.friction);
  if (m.backlash.width_rad > 0) d = std::make_unique<BacklashDrive>(std::move(d), m.backlash, q0_rad);
  return d;
}

}  // namespace gapsim::motorgear
