// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The calibration loop: optimizer (CMA-ES or the (mu, kappa, lambda)-ES) over the optimiser
/// coordinates of a ParameterSpace, candidates evaluated in batches by any BatchEvaluator, and
/// after every generation, in the output directory (each file written to a temporary name and
/// renamed, so a kill never leaves a half-written file):
///   checkpoint.json  settings, inputs, optimizer state (its RNG included), best, history
///   history.csv      generation, evals, best, median, sigma, best value of every free dimension
///   best.params      the best parameter set in the space format (loadable by `run --params`)
/// A run resumed from the checkpoint (fromCheckpoint) continues bit-identically: the optimizer
/// state round-trips exactly and evaluations are pure functions of the candidate.
///
/// Generation 0 of the history is the initial parameter set (evaluated once, not counted in
/// evals); `best` is the best of it and of every candidate since, so a calibration never returns
/// something worse than its starting point.
///
/// Validation (setValidation: the error on scenarios the optimiser never sees): evaluated for the
/// initial set and after every generation that improves the training best, on that best. Then
/// also, after every generation:
///   validation.csv     generation, train fitness, validation fitness (one row per evaluation)
///   best.params        the parameters with the best *validation* fitness (early stopping: the
///                      training best may fit the training scenarios' misspecification)
///   warnings.txt       one line whenever the validation fitness rose while the training fell
/// best_train.params (the training best) is written in every run; without validation it is
/// best.params under another name.
/// At the end (writeSpread): spread.csv, and parameters.csv / parameters.json: per free dimension
/// the initial and result values, how far it moved (relative to the initial value and as a
/// fraction of its range) and how well the data determine it: the standard deviation of the final
/// search distribution (CMA-ES: sigma^2 C; ES: the spread) as a fraction of the range, that over
/// sigma0 (< 1: the data narrowed the search), and the condition number of the whole covariance;
/// after computeSensitivity also the curvature of the training fitness along each axis at the
/// result (calib/fd_sensitivity.h: the fitness rise at a 5 % move, the half-width, a verdict).

#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calib/evaluator.h"
#include "calib/fd_sensitivity.h"
#include "calib/optimizer.h"
#include "calib/parameter_space.h"

namespace gapsim::calib {

struct CalibrationSettings {
  std::string optimizer = "cmaes";  ///< cmaes or es
  int generations = 10;             ///< total, including those before a resume
  int lambda = 0;                   ///< children per generation; 0: CMA-ES 4 + 3 ln n, ES 800
  int mu = 0;                       ///< parents; 0: CMA-ES lambda / 2, ES 10
  int kappa = 3;                    ///< ES lifetime (0: infinite, i.e. plus selection)
  int rho = 2;                      ///< ES parents per child
  double sigma0 = 0.2;              ///< initial step size in optimiser units (1 = the whole range)
  std::uint64_t seed = 1;
  int ipop_restarts = 0;  ///< CMA-ES only
  void validate() const;  ///< InputError naming the option
  nlohmann::json toJson() const;
  static CalibrationSettings fromJson(const nlohmann::json& j);
};

struct ValidationRecord {
  int generation = 0;
  double train = 0, validation = 0;  ///< fitness of the training best on both subsets
};

struct GenerationRecord {
  int generation = 0;
  long evaluations = 0;
  double best = 0, median = 0, sigma = 0;
  Eigen::VectorXd best_values;
};

/// Builds the optimizer the settings name, starting at y0.
std::unique_ptr<Optimizer> makeOptimizer(const CalibrationSettings& s, const Eigen::VectorXd& y0);

class Calibration {
 public:
  /// A fresh calibration writing into out_dir (created if missing). `inputs` is stored in the
  /// checkpoint verbatim (the command line needs it to rebuild the problem on resume).
  Calibration(ParameterSpace space, CalibrationSettings settings, std::string out_dir, nlohmann::json inputs = {});
  /// Continues from out_dir/checkpoint.json; the space must have the same dimensions.
  /// `generations` > 0 replaces the total number of generations.
  static Calibration fromCheckpoint(ParameterSpace space, const std::string& out_dir, int generations = 0);
  /// Reads out_dir/checkpoint.json (InputError if missing or unreadable).
  static nlohmann::json readCheckpoint(const std::string& out_dir);

