// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The BIOLOID sim-to-reality loop of paper 002 (docs/bioloid.md "The loop") as a library
/// function; `gapsim-cli loop` is its command-line adapter.
/// Each iteration: optimise the rising controllers in simulation (current calibrated parameters),
/// execute them on reality (the twin, or the real robot through files in a directory), add the
/// (commanded motion, recording) pairs to the calibration set (with the trials of a recording
/// manifest, if given), calibrate on all of them (E_cali), and go on with the tasks that failed on
/// reality.
///
/// Nothing is lost: every step writes its result into the loop directory (atomically) and is
/// skipped when that file exists, the CMA-ES runs checkpoint every generation, so running again
/// on the same directory (after a kill or after dropping a recording into the reality directory)
/// continues with the same result.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calib/rising_pair.h"

namespace gapsim::calib {

/// The loop's inputs (files as absolute paths: a resumed loop reads them from loop.json).
struct SimToRealLoopOptions {
  std::string robot = "bioloid";  ///< a BIOLOID model: name or robot file
  std::string params;             ///< parameter file applied to the simulated robot first ("" none)
  std::string tasks = "all";      ///< lean, sit, kneel, a comma-separated list or all
  std::string reality = "twin";   ///< twin (a simulated robot with hidden parameters) or a directory
  std::string twin_params;        ///< the twin's hidden parameter file
  std::string space;              ///< calibration parameter space CSV
  std::string init_dir;           ///< initial controllers <task>.csv
  std::string recordings;         ///< a recording manifest whose trials join every calibration ("" none)
  int iterations = 3;
  int first_opt_generations = -1;                                                         // -1: opt_generations
  int opt_generations = 8, opt_population = 8, cal_generations = 15, cal_population = 8;  // the acceptance runs' budget
  double opt_sigma0 = 0.1, cal_sigma0 = 0.2;
  /// W of the encoder term in E_cali (calib/recording_replay.h; 0: the tilt only, paper 002).
  double cal_joint_weight = 10.0;  // docs/bioloid.md "Acceptance runs": W = 1 too weak, 10 finds mass and gains
  double cal_settle_s = 0.0;       ///< ReplayOptions::settle_s of the calibration's replays
  /// Robust re-optimisation: the controller's fitness is the worst over `robust_models` models,
  /// the calibrated one with all servo gains (kp, kd; a voltage-domain Dynamixel's stall
  /// torque, which scales all its torques) scaled by factors evenly spread over
  /// [1 - robust_gain_spread, 1 + robust_gain_spread] (1: the calibrated model alone).
  int robust_models = 1;
  double robust_gain_spread = 0.2;
  std::uint64_t seed = 1;

  /// The options as loop.json stores them (a resumed loop reads them back).
  nlohmann::json toJson() const;
  static SimToRealLoopOptions fromJson(const nlohmann::json& j);
  /// InputError(option) for a value out of range (iterations < 1, a negative weight, ...).
  void validate() const;
};

/// One task's state in one iteration (a row of loop.csv).
struct LoopTaskRow {
  int iteration = 0;
  std::string task;
  double T_s = 0, V_sim = 0;
  bool upright_sim = false;
  RealityOutcome real;
  int pairs = 0;
  double E_before = NAN, E_after = NAN;
};

struct SimToRealLoopResult {
  enum class Outcome {
    kSucceeded,           ///< every task succeeds on reality
    kStillFailing,        ///< the iterations ran out with a task failing on reality
    kAwaitingRecordings,  ///< reality is a directory and a recording is not there yet
  };
  Outcome outcome = Outcome::kStillFailing;
  int iterations = 0;                ///< iterations run (or reached)
  std::vector<LoopTaskRow> table;    ///< loop.csv
  std::vector<std::string> failing;  ///< tasks failing on reality at the end
};

/// Runs (or continues) the loop in `dir` (created if missing) with `jobs` worker processes (1:
/// serial in this process), writing dir/loop.json, loop.csv and iter<k>/. Progress lines go to
/// `report` (may be null). InputError for bad inputs before anything is simulated or written;
/// DivergenceError if the twin diverges.
SimToRealLoopResult runSimToRealLoop(const SimToRealLoopOptions& options, const std::string& dir, int jobs,
                                     std::FILE* report);

}  // namespace gapsim::calib
