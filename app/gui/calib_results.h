// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// A calibration's results directory as the GUI uses it: checkpoint.json's inputs (robot, base
/// parameter file, space, scenario set, objective), history.csv, best.params; and the before/after
/// comparison: one scenario simulated with the space's initial values and with the best values,
/// both next to its reference log. The simulation is calib::CalibrationProblem's own runScenario,
/// so the scores shown are the numbers the optimiser saw. Also what the run says of itself:
/// validation.csv (training and validation fitness), parameters.json (per parameter: how far it
/// moved and how well the data determine it) and warnings.txt.

#include <QString>
#include <QStringList>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/calib_progress.h"
#include "calib/calibration.h"
#include "calib/objective.h"
#include "sim/log_writer.h"

namespace gapsim::gui {

/// One row of parameters.json (calib/calibration.h, writeParameters).
struct ParameterDetermination {
  std::string dimension;
  double initial = 0, result = 0;
  double moved_relative = 0;        ///< (result - initial) / |initial|
  double moved_range_fraction = 0;  ///< in optimiser units (1 = the whole range)
  double std_over_sigma0 = 0;       ///< final search spread over the initial step size
  std::string determined;           ///< "well" or "weak", by the search spread
  /// By the curvature of the training fitness (calib/fd_sensitivity.h); NaN and "" when the run
  /// skipped it (--no-sensitivity).
  double fd_rise_relative = std::nan("");
  double fd_halfwidth_range_fraction = std::nan("");
  std::string fd_determined;
};

/// parameters.json: written when a run ends (absent while it runs).
struct ParameterReport {
  std::vector<ParameterDetermination> rows;
  double condition_number = 0;  ///< of the final search covariance
  std::string result;           ///< "training best" or "validation best (early stopping)"
};

struct CalibrationResults {
  QString dir;
  QString robot;   ///< name or robot file, as given to calibrate
  QString params;  ///< base parameter file applied before the space ("" if none)
  QString space, scenarios;
  /// A calibration on recorded trials (`calibrate --recordings`): its manifest, and no scenarios
  /// (the trials replay in File > Replay Real Recording; the before/after is for scenario sets).
  QString recordings;
  calib::ObjectiveSettings objective;
  calib::CalibrationSettings settings;  ///< optimizer, generations, lambda, seed, ...
  std::vector<GenerationProgress> history;
  QString best_params;  ///< DIR/best.params
  std::vector<std::string> scenario_names;
  std::vector<bool> scenario_holdout;
  std::vector<std::string> scenario_motions, scenario_references;  ///< resolved paths
  std::vector<ValidationPoint> validation;  ///< validation.csv; empty without validation scenarios
  std::optional<ParameterReport> parameters;
  QStringList warnings;  ///< warnings.txt, a line each
};

/// Reads DIR/parameters.json (InputError naming the file and the key if it is malformed).
ParameterReport readParameterReport(const QString& path);

/// Reads DIR (InputError naming the file if checkpoint.json, history.csv or best.params is
/// missing or malformed, or if the scenario set cannot be read; validation.csv,
/// parameters.json and warnings.txt may be missing, but not malformed).
CalibrationResults readCalibrationResults(const QString& dir);

struct BeforeAfter {
  std::string scenario;
  Log reference, before, after;
  calib::ScenarioScore before_score, after_score;
};

/// Simulates scenario `k` of the results' set with the initial and with the best parameters
/// (seconds of CPU: run it off the GUI thread). Throws InputError on unreadable inputs.
BeforeAfter runBeforeAfter(const CalibrationResults& r, int k);

/// Columns worth comparing: the `<joint>/q_rad` and `*/tilt_rad` columns all three logs share,
/// tilt first.
std::vector<std::string> comparableColumns(const BeforeAfter& ba);
/// The column the comparison opens on: the tilt for an E_cali objective, else the joint angle
/// whose initial-parameter run is furthest (RMS) from the reference.
std::string defaultComparisonColumn(const BeforeAfter& ba, calib::ObjectiveKind kind);
/// RMS of `log` against the reference on one column (NaN if either lacks it).
double rmsAgainstReference(const BeforeAfter& ba, const Log& log, const std::string& column);

}  // namespace gapsim::gui
