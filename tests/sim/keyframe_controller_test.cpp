// SPDX-License-Identifier: BSD-3-Clause
// Keyframe controller (paper 001): linear interpolation and hold, left/right mirroring against
// the model's kinematics, frozen joints, the file format and its errors; the rising tasks'
// V_ctrl integral against a hand-computed case and the tasks' initial poses.
#include "sim/keyframe_controller.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "sim/input_error.h"
#include "sim/kinematics.h"
#include "sim/parameters.h"
#include "sim/rising_task.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "tests/sim/expect_input_error.h"

namespace gapsim {
namespace {

RobotModel bioloid() { return loadRobotFile(resolveRobotFile("bioloid")); }

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string p = "/tmp/gapsim_kf_test_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(p) << text;
  return p;
}

TEST(KeyframeController, InterpolatesLinearlyMirrorsAndHoldsTheFinalPose) {
  const RobotModel m = bioloid();
  const LegMirror legs = LegMirror::bioloid(m);
  std::vector<double> start(m.joints.size());
  for (std::size_t j = 0; j < start.size(); ++j) start[j] = 0.125 * static_cast<double>(j) - 0.5;
  // Keyframe 1 after 0.5 s, keyframe 2 one second later; thigh and hip only.
  const KeyframeController c({"thigh", "hip"}, {{0.5, {1.0, 0.25}, 0}, {1.0, {-1.0, 0.0}, 0}});
  EXPECT_DOUBLE_EQ(c.duration_s(), 1.5);
  const int rt = m.jointIndex("r_thigh"), lt = m.jointIndex("l_thigh"), rh = m.jointIndex("r_hip"),
            lh = m.jointIndex("l_hip");
  std::vector<double> q;
  // t = 0: the start pose; t = 0.25: halfway from the start to keyframe 1 (each side from its own start).
  c.targets(legs, start, 0.0, q);
  EXPECT_EQ(q, start);
  c.targets(legs, start, 0.25, q);
  EXPECT_DOUBLE_EQ(q[rt], 0.5 * (start[rt] + 1.0));
  EXPECT_DOUBLE_EQ(q[lt], 0.5 * (start[lt] + 1.0));  // pitch: same angle on the left
  EXPECT_DOUBLE_EQ(q[rh], 0.5 * (start[rh] + 0.25));
  EXPECT_DOUBLE_EQ(q[lh], 0.5 * (start[lh] - 0.25));  // roll: opposite angle on the left
  // t = 0.5: keyframe 1 exactly; t = 1.0: halfway to keyframe 2; t = 0.75: a quarter.
  c.targets(legs, start, 0.5, q);
  EXPECT_DOUBLE_EQ(q[rt], 1.0);
  EXPECT_DOUBLE_EQ(q[lt], 1.0);
  EXPECT_DOUBLE_EQ(q[rh], 0.25);
  EXPECT_DOUBLE_EQ(q[lh], -0.25);
  c.targets(legs, start, 1.0, q);
  EXPECT_DOUBLE_EQ(q[rt], 0.0);
  EXPECT_DOUBLE_EQ(q[rh], 0.125);
  EXPECT_DOUBLE_EQ(q[lh], -0.125);
  c.targets(legs, start, 0.75, q);
  EXPECT_DOUBLE_EQ(q[rt], 0.5);
  // t >= T: the final pose, held.
  for (double t : {1.5, 2.0, 100.0}) {
    c.targets(legs, start, t, q);
    EXPECT_DOUBLE_EQ(q[rt], -1.0);
    EXPECT_DOUBLE_EQ(q[lt], -1.0);
    EXPECT_DOUBLE_EQ(q[rh], 0.0);
    EXPECT_DOUBLE_EQ(q[lh], 0.0);
  }
  // Every joint the controller does not name (arms, shin, heel, foot, hip yaw) stays frozen.
  for (double t : {0.1, 0.7, 1.2, 3.0}) {
    c.targets(legs, start, t, q);
    for (std::size_t j = 0; j < q.size(); ++j)
      if (static_cast<int>(j) != rt && static_cast<int>(j) != lt && static_cast<int>(j) != rh &&
          static_cast<int>(j) != lh) {
        EXPECT_EQ(q[j], start[j]) << m.joints[j].name << " at t = " << t;
      }
  }
}

// The mirror signs are checked on the model: with r_<stem> = v and l_<stem> = sign v the left
// foot's centre of mass is the mirror image of the right one's about the torso's sagittal plane (torso frame x = left);
// with the other sign it is not.
TEST(KeyframeController, MirrorSignsMakeTheLegsMirrorImagesOnTheModel) {
  const RobotModel m = bioloid();
  const LegMirror legs = LegMirror::bioloid(m);
  ASSERT_EQ(legs.joints.size(), 6u);
  const int rf = m.linkIndex("r_foot"), lf = m.linkIndex("l_foot");
  auto asymmetry = [&](const std::vector<double>& q) {
    const auto poses = linkPoses(m, q, Eigen::Isometry3d::Identity());  // torso frame
    // The feet's centres of mass: off every leg axis, so each joint moves them.
    Eigen::Vector3d r = poses[rf] * m.links[rf].inertial.origin.translation(),
                    l = poses[lf] * m.links[lf].inertial.origin.translation();
    l.x() = -l.x();  // mirror the left foot about the plane x = 0
    return (r - l).norm();
  };
  const double base = asymmetry(m.initial_q);
  EXPECT_LT(base, 1e-5);  // the CAD model is symmetric up to its 4.7e-5 rad knee-roll rounding
  for (const MirroredJoint& j : legs.joints) {
    std::vector<double> q = m.initial_q;
    q[j.right] += 0.3;
    q[j.left] += j.left_sign * 0.3;
    EXPECT_LT(asymmetry(q), 1e-5) << j.stem;
    q = m.initial_q;
    q[j.right] += 0.3;
    q[j.left] -= j.left_sign * 0.3;
    EXPECT_GT(asymmetry(q), 1e-3) << j.stem << ": the other sign must break the symmetry";
  }
}

TEST(KeyframeController, AsAMotionItCommandsWhatTheLawDoes) {
  // The motion `record --task` writes: a frame at 0 and at each keyframe time; linear between
  // them it is the keyframe law, frozen joints included, and it holds the final pose.
  const RobotModel m = bioloid();
  const LegMirror legs = LegMirror::bioloid(m);
  std::vector<double> start(m.joints.size());
  for (std::size_t j = 0; j < start.size(); ++j) start[j] = 0.05 * static_cast<double>(j) - 0.3;
  const KeyframeController c({"thigh", "shin", "foot"}, {{0.4, {1.0, -0.5, 0.1}, 0}, {0.7, {0.2, 0.3, -0.1}, 0}});
  const Motion motion = c.toMotion(m, legs, start);
  EXPECT_EQ(motion.frameCount(), 3u);
  EXPECT_EQ(motion.jointCount(), m.movableJoints().size());
  std::vector<std::string> names;
  for (const Joint& j : m.joints) names.push_back(j.name);
  const std::vector<int> to_joint = motion.mapJoints(names);
  std::vector<double> law, sampled;
  MotionCursor cursor;
  for (double t : {0.0, 0.1, 0.4, 0.55, 1.1, 2.0}) {
    c.targets(legs, start, t, law);
    motion.sampleAll(t, sampled, cursor);
    for (std::size_t k = 0; k < to_joint.size(); ++k)
      EXPECT_NEAR(sampled[k], law[static_cast<std::size_t>(to_joint[k])], 1e-12)
          << "t " << t << " " << motion.joints()[k];
  }
}

TEST(KeyframeController, FileRoundTripsBitExactly) {
  const KeyframeController c({"thigh", "shin"}, {{0.1 + 0.2, {1.0 / 3.0, -2.0 / 7.0}, 0}, {0.7, {-0.5, 1.0}, 0}});
  const std::string p = writeTemp("rt.csv", c.toText("a comment\nsecond line"));
  const KeyframeController r = KeyframeController::read(p);
  EXPECT_EQ(r.stems(), c.stems());
  ASSERT_EQ(r.keyframes().size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(r.keyframes()[k].duration_s, c.keyframes()[k].duration_s);
    EXPECT_EQ(r.keyframes()[k].q_rad, c.keyframes()[k].q_rad);
  }
  EXPECT_EQ(r.keyframes()[0].line, 4);  // two comment lines, the header, then the first keyframe
  std::filesystem::remove(p);
}

TEST(KeyframeController, MalformedFilesNameFileLineAndField) {
  const std::string head = "# c\nduration_s,thigh_rad,shin_rad\n";
  const std::string bad_num = writeTemp("bad_num.csv", head + "0.5,0.1,0.2\n0.5,abc,0.2\n");
  test::expectInputError([&] { KeyframeController::read(bad_num); }, 4, "thigh_rad", "abc");
  try {
    KeyframeController::read(bad_num);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(bad_num + ":4"), std::string::npos) << e.what();
  }
  const std::string bad_dur = writeTemp("bad_dur.csv", head + "0.5,0.1,0.2\n\n-0.1,0.1,0.2\n");
  test::expectInputError([&] { KeyframeController::read(bad_dur); }, 5, "duration_s", "keyframe 2");
  const std::string bad_col = writeTemp("bad_col.csv", "duration_s,thigh,shin_rad\n0.5,0.1,0.2\n");
  test::expectInputError([&] { KeyframeController::read(bad_col); }, 1, "thigh", "_rad");
  const std::string no_dur = writeTemp("no_dur.csv", "time_s,thigh_rad\n0.5,0.1\n");
  test::expectInputError([&] { KeyframeController::read(no_dur); }, 1, "time_s", "duration_s");
  const std::string short_row = writeTemp("short.csv", head + "0.5,0.1\n");
  test::expectInputError([&] { KeyframeController::read(short_row); }, 3, "shin_rad", "got 2");
  const std::string unknown = writeTemp("unknown.csv", "duration_s,knee_rad\n0.5,0.1\n");
  const KeyframeController u = KeyframeController::read(unknown);
  test::expectInputError([&] { u.checkAgainst(LegMirror::bioloid(bioloid())); }, 1, "knee_rad", "thigh");
  for (const auto& p : {bad_num, bad_dur, bad_col, no_dur, short_row, unknown}) std::filesystem::remove(p);
}

