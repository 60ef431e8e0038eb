// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A servo in the voltage domain, and two wrappers that go around any drive (drive.h).
///
/// VoltageServoDrive: firmware position law (dynamixel_firmware.h) -> PWM duty d -> motor voltage
/// U = d V_supply -> DC motor (dc_motor.h: R, K_t, K_e, optional L) -> gear ratio N -> joint.
/// With L/R below dt/20 the armature current is quasi-static, I = (U - K_e N qd) / R, and the
/// joint torque N K_t I is exactly a viscous row towards the no-load speed of U:
///     tau = b (v_0 - qd),   b = N^2 K_t K_e / R,   v_0 = U / (N K_e)                       (1)
/// which is the implicit damper row (target v_0, CFM 1/b): back-EMF damping stays stable for any
/// b/J (AX-18: b = 0.177 N m s/rad against link inertias of 1e-4 kg m^2). The moving-speed register
/// caps v_0 at +-moving_speed: the firmware drives towards that speed instead of full voltage.
/// With a larger L the DcMotor integrates U_R exactly (its header) and the torque is explicit,
/// with the back-EMF taken at the start of the step.
/// Bus delay: the goal of delay_s ago (whole steps, a delay line filled with the initial target).
/// Encoder: the firmware quantises goal and present position to its tick.
///
/// GearFrictionDrive (wraps any drive): adds the friction budget of GearFriction (friction.h):
///   motor row (target 0) bound += tau_f(tau_m, tau_e, qd), with tau_m the inner drive's torque
///   (explicit + damper row at the current rate, clamped) and tau_e the load of DriveInput;
///   damper row: b' = b + b_v, target b v_d / (b + b_v), bound unchanged (exact while the inner
///   damper is not saturated);
///   an inner drive whose motor row is a velocity servo (v_r != 0) gets the Coulomb part as an
///   explicit -tau_f sgn(qd) instead; b_2 qd |qd| is always explicit.
///
/// BacklashDrive (wraps any drive): play of total width 2h between the drive's output (angle
/// theta_m, rate w_m, reflected inertia J_m of the drive's moving parts) and the joint q:
///   delta = q - theta_m in [-h, h] is free: the joint gets no drive torque (rows disabled),
///   while the drive's own terms move theta_m on J_m (solveJointRows, joint_rig.h);
///   |delta| = h is contact: theta_m = q -+ h, w_m = qd, the drive's terms go to the joint.
/// Contact is decided by predicting the free motion: if q + dt qd - (theta_m + dt w_m,free) leaves
/// [-h, h], the drive pushes on the flank (or the load pushes the drive) and the sides lock; the
/// impact is inelastic (the drive side takes the joint's rate). The gear hull of gear.h is this
/// with a spring in the contact; here the contact is rigid.
/// Encoder side: Output (the joint's angle, the BIOLOID's AX potentiometer on the horn) or Motor
/// (theta_m: an encoder before the play) is what the inner drive sees as q_encoder.
///
/// CommandDelayDrive (wraps any drive): the inner drive gets the target of n = round(delay / dt)
/// steps ago (a delay line filled with the initial target), so from rest q_delayed(t) = q(t - n dt).

#include <memory>
#include <vector>

#include "motorgear/dc_motor.h"
#include "motorgear/drive.h"
#include "motorgear/dynamixel_firmware.h"
#include "motorgear/friction.h"
#include "motorgear/servo_datasheet.h"

namespace gapsim::motorgear {

class VoltageServoDrive : public CopyableDrive<VoltageServoDrive> {
 public:
  struct Params {
    DynamixelFirmware::Params firmware;
    DcMotor::Params motor;      ///< S and B_v are not used (S = 1); K_e > 0 required
    double gear_ratio = 254.0;  ///< N
    double delay_s = 0.0;       ///< goal dead time (whole steps)
    void validate() const;      ///< throws std::invalid_argument with the numbers
    /// Joint-side back-EMF damping N^2 K_t K_e / R.
    double backEmfDamping_Nm_s_rad() const;
  };
  /// `dt_s` fixes the delay line and picks the quasi-static form (L/R < dt/20); `q0_rad` fills it.
  VoltageServoDrive(const Params& p, double dt_s, double q0_rad);
  double damping_Nm_s_rad() const override { return quasi_static_ ? b_emf_ : 0.0; }
  SolverTerms step(double dt_s, const DriveInput& in) override;

