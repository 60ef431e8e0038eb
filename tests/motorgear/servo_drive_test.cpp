// SPDX-License-Identifier: BSD-3-Clause
// motorgear/dynamixel_firmware.h, servo_datasheet.h, servo_drive.h, joint_rig.h against their
// analytic answers: the compliance law of the e-Manual figure, the datasheet's stall torque and
// no-load speed recovered, the voltage-limited drive's steady speed and stall torque, the speed
// cap, the delay, and the backlash dead band.
#include "motorgear/servo_drive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "motorgear/drives.h"
#include "motorgear/dynamixel_firmware.h"
#include "motorgear/joint_rig.h"
#include "motorgear/servo_datasheet.h"
#include "tests/motorgear/servo_fixtures.h"

namespace gapsim::motorgear {
namespace {

constexpr double kTick = 300.0 / 1024.0 * std::numbers::pi / 180.0;

// The RX-64 manual's worked example: margin 5, slope 16, goal 512: no torque within 507..517,
// punch at the margin's edge, linear to full torque at 16 ticks beyond it.
TEST(DynamixelFirmware, ComplianceLawOfTheEmanualFigure) {
  DynamixelFirmware::Params p;
  p.cw_margin = p.ccw_margin = 5;
  p.cw_slope = p.ccw_slope = 16;
  p.punch = 32;
  const double punch = 32.0 / 1023.0;
  EXPECT_EQ(DynamixelFirmware::complianceDuty(p, 5), 0.0);
  EXPECT_EQ(DynamixelFirmware::complianceDuty(p, -5), 0.0);
  EXPECT_NEAR(DynamixelFirmware::complianceDuty(p, 6), punch + (1 - punch) / 16.0, 1e-15);
  EXPECT_NEAR(DynamixelFirmware::complianceDuty(p, 13), punch + (1 - punch) * 0.5, 1e-15);
  EXPECT_NEAR(DynamixelFirmware::complianceDuty(p, -13), -(punch + (1 - punch) * 0.5), 1e-15);
  EXPECT_EQ(DynamixelFirmware::complianceDuty(p, 21), 1.0);
  EXPECT_EQ(DynamixelFirmware::complianceDuty(p, 300), 1.0);
  p.torque_limit = 0.5;  // the torque limit caps the duty
  EXPECT_EQ(DynamixelFirmware::complianceDuty(p, 300), 0.5);
}

TEST(DynamixelFirmware, SlopeRegisterHasSevenLevels) {
  EXPECT_EQ(DynamixelFirmware::effectiveSlope(0), 2);
  EXPECT_EQ(DynamixelFirmware::effectiveSlope(3), 2);
  EXPECT_EQ(DynamixelFirmware::effectiveSlope(4), 4);
  EXPECT_EQ(DynamixelFirmware::effectiveSlope(47), 32);
  EXPECT_EQ(DynamixelFirmware::effectiveSlope(64), 64);
  EXPECT_EQ(DynamixelFirmware::effectiveSlope(127), 64);
  EXPECT_EQ(DynamixelFirmware::effectiveSlope(254), 128);
}

TEST(DynamixelFirmware, QuantisesToTicksAndPidClamps) {
  DynamixelFirmware::Params p;  // AX: tick 0.0051 rad
  DynamixelFirmware fw(p);
  // 1.4 ticks of error rounds to 1 tick: inside the margin of 1.
  EXPECT_EQ(fw.step(0.001, 1.4 * kTick, 0.0, 0.0), 0.0);
  EXPECT_NEAR(fw.state().error_rad, kTick, 1e-15);
  DynamixelFirmware::Params m = dynamixelPreset("MX-64").firmware;
  EXPECT_NEAR(m.kp_duty_rad, 32 * 0.158, 1e-12);  // BAM's 0.158 per rad per unit of P
  m.tick_rad = 0;
  DynamixelFirmware mx(m);
  EXPECT_NEAR(mx.step(0.001, 0.1, 0.0, 0.0), 0.5056, 1e-12);
  EXPECT_NEAR(mx.step(0.001, 1.0, 0.0, 0.0), 0.9625, 1e-12);  // d_max
}

// Stall torque and no-load speed come back from R, K_t, K_e for every preset (exact algebra).
// A register of the law that does not run would be accepted and change nothing: the firmware
// refuses it when it is built, whatever order the registers and `law` were set in.
TEST(DynamixelFirmware, RefusesTheOtherLawsRegisters) {
  DynamixelFirmware::Params ax;  // compliance law
  ax.kp_duty_rad = 2.0;
  try {
    DynamixelFirmware fw(ax);
    FAIL() << "an AX firmware took kp = 2";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("kp = 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("compliance law"), std::string::npos) << e.what();
  }
  ax.validate();                         // each value alone is in range: the set itself is accepted
  ax.law = DynamixelFirmware::Law::Pid;  // the same gain on the PID law runs
  EXPECT_NO_THROW(DynamixelFirmware{ax});

  DynamixelFirmware::Params mx = dynamixelPreset("MX-64").firmware;
  EXPECT_NO_THROW(DynamixelFirmware{mx});
  mx.cw_slope = 64;
  EXPECT_THROW(DynamixelFirmware{mx}, std::invalid_argument);
  mx.cw_slope = DynamixelFirmware::Params{}.cw_slope;
  mx.punch = 0;
  EXPECT_THROW(DynamixelFirmware{mx}, std::invalid_argument);
  for (const char* name : {"AX-12", "AX-18", "MX-28", "MX-64", "MX-106", "XL-330"})
    EXPECT_NO_THROW(DynamixelFirmware{dynamixelPreset(name).firmware}) << name;
}

TEST(ServoDatasheet, PresetsRecoverStallTorqueAndNoLoadSpeed) {
  for (const std::string& n : dynamixelPresetNames()) {
    const DynamixelPreset p = dynamixelPreset(n);
    const DcMotor::Params m = motorFromDatasheet(p.datasheet);
    const double N = p.datasheet.gear_ratio, V = p.datasheet.voltage_V;
    EXPECT_NEAR(stallTorque_Nm(m, N, V), p.datasheet.stall_torque_Nm, 1e-12) << n;
    EXPECT_NEAR(noLoadSpeed_rad_s(m, N, V), p.datasheet.no_load_speed_rad_s, 1e-12) << n;
    EXPECT_NEAR(V / m.R_Ohm, p.datasheet.stall_current_A, 1e-12) << n;  // stall current V/R
    EXPECT_FALSE(p.source.empty());
  }
  // AX-18A: 97 rpm = 10.158 rad/s at 12 V; R = 12 / 2.2 Ohm.
  const DcMotor::Params ax = motorFromDatasheet(dynamixelPreset("ax-18a").datasheet);
  EXPECT_NEAR(ax.R_Ohm, 12.0 / 2.2, 1e-12);
  EXPECT_NEAR(ax.K_e_V_s_rad, 12.0 / (254 * 97 * 2 * std::numbers::pi / 60), 1e-15);
  // Without a stall current: lossless, K_t = K_e, still the same two figures.
  ServoDatasheet d{1.8, 10.0, 12.0, 0.0, 254.0};
  const DcMotor::Params l = motorFromDatasheet(d);
  EXPECT_DOUBLE_EQ(l.K_t_Nm_A, l.K_e_V_s_rad);
  EXPECT_NEAR(stallTorque_Nm(l, 254, 12), 1.8, 1e-12);
  EXPECT_NEAR(noLoadSpeed_rad_s(l, 254, 12), 10.0, 1e-12);
  EXPECT_THROW(dynamixelPreset("AX-99"), std::invalid_argument);
  EXPECT_THROW(motorFromDatasheet(ServoDatasheet{}), std::invalid_argument);
}

DynamixelServoModel ax18() { return DynamixelServoModel::fromPreset(dynamixelPreset("AX-18")); }

// Energy balance of the quasi-static motor at stall and at no load, through the solver: full
// duty on a free link reaches the no-load speed V / (N K_e) (no friction), and a link held by a
// load equal to the stall torque does not move.
TEST(VoltageServoDrive, NoLoadSpeedAndStallTorqueInTheSolver) {
  const DynamixelServoModel m = ax18();
  const double w0 = 97 * 2 * std::numbers::pi / 60;
  {
    JointRig rig({0.002, 0.0, 0.0, 0.0});
    auto d = makeDynamixelServoDrive(m, 0.001, 0.0);
    for (int k = 0; k < 300; ++k) rig.step(0.001, *d, 100.0);  // far goal: duty 1
    EXPECT_NEAR(rig.state().qd_rad_s, w0, 1e-6);
  }
  {
    JointRig rig({0.002, 0.0, 0.0, -1.8});  // the stall torque against it
    auto d = makeDynamixelServoDrive(m, 0.001, 0.0);
    for (int k = 0; k < 300; ++k) rig.step(0.001, *d, 100.0);
    EXPECT_NEAR(rig.state().qd_rad_s, 0.0, 1e-9);
  }
}

// The first step from rest: the torque is N K_t U / R = the stall torque at full duty,
// J a = 1.8 N m, and the implicit row gives v = dt tau_s / (J + dt b) exactly.
TEST(VoltageServoDrive, FirstStepIsTheImplicitRow) {
  const DynamixelServoModel m = ax18();
  VoltageServoDrive d(m.drive, 0.001, 0.0);
  EXPECT_TRUE(d.quasiStatic());
  const double b = m.drive.backEmfDamping_Nm_s_rad();
  EXPECT_NEAR(b, 1.8 / (97 * 2 * std::numbers::pi / 60), 1e-12);  // tau_s / w0
  JointRig rig({0.002, 0.0, 0.0, 0.0});
  rig.step(0.001, d, 100.0);
  EXPECT_NEAR(rig.state().qd_rad_s, 0.001 * 1.8 / (0.002 + 0.001 * b), 1e-12);
}

TEST(VoltageServoDrive, MovingSpeedCapsTheSpeedAndDelayShiftsTheGoal) {
  DynamixelServoModel m = ax18();
  m.drive.firmware.moving_speed_rad_s = 3.0;
  m.drive.delay_s = 0.005;
  JointRig rig({0.002, 0.0, 0.0, 0.0});
  auto d = makeDynamixelServoDrive(m, 0.001, 0.0);
  for (int k = 0; k < 5; ++k) {
    rig.step(0.001, *d, 1.0);
    EXPECT_EQ(rig.state().q_rad, 0.0) << k;  // the goal of 5 steps ago is the initial one
  }
  for (int k = 0; k < 200; ++k) rig.step(0.001, *d, 1.0);
  EXPECT_NEAR(rig.state().qd_rad_s, 3.0, 1e-6);
}

// A servo settles within the compliance margin plus what friction holds: without friction, at
// most margin + 1 ticks (the last tick of the ramp has too little duty to matter only with
// friction), and exactly on the goal tick when the link starts there.
TEST(VoltageServoDrive, StepResponseSettlesAtTheGoal) {
  DynamixelServoModel m = ax18();
  m.friction.tau_c_Nm = 0.02;
  JointRig rig({0.002, 0.0, 0.0, 0.0});
  auto d = makeDynamixelServoDrive(m, 0.001, 0.0);
  const double goal = 200 * kTick;
  for (int k = 0; k < 1500; ++k) rig.step(0.001, *d, goal);
  EXPECT_NEAR(rig.state().q_rad, goal, 2.5 * kTick);
  EXPECT_NEAR(rig.state().qd_rad_s, 0.0, 1e-9);
}

TEST(VoltageServoDrive, ValidateThrows) {
  DynamixelServoModel m = ax18();
  m.drive.motor.K_e_V_s_rad = 0;
  EXPECT_THROW(makeDynamixelServoDrive(m, 0.001, 0.0), std::invalid_argument);
  m = ax18();
  m.drive.firmware.torque_limit = 1.5;
  EXPECT_THROW(makeDynamixelServoDrive(m, 0.001, 0.0), std::invalid_argument);
  m = ax18();
  m.backlash.width_rad = -1;
  EXPECT_THROW(makeDynamixelServoDrive(m, 0.001, 0.0), std::invalid_argument);
}

/// A drive that always pushes with a constant explicit torque.
class ConstantDrive : public CopyableDrive<ConstantDrive> {
 public:
  explicit ConstantDrive(double tau) : tau_(tau) {}
  SolverTerms step(double, const DriveInput&) override { return {true, tau_}; }

 private:
  double tau_;
};

// Backlash dead band: with the drive centred, a joint displaced by less than h = width/2 gets
// nothing from the drive; beyond it (or once the drive side has crossed the gap) it does.
TEST(BacklashDrive, DeadBandOfHalfTheWidth) {
  BacklashDrive::Params bp;
  bp.width_rad = 0.02;
  bp.drive_inertia_kgm2 = 1.0;  // slow drive side: it barely moves in one step
  {
    BacklashDrive d(std::make_unique<ConstantDrive>(0.0), bp, 0.0);
    for (double q : {-0.009, 0.0, 0.009}) {
      const SolverTerms t = d.step(0.001, {0.0, q, q, 0.0});
      EXPECT_FALSE(t.has_explicit_torque) << q;
      EXPECT_EQ(t.damper_fmax_Nm, 0.0);
      EXPECT_EQ(t.motor_fmax_Nm, 0.0);
    }
  }
  {
    BacklashDrive d(std::make_unique<ConstantDrive>(0.5), bp, 0.0);
    const SolverTerms t = d.step(0.001, {0.0, -0.0101, -0.0101, 0.0});  // outside the band
    EXPECT_TRUE(t.has_explicit_torque);
    EXPECT_EQ(t.explicit_torque_Nm, 0.5);
    EXPECT_TRUE(d.inContact());
  }
}

// In the solver: a drive side pushing +0.2 N m crosses the gap first (the joint does not move),
// then drives the joint. With J_m = 1e-3 the side reaches h = 0.01 rad after t = sqrt(2 h J_m / tau)
// = 0.010 s (semi-implicit Euler: within a step); then it leads the joint by h (to within the
// one step the drive side's angle lags: 0.2 / 0.011 x 0.001 s x 0.06 s < 1.5e-3 rad).
TEST(BacklashDrive, TheDriveCrossesTheGapBeforeTheJointMoves) {
  BacklashDrive::Params bp;
  bp.width_rad = 0.02;
  bp.drive_inertia_kgm2 = 1e-3;
  BacklashDrive d(std::make_unique<ConstantDrive>(0.2), bp, 0.0);
  JointRig rig({0.01, 0.0, 0.0, 0.0});
  int first_move = -1;
  for (int k = 0; k < 100 && first_move < 0; ++k) {
    rig.step(0.001, d, 0.0);
    if (rig.state().q_rad != 0.0) first_move = k;
  }
  EXPECT_NEAR(first_move, 10, 1);
  for (int k = 0; k < 50; ++k) rig.step(0.001, d, 0.0);
  EXPECT_NEAR(d.driveAngle_rad() - rig.state().q_rad, 0.01, 1.5e-3);
  EXPECT_TRUE(d.inContact());
}

// Motor-side encoder: the inner drive sees theta_m, not the joint angle.
TEST(BacklashDrive, EncoderSide) {
  class Probe : public CopyableDrive<Probe> {
   public:
    double seen = NAN;
    SolverTerms step(double, const DriveInput& in) override {
      seen = in.q_encoder_rad;
      return {};
    }
  };
  BacklashDrive::Params bp;
  bp.width_rad = 0.02;
  for (auto enc : {BacklashDrive::Encoder::Output, BacklashDrive::Encoder::Motor}) {
    bp.encoder = enc;
    auto probe = std::make_unique<Probe>();
    Probe* p = probe.get();
    BacklashDrive d(std::move(probe), bp, 0.0);
    d.step(0.001, {0.0, 0.005, 0.005, 0.0});
    EXPECT_EQ(p->seen, enc == BacklashDrive::Encoder::Output ? 0.005 : 0.0);
  }
}

// Friction wrapper around the paper's Dynamixel law (any drive): the budget joins its motor row.
TEST(GearFrictionDrive, JoinsTheMotorRowOfAnyDrive) {
  DynamixelServo::Params p;
  p.kc_Nm = 0.03;
  GearFriction::Params f;
  f.model = FrictionModel::M3;
  f.tau_c_Nm = 0.01;
  f.k_l = 0.1;
  GearFrictionDrive d(std::make_unique<DynamixelDrive>(p, 0.001, 0.0), f);
  const SolverTerms t = d.step(0.001, {0.0, 0.0, 0.0, 0.0, 0.2});
  // At rest on the goal the law pushes 0: budget tau_c + k_l |0.2 - 0| on top of kc.
  EXPECT_NEAR(t.motor_fmax_Nm, 0.03 + 0.01 + 0.02, 1e-12);
  // Ideal servo (velocity row): the friction becomes an explicit sliding torque.
  GearFrictionDrive i(std::make_unique<IdealServoDrive>(test::idealServo()), f);
  const SolverTerms ti = i.step(0.001, {0.05, 0.0, 0.0, 1.0, 0.0});
  EXPECT_TRUE(ti.has_explicit_torque);
  EXPECT_NEAR(ti.explicit_torque_Nm, -0.01, 1e-12);
  EXPECT_EQ(ti.motor_fmax_Nm, 7.5);
}

}  // namespace
}  // namespace gapsim::motorgear
