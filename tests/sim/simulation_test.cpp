// SPDX-License-Identifier: BSD-3-Clause
// The ODE world against analytic answers: pendulum period, free fall, hinge angle conventions,
// determinism, divergence detection.
#include "sim/simulation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/kinematics.h"
#include "sim/urdf_parser.h"
#include "swing_period.h"

namespace gapsim {
namespace {

std::shared_ptr<const RobotModel> loadData(const std::string& name) {
  return std::make_shared<RobotModel>(loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/" + name));
}

TEST(Simulation, CompoundPendulumPeriodMatchesAnalytic) {
  // T = 2 pi sqrt(I_p / (m g d)) (1 + theta0^2 / 16): physical pendulum with the finite-amplitude
  // correction; I_p = I_cm + m d^2 (parallel axes). dWorldStep with dt = 0.5 ms; the measured
  // period over 5 swings must be within 0.5% (the tolerance; the semi-implicit Euler
  // error at this dt is about (omega dt)^2 / 24 ~ 1e-8, far below it).
  auto model = loadData("pendulum.urdf");
  Simulation sim(model);
  const double m = 1.0, d = 0.5, g = 9.81, theta0 = 0.05;
  const double Ip = 1.6e-4 + m * d * d;
  const double T = 2 * M_PI * std::sqrt(Ip / (m * g * d)) * (1 + theta0 * theta0 / 16);
  ASSERT_NEAR(sim.jointAngle_rad(0), theta0, 1e-12);
  const double measured = test::meanSwingPeriod_s(sim, 6 * T);
  EXPECT_NEAR(measured, T, 0.005 * T) << "measured " << measured << " s, analytic " << T << " s";
  EXPECT_NEAR(measured, T, 0.001 * T);  // and in fact much closer
}

TEST(Simulation, PendulumSwingsInTheDirectionOfUrdfAngles) {
  // Positive hinge angle about +y moves the bob (below the pivot) towards -x: R_y(q) (0,0,-d)
  // = (-d sin q, 0, -d cos q). Checks that ODE's angle sign follows URDF's child-vs-parent rule.
  auto model = loadData("pendulum.urdf");
  Simulation sim(model);
  const Eigen::Vector3d bob = sim.linkPose(1) * Eigen::Vector3d(0, 0, -0.5);
  EXPECT_NEAR(bob.x(), -0.5 * std::sin(0.05), 1e-12);
  EXPECT_NEAR(bob.z(), 1.0 - 0.5 * std::cos(0.05), 1e-12);
}

TEST(Simulation, FreeFallMatchesHalfGTSquared) {
  // z(t) = z0 - g t^2 / 2. ODE integrates semi-implicitly (v += g dt, then x += v dt), so after n
  // steps z = z0 - g dt^2 n (n + 1) / 2 exactly: its distance to the analytic parabola is g dt t / 2
  // (4.9 mm after 1 s at 1 ms), which is the tolerance, and the discrete formula holds to 1e-9.
  auto model = loadData("falling_box.urdf");
  Simulation sim(model);
  const double g = 9.81, dt = sim.dt_s(), z0 = sim.linkPose(0).translation().z();
  EXPECT_DOUBLE_EQ(z0, 10.0);
  for (int n = 1; n <= 1000; ++n) sim.step();
  const double t = sim.time_s(), z = sim.linkPose(0).translation().z();
  EXPECT_NEAR(z, z0 - g * dt * dt * 1000.0 * 1001.0 / 2.0, 1e-9);
  EXPECT_NEAR(z, z0 - g * t * t / 2, g * dt * t / 2 + 1e-9);
}

TEST(Simulation, ForwardKinematicsAgreesWithOde) {
  auto model = std::make_shared<RobotModel>(
      loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/tests/app/data/thirdparty_arm_robot.urdf"));
  Simulation sim(model);
  auto poses = linkPoses(*model, model->initial_q, initialRootPose(*model));
  for (size_t l = 0; l < model->links.size(); ++l) {
    EXPECT_TRUE(sim.linkPose(static_cast<int>(l)).isApprox(poses[l], 1e-12)) << model->links[l].name;
  }
  // Initial pose is on the ground: lowest collision point at the default clearance 0.5 mm.
  EXPECT_NEAR(lowestCollisionPoint_m(*model, poses), 0.0005, 1e-12);
}

TEST(Simulation, TwoRunsInOneProcessAreBitIdentical) {
  auto model = std::make_shared<RobotModel>(
      loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/tests/app/data/thirdparty_arm_robot.urdf"));
  auto run = [&](Simulation& s, int steps) {
    std::vector<double> tgt = model->initial_q;
    for (int k = 0; k < steps; ++k) {
      for (size_t j = 1; j < tgt.size(); ++j) tgt[j] = 0.3 * std::sin(3.0 * s.time_s() + j);
      s.setTargets(tgt);
      s.step();
    }
  };
  Simulation a(model), b(model);
  // Interleave a and b: each owns its QuickStep random stream, so neither disturbs the other.
  for (int i = 0; i < 20; ++i) {
    run(a, 50);
    run(b, 50);
  }
  Simulation c(model);
  run(c, 1000);
  for (size_t l = 0; l < model->links.size(); ++l) {
    const Eigen::Isometry3d pa = a.linkPose(l), pb = b.linkPose(l), pc = c.linkPose(l);
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(pa.translation()(r), pb.translation()(r));
      EXPECT_EQ(pa.translation()(r), pc.translation()(r));
    }
  }
}

TEST(Simulation, AbsurdTimeStepIsReportedAsDivergence) {
  auto model = std::make_shared<RobotModel>(
      loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/tests/app/data/thirdparty_arm_robot.urdf"));
  SimOptions o;
  o.dt_s = 0.5;  // a 0.5 s step on a 2.8 kg robot standing on stiff contacts
  Simulation sim(model, o);
  try {
    for (int k = 0; k < 200; ++k) sim.step();
    FAIL() << "no divergence detected";
  } catch (const DivergenceError& e) {
    EXPECT_NE(std::string(e.what()).find("diverged at t="), std::string::npos) << e.what();
    EXPECT_FALSE(e.body().empty());
  }
}

}  // namespace
}  // namespace gapsim
