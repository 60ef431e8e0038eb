// SPDX-License-Identifier: BSD-3-Clause
// MabelLegDrive: the leg's transmission as a coupled drive on hip and knee. The torques are the
// transmission's link torques mapped by virtual work (tau_hip = -(tau_Th + tau_Sh),
// tau_knee = -tau_Sh); a motor command lasts one step; without one the motor PD holds the targets.
#include "motorgear/mabel_leg_drive.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace gapsim::motorgear {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(MabelLegDrive, LinkCoordinatesAreThePapers) {
  const auto s = MabelLegDrive::linkState(0.3, 0.5, 0.4, -0.2);
  EXPECT_DOUBLE_EQ(s.q_Th_rad, kPi - 0.3);
  EXPECT_DOUBLE_EQ(s.qd_Th_rad_s, -0.5);
  EXPECT_DOUBLE_EQ(s.q_Sh_rad, kPi - 0.3 - 0.4);
  EXPECT_DOUBLE_EQ(s.qd_Sh_rad_s, -0.3);
}

TEST(MabelLegDrive, CommandedTorquesAreTheTransmissionsByVirtualWork) {
  const MabelLegDrive::Params p;
  MabelLegDrive drive(p, 2.9, 0.5);
  MabelTransmission ref(p.transmission);
  ref.reset(MabelLegDrive::linkState(2.9, 0, 0.5, 0));
  const std::array<DriveInput, 2> in{DriveInput{2.9, 2.95, 2.95, 0.4}, DriveInput{0.5, 0.45, 0.45, -0.3}};
  std::array<double, 2> tau{};
  drive.setMotorCommands_Nm(1.5, -0.7);
  drive.step(1e-3, in, tau);
  const auto out = ref.step(1e-3, 1.5, -0.7, MabelLegDrive::linkState(2.95, 0.4, 0.45, -0.3));
  EXPECT_DOUBLE_EQ(tau[0], -(out.tau_Th_Nm + out.tau_Sh_Nm));
  EXPECT_DOUBLE_EQ(tau[1], -out.tau_Sh_Nm);
  EXPECT_NE(tau[0], 0.0);
  EXPECT_DOUBLE_EQ(drive.transmission().probes().u_mLA_Nm, 1.5);
}

TEST(MabelLegDrive, ACommandLastsOneStepThenTheMotorPdActs) {
  const MabelLegDrive::Params p;
  MabelLegDrive drive(p, 2.9, 0.5);
  std::array<double, 2> tau{};
  // Targets away from the pose, so the PD has something to do.
  const std::array<DriveInput, 2> in{DriveInput{2.8, 2.9, 2.9, 0}, DriveInput{0.7, 0.5, 0.5, 0}};
  drive.setMotorCommands_Nm(3.0, 3.0);
  drive.step(1e-3, in, tau);
  EXPECT_DOUBLE_EQ(drive.transmission().probes().u_mLA_Nm, 3.0);
  // Next step without a command: u = kp (gamma q_target - q_m) - kd qd_m from the state before it.
  MabelTransmission ref = drive.transmission();
  const auto tgt = MabelLegDrive::linkState(2.8, 0, 0.7, 0);
  const auto& st = ref.state();
  const double u_A =
      p.kp_mLA *
          (p.transmission.mLA.gamma * MabelTransmission::legAngle_rad(tgt.q_Th_rad, tgt.q_Sh_rad) - st.q_mLA_rad) -
      p.kd_mLA * st.qd_mLA_rad_s;
  const double u_S =
      p.kp_mLS *
          (p.transmission.mLS.gamma * MabelTransmission::legShape_rad(tgt.q_Th_rad, tgt.q_Sh_rad) - st.q_mLS_rad) -
      p.kd_mLS * st.qd_mLS_rad_s;
  const auto out = ref.step(1e-3, u_A, u_S, MabelLegDrive::linkState(2.9, 0, 0.5, 0));
  drive.step(1e-3, in, tau);
  EXPECT_DOUBLE_EQ(drive.transmission().probes().u_mLA_Nm, u_A);
  EXPECT_DOUBLE_EQ(drive.transmission().probes().u_mLS_Nm, u_S);
  EXPECT_DOUBLE_EQ(tau[0], -(out.tau_Th_Nm + out.tau_Sh_Nm));
  EXPECT_DOUBLE_EQ(tau[1], -out.tau_Sh_Nm);
}

}  // namespace
}  // namespace gapsim::motorgear