  /// The validation fitness of a parameter set (the values of the free dimensions); set before
  /// run(). Evaluated in this process, after each improving generation.
  void setValidation(std::function<EvalResult(const Eigen::VectorXd&)> fn) { validate_fn_ = std::move(fn); }
  bool hasValidation() const { return static_cast<bool>(validate_fn_); }

  /// Runs until settings.generations are done or the optimizer stops; `stop_after` >= 0 ends this
  /// session after that many generations (tests: an interrupted run). Progress lines go to
  /// `progress` (may be null). A resumed run first rewrites history.csv and best.params from the
  /// checkpoint: a run killed after checkpoint.json was committed but before those two were
  /// (each file is replaced atomically, the three not at once) left them a generation behind.
  void run(BatchEvaluator& ev, std::ostream* progress, int stop_after = -1);

  const ParameterSpace& space() const { return space_; }
  const CalibrationSettings& settings() const { return settings_; }
  const std::vector<GenerationRecord>& history() const { return history_; }
  /// The training best (best_train.params).
  const Eigen::VectorXd& bestValues() const { return best_values_; }
  double bestFitness() const { return best_f_; }
  /// The result (best.params): the validation best with validation, else the training best.
  const Eigen::VectorXd& resultValues() const {
    return hasValidation() && !validation_.empty() ? best_val_values_ : best_values_;
  }
  const std::vector<ValidationRecord>& validationHistory() const { return validation_; }
  double bestValidationFitness() const { return best_val_f_; }
  int bestValidationGeneration() const { return best_val_generation_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  double initialFitness() const { return initial_f_; }
  const Optimizer& optimizer() const { return *opt_; }
  const std::string& outDir() const { return out_dir_; }
  const nlohmann::json& inputs() const { return inputs_; }
  /// Per free dimension: spread of the final search distribution as a fraction of the range.
  Eigen::VectorXd spreadFraction() const;
  /// Writes spread.csv: label, best value, spread fraction, and "weak" for dimensions whose
  /// spread is above 3 times the median spread (the data barely determine them); and
  /// parameters.csv / parameters.json (file comment).
  void writeSpread() const;
  /// Condition number (largest / smallest eigenvalue) of the final search covariance.
  double conditionNumber() const;
  /// Evaluates the training fitness at the result and at +-5 % of each range around it (2n + 1
  /// candidates in one batch, calib/fd_sensitivity.h); writeSpread then reports it. Progress:
  /// one line.
  void computeSensitivity(BatchEvaluator& ev, std::ostream* progress);
  const std::vector<AxisSensitivity>& sensitivity() const { return sensitivity_; }

 private:
  /// checkpoint.json, then the results derived from it (writeResults).
  void writeFiles() const;
  /// history.csv and best.params from the state (what the checkpoint holds).
  void writeResults() const;
  nlohmann::json checkpoint() const;

  ParameterSpace space_;
  CalibrationSettings settings_;
  std::string out_dir_;
  nlohmann::json inputs_;
  std::unique_ptr<Optimizer> opt_;
  std::vector<GenerationRecord> history_;
  Eigen::VectorXd best_values_;
  double best_f_ = std::numeric_limits<double>::infinity();
  double initial_f_ = std::numeric_limits<double>::infinity();
  std::function<EvalResult(const Eigen::VectorXd&)> validate_fn_;
  std::vector<ValidationRecord> validation_;
  Eigen::VectorXd best_val_values_;
  double best_val_f_ = std::numeric_limits<double>::infinity();
  int best_val_generation_ = 0;
  std::vector<std::string> warnings_;
  std::vector<AxisSensitivity> sensitivity_;  ///< empty until computeSensitivity
  /// Evaluates the validation fitness of the training best after `generation`, updates the
  /// validation best and the warnings.
  void validate(int generation, std::ostream* progress);
  void writeParameters() const;
};

/// Writes `text` to path via a temporary file (path + ".tmp") and rename (atomic on POSIX file
/// systems): a kill leaves the old file or the new one, never a mix. The temporary file is fsynced
/// before the rename and the directory after it, so a power loss does too. Every file a calibration,
/// optimize-controller and the sim-to-real loop write is committed here, one file per call, so a
/// killed run can only have stopped between two such commits; GAPSIM_KILL_AT_COMMIT=N (N:after)
/// makes the process SIGKILL itself just before (after) the rename of its N-th commit, which is
/// how tests/app/kill_resume_test.sh stops a run at each of those points in turn.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace gapsim::calib
