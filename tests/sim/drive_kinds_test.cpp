// SPDX-License-Identifier: BSD-3-Clause
#include "sim/drive_kinds.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

namespace gapsim {
namespace {

Drivetrain driveOf(DriveKind kind) {
  Drivetrain d;
  d.kind = kind;
  return d;
}

// Every kind has one row, and its robot-file type names it back: the reader, `info` and the
// parameter tree all ask the table, so a kind without a row would be unreadable.
TEST(DriveKinds, EveryKindHasOneRowAndItsTypeNamesIt) {
  std::set<DriveKind> seen;
  for (const DriveKindInfo& k : driveKinds()) {
    EXPECT_TRUE(seen.insert(k.kind).second) << k.type;
    EXPECT_EQ(driveKindOfType(k.type), k.kind);
    EXPECT_EQ(&driveKindInfo(k.kind), &k);
    EXPECT_FALSE(k.title.empty());
  }
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_EQ(driveKindOfType("stepper"), std::nullopt);
  EXPECT_EQ(driveTypeNames(),
            (std::vector<std::string>{"motoflex", "dynamixel", "dynamixel_voltage", "ideal", "torque"}));
}

// The servo laws' leaves are reached under servo/, the chain's under its component names, and a
// kind without parameters refuses every name.
TEST(DriveKinds, LeavesAreReadAndSetThroughTheKind) {
  Drivetrain chain = driveOf(DriveKind::MoToFlex);
  ASSERT_FALSE(driveLeaves(chain).empty());
  setDriveLeaf(chain, "motor/K_t", 0.025);
  EXPECT_EQ(driveLeaf(chain, "motor/K_t"), 0.025);
  EXPECT_EQ(chain.motoflex.motor.K_t_Nm_A, 0.025);

  Drivetrain servo = driveOf(DriveKind::Dynamixel);
  for (const motorgear::ParamInfo& i : driveLeaves(servo)) EXPECT_EQ(i.name.rfind("servo/", 0), 0u) << i.name;
  setDriveLeaf(servo, "servo/kp", 3.5);
  EXPECT_EQ(servo.dynamixel.kp_Nm_rad, 3.5);
  EXPECT_THROW(setDriveLeaf(servo, "servo/kp", -1.0), std::invalid_argument);  // validated

  Drivetrain torque = driveOf(DriveKind::Torque);
  EXPECT_TRUE(driveLeaves(torque).empty());
  EXPECT_THROW(driveLeaf(torque, "motor/K_t"), std::invalid_argument);
  EXPECT_THROW(setDriveLeaf(torque, "motor/K_t", 1.0), std::invalid_argument);
}

TEST(DriveKinds, PresetsBelongToTheirKinds) {
  Drivetrain chain = driveOf(DriveKind::MoToFlex);
  applyDrivePreset(chain, "typeB");
  EXPECT_EQ(chain.motoflex.gear.sigma, motorgear::JointDrivetrain::Params::typeB().gear.sigma);
  EXPECT_THROW(applyDrivePreset(chain, "typeC"), std::invalid_argument);

  Drivetrain voltage = driveOf(DriveKind::DynamixelVoltage);
  const double ax18_stall_Nm = voltage.voltage_servo.get("stall_torque");
  applyDrivePreset(voltage, "MX-28");
  EXPECT_NE(voltage.voltage_servo.get("stall_torque"), ax18_stall_Nm);
  EXPECT_THROW(applyDrivePreset(voltage, "AX-99"), std::invalid_argument);

  Drivetrain ideal = driveOf(DriveKind::Ideal);
  try {
    applyDrivePreset(ideal, "typeA");
    FAIL() << "an ideal servo has no presets";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("got type 'ideal'"), std::string::npos) << e.what();
  }
}

// Armature sigma^2 J_rotor of the chain's gear; the other laws without a rotor add none.
TEST(DriveKinds, ArmatureIsTheReflectedRotorInertia) {
  Drivetrain chain = driveOf(DriveKind::MoToFlex);
  chain.motoflex.gear.J_rotor_kgm2 = 2.0e-7;
  const motorgear::Gear::Params& g = chain.motoflex.gear;
  ASSERT_GT(g.sigma, 1.0);
  EXPECT_DOUBLE_EQ(driveArmature_kgm2(chain), g.sigma * g.sigma * g.J_rotor_kgm2);
  Drivetrain voltage = driveOf(DriveKind::DynamixelVoltage);
  voltage.voltage_servo.armature_kgm2 = 3.0e-3;
  EXPECT_EQ(driveArmature_kgm2(voltage), 3.0e-3);
  EXPECT_EQ(driveArmature_kgm2(driveOf(DriveKind::Dynamixel)), 0.0);
  EXPECT_EQ(driveArmature_kgm2(driveOf(DriveKind::Torque)), 0.0);
}

TEST(DriveKinds, PassiveJointsAndPositionServos) {
  Joint j;
  j.drive = driveOf(DriveKind::Ideal);
  j.servo.fmax_Nm = 0;
  EXPECT_TRUE(passiveJoint(j));
  EXPECT_EQ(driveSummary(j), "passive");
  j.servo.fmax_Nm = 2;
  EXPECT_FALSE(passiveJoint(j));
  j.drive = driveOf(DriveKind::Torque);
  j.servo.fmax_Nm = 0;  // the servo settings do not drive a torque-input joint
  EXPECT_FALSE(passiveJoint(j));
  EXPECT_EQ(driveSummary(j), "torque-driven (external)");

  EXPECT_EQ(positionServoLaw(driveOf(DriveKind::MoToFlex)), std::nullopt);
  Drivetrain servo = driveOf(DriveKind::Dynamixel);
  servo.dynamixel.kp_Nm_rad = 4.0;
  servo.dynamixel.tau_max_Nm = 1.5;
  const std::optional<PositionServoLaw> law = positionServoLaw(servo);
  ASSERT_TRUE(law);
  EXPECT_EQ(law->kp_Nm_rad, 4.0);
  EXPECT_EQ(law->tau_max_Nm, 1.5);
}

}  // namespace
}  // namespace gapsim
