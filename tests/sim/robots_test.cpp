// SPDX-License-Identifier: BSD-3-Clause
// The three shipped robots against their data sources, and standing.
#include <gtest/gtest.h>

#include "sim/kinematics.h"
#include "sim/motion_readers.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

std::shared_ptr<const RobotModel> shipped(const std::string& name) {
  return std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile(name)));
}

std::string motionPath(const std::string& robot, const std::string& file) {
  return std::string(GAPSIM_ROBOTS_DIR) + "/" + robot + "/motions/" + file;
}

TEST(Robots, TotalMassesMatchTheirSources) {
  // Nao V3.3: sum of the 51 links of shared/robot-data/nao_V33_urdf_links.csv
  // (ros-naoqi/nao_robot naoV33 URDF) = 5.005962 kg; the 24 dropped sensor/finger frames weigh
  // 2e-6 kg each.
  EXPECT_NEAR(shipped("nao")->totalMass_kg(), 5.005962, 0.001 * 5.005962);
  // BIOLOID GP CAD (shared/robot-data/bioloidgp_urdf_links.csv, sehoonha/bioloidgp) = 1.077015 kg;
  // the added hip-yaw links take their mass from the CAD links, so the total is unchanged.
  EXPECT_NEAR(shipped("bioloid")->totalMass_kg(), 1.077015, 0.001 * 1.077015);
  // MABEL, Table VIII of the MABEL paper: torso 40.8953 + 2 x (thigh 3.2818 + shin 1.5007 +
  // Csp 1.8987 + Csh 1.6987) + boom 7.2575 = 64.9126 kg (+ a 0.01 kg boom yoke link).
  EXPECT_NEAR(shipped("mabel")->totalMass_kg(), 64.9126, 0.001 * 64.9126);
}

TEST(Robots, NaoHasTwentySixJointsAndTwentyFiveDof) {
  auto m = shipped("nao");
  EXPECT_EQ(m->movableJoints().size(), 26u);
  int coupled = 0;
  for (const Joint& j : m->joints)
    if (j.mimic.master >= 0) {
      ++coupled;
      EXPECT_EQ(j.name, "RHipYawPitch");
      EXPECT_EQ(m->joints[j.mimic.master].name, "LHipYawPitch");
    }
  EXPECT_EQ(coupled, 1);
  for (const char* n : {"LHand", "RHand", "HeadYaw", "LAnkleRoll"}) EXPECT_GE(m->jointIndex(n), 0) << n;
  EXPECT_EQ(m->foot_contacts.size(), 2u);
  EXPECT_EQ(m->imus.size(), 1u);
}

TEST(Robots, BioloidHasEighteenJoints) {
  auto m = shipped("bioloid");
  EXPECT_EQ(m->movableJoints().size(), 18u);
  EXPECT_GE(m->jointIndex("l_hip_yaw"), 0);
  EXPECT_GE(m->jointIndex("r_hip_yaw"), 0);
}

RunSummary stand(const std::string& robot, const std::string& motion_file, double duration_s,
                 Simulation** keep = nullptr) {
  auto m = shipped(robot);
  Simulation sim(m);
  std::unique_ptr<Motion> motion;
  if (!motion_file.empty()) motion = std::make_unique<Motion>(loadMotion(motionPath(robot, motion_file)));
  RunConfig cfg;
  cfg.duration_s = duration_s;
  return runMotion(sim, motion.get(), cfg, nullptr);
}

TEST(Robots, NaoStandsTenSecondsWithTiltUnderThreeDegrees) {
  RunSummary s = stand("nao", "", 10.0);
  EXPECT_FALSE(s.diverged) << s.divergence;
  EXPECT_FALSE(s.fall_time_s);
  EXPECT_LT(s.max_tilt_deg, 3.0);
  EXPECT_LT(s.distance_m, 0.01);
}

TEST(Robots, ShippedMotionsPlayWithoutFalling) {
  for (auto [robot, file] : std::vector<std::pair<std::string, std::string>>{
           {"nao", "squat.csv"},
           {"nao", "squat.motion"},
           {"nao", "wave.csv"},
           {"bioloid", "wave.csv"},
           // MABEL's hips and knees are driven through its compliant transmissions (springs,
           // cable stretch) in joint-position mode; its sway is small enough for the sagging legs.
           {"mabel", "stand.csv"},
           {"mabel", "leg_swing.csv"}}) {
    RunSummary s = stand(robot, file, 8.0);
    EXPECT_FALSE(s.diverged) << robot << " " << file << ": " << s.divergence;
    EXPECT_FALSE(s.fall_time_s) << robot << " " << file;
  }
}

TEST(Robots, BioloidStands) {
  RunSummary s = stand("bioloid", "", 10.0);
  EXPECT_FALSE(s.fall_time_s);
  EXPECT_LT(s.max_tilt_deg, 10.0);
}

TEST(Robots, MabelStaysOnTheBoomSphere) {
  // The boom pivots on the tower (boom_yaw, boom_pitch) and carries the torso at its end
  // (torso_pitch): the boom end must stay at a constant distance from the pivot, so the robot
  // moves on a sphere. ODE's joint error correction (ERP) keeps joint drift far below 1 mm.
  auto m = shipped("mabel");
  const int pivot_joint = m->jointIndex("boom_pitch"), end_joint = m->jointIndex("torso_pitch");
  ASSERT_GE(pivot_joint, 0);
  ASSERT_GE(end_joint, 0);
  Simulation sim(m);
  const Motion motion = loadMotion(motionPath("mabel", "stand.csv"));
  // A Vector3d, not the translation() block of the temporary pose, which dies with the return.
  auto jointPoint = [&](int j) -> Eigen::Vector3d {
    const Joint& jt = m->joints[j];
    return (sim.linkPose(jt.parent) * jt.origin).translation();
  };
  const Eigen::Vector3d pivot = jointPoint(pivot_joint);
  const double r0 = (jointPoint(end_joint) - pivot).norm();
  EXPECT_GT(r0, 1.0);
  double worst = 0;
  std::vector<double> tgt = m->initial_q, vals;
  const auto map = motion.mapJoints([&] {
    std::vector<std::string> n;
    for (const Joint& j : m->joints) n.push_back(j.name);
    return n;
  }());
  MotionCursor cur;
  while (sim.time_s() < 10.0) {
    motion.sampleAll(sim.time_s(), vals, cur);
    for (size_t c = 0; c < map.size(); ++c) tgt[map[c]] = vals[c];
    sim.setTargets(tgt);
    sim.step();
    // The child side of the torso joint: where the torso really is.
    const Joint& ej = m->joints[end_joint];
    const Eigen::Vector3d end =
        (sim.linkPose(ej.child) * jointTransform(ej, sim.jointAngle_rad(end_joint)).inverse() * ej.origin)
            .translation();
    worst = std::max(worst, std::abs((end - pivot).norm() - r0));
  }
  EXPECT_LT(worst, 0.001) << "boom end left the sphere by " << worst << " m";
  EXPECT_FALSE(sim.fallTime_s());
}

}  // namespace
}  // namespace gapsim
