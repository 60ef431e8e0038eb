// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// What a calibration minimises: simulate the motions of a scenario set with a candidate parameter
/// set and compare with the reference logs.
///
///   F (MoToFlex, Urbann et al. 2011, eq. 2), per scenario s:
///       F_s = sum_{t=1}^{T} sum_i (q_ref,i(t) - q_sim,i(t))^2 / T^m
///     t runs over the simulated log's samples (frames) up to the fall or the end, T is their
///     number, i over the joints whose `<joint>/q_rad` column both logs have (encoder angles);
///     the reference is read at the simulated sample times (linear interpolation). m > 1 rewards
///     staying up (m = 0 would favour an immediate fall); the original implementation used m = 5.
///     F = sum_s w_s F_s.
///   E_cali (Tan et al., BIOLOID calibration, eq. with the torso tilt alpha only):
///       E_s = integral_0^T (alpha_ref(t) - alpha_sim(t))^2 dt   (rectangle rule on the samples)
///     with alpha = `torso/tilt_rad` (angle between torso up and world up), over the whole scenario
///     (a fall is not cut off: its tilt error is the signal). E_cali = (1/n) sum_s w_s E_s.
///   sum: w_F F + w_E E_cali (the two have different units; the weights make them commensurate).
///   resync: the re-synchronising RMS of joint angles (rad), windows of `resync_horizon_s` each
///     started from the logged joint angles, rates and attitude (calib/resync_objective.h):
///       resync = (1/n) sum_s w_s R_s,  R_s = sqrt((1/K) sum_k e_k),  e_k a window's mean squared
///       joint-angle error (rad^2), a fallen or diverged window at least fall_penalty_rad^2.
///   gait_w1: the joint angles' distribution distance (rad), no time alignment
///     (calib/distribution_objective.h):
///       gait_w1 = (1/n) sum_s w_s D_s,  D_s = mean over joints of the 1-Wasserstein distance
///       between simulated and reference angle distributions after `w1_settle_s`, the fallen
///       fraction of the run counted at fall_penalty_rad.
/// A run that diverges, or a parameter set the model refuses, scores +inf with the reason.
///
/// Scenario set file (CSV, `#` comments; paths relative to the file):
///   name,motion,reference,duration_s,weight,role,balance
///   squat,motions/squat_fast.csv,reference/squat_fast.csv,1.5,1,train,
///   sway,motions/sway.csv,reference/sway.csv,1.5,1,holdout,roll_rate=0.1;period=0.01
/// role: train (default; the optimiser sees it), validate (held out; evaluated after every
/// generation that improves training, and its error picks the result: early stopping,
/// calib/calibration.h) or holdout (held out; only reported at the end). balance (optional):
/// gyro feedback on the stance ankles while the motion plays (sim/ankle_balance.h), empty = none.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calib/parameter_space.h"
#include "sim/ankle_balance.h"
#include "sim/compile.h"
#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/robot_model.h"

namespace gapsim {
class Simulation;
}  // namespace gapsim

