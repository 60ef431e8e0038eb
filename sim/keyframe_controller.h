// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Keyframe feed-forward controller of the BIOLOID rising tasks (paper 001, "Controller
/// Optimization"): n keyframes of lower-body targets q_1..q_n and the times between them,
///   t_0 = 0,  t_k = d_1 + ... + d_k,  T = t_n,
///   qbar(t) = q_start                                       t <= 0
///           = q_{k-1} + (q_k - q_{k-1}) (t - t_{k-1}) / d_k  t_{k-1} <= t < t_k   (q_0 = q_start)
///           = q_n                                           t >= T   (the final pose is held)
/// Left/right mirrored: one value per leg joint drives both legs, the right joint with the value
/// and the left one with left_sign * value (LegMirror: +1 for the pitch joints, -1 for roll and
/// yaw on the BIOLOID, checked on the model's kinematics by a test). Every joint the controller
/// does not name (shoulders, elbows) stays at its start target: frozen.
///
/// File format (CSV, `#` comment lines and blank lines skipped):
///   # any comment, e.g. the command line that found the controller
///   duration_s,hip_yaw_rad,hip_rad,thigh_rad,shin_rad,heel_rad,foot_rad
///   0.92,0,0,-0.694,-1.608,1.116,0
///   ...
/// Row k is keyframe k: d_k (s, > 0, the time from the previous keyframe) and the right-leg
/// angles (rad) of the joints r_<stem>. Errors are InputError(file, line, column, ...).

#include <string>
#include <vector>

#include "sim/motion.h"
#include "sim/robot_model.h"

namespace gapsim {

/// One mirrored leg joint: the column stem (e.g. "thigh") and the model's right and left joints.
struct MirroredJoint {
  std::string stem;
  int right = -1, left = -1;  ///< joint indices in the model
  double left_sign = 1.0;     ///< left target = left_sign * right target
};

/// The leg joints of a two-legged model that a keyframe controller drives.
struct LegMirror {
  std::vector<MirroredJoint> joints;
  /// The BIOLOID GP: r_/l_ hip_yaw, hip, thigh, shin, heel, foot. Pitch joints (thigh, shin,
  /// heel) take the same angle on both sides, roll and yaw joints (hip_yaw, hip, foot) opposite
  /// angles: the joint axes of the CAD model are mirrored for pitch and parallel for roll/yaw
  /// (bioGP mirrors ticks as 1024 - tick, which with the motor map's swap flags gives the same
  /// signs). InputError if the model lacks one of the joints.
  static LegMirror bioloid(const RobotModel& model);
  /// Index of a stem, -1 if absent.
  int indexOf(const std::string& stem) const;
};

struct Keyframe {
  double duration_s = 0.0;    ///< d_k, time from the previous keyframe
  std::vector<double> q_rad;  ///< one value per controller joint (right leg)
  int line = 0;               ///< line in the file (0 if built in code)
};

class KeyframeController {
 public:
  /// Validates (InputError naming `source` and the keyframe's line): at least one keyframe, no
  /// duplicate or empty stem, each keyframe with one finite value per stem and 0 < d_k <= 60 s.
  KeyframeController(std::vector<std::string> stems, std::vector<Keyframe> keyframes, std::string source = {},
                     int header_line = 0);

  /// Reads a controller file (format above).
  static KeyframeController read(const std::string& path);
  /// The file text; `comment` lines (split at '\n') are written as `#` lines first.
  std::string toText(const std::string& comment = {}) const;
  /// Writes toText to path (InputError if it cannot).
  void write(const std::string& path, const std::string& comment = {}) const;

  const std::vector<std::string>& stems() const { return stems_; }
  const std::vector<Keyframe>& keyframes() const { return keyframes_; }
  const std::string& source() const { return source_; }
  /// T = sum of the durations.
  double duration_s() const;

  /// Checks every stem against `legs` (InputError naming the file and the header line).
  void checkAgainst(const LegMirror& legs) const;
  /// Targets of every model joint at controller time t_s (law above) into `out` (resized to
  /// start_q.size()); start_q is the target of every joint at t = 0 (the task's initial pose).
  void targets(const LegMirror& legs, const std::vector<double>& start_q, double t_s, std::vector<double>& out) const;
  /// The same law as a motion over the model's movable joints: a frame at t = 0 (start_q) and one
  /// at each keyframe time t_k. Played with linear interpolation between frames (a recording's
  /// "continuous" commands, `gapsim-cli record --task`), it commands what targets() does, up to
  /// the rounding of the interpolation.
  Motion toMotion(const RobotModel& model, const LegMirror& legs, const std::vector<double>& start_q) const;

 private:
  std::vector<std::string> stems_;
  std::vector<Keyframe> keyframes_;
  std::string source_;
  int header_line_ = 0;
};

}  // namespace gapsim
