// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Replays of the real BIOLOID lean-to-stand trials (real-data/bioloid, jietan/bioGP @936fb3a,
/// LGPL-3.0) and the calibration objective of paper 002 built on them.
///
/// A trial is a recording `rising/lean-to-stand/<dur>-NN.csv` (or `withPowerCable/<dur>-NN.csv`)
/// of the data package and its commanded motion `motions/lean-to-stand/<dur>.csv` (two decimals;
/// withPowerCable 0.1 is 0.10). The replay:
///  - starts from the recording's first frame: the 16 joint angles (`<joint>/q_rad`, encoders
///    refined by IK within 1 deg), the torso orientation from the motion capture
///    (`torso/rotvec_*`, the rotation vector of the torso link frame) and its x, y; z is set by
///    the model's ground clearance (lowest collision point 0.5 mm above the floor), because the
///    measured origin height depends on the Vicon marker model, not on our collision boxes; joints
///    the data lack (the hip yaws) start and stay at 0; all velocities zero;
///  - puts the authors' wall behind the robot (data/sdf/wall.urdf of bioGP: 0.05 x 0.5 x 0.5 m,
///    centre (-0.112, 0, 0.3) m in Z-up; its front face is x = -0.087 m). The README calls it the
///    authors' model, not a measured position; the real trials peak at 0.31-0.39 rad leaning back,
///    which is where the robot's back meets that wall;
///  - commands what the real robot received: in each recorded frame k the `ctrl` app sent the
///    motion evaluated at time_s[k], truncated to whole Dynamixel ticks (motor_map.csv), and that
///    command held until the next frame (zero-order hold at the recording's ~60 Hz);
///  - samples the simulated torso tilt alpha (Simulation::imu().tilt_rad, the angle between the
///    torso up axis and world up, as `torso/tilt_rad`) at the recording's frame times.
/// Scores of one trial, over the recording's span [t_0, t_last]:
///   E   = integral (alpha_real - alpha_sim)^2 dt     (trapezoid over the recorded frames)
///   RMS = sqrt(E / (t_last - t_0))
/// E_cali (paper 002, eq. calibrationObj1) = (1/n) sum_i E_i over the n trials of a role.
/// Optional encoder term (not in paper 002, which fits the tilt only; docs/bioloid.md "The loop"):
///   E_q = integral sum_j (q_real_j - q_sim_j)^2 dt  over the joints the recording has
/// (`<joint>/q_rad`), trapezoid over the recorded frames; with ReplayOptions::joint_weight W > 0 a
/// trial scores E + W E_q in ReplayProblem. The encoders' tracking error under gravity load tells
/// the servo gains and the carried mass apart, which the tilt alone constrains poorly.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "calib/objective.h"
#include "calib/parameter_space.h"
#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/mtn_reader.h"
#include "sim/robot_model.h"

