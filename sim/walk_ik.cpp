// SPDX-License-Identifier: BSD-3-Clause
#include "sim/walk_ik.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/input_error.h"

namespace gapsim {

namespace {

using Eigen::AngleAxisd;
using Eigen::Isometry3d;
using Eigen::Matrix3d;
using Eigen::Vector3d;

constexpr const char* kJointSuffix[6] = {"HipYawPitch", "HipRoll", "HipPitch", "KneePitch", "AnklePitch", "AnkleRoll"};

Matrix3d rx(double a) { return AngleAxisd(a, Vector3d::UnitX()).toRotationMatrix(); }
Matrix3d ry(double a) { return AngleAxisd(a, Vector3d::UnitY()).toRotationMatrix(); }

/// Angle of a downward vector in the x-z plane: alpha(Ry(p) (0,0,-1)) = p.
double alphaDown(const Vector3d& w) { return std::atan2(-w.x(), -w.z()); }
/// Angle of an upward vector in the x-z plane: beta(Ry(p) (0,0,1)) = p.
double betaUp(const Vector3d& w) { return std::atan2(w.x(), w.z()); }

std::string fmt(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

}  // namespace

NaoLegIk::NaoLegIk(const RobotModel& m) {
  const std::string file = m.source_file;
  auto fail = [&](const std::string& field, const std::string& what) -> void {
    throw InputError(file, 0, field, "the Nao leg IK needs " + what);
  };
  auto near = [](const Vector3d& a, const Vector3d& b) { return (a - b).norm() < 1e-9; };
  auto identityRot = [](const Isometry3d& T) { return (T.linear() - Matrix3d::Identity()).norm() < 1e-9; };

  int torso = -1;
  for (LegSide side : {LegSide::Left, LegSide::Right}) {
    const std::string p = side == LegSide::Left ? "L" : "R";
    std::array<int, 6>& idx = side == LegSide::Left ? left_ : right_;
    std::array<JointLimits, 6>& lim = side == LegSide::Left ? left_limits_ : right_limits_;
    for (int k = 0; k < 6; ++k) {
      const std::string name = p + kJointSuffix[k];
      idx[k] = m.jointIndex(name);
      if (idx[k] < 0) fail(name, "a joint named '" + name + "'");
      const Joint& j = m.joints[idx[k]];
      if (j.type != JointType::Revolute) fail(name, "'" + name + "' to be revolute");
      if (k > 0 && j.parent != m.joints[idx[k - 1]].child)
        fail(name, "'" + name + "' to be the child of " + p + kJointSuffix[k - 1]);
      if (!identityRot(j.origin)) fail(name, "'" + name + "' to have rpy = 0");
      lim[k] = {name, j.has_limits ? j.lower : -INFINITY, j.has_limits ? j.upper : INFINITY};
    }
    const Joint& hyp = m.joints[idx[0]];
    if (torso < 0)
      torso = hyp.parent;
    else if (hyp.parent != torso)
      fail(hyp.name, "both HipYawPitch joints on the same link");
    if (std::abs(hyp.axis.x()) > 1e-9) fail(hyp.name, "a HipYawPitch axis in the y-z plane");
    const double phi = std::atan2(hyp.axis.z(), hyp.axis.y());
    if (std::abs(phi) < 0.3 || std::abs(phi) > 1.3) fail(hyp.name, "a HipYawPitch axis near +-45 degrees");
    (side == LegSide::Left ? g_.hyp_axis_angle_left_rad : g_.hyp_axis_angle_right_rad) = phi;
    (side == LegSide::Left ? g_.hip_offset_left_m : g_.hip_offset_right_m) = hyp.origin.translation();
    const Joint& roll = m.joints[idx[1]];
    const Joint& pitch = m.joints[idx[2]];
    const Joint& knee = m.joints[idx[3]];
    const Joint& ap = m.joints[idx[4]];
    const Joint& ar = m.joints[idx[5]];
    for (const Joint* j : {&roll, &ar})
      if (!near(j->axis, Vector3d::UnitX())) fail(j->name, "'" + j->name + "' to turn about x");
    for (const Joint* j : {&pitch, &knee, &ap})
      if (!near(j->axis, Vector3d::UnitY())) fail(j->name, "'" + j->name + "' to turn about y");
    for (const Joint* j : {&roll, &pitch, &ar})
      if (!near(j->origin.translation(), Vector3d::Zero())) fail(j->name, "'" + j->name + "' at its parent's origin");
    const Vector3d kt = knee.origin.translation(), at = ap.origin.translation();
    if (std::abs(kt.x()) > 1e-9 || std::abs(kt.y()) > 1e-9 || !(kt.z() < 0))
      fail(knee.name, "'" + knee.name + "' straight below the hip");
    if (std::abs(at.x()) > 1e-9 || std::abs(at.y()) > 1e-9 || !(at.z() < 0))
      fail(ap.name, "'" + ap.name + "' straight below the knee");
    if (side == LegSide::Left) {
      g_.thigh_m = -kt.z();
      g_.tibia_m = -at.z();
    } else if (std::abs(g_.thigh_m + kt.z()) > 1e-9 || std::abs(g_.tibia_m + at.z()) > 1e-9) {
      fail(knee.name, "both legs of equal length");
    }
    // The sole frame: a fixed child of the ankle roll link straight below it.
    for (const Joint& j : m.joints) {
      if (j.movable() || j.parent != ar.child) continue;
      const Vector3d s = j.origin.translation();
      if (std::abs(s.x()) < 1e-9 && std::abs(s.y()) < 1e-9 && s.z() < 0 && identityRot(j.origin)) {
        g_.foot_height_m = -s.z();
        break;
      }
    }
  }
}

Isometry3d NaoLegIk::forward(LegSide side, const LegAngles& q) const {
  const Vector3d axis(0, std::cos(axisAngle(side)), std::sin(axisAngle(side)));
  Isometry3d T = Isometry3d::Identity();
  T.translate(hipOffset(side));
  T.rotate(AngleAxisd(q.hip_yaw_pitch, axis));
  T.rotate(rx(q.hip_roll));
  T.rotate(ry(q.hip_pitch));
  T.translate(Vector3d(0, 0, -g_.thigh_m));
  T.rotate(ry(q.knee_pitch));
  T.translate(Vector3d(0, 0, -g_.tibia_m));
  T.rotate(ry(q.ankle_pitch));
  T.rotate(rx(q.ankle_roll));
  T.translate(Vector3d(0, 0, -g_.foot_height_m));
  return T;
}

namespace {

/// Knee angle from the hip-ankle distance d (law of cosines); throws when out of reach.
double kneeFromDistance(double d, double l1, double l2, LegSide side) {
  const double c = (d * d - l1 * l1 - l2 * l2) / (2 * l1 * l2);
  const char* leg = side == LegSide::Left ? "left leg" : "right leg";
  if (c > 1.0 + 1e-12)
    throw InputError(
        "", 0, side == LegSide::Left ? "LLeg" : "RLeg",
        std::string("out of reach: the ") + leg +
            fmt(" needs a hip-ankle distance of %.4f m, more than the %.4f m of thigh + tibia", d, l1 + l2));
  if (c < -1.0 - 1e-12)
    throw InputError(
        "", 0, side == LegSide::Left ? "LLeg" : "RLeg",
        std::string("out of reach: the ") + leg +
            fmt(" needs a hip-ankle distance of %.4f m, less than the %.4f m the knee allows", d, std::abs(l1 - l2)));
  return std::acos(std::clamp(c, -1.0, 1.0));
}

}  // namespace

LegAngles NaoLegIk::solveWithHipYawPitch(LegSide side, const Isometry3d& sole, double theta) const {
  const Vector3d axis(0, std::cos(axisAngle(side)), std::sin(axisAngle(side)));
  const Matrix3d Rh = AngleAxisd(theta, axis).toRotationMatrix();
  const double l1 = g_.thigh_m, l2 = g_.tibia_m;
  const Vector3d ankle = sole.translation() + sole.linear() * Vector3d(0, 0, g_.foot_height_m);
  const Vector3d a = Rh.transpose() * (ankle - hipOffset(side));
  LegAngles q;
  q.hip_yaw_pitch = theta;
  q.hip_roll = std::atan2(a.y(), -a.z());
  const Vector3d b = rx(-q.hip_roll) * a;
  q.knee_pitch = kneeFromDistance(b.norm(), l1, l2, side);
  const Vector3d v(-l2 * std::sin(q.knee_pitch), 0, -l1 - l2 * std::cos(q.knee_pitch));
  q.hip_pitch = alphaDown(b) - alphaDown(v);
  const Vector3d n =
      ry(-(q.hip_pitch + q.knee_pitch)) * rx(-q.hip_roll) * Rh.transpose() * sole.linear() * Vector3d::UnitZ();
  q.ankle_pitch = std::atan2(n.x(), n.z());
  q.ankle_roll = std::atan2(-n.y(), std::hypot(n.x(), n.z()));
  return q;
}

double NaoLegIk::hipYawPitchOf(LegSide side, const Isometry3d& sole) const {
  const double l1 = g_.thigh_m, l2 = g_.tibia_m;
  const Matrix3d& R = sole.linear();
  const Vector3d ankle = sole.translation() + R * Vector3d(0, 0, g_.foot_height_m);
  const Vector3d w = R.transpose() * (hipOffset(side) - ankle);  // hip seen from the sole frame
  const double ar = std::atan2(w.y(), w.z());
  const Vector3d u = rx(ar) * w;  // in the x-z plane
  const double kp = kneeFromDistance(u.norm(), l1, l2, side);
  const Vector3d up(l2 * std::sin(kp), 0, l1 + l2 * std::cos(kp));  // -v: ankle to hip, shank frame
  const double ap = betaUp(up) - betaUp(u) - kp;
  const Matrix3d M = R * rx(-ar) * ry(-(kp + ap));
  const double phi = axisAngle(side);
  const Matrix3d Q = rx(-phi) * M;
  const double sb = phi < 0 ? 1.0 : -1.0;  // sign of sin(hr - phi) over the hip roll range
  return std::atan2(sb * Q(0, 1), sb * Q(2, 1));
}

LegAngles NaoLegIk::solve(LegSide side, const Isometry3d& sole) const {
  return solveWithHipYawPitch(side, sole, hipYawPitchOf(side, sole));
}

LegPairAngles NaoLegIk::solveBoth(const Isometry3d& left, const Isometry3d& right) const {
  const double theta = 0.5 * (hipYawPitchOf(LegSide::Left, left) + hipYawPitchOf(LegSide::Right, right));
  return {solveWithHipYawPitch(LegSide::Left, left, theta), solveWithHipYawPitch(LegSide::Right, right, theta)};
}

void NaoLegIk::checkLimits(LegSide side, const LegAngles& q, const std::string& context, double tol) const {
  const std::array<double, 6> v = q.asArray();
  const std::array<JointLimits, 6>& lim = side == LegSide::Left ? left_limits_ : right_limits_;
  for (int k = 0; k < 6; ++k) {
    const JointLimits& L = lim[k];
    const bool low = v[k]<L.lower - tol, high = v[k]> L.upper + tol;
    if (!low && !high) continue;
    throw InputError("", 0, L.name,
                     fmt("%.4f rad is beyond the joint limit %.4f rad (range [%.4f, %.4f])", v[k],
                         low ? L.lower : L.upper, L.lower, L.upper) +
                         context);
  }
}

void NaoLegIk::writeJoints(const LegPairAngles& q, std::vector<double>& model_q) const {
  const std::array<double, 6> l = q.left.asArray(), r = q.right.asArray();
  for (int k = 0; k < 6; ++k) {
    model_q[left_[k]] = l[k];
    model_q[right_[k]] = r[k];
  }
}

}  // namespace gapsim
