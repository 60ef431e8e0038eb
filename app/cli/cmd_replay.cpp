// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli replay: the command-line adapter of the replay of a recording set
// (calib/replay_workflow.h; the real BIOLOID lean-to-stand package is one such set): options, the
// per-trial table, the exit code (3 when a trial diverged).
// gapsim-cli calibrate --recordings (and calibrate-replay, its other name): the adapter of paper
// 002's calibration, E_cali over the training trials (calib/replay_calibration.h), run by the
// calibration loop of calib/calibration.h (CMA-ES or ES, process pool or MPI, checkpoint and --resume).
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/cli/calibrate_replay.h"
#include "app/cli/calibration_job.h"
#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "calib/calibration.h"
#include "calib/evaluator.h"
#include "calib/mpi_evaluator.h"
#include "calib/replay_calibration.h"
#include "calib/replay_workflow.h"
#include "sim/input_error.h"

namespace gapsim::cli {
namespace {

constexpr const char* kRecordingsHelp =
    "a recording manifest (a .json file, or a directory holding recordings.json; docs/recordings.md) or the BIOLOID "
    "data package (holds rising/lean-to-stand and motions/)";

void printReplayHeader(const calib::RecordingReplayResult& h, const calib::RecordingReplayOptions& o) {
  std::printf("replay: %d trials of %s on %s (mass %.4f kg)%s, commands %s\n", h.trials, o.recordings.c_str(),
              h.model_name.c_str(), h.model_mass_kg, h.wall ? ", wall" : ", no wall",
              h.hold_commands ? "held as recorded" : "continuous");
  if (h.headline != "torso/tilt_rad")
    std::printf("headline signal: %s (rms, E and max in its SI unit)\n", h.headline.c_str());
  if (!o.compare_params.empty())
    std::printf("%-24s %6s %9s %9s %9s %8s\n", "trial", "dur_s", "rms_rad", "rms2_rad", "change", "max_sim");
  else
    std::printf("%-24s %6s %9s %11s %9s %9s\n", "trial", "dur_s", "rms_rad", "E_rad2_s", "max_real", "max_sim");
}

void printReplayRow(const calib::ReplayTrialRow& r) {
  if (!r.error.empty()) {
    std::printf("%-24s %s\n", r.trial.c_str(), r.error.c_str());
    return;
  }
  char dur[16];
  if (r.step_duration_s >= 0)
    std::snprintf(dur, sizeof dur, "%6.2f", r.step_duration_s);
  else
    std::snprintf(dur, sizeof dur, "%6s", "-");
  if (r.compared)
    std::printf("%-24s %s %9.4f %9.4f %+8.1f%% %8.3f\n", r.trial.c_str(), dur, r.rms, r.rms_compare,
                100.0 * (r.rms_compare - r.rms) / r.rms, r.max_tilt_sim_compare_rad);
  else
    std::printf("%-24s %s %9.4f %11.5g %9.3f %9.3f\n", r.trial.c_str(), dur, r.rms, r.E, r.max_real, r.max_sim);
}

}  // namespace

Action addReplay(CLI::App& app) {
  auto o = std::make_shared<calib::RecordingReplayOptions>();
  auto force = std::make_shared<bool>(false);
  CLI::Option* robot_opt =
      app.add_option("--robot", o->robot, "robot (default: each trial's, else the BIOLOID)")->capture_default_str();
  app.add_option("--recordings", o->recordings, kRecordingsHelp)->required();
  app.add_option("--params", o->params, "parameter file applied to the robot (e.g. a calibration result)");
  app.add_option("--set", o->sets, "parameter name=value (repeatable, after --params)");
  app.add_option("--compare", o->compare_params, "a second parameter file: print both RMS columns and the change");
  app.add_option("--trials", o->trials, "comma-separated globs of trial names (default all), e.g. '0.0[2468]-*'");
  app.add_option("--out", o->out_dir, "write per trial the simulated log and the tilt comparison here");
  addForceOption(app, *force);
  app.add_option("--sim-seed", o->sim_seed, "SimOptions::seed")->capture_default_str();
  app.add_flag("--no-wall", o->no_wall, "without the authors' wall behind the robot (default: as the manifest says)");
  auto wall_x_m = std::make_shared<double>(calib::ReplayOptions{}.wall_face_x_m);
  CLI::Option* wall_x_opt =
      app.add_option("--wall-x", *wall_x_m, "x of the wall's front face (m; default: the manifest's)")
          ->capture_default_str();
  app.add_option("--settle", o->settle_s, "hold the first frame's command this long before the recording starts (s)")
      ->capture_default_str();
  app.add_flag("--continuous-commands", o->continuous_commands,
               "command the motion every step, unquantised (default: held at the recorded frames, whole ticks)");
  return [=] {
    calib::RecordingReplayOptions opt = *o;
    opt.robot_for_all = robot_opt->count() > 0;
    if (wall_x_opt->count() > 0) opt.wall_face_x_m = *wall_x_m;
    calib::RecordingReplay replay(opt);
    claimOutputDir(opt.out_dir, {}, *force);
    printReplayHeader(replay.header(), opt);
    const calib::RecordingReplayResult r = replay.run([&](const calib::ReplayTrialRow& row) { printReplayRow(row); });
    if (r.replayed() > 0) {
      std::printf("mean tilt rms %.4f rad, E_cali %.6g rad^2 s over %d trials\n", r.mean_rms, r.mean_E, r.replayed());
      if (!opt.compare_params.empty())
        std::printf("with %s: mean tilt rms %.4f rad (%+.1f%%), E_cali %.6g rad^2 s\n", opt.compare_params.c_str(),
                    r.mean_rms_compare, r.rms_change_percent, r.mean_E_compare);
    }
    return r.failed ? kExitDivergence : kExitOk;
  };
}

namespace {

/// The inputs of a fresh run, files made absolute (the checkpoint must work from anywhere).
nlohmann::json freshInputs(const CalibrateReplayArgs& a, bool robot_given) {
  if (a.in.recordings.empty() || a.in.space.empty())
    throw InputError("", 0, "--recordings/--space", "both are required (or --resume DIR)");
  if (a.out.empty()) throw InputError("", 0, "--out", "a results directory is required");
  calib::ReplayCalibrationInputs in = a.in;
  // The robot: --robot, else the one every trial names (a calibration fits one model).
  if (!robot_given) {
    const std::string named = calib::recordingsRobot(in.recordings);
    if (!named.empty()) in.robot = named;
  }
  in.wall = !a.no_wall;
  in.params = absolutePath(in.params);
  in.recordings = absolutePath(in.recordings);
  in.space = absolutePath(in.space);
  return in.toJson();
}

/// The best values, then per trial the tilt RMS before (the space's initial values) and after,
/// the summary per role, and summary.csv.
void reportReplayCalibration(const calib::Calibration& cal, const calib::ReplayProblem& problem,
                             const std::string& dir) {
  const calib::ParameterSpace& space = problem.space();
  std::printf("best E_cali %.6g (initial %.6g) after %ld evaluations; %s/best.params\n", cal.bestFitness(),
              cal.initialFitness(), cal.optimizer().evaluations(), dir.c_str());
  for (int i = 0; i < space.dimension(); ++i)
    std::printf("  %-32s %.6g (initial %.6g)\n", space.dimensions()[i].label.c_str(), cal.bestValues()[i],
                space.dimensions()[i].value);
  std::printf("%-24s %-8s %12s %12s %8s\n", "trial", "role", "rms initial", "rms best", "change");
  const calib::ReplayCalibrationSummary s =
      calib::summariseReplayCalibration(problem, cal.bestValues(), [](const calib::ReplayCalibrationRow& r) {
        std::printf("%-24s %-8s %12.4f %12.4f %+7.1f%%\n", r.trial.c_str(), r.holdout ? "holdout" : "train",
                    r.rms_initial_rad, r.rms_best_rad,
                    100.0 * (r.rms_best_rad - r.rms_initial_rad) / r.rms_initial_rad);
      });
  for (int h = 0; h < 2; ++h)
    if (s.trials[h] > 0)
      std::printf("%s: mean tilt rms %.4f -> %.4f rad (%+.1f%%) over %d trials\n", h ? "held-out" : "training",
                  s.mean_rms_initial_rad[h], s.mean_rms_best_rad[h], s.change_percent[h], s.trials[h]);
  calib::writeFileAtomically(cal.outDir() + "/summary.csv", s.csv());
}

}  // namespace

int runReplayCalibration(const CalibrateReplayArgs& a, bool robot_given, bool generations_given) {
  nlohmann::json inputs;
  calib::CalibrationSettings settings = a.settings;
  if (!a.resume.empty()) {
    settings = resumeCheckpoint(a.resume, generations_given ? a.settings.generations : 0, &inputs);
    if (inputs.value("kind", "") != "replay")
      throw InputError(a.resume + "/checkpoint.json", 0, "inputs", "not a calibration on recorded trials");
  } else {
    inputs = freshInputs(a, robot_given);
  }
  settings.validate();
  const auto problem = calib::makeReplayCalibrationProblem(calib::ReplayCalibrationInputs::fromJson(inputs));
  const calib::ParameterSpace& space = problem->space();
  calib::EvalFunction fn = [problem](const Eigen::VectorXd& v) { return problem->evaluate(v); };

  // --- backend (MPI worker ranks serve and return here) and results directory ---
  CalibrationJob job = startCalibrationJob(a.backend, a.jobs, fn, space, settings, a.out, a.resume, a.force, inputs);
  if (job.served) return kExitOk;
  std::unique_ptr<calib::BatchEvaluator>& ev = job.ev;
  std::unique_ptr<calib::Calibration>& cal = job.cal;
  const std::string dir = a.resume.empty() ? a.out : a.resume;
  std::printf(
      "calibrate: %s, %d free dimensions, %d training + %d held-out recorded trials, objective E_cali "
      "(sum of w E over the manifest's weighted signals), %s, seed %llu, %s%s\n",
      settings.optimizer.c_str(), space.dimension(), problem->set().count(false), problem->set().count(true),
      ev->describe().c_str(), static_cast<unsigned long long>(settings.seed), dir.c_str(),
      resumedNote(a.resume, *cal).c_str());
  std::fflush(stdout);
  cal->run(*ev, &std::cout);
  if (a.sensitivity) cal->computeSensitivity(*ev, &std::cout);
  ev.reset();
  cal->writeSpread();
  reportReplayCalibration(*cal, *problem, dir);
  return kExitOk;
}

bool resumesReplayCalibration(const std::string& resume) {
  if (resume.empty()) return false;
  try {
    return calib::Calibration::readCheckpoint(resume).at("inputs").value("kind", "") == "replay";
  } catch (const std::exception&) {
    return false;  // the resume itself will say what is wrong with the directory
  }
}

Action addCalibrateReplay(CLI::App& app) {
  auto a = std::make_shared<CalibrateReplayArgs>();
  auto& s = a->settings;
  s.optimizer = "cmaes";
  CLI::Option* robot_opt =
      app.add_option("--robot", a->in.robot, "robot (default: the trials', else the BIOLOID)")->capture_default_str();
  app.add_option("--recordings", a->in.recordings, kRecordingsHelp);
  app.add_option("--params", a->in.params, "parameter file applied before the space's values");
  app.add_option("--trials", a->in.trials, "comma-separated globs of the trials used (default all)");
  app.add_option("--holdout", a->in.holdout, "comma-separated globs of the held-out trials (only reported)");
  app.add_option("--space", a->in.space, "parameter space CSV: name,value,lower,upper,frozen[,tie[,scale]]");
  CLI::Option* generations_opt = addSearchOptions(app, s, "children per generation (0: 4 + 3 ln n)");
  app.add_option("--sim-seed", a->in.sim_seed, "SimOptions::seed of every replay")->capture_default_str();
  app.add_option("--settle", a->in.settle_s, "hold the first frame's command this long before the recording starts (s)")
      ->capture_default_str();
  app.add_flag("--no-wall", a->no_wall, "without the authors' wall");
  app.add_flag("!--no-sensitivity", a->sensitivity, "skip the curvature of the training fitness at the result");
  addJobOptions(app, a->backend, a->jobs, a->out, a->resume, a->force);
  return [a, generations_opt, robot_opt] {
    return runReplayCalibration(*a, robot_opt->count() > 0, generations_opt->count() > 0);
  };
}

}  // namespace gapsim::cli
