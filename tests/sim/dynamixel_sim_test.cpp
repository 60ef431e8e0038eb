// SPDX-License-Identifier: BSD-3-Clause
// The Dynamixel drive in the simulation (sim/simulation.cpp, DriveKind::Dynamixel) against
// closed-form answers on one hinge without gravity (inertia I about the axis, no load):
//  - speed_max: with the drive term limited to kd w0, the torque is kd (w0 - qd), so from rest
//    qd(t) = w0 (1 - exp(-kd t / I)) and never above w0 (the motor's torque-speed line);
//  - delay_s: the goal position acts delay_s later (no torque before);
//  - an asymmetric clamp: tau_max pushing one way, tau_min the other (the motor row's force bound
//    is symmetric in ODE, so the simulation picks the side; it once used max(|tau_min|, tau_max)).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

using namespace gapsim;

namespace {

/// tests/sim/data/pendulum.urdf without gravity, its hinge a Dynamixel with the given law.
std::shared_ptr<RobotModel> servoOnPendulum(const motorgear::DynamixelServo::Params& p) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/pendulum.urdf"));
  m->solver.gravity_m_s2.setZero();
  Joint& j = m->joints[static_cast<std::size_t>(m->jointIndex("hinge"))];
  j.drive.kind = DriveKind::Dynamixel;
  j.drive.dynamixel = p;
  j.drive.dynamixel.validate();
  return m;
}

constexpr double kInertia = 1.0 * 0.5 * 0.5 + 1.6e-4;  // bob 1 kg at 0.5 m plus its own (pendulum.urdf)

motorgear::DynamixelServo::Params law(double kd, double tau) {
  motorgear::DynamixelServo::Params p;
  p.kp_Nm_rad = 9.272;
  p.kd_Nm_s_rad = kd;
  p.kc_Nm = 0.0;
  p.tau_max_Nm = tau;
  p.tau_min_Nm = -tau;
  return p;
}

}  // namespace

TEST(DynamixelSim, NoLoadSpeedIsApproachedExponentiallyAndNeverExceeded) {
  auto p = law(0.3, 5.0);
  p.speed_max_rad_s = 2.0;  // kd w0 = 0.6 N m < tau_max: the clamp never acts
  auto m = servoOnPendulum(p);
  const int j = m->jointIndex("hinge");
  Simulation sim(m);
  std::vector<double> target(m->joints.size(), 0.0);
  target[static_cast<std::size_t>(j)] = 20.0;  // far ahead: the drive term stays saturated
  sim.setTargets(target);
  double peak = 0;
  while (sim.time_s() < 3.0 - 1e-12) {
    sim.step();
    peak = std::max(peak, sim.jointRate_rad_s(j));
  }
  const double expect = 2.0 * (1.0 - std::exp(-0.3 * sim.time_s() / kInertia));
  EXPECT_NEAR(sim.jointRate_rad_s(j), expect, 0.01 * expect);
  EXPECT_LE(peak, 2.0);
  // Without the limit the same servo is torque-limited only: 5 N m / I = 20 rad/s^2.
  Simulation free(servoOnPendulum(law(0.3, 5.0)));
  free.setTargets(target);
  while (free.time_s() < 0.2 - 1e-12) free.step();
  EXPECT_GT(free.jointRate_rad_s(j), 3.5);
}

TEST(DynamixelSim, GoalActsAfterTheDeadTime) {
  auto p = law(0.3, 0.75);
  p.delay_s = 0.05;
  auto m = servoOnPendulum(p);
  const int j = m->jointIndex("hinge");
  Simulation sim(m);
  const double q0 = sim.jointAngle_rad(j);
  std::vector<double> target(m->joints.size(), 0.0);
  target[static_cast<std::size_t>(j)] = q0;
  sim.setTargets(target);
  for (int k = 0; k < 20; ++k) sim.step();  // 10 ms holding the start
  const double t_cmd = sim.time_s();
  target[static_cast<std::size_t>(j)] = q0 + 1.0;
  sim.setTargets(target);
  while (sim.time_s() < t_cmd + 0.05 - 1e-9) {
    sim.step();
    ASSERT_NEAR(sim.jointAngle_rad(j), q0, 1e-9) << "moved at t = " << sim.time_s();
  }
  // From then on the clamp accelerates it: q - q0 = tau t^2 / (2 I) (kd qd is far below the
  // saturated drive term at these speeds).
  while (sim.time_s() < t_cmd + 0.15 - 1e-9) sim.step();
  const double t = sim.time_s() - t_cmd - 0.05;
  EXPECT_NEAR(sim.jointAngle_rad(j) - q0, 0.75 * t * t / (2 * kInertia), 0.03 * 0.75 * t * t / (2 * kInertia));
}