// A fixed-base body tilted by a constant 0.3 rad about y: V_ctrl = (T + 1) / (0.3 + 0.1) exactly,
// whatever T (also when T + 1 is not a whole number of 1 ms steps).
TEST(RisingTask, VctrlOfAConstantTiltIsTPlusOneOverAlphaPlusEpsilon) {
  const std::string urdf = R"(<?xml version="1.0"?>
<robot name="tilted">
  <link name="world"/>
  <link name="torso">
    <inertial><mass value="1.0"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="rl"><inertial><mass value="0.1"/><inertia ixx="1e-4" iyy="1e-4" izz="1e-4" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="ll"><inertial><mass value="0.1"/><inertia ixx="1e-4" iyy="1e-4" izz="1e-4" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="mount" type="fixed"><parent link="world"/><child link="torso"/><origin xyz="0 0 1" rpy="0 0.3 0"/></joint>
  <joint name="r_thigh" type="revolute"><parent link="torso"/><child link="rl"/><origin xyz="0 -0.1 0"/><axis xyz="1 0 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="10"/></joint>
  <joint name="l_thigh" type="revolute"><parent link="torso"/><child link="ll"/><origin xyz="0 0.1 0"/><axis xyz="1 0 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="10"/></joint>
  <gapsim><ground type="none"/><sensors><imu name="torso" link="torso"/></sensors></gapsim>
</robot>)";
  const std::string path = writeTemp("tilted.urdf", urdf);
  RisingTask task;
  task.name = "tilted";
  task.model = std::make_shared<RobotModel>(loadRobotFile(path));
  const RobotModel& m = *task.model;
  task.legs.joints = {{"thigh", m.jointIndex("r_thigh"), m.jointIndex("l_thigh"), 1.0}};
  task.start_q = task.stand_q = m.initial_q;
  task.settle_s = 0.1;
  for (double T : {0.5, 0.5004, 1.25}) {
    const KeyframeController c({"thigh"}, {{T / 2, {0.4}, 0}, {T / 2, {0.0}, 0}});
    const RiseResult r = evaluateRise(task, c);
    ASSERT_FALSE(r.diverged) << r.error;
    EXPECT_NEAR(r.tilt_end_rad, 0.3, 1e-9);
    EXPECT_NEAR(r.V_ctrl, (T + 1.0) / (0.3 + 0.1), 1e-9 * (T + 1.0)) << "T = " << T;
    EXPECT_FALSE(r.upright);  // 0.3 rad is above the 0.2 rad threshold
  }
  std::filesystem::remove(path);
}

