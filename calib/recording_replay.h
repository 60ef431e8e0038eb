// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Replays of recorded trials (a recording manifest, calib/recording_manifest.h; the real BIOLOID
/// lean-to-stand trials of real-data/bioloid, jietan/bioGP @936fb3a, LGPL-3.0, are one such set)
/// and the calibration objective of paper 002 built on them.
///
/// The replay of one trial:
///  - starts from the trial's initial pose. From the recording's first frame: the joint angles
///    (`<joint>/q_rad`; in the real data encoders refined by IK within 1 deg), the root
///    orientation (`<p>/rotvec_*`, the rotation vector of the root link frame, p = the trial's
///    root_columns, "torso") and its x, y; z is set by the model's ground clearance (lowest
///    collision point 0.5 mm above the floor), because a measured origin height depends on the
///    marker model, not on our collision boxes; joints the data lack start at the model's pose;
///    all velocities zero. Or the robot file's pose, or explicit joint values and root pose;
///  - may put the authors' wall behind the robot (data/sdf/wall.urdf of bioGP: 0.05 x 0.5 x 0.5 m,
///    centre (-0.112, 0, 0.3) m in Z-up; its front face is x = -0.087 m). The README calls it the
///    authors' model, not a measured position; the real trials peak at 0.31-0.39 rad leaning back,
///    which is where the robot's back meets that wall. A trial's scene boxes replace the model's;
///  - commands what the robot received, as the trial's command stream says: held from each
///    recorded frame k (the real lean-to-stand data: the `ctrl` app sent the motion evaluated at
///    time_s[k], truncated to whole Dynamixel ticks of motor_map.csv, held until the next frame,
///    ~60 Hz), from each row of the command file, at a fixed rate, or sampled every step;
///    optionally through the ankle balance (sim/ankle_balance.h);
///  - samples each measured signal at the recording's frame times (linear between steps): a
///    `<joint>/q_rad` column compares with the joint angle, `<imu>/tilt_rad` with
///    Simulation::imu().tilt_rad (the angle between the torso up axis and world up), any other
///    column with the simulated log's column of its SI name (sim/recorder.h).
/// Scores of one trial, over the recording's span [t_0, t_last], per signal entry g (a column or
/// a glob of columns c):
///   E_g = integral sum_c (y_real_c - y_sim_c)^2 dt     (trapezoid over the recorded frames)
/// The headline signal is the first entry: E = E_0, RMS = sqrt(E / (t_last - t_0)).
/// The trial's score is sum_g w_g E_g; an entry of joint angles (`*/q_rad`) takes the weight
/// ReplayOptions::joint_weight W when W > 0. With the lean-to-stand signals (the tilt, weight 1,
/// then `*/q_rad`, weight 0) that is paper 002's E + W E_q (E_q: the encoder term, not in paper
/// 002, which fits the tilt only; docs/bioloid.md "The loop": the encoders' tracking error under
/// gravity load tells the servo gains and the carried mass apart).
/// E_cali (paper 002, eq. calibrationObj1) = (1/n) sum_i score_i over the n trials of a role.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "calib/objective.h"
#include "calib/parameter_space.h"
#include "calib/recording_manifest.h"
#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/mtn_reader.h"
#include "sim/robot_model.h"