namespace gapsim::calib {

struct ReplayTrial {
  std::string name;            ///< path below rising/lean-to-stand without .csv: 0.05-01, withPowerCable/0.1-01
  std::string recording_path;  ///< the recording CSV
  std::string motion_path;     ///< the commanded motion CSV
  double step_duration_s = 0;  ///< the ramp duration of the command (the file name's number)
  bool power_cable = false;
  bool holdout = false;
  std::shared_ptr<const Log> recording;
  std::shared_ptr<const Motion> motion;
  /// A pair from a rising task (calib/rising_pair.h: the wall, the seat or nothing): when set,
  /// these boxes replace the model's scene and no authors' wall is added. The real lean-to-stand
  /// trials leave it unset.
  bool has_scene = false;
  std::vector<SceneBox> scene;
};

struct ReplaySet {
  std::string root;  ///< the data package directory (holds rising/ and motions/)
  std::vector<ReplayTrial> trials;
  /// Reads every trial of the package at `root`, sorted by name (InputError naming file, line,
  /// field for a missing directory, a recording without a matching motion or a bad CSV).
  static ReplaySet load(const std::string& root);
  /// Keeps the trials whose name matches one of the comma-separated glob patterns (`*`, `?`);
  /// InputError if a pattern matches nothing.
  void select(const std::string& patterns);
  /// Marks as held out the trials matching the comma-separated globs (the rest train).
  void markHoldout(const std::string& patterns);
  int count(bool holdout) const;
};

/// One trial of the package at `root`: the recording at `recording_path`, named `name`, and its
/// commanded motion root/motions/lean-to-stand/<dur>.csv (InputError naming file, line, field).
ReplayTrial readTrial(const std::string& root, const std::string& recording_path, const std::string& name,
                      bool power_cable);

/// Whether `name` matches the glob `pattern` (`*` any run, `?` one character).
bool globMatch(const std::string& pattern, const std::string& name);

struct ReplayOptions {
  bool wall = true;              ///< the authors' wall behind the robot
  double wall_face_x_m = -0.087; ///< x of the wall's front face (authors' model: -0.087)
  bool hold_commands = true;     ///< zero-order hold at the recorded frames, whole ticks (else the
                                 ///< motion sampled every step, unquantised)
  double settle_s = 0.0;         ///< hold the first frame's command this long before the recording's
                                 ///< t_0 (the model's rest on the wall; 0: start moving at once)
  std::uint64_t sim_seed = 0;    ///< SimOptions::seed
  double log_period_s = 0.01;    ///< period of the optional simulated log
  double joint_weight = 0.0;     ///< W of the encoder term (file comment; 0: tilt only, paper 002)
};

struct ReplayResult {
  std::vector<double> time_s, tilt_real_rad, tilt_sim_rad;  ///< at the recording's frames
  double E_rad2_s = std::numeric_limits<double>::infinity();   ///< tilt term E
  double rms_rad = std::numeric_limits<double>::infinity();
  double E_joint_rad2_s = std::numeric_limits<double>::infinity();  ///< encoder term E_q (0 if no joint column)
  int joints_compared = 0;                                     ///< joints in E_q
  double max_tilt_sim_rad = 0;
  bool diverged = false;
  std::string error;  ///< divergence or refused parameters; E and RMS are +inf then
};

/// The authors' wall (see the file comment), its front face moved to x = face_x_m.
SceneBox authorsWall(double face_x_m = -0.087);

/// The model a trial is simulated with: `base` with the recording's first frame as initial pose
/// and, if asked and `base` has no scene box named "wall" yet, the wall (a calibration moves it by
/// the parameter scene/wall/x: the wall's position was never measured).
std::shared_ptr<RobotModel> replayModel(const RobotModel& base, const ReplayTrial& trial, const ReplayOptions& o);

/// Simulates one trial on `base` (which carries the candidate parameters). `log` (may be null)
/// receives the Recorder columns every o.log_period_s. Never throws for a divergence.
ReplayResult replayTrial(const RobotModel& base, const ReplayTrial& trial, const MotorMap& map,
                         const ReplayOptions& o, Log* log = nullptr);

/// The calibration problem of paper 002 on a replay set: fitness = E_cali over the training (or
/// held-out) trials with the parameter space's values applied. Immutable after construction, so
/// any process may evaluate any candidate (the evaluators of evaluator.h).
class ReplayProblem {
 public:
  ReplayProblem(std::shared_ptr<const RobotModel> base, ParameterSpace space, ReplaySet set, MotorMap map,
                ReplayOptions options);
  /// parts = {E_cali, then E (+ W E_q) of each trial of that role in set order}. A refused value
  /// or a divergence scores +inf with the trial named in `error`.
  EvalResult evaluate(const Eigen::VectorXd& values, bool holdout = false) const;
  ReplayResult runTrial(const Eigen::VectorXd& values, int k, Log* log = nullptr) const;
  const ParameterSpace& space() const { return space_; }
  const ReplaySet& set() const { return set_; }
  const ReplayOptions& options() const { return options_; }

 private:
  std::shared_ptr<const RobotModel> base_;
  ParameterSpace space_;
  ReplaySet set_;
  MotorMap map_;
  ReplayOptions options_;
};

}  // namespace gapsim::calib
