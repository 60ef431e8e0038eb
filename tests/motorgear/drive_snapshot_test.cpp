// SPDX-License-Identifier: BSD-3-Clause
// motorgear/drive.h: clone() and restore() carry a drive's state (what SimState keeps of drives).
#include <gtest/gtest.h>

#include <vector>

#include "motorgear/drives.h"
#include "motorgear/servo_drive.h"
#include "tests/motorgear/servo_fixtures.h"

namespace gapsim::motorgear {
namespace {

std::vector<double> torques(Drive& d, double goal_rad, int steps) {
  std::vector<double> out;
  for (int k = 0; k < steps; ++k) out.push_back(d.step(0.001, {goal_rad, 0.01 * k, 0.01 * k, 0.1}).explicit_torque_Nm);
  return out;
}

/// Every solver term of `steps` steps, flattened.
std::vector<double> terms(Drive& d, double goal_rad, int steps) {
  std::vector<double> out;
  for (int k = 0; k < steps; ++k) {
    const SolverTerms t = d.step(0.001, {goal_rad, 0.002 * k, 0.002 * k, 0.1});
    out.insert(out.end(), {t.has_explicit_torque ? 1.0 : 0.0, t.explicit_torque_Nm, t.motor_velocity_rad_s,
                           t.motor_fmax_Nm, t.damper_velocity_rad_s, t.damper_fmax_Nm});
  }
  return out;
}

// A goal delayed by three steps: the two goals fed before the snapshot come out after it, from the
// restored drive as from the original (a fresh drive would still give the initial goal's 0 N m).
TEST(DriveSnapshot, RestoreCarriesTheDelayLine) {
  DynamixelDrive d(test::delayedExplicitServo(), 0.001, 0.0);
  torques(d, 0.05, 2);
  const std::unique_ptr<Drive> snapshot = d.clone();
  const std::vector<double> first = torques(d, 1.0, 4);
  d.restore(*snapshot);
  EXPECT_EQ(torques(d, 1.0, 4), first);
  EXPECT_DOUBLE_EQ(first[0], 0.0);                  // the initial goal, 0 rad at q = 0
  EXPECT_DOUBLE_EQ(first[1], -10 * (0.01 - 0.05));  // the first goal fed before the snapshot
  // The clone runs on its own: stepping it leaves the original where it was.
  auto clone = snapshot->clone();
  torques(*clone, -1.0, 3);
  d.restore(*snapshot);
  EXPECT_EQ(torques(d, 1.0, 4), first);
}

// The wrappers restore what they wrap: backlash around gear friction around the voltage servo.
TEST(DriveSnapshot, WrappedDrivesRestoreTheirInnerDrive) {
  DynamixelServoModel m = DynamixelServoModel::fromPreset(dynamixelPreset("AX-18"));
  m.backlash.width_rad = 0.01;
  m.drive.delay_s = 0.002;
  const std::unique_ptr<Drive> d = makeDynamixelServoDrive(m, 0.001, 0.0);
  terms(*d, 0.3, 7);
  const std::unique_ptr<Drive> snapshot = d->clone();
  std::vector<const Drive*> chain;  // the wrappers and the drive they wrap, outermost first
  for (const Drive* w = d.get(); w; w = w->wrapped()) chain.push_back(w);
  ASSERT_EQ(chain.size(), 3u);  // Backlash(GearFriction(VoltageServo))
  const std::vector<double> first = terms(*d, -0.2, 20);
  d->restore(*snapshot);
  EXPECT_EQ(terms(*d, -0.2, 20), first);
  // Restored in place: what the simulation holds pointers to is still the drive that runs.
  std::vector<const Drive*> after;
  for (const Drive* w = d.get(); w; w = w->wrapped()) after.push_back(w);
  EXPECT_EQ(after, chain);
  // The state matters: a fresh drive answers the same inputs differently (the goal delay).
  EXPECT_NE(terms(*makeDynamixelServoDrive(m, 0.001, 0.0), -0.2, 20), first);
}

// The reality effect's command delay around an ideal servo: the goals in its line are part of the
// snapshot, and the clone is a drive of its own (stepping it leaves the original alone).
TEST(DriveSnapshot, ACommandDelayCarriesItsLineAndItsInnerDrive) {
  CommandDelayDrive d(std::make_unique<IdealServoDrive>(test::idealServo()), 0.003, 0.001, 0.0);
  terms(d, 0.4, 2);
  const std::unique_ptr<Drive> snapshot = d.clone();
  const std::vector<double> first = terms(d, -0.1, 6);
  terms(*snapshot, 0.9, 5);  // moves the clone only
  const std::unique_ptr<Drive> again = snapshot->clone();
  d.restore(*again);
  EXPECT_NE(terms(d, -0.1, 6), first);  // the clone's line, not the original's
  CommandDelayDrive fresh(std::make_unique<IdealServoDrive>(test::idealServo()), 0.003, 0.001, 0.0);
  terms(fresh, 0.4, 2);
  const std::unique_ptr<Drive> s2 = fresh.clone();
  const std::vector<double> second = terms(fresh, -0.1, 6);
  fresh.restore(*s2);
  EXPECT_EQ(terms(fresh, -0.1, 6), second);
  EXPECT_EQ(second, first);
  EXPECT_THROW(d.restore(IdealServoDrive(test::idealServo())), std::invalid_argument);
}

TEST(DriveSnapshot, ASnapshotOfAnotherTypeIsRefused) {
  IdealServoDrive ideal(test::idealServo());
  FrictionDrive friction(0.1);
  EXPECT_THROW(ideal.restore(friction), std::invalid_argument);
}

}  // namespace
}  // namespace gapsim::motorgear
