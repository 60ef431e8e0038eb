// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// One MABEL leg as a coupled drive on its hip and knee joints: the cable-differential
/// transmission (mabel_transmission.h) under two motor commands, and the torques it puts on the
/// joints.
///
/// Joint convention (robots/mabel/README.md): the paper's link angles are q_Th = pi - hip and
/// q_Sh = pi - (hip + knee), so by virtual work tau_hip = -(tau_Th + tau_Sh), tau_knee = -tau_Sh.
/// Motor commands come from a controller (setMotorCommands_Nm, for the next step only); in a step
/// without one, a motor-side PD drives each motor toward the angle that holds the joint targets
/// with rigid cables (the robot's joint-position mode):
///   u = kp (gamma q_target - q_m) - kd qd_m      [N m per rad of motor angle]

#include <span>

#include "motorgear/coupled_drive.h"
#include "motorgear/mabel_transmission.h"

namespace gapsim::motorgear {

class MabelLegDrive : public CoupledDrive {
 public:
  struct Params {
    MabelTransmission::Params transmission = MabelTransmission::Params::left();
    double kp_mLA = 0.5, kd_mLA = 0.02;  ///< joint-position mode, leg-angle motor [N m/rad, N m s/rad]
    double kp_mLS = 1.0, kd_mLS = 0.03;  ///< joint-position mode, leg-shape motor
  };

  /// Joint order: hip, knee. Starts with the transmission unloaded at the joints' angles.
  MabelLegDrive(const Params& p, double hip0_rad, double knee0_rad);

  int jointCount() const override { return 2; }
  void step(double dt_s, std::span<const DriveInput> in, std::span<double> torque_Nm) override;
  std::unique_ptr<CoupledDrive> clone() const override { return std::make_unique<MabelLegDrive>(*this); }
  void restore(const CoupledDrive& snapshot) override {
    const auto* s = dynamic_cast<const MabelLegDrive*>(&snapshot);
    if (!s) throw wrongSnapshot("MabelLegDrive", typeid(snapshot));
    *this = *s;
  }

  /// Amplifier torque commands [N m] of the two motors for the next step only.
  void setMotorCommands_Nm(double u_mLA_Nm, double u_mLS_Nm);

  const MabelTransmission& transmission() const { return tr_; }
  const Params& params() const { return p_; }

  /// The paper's link coordinates of a hip and knee angle and rate.
  static MabelTransmission::LinkState linkState(double hip_rad, double hipd_rad_s, double knee_rad, double kneed_rad_s);

 private:
  Params p_;
  MabelTransmission tr_;
  double u_mLA_Nm_ = 0, u_mLS_Nm_ = 0;
  bool commanded_ = false;
};

}  // namespace gapsim::motorgear
