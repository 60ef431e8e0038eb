// SPDX-License-Identifier: BSD-3-Clause
// Nao leg IK against the model's own forward kinematics (sim/kinematics.h linkPoses): the IK is
// closed form, so FK(IK(pose)) must return the pose up to rounding. 1e-6 m / 1e-6 rad is the
// acceptance bound; the observed error is ~1e-15 (a few ulps through ~10 trigonometric calls).
#include "sim/walk_ik.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/input_error.h"
#include "sim/kinematics.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

using Eigen::AngleAxisd;
using Eigen::Isometry3d;
using Eigen::Vector3d;

const RobotModel& nao() {
  static const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  return m;
}

Isometry3d pose(double x, double y, double z, double roll, double pitch, double yaw) {
  Isometry3d T = Isometry3d::Identity();
  T.translate(Vector3d(x, y, z));
  T.rotate(AngleAxisd(yaw, Vector3d::UnitZ()) * AngleAxisd(pitch, Vector3d::UnitY()) *
           AngleAxisd(roll, Vector3d::UnitX()));
  return T;
}

double angleBetween(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  return Eigen::AngleAxisd(a.transpose() * b).angle();
}

/// Sole poses in the torso frame from the model's generic FK with all joints at `q`.
std::pair<Isometry3d, Isometry3d> modelSoles(const std::vector<double>& q) {
  const RobotModel& m = nao();
  const auto P = linkPoses(m, q, Isometry3d::Identity());
  const Isometry3d torso_inv = P[m.linkIndex("torso")].inverse();
  return {torso_inv * P[m.linkIndex("l_sole")], torso_inv * P[m.linkIndex("r_sole")]};
}