TEST(RisingTask, InitialPosesAreTheAuthorsConvertedToZUp) {
  const RobotModel m = bioloid();
  for (const auto& name : risingTaskNames()) {
    const RisingTask t = makeRisingTask(name, m);
    EXPECT_EQ(t.name, name);
    EXPECT_EQ(t.stand_q, m.initial_q);
    EXPECT_EQ(t.start_q, t.model->initial_q);
  }
  // Lean: the real initial pose (real-data/bioloid/motions/lean-to-stand/initial_pose.csv):
  // thigh 0.113592 rad, hands -1.022654 rad, torso tilt 0.038172 rad, origin x -0.022811 m.
  const RisingTask lean = makeRisingTask("lean", m);
  EXPECT_NEAR(lean.start_q[m.jointIndex("l_thigh")], 0.113592, 1e-6);
  EXPECT_NEAR(lean.start_q[m.jointIndex("r_thigh")], 0.113592, 1e-6);
  EXPECT_NEAR(lean.start_q[m.jointIndex("r_hand")], -1.022654, 1e-6);
  const Eigen::Isometry3d root = lean.model->initial_root_pose;
  EXPECT_NEAR(std::acos(root.linear()(2, 2)), 0.038172, 1e-6);
  EXPECT_NEAR(root.translation().x(), -0.022811, 1e-6);
  ASSERT_EQ(lean.model->scene_boxes.size(), 1u);
  // The wall's face touches the robot's back-most collision corner (0.5 mm gap), 3.6 cm in front
  // of the authors' -0.087 m (docs/bioloid.md).
  ASSERT_EQ(lean.model->scene_boxes[0].name, "wall");
  const double face = lean.model->scene_boxes[0].pose.translation().x() + 0.5 * lean.model->scene_boxes[0].size_m.x();
  EXPECT_GT(face, -0.087);
  EXPECT_LT(face, -0.04);
  // Settled against the wall (holding the start pose) the robot leans like the real one at the
  // start of its trials: tilt 0.038 rad (initial_pose.csv); 0.02 rad for the model's differences.
  std::vector<double> hold;
  for (const char* j : {"thigh", "shin", "heel"}) hold.push_back(lean.start_q[m.jointIndex(std::string("r_") + j)]);
  const RiseResult rest = evaluateRise(lean, KeyframeController({"thigh", "shin", "heel"}, {{0.1, hold, 0}}));
  EXPECT_NEAR(rest.tilt_end_rad, 0.038, 0.02);
  // Sit: bioGP constructChairWorld ticks 762/262 (thigh), 812/212 (shin): hip and knee flexed.
  const RisingTask sit = makeRisingTask("sit", m);
  EXPECT_NEAR(sit.start_q[m.jointIndex("r_thigh")], -0.5 + 250 * 5 * M_PI / 3 / 1024, 1e-12);
  EXPECT_NEAR(sit.start_q[m.jointIndex("r_shin")], 1.0 - 300 * 5 * M_PI / 3 / 1024, 1e-12);
  EXPECT_EQ(sit.start_q[m.jointIndex("l_thigh")], sit.start_q[m.jointIndex("r_thigh")]);
  test::expectInputError([&] { makeRisingTask("crawl", m); }, 0, "--task", "lean, sit, kneel");
}