namespace gapsim::calib {

struct Scenario {
  std::string name;
  std::string motion_path, reference_path;  ///< resolved against the set file's directory
  double duration_s = 1.0;
  double weight = 1.0;
  bool holdout = false;   ///< not trained on: role validate or holdout
  bool validate = false;  ///< role validate (then holdout is true as well)
  /// Gyro feedback on the stance ankles while the motion plays (column `balance`, items separated
  /// by ';', e.g. roll_rate=0.1;period=0.01; sim/ankle_balance.h); none when the cell is empty.
  std::optional<BalanceParams> balance;
  int line = 0;
};

struct ScenarioSet {
  std::string source;
  std::vector<Scenario> scenarios;
  /// Reads a set file (InputError with file, line and column; the paths are checked to exist,
  /// except references when `need_references` is false, as for `twin`, which writes them).
  static ScenarioSet load(const std::string& path, bool need_references = true);
  /// Throws InputError(source, line, "balance") if a scenario asks for ankle balance on a robot
  /// without ankles (sim/ankle_balance.h), before any run starts.
  void checkAgainst(const RobotModel& m) const;
};

enum class ObjectiveKind { F, ECali, Sum, Resync, GaitW1 };
/// F, E_cali, sum, resync or gait_w1 (InputError naming --objective otherwise).
ObjectiveKind parseObjectiveKind(const std::string& s);
std::string toString(ObjectiveKind k);

struct ObjectiveSettings {
  ObjectiveKind kind = ObjectiveKind::F;
  double m = 5.0;                         ///< exponent of T in F
  double weight_F = 1.0, weight_E = 1.0;  ///< of the sum
  std::uint64_t sim_seed = 0;             ///< SimOptions::seed of every evaluation
  double log_period_s = 0.01;             ///< sample period of the simulated logs (frames of F)
  /// Stepper of every evaluation (SimOptions::quickstep): unset = the robot file's. Walks with
  /// ideal servos need dWorldStep (false, `--stepper big`, docs/walk.md).
  std::optional<bool> quickstep;
  /// F over the joints the scenario's motion commands only (`--f-joints motion`), instead of every
  /// joint both logs have (the paper's F). For calibrating the drivetrains of the moved joints
  /// without the error of joints the motion only holds (e.g. the Nao's arms during a walk).
  bool f_motion_joints_only = false;
  /// Regularisation toward the initial values (the space file's): the training fitness gets
  /// + prior_weight * |y - y0|^2, y the optimiser coordinates (1 = a parameter's whole range, or
  /// log range), so W weighs every parameter's move in units of its range. 0: none.
  double prior_weight = 0.0;
  /// resync: window length H (s), `--resync-horizon`. 1 s: long against a servo's response (tens
  /// of ms), so a drivetrain's error shows in the angles, and short enough that a fall costs one
  /// window of the 6.5 s walks of calib/examples.
  double resync_horizon_s = 1.0;
  /// gait_w1: samples before this time (s) are left out of both distributions, `--w1-settle`.
  double w1_settle_s = 0.0;
  /// resync and gait_w1: the error (rad) a fallen or diverged window (resync) or a fallen sample
  /// (gait_w1) counts at. 0.5 rad (29 deg) is far above the errors of a robot that stays up
  /// (docs/calibration.md gives the measured ones), so no fallen window looks better than a
  /// standing one, and finite, so one fall does not hide how the other windows fit.
  double fall_penalty_rad = 0.5;
};

/// Throws InputError naming the option and the value unless the resync horizon is finite,
/// at least one log period and at most 3600 s, and the W1 settle time finite and in [0, 3600] s.
void validateObjectiveSettings(const ObjectiveSettings& s);

/// Which scenarios an evaluation runs (Scenario::holdout, Scenario::validate).
enum class ScenarioSubset { Train, Validate, Holdout };
std::string toString(ScenarioSubset s);
/// The subset a scenario's role puts it in.
ScenarioSubset subsetOf(const Scenario& sc);

/// Result of one evaluation. parts = {F, E_cali, then the fitness of each scenario evaluated}
/// (objective resync runs no continuous simulation: its F and E_cali parts are 0).
struct EvalResult {
  double fitness = std::numeric_limits<double>::infinity();
  std::vector<double> parts;
  std::string error;  ///< why the fitness is +inf (divergence, refused value), else empty
};

/// One scenario's comparison, also used for the held-out report.
struct ScenarioScore {
  double F = 0, E = 0;
  double resync_rad = 0;    ///< R_s (objective resync only)
  double w1_rad = 0;        ///< D_s (objective gait_w1 only)
  int frames = 0;           ///< T
  double fall_time_s = -1;  ///< -1: did not fall
  bool diverged = false;
  std::string error;
};

/// Everything an evaluation needs, loaded once (model, space, motions, reference logs); evaluate()
/// is const and has no side effects, so any process may call it in any order.
class CalibrationProblem {
 public:
  CalibrationProblem(std::shared_ptr<const RobotModel> base, ParameterSpace space, ScenarioSet set,
                     ObjectiveSettings settings);

  const ParameterSpace& space() const { return space_; }
  const ScenarioSet& scenarios() const { return set_; }
  const ObjectiveSettings& settings() const { return settings_; }

  /// Fitness of the free-dimension values over the scenarios of a subset (the training one with
  /// the prior term of ObjectiveSettings::prior_weight; the others without).
  EvalResult evaluate(const Eigen::VectorXd& values, ScenarioSubset subset = ScenarioSubset::Train) const;
  /// Simulates scenario k with these values, filling `log` (may be null) and scoring it: F and E
  /// of one continuous run, and with objective gait_w1 its D_s; with objective resync also R_s
  /// of a re-synchronised run (whose log is not returned).
  ScenarioScore runScenario(const Eigen::VectorXd& values, int k, Log* log) const;
  /// R_s of scenario k alone (objective resync's evaluations: no continuous run). `log`: the
  /// re-synchronised run's rows (may be null).
  ScenarioScore runResyncScenario(const Eigen::VectorXd& values, int k, Log* log) const;
  bool hasHoldout() const;     ///< any scenario with role holdout
  bool hasValidation() const;  ///< any scenario with role validate

 private:
  std::shared_ptr<const RobotModel> base_;
  ParameterSpace space_;
  ScenarioSet set_;
  ObjectiveSettings settings_;
  std::vector<std::shared_ptr<const Motion>> motions_;
  std::vector<Log> references_;
  /// A simulation of the model with these values, with the solver seed and stepper of every
  /// evaluation (ObjectiveSettings); null with the reason in `error` when the values are refused.
  std::unique_ptr<Simulation> simulationOf(const Eigen::VectorXd& values, std::string& error) const;
};

/// F_s and E_s of a simulated log against a reference (the formulas of the file comment);
/// `fall_time_s` < 0 means no fall.
/// f_joints: if given, F sums only over these joints' `<joint>/q_rad` columns.
ScenarioScore compareLogs(const Log& sim, const Log& ref, double fall_time_s, double m, double log_period_s,
                          const std::vector<std::string>* f_joints = nullptr);

}  // namespace gapsim::calib
