// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// What the Calibrate panel reads from a calibration: the per-generation progress lines
/// `gapsim-cli calibrate` prints (calib/calibration.cpp, Calibration::run)
///   gen 0 (initial parameters): fitness 0.0123
///   gen 3/12 evals 18 best 0.00123 median 0.0045 sigma 0.21 evals/s 2.50 eta 0:00:36
///   gen 4/12 evals 24 best ... eta ? (2 failed, e.g. diverged at t = 0.3 s)
/// with validation scenarios (role validate) also
///   gen 0 (initial parameters): fitness 0.0123, validation 0.0456
///   gen 3/12 evals 18 best ... eta 0:00:36 | train 0.00123 validation 0.0051 *
/// ('*': this generation's set is the one best.params holds, the lowest validation error so far);
/// and the results directory's history.csv (generation,evaluations,best,median,sigma,...) and
/// validation.csv (generation,train_fitness,validation_fitness), which is where a resumed or
/// finished run's earlier generations come from.

#include <QString>
#include <cmath>
#include <optional>
#include <vector>

namespace gapsim::gui {

struct GenerationProgress {
  int generation = 0;
  int generations = 0;  ///< total planned; 0 if unknown (generation 0, history.csv)
  long evaluations = 0;
  double best = 0, median = 0, sigma = 0;
  double evals_per_s = -1;  ///< < 0: not given
  QString eta;              ///< "h:mm:ss" or "?" as printed; empty if not given
  int failed = 0;           ///< candidates that scored +inf (divergence, refused value)
  QString failure;          ///< the first failure's reason
  /// Validation fitness of the training best, when this generation evaluated it (NaN otherwise:
  /// no validation scenarios, or the training best did not improve).
  double validation = std::nan("");
  bool validation_best = false;  ///< '*': best.params holds this generation's set
};

/// One row of validation.csv: the training best's fitness and its validation fitness.
struct ValidationPoint {
  int generation = 0;
  double train = 0, validation = 0;
};

/// Parses one progress line; nullopt for any other line (header, summary, errors).
std::optional<GenerationProgress> parseProgressLine(const QString& line);

/// Reads DIR/history.csv. Throws InputError (file, line, field) on a malformed file.
std::vector<GenerationProgress> readHistory(const QString& path);

/// Reads DIR/validation.csv. Throws InputError (file, line, field) on a malformed file.
std::vector<ValidationPoint> readValidation(const QString& path);

}  // namespace gapsim::gui