bool withinLimits(const NaoLegIk& ik, LegSide s, const LegAngles& q) {
  try {
    ik.checkLimits(s, q);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

TEST(WalkIk, GeometryReadFromTheModel) {
  NaoLegIk ik(nao());
  EXPECT_NEAR(ik.geometry().thigh_m, 0.1, 1e-12);
  EXPECT_NEAR(ik.geometry().tibia_m, 0.1029, 1e-12);
  EXPECT_NEAR(ik.geometry().foot_height_m, 0.04511, 1e-12);
  EXPECT_NEAR(ik.geometry().hip_offset_left_m.y(), 0.05, 1e-12);
  EXPECT_NEAR(ik.geometry().hyp_axis_angle_left_rad, -M_PI / 4, 1e-5);
}

// Every reachable single-foot pose of a grid over position and orientation: FK(IK) == pose.
TEST(WalkIk, ForwardOfInverseReturnsTheFootPoseOverTheWorkspace) {
  const RobotModel& m = nao();
  NaoLegIk ik(m);
  int reached = 0, tested = 0;
  double worst_m = 0, worst_rad = 0;
  for (LegSide side : {LegSide::Left, LegSide::Right}) {
    const double sy = side == LegSide::Left ? 1.0 : -1.0;
    for (double x = -0.08; x <= 0.0801; x += 0.04)
      for (double y = -0.02; y <= 0.0601; y += 0.02)
        for (double z = -0.33; z <= -0.2399; z += 0.03)
          for (double roll : {-0.2, 0.0, 0.15})
            for (double pitch : {-0.3, 0.0, 0.3})
              for (double yaw : {-0.3, 0.0, 0.2}) {
                ++tested;
                const Isometry3d target = pose(x, sy * y, z, sy * roll, pitch, sy * yaw);
                LegAngles q;
                try {
                  q = ik.solve(side, target);
                } catch (const InputError&) {
                  continue;  // out of reach
                }
                if (!withinLimits(ik, side, q)) continue;
                ++reached;
                std::vector<double> all = m.initial_q;
                const auto& idx = ik.jointIndices(side);
                const auto v = q.asArray();
                for (int k = 0; k < 6; ++k) all[idx[k]] = v[k];
                // RHipYawPitch mimics LHipYawPitch: give both the value of the leg under test.
                all[ik.jointIndices(LegSide::Left)[0]] = all[ik.jointIndices(LegSide::Right)[0]] = v[0];
                const auto [l, r] = modelSoles(all);
                const Isometry3d& got = side == LegSide::Left ? l : r;
                const double e_m = (got.translation() - target.translation()).norm();
                const double e_rad = angleBetween(got.linear(), target.linear());
                worst_m = std::max(worst_m, e_m);
                worst_rad = std::max(worst_rad, e_rad);
                ASSERT_LT(e_m, 1e-6) << "pose " << x << " " << y << " " << z << " " << roll << " " << pitch << " "
                                     << yaw;
                ASSERT_LT(e_rad, 1e-6);
                // The closed-form FK of the solver agrees with the model's FK.
                ASSERT_LT((ik.forward(side, q).translation() - got.translation()).norm(), 1e-12);
              }
  }
  EXPECT_GT(reached, tested / 4) << "the grid should mostly lie in the workspace";
  std::printf("IK grid: %d of %d poses reachable, worst error %.3g m %.3g rad\n", reached, tested, worst_m, worst_rad);
}

// Both feet with the shared HipYawPitch: pairs of poses reachable with one common angle
// (the right foot made consistent with the left foot's angle) come back exactly.
TEST(WalkIk, BothLegsWithTheSharedHipYawPitch) {
  const RobotModel& m = nao();
  NaoLegIk ik(m);
  int reached = 0;
  for (double xl : {-0.06, 0.0, 0.06})
    for (double xr : {-0.05, 0.03})
      for (double z : {-0.30, -0.27})
        for (double yaw : {-0.3, 0.0, 0.25})
          for (double pitch : {-0.2, 0.1}) {
            const Isometry3d left = pose(xl, 0.06, z, 0.05, pitch, yaw);
            const Isometry3d right_wish = pose(xr, -0.045, z + 0.01, -0.1, 0.0, -yaw);
            LegPairAngles q;
            Isometry3d right;
            try {
              const double theta = ik.hipYawPitchOf(LegSide::Left, left);
              right = ik.forward(LegSide::Right, ik.solveWithHipYawPitch(LegSide::Right, right_wish, theta));
              q = ik.solveBoth(left, right);
            } catch (const InputError&) {
              continue;
            }
            if (!withinLimits(ik, LegSide::Left, q.left) || !withinLimits(ik, LegSide::Right, q.right)) continue;
            ++reached;
            EXPECT_NEAR(q.left.hip_yaw_pitch, q.right.hip_yaw_pitch, 1e-12);
            std::vector<double> all = m.initial_q;
            ik.writeJoints(q, all);
            const auto [l, r] = modelSoles(all);
            EXPECT_LT((l.translation() - left.translation()).norm(), 1e-6);
            EXPECT_LT((r.translation() - right.translation()).norm(), 1e-6);
            EXPECT_LT(angleBetween(l.linear(), left.linear()), 1e-6);
            EXPECT_LT(angleBetween(r.linear(), right.linear()), 1e-6);
            // The consistent right pose is close to the wish (same position, normal).
            EXPECT_LT((right.translation() - right_wish.translation()).norm(), 1e-9);
          }
  EXPECT_GT(reached, 20);
}

// With a HipYawPitch that is not the foot's own, the ankle position and the sole normal are
// still exact (only the rotation about the sole normal differs).
TEST(WalkIk, GivenHipYawPitchKeepsPositionAndSoleNormal) {
  NaoLegIk ik(nao());
  const Isometry3d target = pose(0.03, 0.05, -0.29, 0.1, -0.1, 0.2);
  for (double theta : {-0.3, 0.0, 0.2}) {
    const LegAngles q = ik.solveWithHipYawPitch(LegSide::Left, target, theta);
    const Isometry3d got = ik.forward(LegSide::Left, q);
    EXPECT_LT((got.translation() - target.translation()).norm(), 1e-12);
    EXPECT_LT((got.linear().col(2) - target.linear().col(2)).norm(), 1e-12);
  }
}

TEST(WalkIk, StandPoseRoundTrip) {
  const RobotModel& m = nao();
  NaoLegIk ik(m);
  const auto [l, r] = modelSoles(m.initial_q);
  const LegPairAngles q = ik.solveBoth(l, r);
  EXPECT_NEAR(q.left.hip_pitch, -0.35, 1e-9);
  EXPECT_NEAR(q.left.knee_pitch, 0.7, 1e-9);
  EXPECT_NEAR(q.right.ankle_pitch, -0.35, 1e-9);
  EXPECT_NEAR(q.left.hip_yaw_pitch, 0.0, 1e-9);
}

TEST(WalkIk, OutOfReachAndJointLimitsNameTheLimit) {
  NaoLegIk ik(nao());
  try {
    ik.solve(LegSide::Left, pose(0, 0.05, -0.40, 0, 0, 0));
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "LLeg");
    EXPECT_NE(std::string(e.what()).find("out of reach"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0.2029"), std::string::npos) << e.what();
  }
  LegAngles q;
  q.knee_pitch = 2.5;
  try {
    ik.checkLimits(LegSide::Right, q, " at t = 1.00 s");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "RKneePitch");
    EXPECT_NE(std::string(e.what()).find("2.5000 rad is beyond the joint limit 2.1126"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gapsim
