// SPDX-License-Identifier: BSD-3-Clause
// The IMU reports pitch and roll of its sensor frame (x forward, y left, z up), not of whatever
// frame the link happens to have: the BIOLOID's torso link has x left and -y forward (bioGP), so
// its `<imu rpy="0 0 -pi/2">` turns a lean backwards into a negative pitch, as on the Nao.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

using namespace gapsim;

namespace {

/// The robot's initial pose turned by angle_rad about the world axis `axis`.
ImuReading readingAfterTurn(const std::string& robot, const Eigen::Vector3d& axis, double angle_rad) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile(robot)));
  m->initial_root_pose.linear() = Eigen::AngleAxisd(angle_rad, axis).toRotationMatrix() * m->initial_root_pose.linear();
  Simulation sim(m);
  return sim.imu();
}

}  // namespace

TEST(ImuFrame, BothHumanoidsReportALeanBackAsNegativePitch) {
  // Both robots face +x in their initial pose; a lean back is a turn about world +y by a negative
  // angle (pitch is positive nose down).
  for (const char* robot : {"nao", "bioloid"}) {
    const ImuReading back = readingAfterTurn(robot, Eigen::Vector3d::UnitY(), -0.3);
    EXPECT_NEAR(back.pitch_rad, -0.3, 1e-9) << robot;
    EXPECT_NEAR(back.roll_rad, 0.0, 1e-9) << robot;
    EXPECT_NEAR(back.tilt_rad, 0.3, 1e-9) << robot;
    // Left side up: a turn about world +x by a positive angle is a positive roll.
    const ImuReading side = readingAfterTurn(robot, Eigen::Vector3d::UnitX(), 0.2);
    EXPECT_NEAR(side.roll_rad, 0.2, 1e-9) << robot;
    EXPECT_NEAR(side.pitch_rad, 0.0, 1e-9) << robot;
    EXPECT_NEAR(side.tilt_rad, 0.2, 1e-9) << robot;
  }
}

TEST(ImuFrame, GyroIsInTheSensorFrame) {
  // A couple about world +y on the torso (nose down) of a floating BIOLOID facing +x: the sensor
  // frame's gyro reads +y; the link frame (x left) would read it on x.
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("bioloid")));
  m->ground_plane = false;
  m->solver.gravity_m_s2.setZero();
  Simulation sim(m);
  const int torso = m->imus.front().link;
  const Eigen::Vector3d c = sim.linkPose(torso).translation();
  const double f_N = 5.0, d_m = 0.02;
  sim.addLinkForce_N(torso, Eigen::Vector3d(f_N, 0, 0), c + Eigen::Vector3d(0, 0, d_m));
  sim.addLinkForce_N(torso, Eigen::Vector3d(-f_N, 0, 0), c - Eigen::Vector3d(0, 0, d_m));
  sim.step();
  const Eigen::Vector3d w = sim.imu().gyro_rad_s;
  EXPECT_GT(w.y(), 0.0);
  EXPECT_LT(std::abs(w.x()), 0.01 * w.y());
}