TEST(DynamixelSim, AsymmetricClampPushesWithTauMaxUpAndTauMinDown) {
  auto p = law(0.3, 0.2);
  p.tau_min_Nm = -0.6;
  for (const double dir : {+1.0, -1.0}) {
    auto m = servoOnPendulum(p);
    const int j = m->jointIndex("hinge");
    Simulation sim(m);
    std::vector<double> target(m->joints.size(), 0.0);
    target[static_cast<std::size_t>(j)] = sim.jointAngle_rad(j) + dir * 10.0;
    sim.setTargets(target);
    while (sim.time_s() < 0.1 - 1e-12) sim.step();
    const double tau = dir > 0 ? 0.2 : 0.6;
    EXPECT_NEAR(sim.jointRate_rad_s(j), dir * tau * sim.time_s() / kInertia, 0.02 * tau * sim.time_s() / kInertia)
        << "dir " << dir;
  }
}

TEST(DynamixelSim, ParametersByName) {
  RobotModel m = *servoOnPendulum(law(0.3, 0.75));
  setParameter(m, "hinge/servo/speed_max", 8.0);
  setParameter(m, "hinge/servo/delay_s", 0.04);
  const auto& d = m.joints[static_cast<std::size_t>(m.jointIndex("hinge"))].drive.dynamixel;
  EXPECT_EQ(d.speed_max_rad_s, 8.0);
  EXPECT_EQ(d.delay_s, 0.04);
  EXPECT_THROW(setParameter(m, "hinge/servo/speed_max", -1.0), InputError);
  EXPECT_THROW(setParameter(m, "hinge/servo/delay_s", 2.0), InputError);
  EXPECT_EQ(d.speed_max_rad_s, 8.0);  // a refused value leaves the model as it was
}

// The law that runs is the law in motorgear: the torque the solver applies to a Dynamixel joint
// equals motorgear::DynamixelServo::torque_Nm, for the explicit variant (kd = 0) and for the
// implicit damper row (kd > 0, where qd is the end-of-step rate). kc = 0: no dry-friction row.
void expectSolverTorqueIsTheMotorgearLaw(double kd) {
  const auto p = law(kd, 5.0);
  auto m = servoOnPendulum(p);
  const int j = m->jointIndex("hinge");
  Joint& joint = m->joints[static_cast<std::size_t>(j)];
  joint.encoder_resolution_rad = 0;
  // The bob's COM on the axis: the hinge's positional rows then carry no load, and the torque the
  // solver reports about the axis is the drive's alone.
  Link& bob = m->links[static_cast<std::size_t>(joint.child)];
  bob.inertial.origin = Eigen::Isometry3d::Identity();
  bob.inertial.inertia_kgm2 += bob.inertial.mass_kg * 0.25 * Eigen::Matrix3d::Identity();
  Simulation sim(m);
  std::vector<double> target = m->initial_q;
  target[static_cast<std::size_t>(j)] += 0.3;
  sim.setTargets(target);
  for (int k = 0; k < 200; ++k) {
    const double q_before = sim.jointAngle_rad(j);
    sim.step();
    const double law_Nm =
        motorgear::DynamixelServo::torque_Nm(p, target[static_cast<std::size_t>(j)], q_before, sim.jointRate_rad_s(j));
    // 1e-9 N m against a law of up to 3 N m: dWorldStep solves the rows exactly.
    ASSERT_NEAR(sim.jointTorque_Nm(j), law_Nm, 1e-9) << "step " << k << ", kd " << kd;
  }
}

TEST(DynamixelSim, ExplicitLawInTheSolverIsTheMotorgearLaw) { expectSolverTorqueIsTheMotorgearLaw(0.0); }
TEST(DynamixelSim, DamperRowInTheSolverIsTheMotorgearLawWithEndOfStepRate) {
  expectSolverTorqueIsTheMotorgearLaw(0.3069);
}
