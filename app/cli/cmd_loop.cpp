// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli loop: the command-line adapter of the BIOLOID sim-to-reality loop
// (calib/sim_to_real_loop.h; docs/bioloid.md "The loop"): options, --resume from loop.json, the
// exit code (0 every task succeeds on reality, 1 still failing, 4 waiting for a recording).
#include <cstdio>
#include <filesystem>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "calib/sim_to_real_loop.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/text_file.h"

namespace gapsim::cli {
namespace {

namespace fs = std::filesystem;

}  // namespace

namespace {

struct LoopArgs {
  calib::SimToRealLoopOptions in;
  std::string out, resume;
  int jobs = 2;
  bool force = false;
};

/// What `gapsim-cli loop` does once its options are parsed.
int runLoop(const std::shared_ptr<LoopArgs>& a, const CLI::Option* it_opt) {
  calib::SimToRealLoopOptions in = a->in;
  std::string out;
  if (!a->resume.empty()) {
    const std::string state = a->resume + "/loop.json";
    if (!fs::exists(state))
      throw InputError(state, 0, "--resume",
                       fs::is_directory(a->resume) && onlyLeftoversOfAKilledStart(a->resume, "loop.json")
                           ? "no loop state to resume from: the loop was stopped before it saved its state; start it "
                             "again with the same command and --out " +
                                 a->resume + " (its leftovers are replaced)"
                           : "no loop state here (not a loop directory)");
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(readTextFile(state));
      in = calib::SimToRealLoopOptions::fromJson(j.at("inputs"));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(state, 0, "inputs", std::string("unreadable loop state: ") + e.what());
    }
    if (it_opt->count() > 0) in.iterations = a->in.iterations;
    out = a->resume;
  } else {
    if (a->out.empty()) throw InputError("", 0, "--out", "a loop directory is required (or --resume DIR)");
    if (in.reality != "twin") in.reality = absolutePath(in.reality);
    in.params = absolutePath(in.params);
    in.twin_params = absolutePath(in.twin_params);
    in.space = absolutePath(in.space);
    in.init_dir = absolutePath(in.init_dir);
    in.recordings = absolutePath(in.recordings);
    out = a->out;
    claimOutputDir(out, {}, true, "--out");  // a file or an unwritable place is said as such; emptiness below
    if (fs::exists(out) && !fs::is_empty(out) && !a->force) {
      if (!onlyLeftoversOfAKilledStart(out, "loop.json"))
        throw InputError(out, 0, "--out", "the loop directory is not empty (use --resume to continue it, or --force)");
      std::fprintf(stderr,
                   "note: %s holds no loop state, only the temporary files of a loop stopped before it saved "
                   "its state: starting afresh in it\n",
                   out.c_str());
      for (const auto& e : fs::directory_iterator(out)) fs::remove(e.path());
    }
  }
  const calib::SimToRealLoopResult r = calib::runSimToRealLoop(in, out, a->jobs, stdout);
  switch (r.outcome) {
    case calib::SimToRealLoopResult::Outcome::kSucceeded:
      return kExitOk;
    case calib::SimToRealLoopResult::Outcome::kAwaitingRecordings:
      return kExitAwaitingRecording;
    case calib::SimToRealLoopResult::Outcome::kStillFailing:
      break;
  }
  return kExitFailure;
}

}  // namespace

Action addLoop(CLI::App& app) {
  auto a = std::make_shared<LoopArgs>();
  a->in.twin_params = robotsDirectory() + "/bioloid/calibration/twin_hidden.params";
  a->in.space = robotsDirectory() + "/bioloid/calibration/loop_space.csv";
  a->in.init_dir = robotsDirectory() + "/bioloid/controllers";
  calib::SimToRealLoopOptions& in = a->in;
  app.add_option("--robot", in.robot, "robot (a BIOLOID model)")->capture_default_str();
  app.add_option("--params", in.params, "parameter file applied to the simulated robot before the loop");
  app.add_option("--task", in.tasks, "lean, sit, kneel, a comma-separated list or all")->capture_default_str();
  app.add_option("--reality", in.reality,
                 "twin (a simulated robot with hidden parameters) or a directory shared with the real robot")
      ->capture_default_str();
  app.add_option("--twin-params", in.twin_params, "the twin's hidden parameter file")->capture_default_str();
  app.add_option("--space", in.space, "calibration parameter space CSV")->capture_default_str();
  app.add_option("--recordings", in.recordings,
                 "a recording manifest (docs/recordings.md) whose train trials join every calibration");
  app.add_option("--init-dir", in.init_dir, "initial controllers <task>.csv (default: the shipped ones)")
      ->capture_default_str();
  CLI::Option* it_opt = app.add_option("--iterations", in.iterations, "iterations at most (resuming: may be raised)")
                            ->capture_default_str();
  app.add_option(
         "--first-generations", in.first_opt_generations,
         "CMA-ES generations of the first optimisation (-1: --generations; 0: the initial controllers as they are)")
      ->capture_default_str();
  app.add_option("--generations", in.opt_generations, "CMA-ES generations per controller optimisation")
      ->capture_default_str();
  app.add_option("--population", in.opt_population, "CMA-ES population of the controller optimisation")
      ->capture_default_str();
  app.add_option("--sigma0", in.opt_sigma0, "initial step of the controller optimisation (fraction of each range)")
      ->capture_default_str();
  app.add_option("--cal-generations", in.cal_generations, "CMA-ES generations per calibration")->capture_default_str();
  app.add_option("--cal-population", in.cal_population, "CMA-ES population of the calibration")->capture_default_str();
  app.add_option("--cal-sigma0", in.cal_sigma0, "initial step of the calibration (fraction of each range)")
      ->capture_default_str();
  app.add_option(
         "--cal-joint-weight", in.cal_joint_weight,
         "W: E_cali adds W x integral sum_j (q_real_j - q_sim_j)^2 dt of the encoders (0: tilt only, paper 002)")
      ->capture_default_str();
  app.add_option(
         "--robust-models", in.robust_models,
         "optimise each controller for the worst of K models: the calibrated one with the servo gains (kp, kd; "
         "a voltage-domain Dynamixel's stall torque) scaled over [1 - X, 1 + X] (1: the calibrated model alone)")
      ->capture_default_str();
  app.add_option("--robust-gain-spread", in.robust_gain_spread, "X of --robust-models")->capture_default_str();
  app.add_option("--cal-settle", in.cal_settle_s,
                 "the calibration's replays hold the first command this long first (s)")
      ->capture_default_str();
  app.add_option("--seed", in.seed, "seed of CMA-ES and of the twin's sensor noise")->capture_default_str();
  app.add_option("--jobs", a->jobs, "worker processes (1: serial in this process)")->capture_default_str();
  app.add_option("--out", a->out, "loop directory (state, controllers, recordings, calibrations)");
  app.add_option("--resume", a->resume, "continue the loop in this directory");
  app.add_flag("--force", a->force, "start a fresh loop in a non-empty --out directory");
  return [a, it_opt] { return runLoop(a, it_opt); };
}

}  // namespace gapsim::cli
