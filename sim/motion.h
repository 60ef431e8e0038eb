// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Keyframed joint-target motion, immutable once built and safe to sample from many threads.
///
/// Data: frames k = 0..F-1 at times t_k [s], non-decreasing, and targets q[k][j] [rad] for the
/// joints j = 0..J-1. q[k][j] = NaN means "joint j not given at frame k" (Webots '*').
///
/// Sampling law, per joint, over the frames that give it (k_0 < k_1 < ... ):
///   t <  t_{k_0}                        : q(t) = q[k_0]                (held before the first)
///   t >= t_{k_last}                     : q(t) = q[k_last]             (held after the last)
///   t_{k_a} <= t < t_{k_b} (consecutive): q(t) = q_a + (q_b - q_a) (t - t_a) / (t_b - t_a)
/// Frames with equal times are an instantaneous step: for t >= that time the later frame wins
/// (the value jumps there and the earlier frame only ends the preceding ramp).
///
/// Implementation: holes are filled once at construction by evaluating that law at the hole's
/// time, so sampling is a plain linear interpolation between consecutive frames (the filled
/// points lie on the ramp they replace, which gives the same value up to rounding).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gapsim {

/// Per-caller sampling state: the frame segment found last time, so advancing in small time steps
/// (1 ms) costs O(1). One cursor per playback; the Motion stays shared and const.
struct MotionCursor {
  std::size_t frame = 0;  ///< index of the last frame with t_k <= t found last time
};

class Motion {
 public:
  /// Validates and builds. values_rad[frame][joint]; NaN = not given at that frame.
  /// source_file, header_line and frame_lines (1-based file line of each frame, may be empty)
  /// only serve error messages. Throws InputError(source_file, line, field, ...) for: no joints,
  /// empty or duplicate joint name, no frames, a row whose size differs from the joint count,
  /// a non-finite or decreasing time, an infinite value, a joint never given a value.
  Motion(std::vector<std::string> joints, std::vector<double> times_s, std::vector<std::vector<double>> values_rad,
         std::string source_file = {}, int header_line = 0, std::vector<int> frame_lines = {});

  const std::string& sourceFile() const { return source_file_; }

  /// The controller this motion is meant to play with, as its file names it in a
  /// `# controller: SPEC` line (e.g. "balance:roll_rate=0.1,pitch_rate=0.05", parsed by
  /// parseMotionController in sim/ankle_balance.h); empty: open loop. Set by the readers and the
  /// walk generator before the motion is shared; front ends play it unless the user asks for
  /// open loop (`run --open-loop`, the GUI's Ankle Balance switch).
  const std::string& controller() const { return controller_; }
  /// 1-based line of the `# controller:` line (0 if built in code).
  int controllerLine() const { return controller_line_; }
  void setController(std::string spec, int line = 0) {
    controller_ = std::move(spec);
    controller_line_ = line;
  }
  /// 1-based line of the file's header (0 if built in code).
  int headerLine() const { return header_line_; }
  /// 1-based line of frame `frame` (0 if unknown).
  int frameLine(std::size_t frame) const;

  const std::vector<std::string>& joints() const { return joints_; }
  std::size_t jointCount() const { return joints_.size(); }
  /// Index of joint `name`, -1 if the motion does not drive it.
  int jointIndex(std::string_view name) const;

  std::size_t frameCount() const { return times_s_.size(); }
  const std::vector<double>& times_s() const { return times_s_; }
  /// Value as given in the file (NaN where not given).
  double givenValue_rad(std::size_t frame, std::size_t joint) const {
    return given_rad_[frame * joints_.size() + joint];
  }
  /// Time of the last frame minus time of the first [s].
  double duration_s() const { return times_s_.back() - times_s_.front(); }
  double startTime_s() const { return times_s_.front(); }
  double endTime_s() const { return times_s_.back(); }

  /// Target of joint `joint_index` at time t_s [rad] (law above). NaN t_s counts as before the
  /// first frame. joint_index must be < jointCount() (unchecked).
  double sample(std::size_t joint_index, double t_s) const;
  /// All joint targets at t_s into out (resized to jointCount()), without a cursor: O(log F).
  void sampleAll(double t_s, std::vector<double>& out) const;
  /// Same, using and updating `cursor`: O(1) when t_s advances in small steps, any t_s is valid.
  void sampleAll(double t_s, std::vector<double>& out, MotionCursor& cursor) const;

  /// Throws InputError(sourceFile(), headerLine(), name, "unknown joint 'name' (the robot has:
  /// a, b, c)") for the first joint of this motion absent from `known_joints`.
  void checkJoints(const std::vector<std::string>& known_joints) const;
  /// checkJoints, then for each motion joint its index in `known_joints`.
  std::vector<int> mapJoints(const std::vector<std::string>& known_joints) const;

 private:
  std::size_t frameAt(double t_s) const;
  std::size_t frameAt(double t_s, MotionCursor& cursor) const;
  double interpolate(std::size_t frame, std::size_t joint, double t_s) const;
  // The constructor's steps: names, then the frames' times and values, then the holes filled.
  void checkJointNames() const;
  void readFrames(const std::vector<std::vector<double>>& values_rad);
  void fillHoles();

  std::string source_file_;
  int header_line_ = 0;
  std::string controller_;
  int controller_line_ = 0;
  std::vector<int> frame_lines_;
  std::vector<std::string> joints_;
  std::vector<double> times_s_;
  std::vector<double> given_rad_;   // [frame * J + joint], NaN = not given
  std::vector<double> filled_rad_;  // same with holes filled by the sampling law
};

}  // namespace gapsim