  const Params& params() const { return p_; }
  double lastDuty() const { return fw_.state().duty; }
  bool quasiStatic() const { return quasi_static_; }

 private:
  Params p_;
  DynamixelFirmware fw_;
  DcMotor motor_;
  bool quasi_static_ = true;
  double b_emf_ = 0.0;
  std::vector<double> delay_line_;
  std::size_t delay_next_ = 0;
};

class GearFrictionDrive : public WrappingDrive<GearFrictionDrive> {
 public:
  GearFrictionDrive(std::unique_ptr<Drive> inner, const GearFriction::Params& friction);
  double damping_Nm_s_rad() const override { return inner_->damping_Nm_s_rad() + f_.params().b_v_Nm_s_rad; }
  SolverTerms step(double dt_s, const DriveInput& in) override;
  /// The inner drive's torque estimate and the budget of the last step.
  double lastMotorTorque_Nm() const { return last_tau_m_; }
  double lastBudget_Nm() const { return last_budget_; }
  Drive& inner() { return *inner_; }

 private:
  GearFriction f_;
  double last_tau_m_ = 0.0, last_budget_ = 0.0;
};

class BacklashDrive : public WrappingDrive<BacklashDrive> {
 public:
  enum class Encoder { Output, Motor };
  struct Params {
    double width_rad = 0.0;            ///< total play 2h (0: rigid)
    double drive_inertia_kgm2 = 1e-3;  ///< J_m, the drive's moving parts seen at the joint
    Encoder encoder = Encoder::Output;
    void validate() const;
  };
  BacklashDrive(std::unique_ptr<Drive> inner, const Params& p, double q0_rad);
  SolverTerms step(double dt_s, const DriveInput& in) override;
  double driveAngle_rad() const { return theta_m_; }
  bool inContact() const { return contact_; }

 private:
  Params p_;
  double theta_m_ = 0.0, w_m_ = 0.0;
  bool contact_ = true;
  int side_ = 0;  // sign of q - theta_m in contact (0: centred, rigid)
};

class CommandDelayDrive : public WrappingDrive<CommandDelayDrive> {
 public:
  /// `dt_s` fixes the delay line's length; `target0_rad` fills it.
  CommandDelayDrive(std::unique_ptr<Drive> inner, double delay_s, double dt_s, double target0_rad);
  SolverTerms step(double dt_s, const DriveInput& in) override;

 private:
  std::vector<double> line_;
  std::size_t next_ = 0;
};

/// Everything a Dynamixel joint needs: the voltage drive, its gear friction and its play.
struct DynamixelServoModel {
  VoltageServoDrive::Params drive;
  GearFriction::Params friction;
  BacklashDrive::Params backlash;  ///< width 0: none
  double armature_kgm2 = 0.0;      ///< reflected rotor inertia N^2 J_rotor the simulation adds to the joint
  /// The preset's datasheet motor and firmware, M1 friction with zero coefficients, no play.
  static DynamixelServoModel fromPreset(const DynamixelPreset& p);
  void validate() const;

  /// Name-based access (param_access.h). Names: the firmware's (supply, torque_limit, max_duty,
  /// cw_margin, ccw_margin, cw_slope, ccw_slope, punch, kp, ki, kd, moving_speed, tick, law), the
  /// motor's (R, K_t, K_e, L), ratio, delay_s, armature, the derived stall_torque and
  /// no_load_speed at the supply voltage (setting them changes K_t resp. K_e), friction/<name>
  /// (friction.h), backlash/width, backlash/drive_inertia, backlash/encoder (0 output, 1 motor).
  static std::vector<ParamInfo> paramInfo();
  double get(std::string_view name) const;
  void set(std::string_view name, double value);
};

/// Backlash(GearFriction(VoltageServo)) (the wrappers left out where they do nothing).
std::unique_ptr<Drive> makeDynamixelServoDrive(const DynamixelServoModel& m, double dt_s, double q0_rad);

}  // namespace gapsim::motorgear
