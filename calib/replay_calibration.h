// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Paper 002's calibration on recorded trials as a workflow (`gapsim-cli calibrate-replay` is its
/// command-line adapter; the optimiser, the evaluators and the results directory are
/// calib/calibration.h's): the inputs a results directory keeps, the problem they describe
/// (ReplayProblem, calib/recording_replay.h: E_cali over the training trials), and the summary of
/// a finished calibration (each trial's headline RMS at the space's initial values and at the
/// best ones).

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calib/recording_replay.h"

namespace gapsim::calib {

/// What a calibration on recorded trials is run from: the `inputs` of its checkpoint (kind
/// "replay"), so that a resumed run builds the same problem. Files as absolute paths.
struct ReplayCalibrationInputs {
  std::string robot = "bioloid";  ///< the one robot calibrated (name or robot file)
  std::string params;             ///< parameter file applied before the space's values ("" none)
  std::string recordings;         ///< a recording manifest or the BIOLOID lean-to-stand package
  std::string trials;             ///< comma-separated globs of the trials used ("" all)
  std::string holdout;            ///< comma-separated globs of the held-out trials (only reported)
  std::string space;              ///< parameter space CSV
  bool wall = true;               ///< the authors' wall, where the manifest has it
  std::uint64_t sim_seed = 0;     ///< SimOptions::seed of every replay
  double settle_s = 0.0;          ///< ReplayOptions::settle_s

  nlohmann::json toJson() const;
  /// nlohmann::json::exception for a missing or mistyped field; settle_s may be absent (0).
  static ReplayCalibrationInputs fromJson(const nlohmann::json& j);
};

/// The robot the trials of `recordings` name ("" when none names one). InputError (manifest,
/// line, "robot") when two trials name different robots: one model is calibrated at a time.
std::string recordingsRobot(const std::string& recordings);

/// The problem the inputs describe: the robot with the parameter file, the space, the selected
/// trials (role test dropped: train fits, validate and --holdout are reported). InputError for a
/// trial with its own parameter file when `params` is empty, for no training trial left, or for
/// bad files or values.
std::shared_ptr<const ReplayProblem> makeReplayCalibrationProblem(const ReplayCalibrationInputs& inputs);

/// One trial before and after: the headline signal's RMS and E at the space's initial and best values.
struct ReplayCalibrationRow {
  std::string trial;
  bool holdout = false;
  double rms_initial_rad = 0, rms_best_rad = 0, E_initial_rad2_s = 0, E_best_rad2_s = 0;
};

struct ReplayCalibrationSummary {
  std::vector<ReplayCalibrationRow> rows;  ///< in set order
  /// Per role, [0] training and [1] held out: trials, the mean RMS before and after, and
  /// 100 (sum after - sum before) / sum before.
  int trials[2] = {0, 0};
  double mean_rms_initial_rad[2] = {0, 0}, mean_rms_best_rad[2] = {0, 0}, change_percent[2] = {0, 0};

  /// summary.csv: trial, role (train or holdout), the RMS and E before and after.
  std::string csv() const;
  nlohmann::json toJson() const;
  static ReplayCalibrationSummary fromJson(const nlohmann::json& j);
};

/// Replays every trial of `problem` at the space's initial values and at `best`, calling `on_row`
/// (may be empty) after each.
ReplayCalibrationSummary summariseReplayCalibration(
    const ReplayProblem& problem, const Eigen::VectorXd& best,
    const std::function<void(const ReplayCalibrationRow&)>& on_row = {});

}  // namespace gapsim::calib
