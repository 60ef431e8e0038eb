// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// What every optimisation command (calibrate, calibrate-replay, optimize-controller) does the
/// same way around calib::Calibration: choose the evaluation backend and open the results
/// directory, fresh or resumed. In one place so that the backends and the "nothing is lost"
/// rules (refuse a non-empty directory, resume from its checkpoint) cannot drift apart.

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "calib/calibration.h"
#include "calib/evaluator.h"
#include "calib/objective.h"

namespace gapsim::cli {

/// The options every optimisation command shares: --backend serial|processes|mpi, --jobs,
/// --out, --resume, --force.
void addJobOptions(CLI::App& app, std::string& backend, int& jobs, std::string& out, std::string& resume, bool& force);

/// The search options calibrate and calibrate-replay share: --generations, --lambda (its help
/// `lambda_help`: the default population depends on the optimizers a command offers), --sigma0,
/// --seed. Returns --generations: given on a resume, it raises the stored total.
CLI::Option* addSearchOptions(CLI::App& app, calib::CalibrationSettings& s, const std::string& lambda_help);

/// MPI first: on an MPI run every rank but the master serves evaluations inside this call and
/// returns null with `*served` = true (the command then just exits 0). Otherwise returns null
/// (no MPI asked) or the master's evaluator. Call it before anything that writes files.
std::unique_ptr<calib::BatchEvaluator> startMpiBackend(const std::string& backend, const calib::EvalFunction& fn,
                                                       bool* served);

/// The local evaluator: "serial" runs in this process, anything else a pool of `jobs` worker
/// processes. Both give results bit-identical to each other and to MPI.
std::unique_ptr<calib::BatchEvaluator> localBackend(const std::string& backend, int jobs,
                                                    const calib::EvalFunction& fn);

/// A fresh calibration in `out` (InputError naming `out_option` if it exists and is not empty,
/// unless `force`), or the one in `resume` continued from its checkpoint when `resume` is set.
std::unique_ptr<calib::Calibration> openCalibration(const calib::ParameterSpace& space,
                                                    const calib::CalibrationSettings& settings, const std::string& out,
                                                    const std::string& resume, bool force, const nlohmann::json& inputs,
                                                    const std::string& out_option = "--out");

/// Resuming: the inputs and settings stored in `resume`/checkpoint.json; `generations` > 0 (given
/// on the command line) replaces the stored total. InputError if the checkpoint is missing.
calib::CalibrationSettings resumeCheckpoint(const std::string& resume, int generations, nlohmann::json* inputs);

/// The three calls above in their required order (MPI ranks first, then the results directory,
/// then the local pool): `served` is true on an MPI worker rank, which has done its work and
/// must just exit 0; otherwise `ev` and `cal` are ready to run.
struct CalibrationJob {
  std::unique_ptr<calib::BatchEvaluator> ev;
  std::unique_ptr<calib::Calibration> cal;
  bool served = false;
};
CalibrationJob startCalibrationJob(const std::string& backend, int jobs, const calib::EvalFunction& fn,
                                   const calib::ParameterSpace& space, const calib::CalibrationSettings& settings,
                                   const std::string& out, const std::string& resume, bool force,
                                   const nlohmann::json& inputs);

/// --max-sim-time S: the simulated time one evaluation of a scenario set may take (s).
constexpr double kDefaultMaxSimTime_s = 600.0;
void addSimTimeOption(CLI::App& app, double& max_sim_time_s);

/// States the simulated time of `set` before any run starts ("simulated time: 4 s per evaluation
/// (3 scenarios); about 192 s for 48 evaluations") and refuses a set whose training scenarios
/// (`with_holdout`: all of them) last longer than `max_s` in total: InputError naming the set's
/// longest scenario line, its sum and the option that raises the limit. A scenario of 2^31 s, the
/// plausible range's 1e6 s or a thousand 1 s lines would otherwise run for hours or for ever.
/// `evaluations` <= 0: not stated.
void checkSimulatedTime(const calib::ScenarioSet& set, double max_s, long evaluations, bool with_holdout = false);

/// " (resumed at generation G)" for a resumed calibration, "" for a fresh one.
std::string resumedNote(const std::string& resume, const calib::Calibration& cal);

}  // namespace gapsim::cli