// The controllers shipped in robots/bioloid/controllers/ (lean found by gapsim-cli
// optimize-controller, sit and kneel by hand; each header says how) raise the robot on every task: upright at T + 1
// (tilt < 0.2 rad, torso above 0.25 m). The plain move to the standing pose in 1 s does not, on any task.
TEST(RisingTask, ShippedControllersEndUprightWhereTheDirectMoveFails) {
  const RobotModel m = bioloid();
  const KeyframeController direct({"thigh", "shin", "heel"}, {{1.0, {-0.5, 1.0, -0.5}, 0}});
  for (const auto& name : risingTaskNames()) {
    const RisingTask task = makeRisingTask(name, m);
    const KeyframeController c =
        KeyframeController::read(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/controllers/" + name + ".csv");
    const RiseResult r = evaluateRise(task, c);
    EXPECT_TRUE(r.upright) << name << ": tilt " << r.tilt_end_rad << " rad, height " << r.height_end_m << " m";
    EXPECT_FALSE(r.diverged) << r.error;
    const RiseResult d = evaluateRise(task, direct);
    EXPECT_FALSE(d.upright) << name << ": the direct move should not succeed (tilt " << d.tilt_end_rad << ")";
    EXPECT_GT(r.V_ctrl, d.V_ctrl) << name;
  }
}

// The shipped BIOLOID (the AX-18A identified on the real servo, compliance slope 128) at another
// compliance slope: 32 is the AX firmware's power-on default.
RobotModel bioloidAtSlope(int slope) {
  RobotModel m = bioloid();
  setParameter(m, "servos/servo/cw_slope", slope);
  setParameter(m, "servos/servo/ccw_slope", slope);
  return m;
}

// Controllers optimised on paper 000's law sit on a knife edge of its dynamics: on the identified
// AX-18A (slope 32) sit and kneel fall on their back although no joint saturates
// (docs/servo_models.md). The shipped quasi-static sit and kneel rise on the AX-18A at slopes 32 and
// 128 (the file's) and on the paper law (bioloid_paper_law.urdf), and the paper-law controllers
// rise on their own law.
TEST(RisingTask, ShippedControllersRiseOnTheIdentifiedServoAndThePaperLaw) {
  const std::string dir = std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/controllers/";
  const RobotModel paper = loadRobotFile(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/bioloid_paper_law.urdf");
  const RobotModel ax32 = bioloidAtSlope(32), ax128 = bioloid();
  for (const std::string name : {"sit", "kneel"}) {
    const KeyframeController c = KeyframeController::read(dir + name + ".csv");
    for (const auto& [label, m] : {std::pair<const char*, const RobotModel*>{"the paper law", &paper},
                                   {"AX-18A slope 32", &ax32},
                                   {"AX-18A slope 128", &ax128}}) {
      const RiseResult r = evaluateRise(makeRisingTask(name, *m), c);
      EXPECT_TRUE(r.upright) << name << ".csv on " << label << ": tilt " << r.tilt_end_rad << " rad, height "
                             << r.height_end_m << " m";
      EXPECT_FALSE(r.diverged) << r.error;
    }
    const KeyframeController old = KeyframeController::read(dir + name + "_paper_law.csv");
    EXPECT_TRUE(evaluateRise(makeRisingTask(name, paper), old).upright) << name << "_paper_law.csv on the paper law";
    const RiseResult fallen = evaluateRise(makeRisingTask(name, ax32), old);
    EXPECT_FALSE(fallen.upright) << name << "_paper_law.csv on the AX-18A model at slope 32: tilt "
                                 << fallen.tilt_end_rad;
    EXPECT_GT(fallen.max_tilt_rad, 1.5) << name << ": the paper-law controller should fall on its back";
  }
}

}  // namespace
}  // namespace gapsim