namespace gapsim::calib {

struct ReplayTrial {
  std::string name;            ///< the manifest's trial name (lean-to-stand: 0.05-01, withPowerCable/0.1-01)
  std::string recording_path;  ///< the recording CSV
  std::string motion_path;     ///< the commanded motion CSV
  double step_duration_s = 0;  ///< the lean-to-stand ramp duration (printed; < 0: none)
  bool holdout = false;        ///< not trained on (role validate or test, or --holdout)
  std::shared_ptr<const Log> recording = nullptr;
  std::shared_ptr<const Motion> motion = nullptr;  ///< in rad
  /// When set, these boxes replace the model's scene and no authors' wall is added (a manifest
  /// trial's scene, a rising-task pair's: calib/rising_pair.h).
  bool has_scene = false;
  std::vector<SceneBox> scene;
  /// Initial pose, command stream, signals, role and tags as the manifest states them.
  ManifestTrial spec;
};

struct ReplaySet {
  std::string root;               ///< the manifest file or data package directory
  bool authors_wall = true;       ///< the manifest's authors_wall (the command line may override)
  double wall_face_x_m = -0.087;  ///< the manifest's wall_face_x_m
  std::vector<ReplayTrial> trials;
  /// Reads every trial of the recordings at `path` (loadRecordings: a manifest or the lean-to-stand
  /// layout), sorted as listed (InputError naming file, line, field for a bad manifest, a missing
  /// file, a recording lacking a signal's or the initial pose's column, or a bad CSV).
  static ReplaySet load(const std::string& path);
  /// Reads the recordings and commands a manifest names; trials of role validate or test are
  /// held out.
  static ReplaySet fromManifest(const RecordingManifest& m);
  /// Keeps the trials whose name matches one of the comma-separated glob patterns (`*`, `?`);
  /// InputError if a pattern matches nothing.
  void select(const std::string& patterns);
  /// Marks as held out the trials matching the comma-separated globs (the rest train).
  void markHoldout(const std::string& patterns);
  int count(bool holdout) const;
};

/// One manifest trial read: its recording (checked for the columns its signals and initial pose
/// need) and its commanded motion converted to rad (InputError naming file, line, field).
ReplayTrial readTrial(const ManifestTrial& spec);

/// Whether `name` matches the glob `pattern` (`*` any run, `?` one character).
bool globMatch(const std::string& pattern, const std::string& name);

struct ReplayOptions {
  bool wall = true;               ///< the authors' wall behind the robot
  double wall_face_x_m = -0.087;  ///< x of the wall's front face (authors' model: -0.087)
  bool hold_commands = true;      ///< zero-order hold at the recorded frames, whole ticks (else the
                                  ///< motion sampled every step, unquantised)
  double settle_s = 0.0;          ///< hold the first frame's command this long before the recording's
                                  ///< t_0 (the model's rest on the wall; 0: start moving at once)
  std::uint64_t sim_seed = 0;     ///< SimOptions::seed
  double log_period_s = 0.01;     ///< period of the optional simulated log
  double joint_weight = 0.0;      ///< W of the encoder term (file comment; 0: tilt only, paper 002)
};

struct SignalScore {
  std::string column;                                  ///< the entry's column or glob
  int columns = 0;                                     ///< recording columns it matched
  double weight = 0;                                   ///< the weight used (joint_weight for joint angles when W > 0)
  double E = std::numeric_limits<double>::infinity();  ///< integral sum_c (real - sim)^2 dt, SI units^2 s
};

struct ReplayResult {
  /// The headline signal (the first entry's first column; the torso tilt in the BIOLOID sets).
  std::vector<double> time_s, tilt_real_rad, tilt_sim_rad;    ///< at the recording's frames
  std::string headline;                                       ///< its column name
  double E_rad2_s = std::numeric_limits<double>::infinity();  ///< E of the first entry
  double rms_rad = std::numeric_limits<double>::infinity();
  double E_joint_rad2_s = std::numeric_limits<double>::infinity();  ///< E of the joint-angle entry (E_q; 0 if none)
  int joints_compared = 0;                                          ///< joints in E_q
  std::vector<SignalScore> scores;                                  ///< every entry, in manifest order
  double score = std::numeric_limits<double>::infinity();           ///< sum_g w_g E_g (the objective)
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

/// Throws InputError (the recording, the column) if a measured signal of `trial` has no simulated
/// counterpart on `base`, or an explicit initial pose names a joint `base` lacks.
void checkReplayable(const RobotModel& base, const ReplayTrial& trial, const ReplayOptions& o);

/// Simulates one trial on `base` (which carries the candidate parameters). `log` (may be null)
/// receives the Recorder columns every o.log_period_s. Never throws for a divergence.
ReplayResult replayTrial(const RobotModel& base, const ReplayTrial& trial, const MotorMap& map, const ReplayOptions& o,
                         Log* log = nullptr);

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
