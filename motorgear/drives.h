// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The joint drives behind motorgear/drive.h, each a thin adapter from a law of this library to
/// the solver's terms:
///   IdealServoDrive  "plain ODE": motor row velocity clamp(gain (q* - q), +-v_max), bound fmax
///                    (IdealServo law; true angle, no encoder).
///   MotoflexDrive    MoToFlex chain (JointDrivetrain: PID -> battery clamp -> RL motor -> gear):
///                    its torque explicit, dry friction the motor row (target 0), speed friction
///                    and back-EMF the damper row b (the chain's params say back_emf_external).
///   DynamixelDrive   BIOLOID servo (DynamixelServo): with kd > 0 the whole law is the damper row,
///                    target -kp e / kd (clamped to +-speed_max), CFM 1/kd, bound tau_max or -tau_min
///                    on the side the law pushes; with kd = 0 the drive term clamp(-kp e) is explicit.
///                    kc is the motor row's dry friction. e = q_encoder - goal, the goal delayed by
///                    delay_s in whole steps (a delay line filled with the initial target).
///   FrictionDrive    torque-driven joints (torques come from outside): the motor row carries the
///                    dry friction only.

#include <memory>
#include <vector>

#include "motorgear/drive.h"
#include "motorgear/dynamixel_servo.h"
#include "motorgear/ideal_servo.h"
#include "motorgear/joint_drivetrain.h"

namespace gapsim::motorgear {

/// motorgear::IdealServo's law as the joint motor's row: its commanded velocity and force limit.
class IdealServoDrive : public CopyableDrive<IdealServoDrive> {
 public:
  explicit IdealServoDrive(const IdealServo::Params& p) : servo_(p) {}  ///< validates
  SolverTerms step(double dt_s, const DriveInput& in) override;

 private:
  IdealServo servo_;
};

class MotoflexDrive : public CopyableDrive<MotoflexDrive> {
 public:
  /// `damping_Nm_s_rad`: the damper row's b, which the caller moved out of the chain's params.
  MotoflexDrive(const JointDrivetrain::Params& p, double dry_friction_Nm, double damping_Nm_s_rad, double q0_rad);
  double damping_Nm_s_rad() const override { return damping_; }
  SolverTerms step(double dt_s, const DriveInput& in) override;
  const JointDrivetrain& chain() const { return chain_; }

 private:
  JointDrivetrain chain_;
  double friction_Nm_, damping_;
};

class DynamixelDrive : public CopyableDrive<DynamixelDrive> {
 public:
  /// `dt_s` fixes the delay line's length (delay_s rounded to whole steps); `q0_rad` fills it.
  DynamixelDrive(const DynamixelServo::Params& p, double dt_s, double q0_rad);
  double damping_Nm_s_rad() const override { return p_.kd_Nm_s_rad; }
  SolverTerms step(double dt_s, const DriveInput& in) override;

 private:
  DynamixelServo::Params p_;
  std::vector<double> delay_line_;
  std::size_t delay_next_ = 0;
};

class FrictionDrive : public CopyableDrive<FrictionDrive> {
 public:
  explicit FrictionDrive(double dry_friction_Nm) : friction_Nm_(dry_friction_Nm) {}
  SolverTerms step(double, const DriveInput&) override { return {false, 0.0, 0.0, friction_Nm_}; }

 private:
  double friction_Nm_;
};

}  // namespace gapsim::motorgear
