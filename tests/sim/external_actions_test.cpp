// SPDX-License-Identifier: BSD-3-Clause
// The external-action API (joint torques, link forces, point velocities) and static scene boxes,
// against analytic answers: a torque on a hinge holds a pendulum statically; a force at a point
// accelerates a free box at F/m; a box dropped onto a scene box rests on its top face.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

RobotModel loadData(const std::string& name) { return loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/" + name); }

TEST(ExternalActions, HingeTorqueBalancesGravityStatically) {
  // Pendulum at theta0 = 0.05 rad: gravity torque about the pivot is -m g d sin(theta0) (it pulls
  // the bob back to 0). Adding +m g d sin(theta) every step holds it: the angle stays at theta0.
  RobotModel m = loadData("pendulum.urdf");
  auto model = std::make_shared<const RobotModel>(m);
  Simulation sim(model);
  const double mgd = 1.0 * 9.81 * 0.5;
  while (sim.time_s() < 1.0) {
    sim.addJointTorque_Nm(0, mgd * std::sin(sim.jointAngle_rad(0)));
    sim.step();
  }
  EXPECT_NEAR(sim.jointAngle_rad(0), 0.05, 1e-6);
  EXPECT_NEAR(sim.jointTorque_Nm(0), mgd * std::sin(0.05), 1e-6);  // reported as the actuator torque
  // The queued torque acts for one step only: without it the pendulum swings back.
  while (sim.time_s() < 1.2) sim.step();  // 0.2 s of a 1.42 s period: cos(2 pi 0.2/1.42) = 0.63
  EXPECT_LT(sim.jointAngle_rad(0), 0.04);
}

TEST(ExternalActions, TorqueDriveHasNoServo) {
  // A `torque` drivetrain joint: the servo does not pull toward the target; only dry friction
  // (here 0) and the caller's torques act, so the pendulum swings as if passive.
  RobotModel m = loadData("pendulum.urdf");
  m.joints[0].servo.fmax_Nm = 100.0;  // would hold it rigidly if the ideal servo were active
  m.joints[0].drive.kind = DriveKind::Torque;
  Simulation sim(std::make_shared<const RobotModel>(m));
  while (sim.time_s() < 0.5) sim.step();
  EXPECT_LT(sim.jointAngle_rad(0), 0.0);  // it swung through the bottom (quarter period 0.355 s)
}

TEST(ExternalActions, ForceAtPointAcceleratesFreeBodyAndPointVelocityFollows) {
  // A free box (2 kg) in zero gravity pushed with 2 N through its centre: a = F/m, so
  // after n steps of dt the speed is a n dt exactly (semi-implicit Euler is exact for constant F).
  RobotModel m = loadData("falling_box.urdf");
  m.solver.gravity_m_s2 = Eigen::Vector3d::Zero();
  m.ground_plane = false;
  Simulation sim(std::make_shared<const RobotModel>(m));
  double mass = 0;
  for (const Link& l : m.links) mass += l.inertial.mass_kg;
  const int root = m.root_link;
  for (int i = 0; i < 500; ++i) {
    const Eigen::Vector3d c = sim.linkPose(root) * m.links[root].inertial.origin.translation();
    sim.addLinkForce_N(root, Eigen::Vector3d(2.0, 0, 0), c);
    sim.step();
  }
  const Eigen::Vector3d c = sim.linkPose(root) * m.links[root].inertial.origin.translation();
  EXPECT_NEAR(sim.linkPointVelocity_m_s(root, c).x(), 2.0 / mass * 0.5, 1e-9);
  EXPECT_NEAR(sim.linkPointVelocity_m_s(root, c).z(), 0.0, 1e-12);
}

TEST(ExternalActions, SceneBoxHoldsTheRobot) {
  // The falling box (from 10 m) dropped above a 0.3 m high scene box ends resting on its top face.
  RobotModel m = loadData("falling_box.urdf");
  m.ground_plane = false;
  SceneBox seat;
  seat.name = "seat";
  seat.size_m = Eigen::Vector3d(1.0, 1.0, 0.3);
  seat.pose.translation() = Eigen::Vector3d(0, 0, 0.15);
  m.scene_boxes.push_back(seat);
  Simulation sim(std::make_shared<const RobotModel>(m));
  for (int i = 0; i < 3000; ++i) sim.step();
  const double z = sim.linkPose(m.root_link).translation().z();
  EXPECT_GT(z, 0.3);
  EXPECT_LT(z, 2.0);
  EXPECT_GT(sim.contactCount(), 0);
  EXPECT_NEAR(sim.linkPointVelocity_m_s(m.root_link, sim.linkPose(m.root_link).translation()).norm(), 0.0, 1e-3);
}

TEST(ExternalActions, BadSceneBoxIsRejected) {
  RobotModel m = loadData("falling_box.urdf");
  SceneBox b;
  b.name = "wall";
  b.size_m = Eigen::Vector3d(0.1, -1, 1);
  m.scene_boxes.push_back(b);
  EXPECT_THROW(Simulation(std::make_shared<const RobotModel>(m)), std::invalid_argument);
}

}  // namespace
}  // namespace gapsim
