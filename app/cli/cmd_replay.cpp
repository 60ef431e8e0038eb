// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli replay: the trials of a recording manifest (calib/recording_manifest.h; the real
// BIOLOID lean-to-stand package is one) replayed in simulation from their initial poses, the
// measured signals compared with the recordings (calib/recording_replay.h).
// gapsim-cli calibrate-replay: paper 002's calibration, E_cali over the training trials, with the
// calibration loop of calib/calibration.h (CMA-ES, process pool or MPI, checkpoint and --resume).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "app/cli/calibration_job.h"
#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "calib/calibration.h"
#include "calib/evaluator.h"
#include "calib/mpi_evaluator.h"
#include "calib/recording_manifest.h"
#include "calib/recording_replay.h"
#include "calib/replay_commands.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"

namespace gapsim::cli {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& p) { return p.empty() ? p : fs::absolute(p).lexically_normal().string(); }

using calib::motorMapFor;

/// Writes <dir>/<trial>_tilt.csv (time, real and simulated tilt) for one replay.
void writeTilt(const std::string& dir, const std::string& trial, const calib::ReplayResult& r) {
  Log t({"time_s", "torso/tilt_real_rad", "torso/tilt_sim_rad"});
  for (std::size_t k = 0; k < r.time_s.size(); ++k) t.appendRow(std::vector<double>{r.time_s[k], r.tilt_real_rad[k], r.tilt_sim_rad[k]});
  std::string name = trial;
  for (char& c : name)
    if (c == '/') c = '_';
  t.write(dir + "/" + name + "_tilt.csv");
}

constexpr const char* kRecordingsHelp =
    "a recording manifest (a .json file, or a directory holding recordings.json; docs/recordings.md) or the BIOLOID "
    "data package (holds rising/lean-to-stand and motions/)";

/// The robot a trial plays on: --robot when given, else the trial's robot, else the BIOLOID.
std::string robotOf(const calib::ReplayTrial& t, const std::string& cli_robot, bool cli_given) {
  if (cli_given || t.spec.robot.empty()) return cli_robot;
  return t.spec.robot;
}

void checkSettle(double settle_s) {
  if (!(settle_s >= 0 && settle_s <= 10))
    throw InputError("", 0, "--settle", "expected a time in [0, 10] s, got " + std::to_string(settle_s));
}

}  // namespace

Action addReplay(CLI::App& app) {
  auto ra = std::make_shared<RunArgs>();
  ra->robot = "bioloid";
  auto dir = std::make_shared<std::string>();
  auto trials = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto compare = std::make_shared<std::string>();
  auto opt = std::make_shared<calib::ReplayOptions>();
  auto no_wall = std::make_shared<bool>(false);
  auto continuous = std::make_shared<bool>(false);
  CLI::Option* robot_opt =
      app.add_option("--robot", ra->robot, "robot (default: each trial's, else the BIOLOID)")->capture_default_str();
  app.add_option("--recordings", *dir, kRecordingsHelp)->required();
  app.add_option("--params", ra->params_file, "parameter file applied to the robot (e.g. a calibration result)");
  app.add_option("--set", ra->sets, "parameter name=value (repeatable, after --params)");
  app.add_option("--compare", *compare, "a second parameter file: print both RMS columns and the change");
  app.add_option("--trials", *trials, "comma-separated globs of trial names (default all), e.g. '0.0[2468]-*'");
  app.add_option("--out", *out, "write per trial the simulated log and the tilt comparison here");
  addForceOption(app, ra->force);
  app.add_option("--sim-seed", opt->sim_seed, "SimOptions::seed")->capture_default_str();
  app.add_flag("--no-wall", *no_wall, "without the authors' wall behind the robot (default: as the manifest says)");
  CLI::Option* wall_x_opt =
      app.add_option("--wall-x", opt->wall_face_x_m, "x of the wall's front face (m; default: the manifest's)")
          ->capture_default_str();
  app.add_option("--settle", opt->settle_s, "hold the first frame's command this long before the recording starts (s)")
      ->capture_default_str();
  app.add_flag("--continuous-commands", *continuous,
               "command the motion every step, unquantised (default: held at the recorded frames, whole ticks)");
  return [=] {
    ra->quiet = true;
    checkSettle(opt->settle_s);
    calib::ReplaySet set = calib::ReplaySet::load(*dir);
    if (!trials->empty()) set.select(*trials);
    opt->wall = !*no_wall && set.authors_wall;
    if (wall_x_opt->count() == 0) opt->wall_face_x_m = set.wall_face_x_m;
    opt->hold_commands = !*continuous;
    // One model per (robot, trial parameter file): the wall first, so parameter files may move it
    // (scene/wall/x, as calibrate-replay writes), then the trial's, --params and --set.
    struct Models {
      std::shared_ptr<RobotModel> model, other;
      MotorMap map;
    };
    std::map<std::pair<std::string, std::string>, Models> models;
    auto modelsOf = [&](const calib::ReplayTrial& t) -> Models& {
      const auto key = std::make_pair(robotOf(t, ra->robot, robot_opt->count() > 0), t.spec.params);
      auto it = models.find(key);
      if (it != models.end()) return it->second;
      RunArgs bare = *ra;
      bare.robot = key.first;
      bare.params_file.clear();
      bare.sets.clear();
      Models m;
      m.model = loadConfiguredModel(bare);
      if (opt->wall) m.model->scene_boxes.push_back(calib::authorsWall(opt->wall_face_x_m));
      if (!t.spec.params.empty()) loadParameterFile(*m.model, t.spec.params);
      if (!ra->params_file.empty()) loadParameterFile(*m.model, ra->params_file);
      for (const auto& a : ra->sets) setParameterAssignment(*m.model, a);
      if (!compare->empty()) {
        m.other = std::make_shared<RobotModel>(*m.model);
        loadParameterFile(*m.other, *compare);
      }
      m.map = motorMapFor(*m.model);
      for (const auto& u : set.trials)
        if (robotOf(u, ra->robot, robot_opt->count() > 0) == key.first && u.spec.params == key.second)
          calib::checkReplayable(*m.model, u, *opt);  // every bad signal before the first replay
      return models.emplace(key, std::move(m)).first->second;
    };
    const Models& first = modelsOf(set.trials.front());
    claimOutputDir(*out, {}, ra->force);
    std::printf("replay: %zu trials of %s on %s (mass %.4f kg)%s, commands %s\n", set.trials.size(), dir->c_str(),
                first.model->name.c_str(), first.model->totalMass_kg(), opt->wall ? ", wall" : ", no wall",
                opt->hold_commands ? "held as recorded" : "continuous");
    const std::string& headline = set.trials.front().spec.measured.front().column;
    if (headline != "torso/tilt_rad") std::printf("headline signal: %s (rms, E and max in its SI unit)\n", headline.c_str());
    if (!compare->empty()) std::printf("%-24s %6s %9s %9s %9s %8s\n", "trial", "dur_s", "rms_rad", "rms2_rad", "change", "max_sim");
    else std::printf("%-24s %6s %9s %11s %9s %9s\n", "trial", "dur_s", "rms_rad", "E_rad2_s", "max_real", "max_sim");
    double sumE = 0, sumE2 = 0, sum_rms = 0, sum_rms2 = 0;
    int failed = 0;
    for (const auto& t : set.trials) {
      const Models& m = modelsOf(t);
      Log log;
      const calib::ReplayResult r = calib::replayTrial(*m.model, t, m.map, *opt, out->empty() ? nullptr : &log);
      if (!r.error.empty()) {
        std::printf("%-24s %s\n", t.name.c_str(), r.error.c_str());
        ++failed;
        continue;
      }
      double max_real = 0;
      for (double a : r.tilt_real_rad) max_real = std::max(max_real, a);
      double max_sim = r.max_tilt_sim_rad;
      if (r.headline != "torso/tilt_rad") {  // the max of the headline signal itself
        max_sim = 0;
        for (double a : r.tilt_sim_rad) max_sim = std::max(max_sim, a);
      }
      sumE += r.E_rad2_s;
      sum_rms += r.rms_rad;
      char dur[16];
      if (t.step_duration_s >= 0) std::snprintf(dur, sizeof dur, "%6.2f", t.step_duration_s);
      else std::snprintf(dur, sizeof dur, "%6s", "-");
      if (m.other) {
        const calib::ReplayResult r2 = calib::replayTrial(*m.other, t, m.map, *opt);
        sumE2 += r2.E_rad2_s;
        sum_rms2 += r2.rms_rad;
        std::printf("%-24s %s %9.4f %9.4f %+8.1f%% %8.3f\n", t.name.c_str(), dur, r.rms_rad, r2.rms_rad,
                    100.0 * (r2.rms_rad - r.rms_rad) / r.rms_rad, r2.max_tilt_sim_rad);
      } else {
        std::printf("%-24s %s %9.4f %11.5g %9.3f %9.3f\n", t.name.c_str(), dur, r.rms_rad, r.E_rad2_s, max_real, max_sim);
      }
      if (!out->empty()) {
        std::string name = t.name;
        for (char& c : name)
          if (c == '/') c = '_';
        log.write(*out + "/" + name + "_sim.csv");
        writeTilt(*out, t.name, r);
      }
    }
    const int n = static_cast<int>(set.trials.size()) - failed;
    if (n > 0) {
      std::printf("mean tilt rms %.4f rad, E_cali %.6g rad^2 s over %d trials\n", sum_rms / n, sumE / n, n);
      if (!compare->empty())
        std::printf("with %s: mean tilt rms %.4f rad (%+.1f%%), E_cali %.6g rad^2 s\n", compare->c_str(), sum_rms2 / n,
                    100.0 * (sum_rms2 - sum_rms) / sum_rms, sumE2 / n);
    }
    return failed ? kExitDivergence : kExitOk;
  };
}

Action addCalibrateReplay(CLI::App& app) {
  struct Args {
    RunArgs ra;
    std::string dir, trials, holdout, space, out, resume, backend = "processes";
    calib::CalibrationSettings settings;
    calib::ReplayOptions opt;
    int jobs = 0;
    bool force = false, no_wall = false;
  };
  auto a = std::make_shared<Args>();
  a->ra.robot = "bioloid";
  auto& s = a->settings;
  CLI::Option* robot_opt =
      app.add_option("--robot", a->ra.robot, "robot (default: the trials', else the BIOLOID)")->capture_default_str();
  app.add_option("--recordings", a->dir, kRecordingsHelp);
  app.add_option("--params", a->ra.params_file, "parameter file applied before the space's values");
  app.add_option("--trials", a->trials, "comma-separated globs of the trials used (default all)");
  app.add_option("--holdout", a->holdout, "comma-separated globs of the held-out trials (only reported)");
  app.add_option("--space", a->space, "parameter space CSV: name,value,lower,upper,frozen[,tie[,scale]]");
  CLI::Option* generations_opt =
      app.add_option("--generations", s.generations, "generations in total (resuming: default the checkpoint's)")
          ->capture_default_str();
  app.add_option("--lambda", s.lambda, "children per generation (0: 4 + 3 ln n)")->capture_default_str();
  app.add_option("--sigma0", s.sigma0, "initial step size as a fraction of each parameter's range")->capture_default_str();
  app.add_option("--seed", s.seed, "seed of the optimizer's random numbers")->capture_default_str();
  app.add_option("--sim-seed", a->opt.sim_seed, "SimOptions::seed of every replay")->capture_default_str();
  app.add_option("--settle", a->opt.settle_s, "hold the first frame's command this long before the recording starts (s)")
      ->capture_default_str();
  app.add_flag("--no-wall", a->no_wall, "without the authors' wall");
  addJobOptions(app, a->backend, a->jobs, a->out, a->resume, a->force);
  return [a, generations_opt, robot_opt] {
    nlohmann::json inputs;
    calib::CalibrationSettings settings = a->settings;
    settings.optimizer = "cmaes";
    if (!a->resume.empty()) {
      settings = resumeCheckpoint(a->resume, generations_opt->count() > 0 ? a->settings.generations : 0, &inputs);
      if (inputs.value("kind", "") != "replay")
        throw InputError(a->resume + "/checkpoint.json", 0, "inputs", "not a calibrate-replay checkpoint");
    } else {
      if (a->dir.empty() || a->space.empty())
        throw InputError("", 0, "--recordings/--space", "both are required (or --resume DIR)");
      if (a->out.empty()) throw InputError("", 0, "--out", "a results directory is required");
      // The robot: --robot, else the one every trial names (a calibration fits one model).
      std::string robot = a->ra.robot;
      if (robot_opt->count() == 0) {
        const calib::RecordingManifest m = calib::loadRecordings(a->dir);
        std::string named;
        for (const auto& t : m.trials) {
          if (t.robot.empty()) continue;
          if (!named.empty() && t.robot != named)
            throw InputError(m.source, t.line, "robot",
                             "'" + t.robot + "': the trials name different robots (" + named +
                                 "); calibrate one robot at a time (--trials) or give --robot");
          named = t.robot;
        }
        if (!named.empty()) robot = named;
      }
      inputs = {{"kind", "replay"},
                {"robot", robot},
                {"params", absolute(a->ra.params_file)},
                {"recordings", absolute(a->dir)},
                {"trials", a->trials},
                {"holdout", a->holdout},
                {"space", absolute(a->space)},
                {"wall", !a->no_wall},
                {"sim_seed", std::to_string(a->opt.sim_seed)},
                {"settle_s", a->opt.settle_s}};
    }
    settings.validate();
    RunArgs ra;
    ra.quiet = true;
    ra.robot = inputs.at("robot").get<std::string>();
    ra.params_file = inputs.at("params").get<std::string>();
    const auto model = loadConfiguredModel(ra);
    calib::ParameterSpace space = calib::ParameterSpace::load(inputs.at("space").get<std::string>());
    calib::ReplaySet set = calib::ReplaySet::load(inputs.at("recordings").get<std::string>());
    if (!inputs.at("trials").get<std::string>().empty()) set.select(inputs.at("trials").get<std::string>());
    if (!inputs.at("holdout").get<std::string>().empty()) set.markHoldout(inputs.at("holdout").get<std::string>());
    // Trials of role test are kept out of the calibration (train fits, validate is reported).
    std::erase_if(set.trials, [](const calib::ReplayTrial& t) { return t.spec.role == "test"; });
    for (const auto& t : set.trials)
      if (!t.spec.params.empty() && ra.params_file.empty())
        throw InputError(t.spec.recording, 0, "params",
                         "'" + t.spec.params + "': give the trials' parameter file as --params (one model is calibrated)");
    if (set.count(false) == 0) throw InputError("", 0, "--holdout", "every trial is held out: nothing to train on");
    calib::ReplayOptions opt;
    opt.wall = inputs.at("wall").get<bool>() && set.authors_wall;
    opt.wall_face_x_m = set.wall_face_x_m;
    opt.sim_seed = std::stoull(inputs.at("sim_seed").get<std::string>());
    opt.settle_s = inputs.value("settle_s", 0.0);  // checkpoints before --settle existed: none
    checkSettle(opt.settle_s);
    auto problem = std::make_shared<const calib::ReplayProblem>(model, space, set, motorMapFor(*model), opt);
    calib::EvalFunction fn = [problem](const Eigen::VectorXd& v) { return problem->evaluate(v); };

    // --- backend (MPI worker ranks serve and return here) and results directory ---
    CalibrationJob job =
        startCalibrationJob(a->backend, a->jobs, fn, space, settings, a->out, a->resume, a->force, inputs);
    if (job.served) return kExitOk;
    std::unique_ptr<calib::BatchEvaluator>& ev = job.ev;
    std::unique_ptr<calib::Calibration>& cal = job.cal;
    const std::string dir = a->resume.empty() ? a->out : a->resume;
    std::printf("calibrate-replay: cmaes, %d free dimensions, %d training + %d held-out trials, objective E_cali "
                "(torso tilt), %s, seed %llu, %s%s\n",
                space.dimension(), set.count(false), set.count(true), ev->describe().c_str(),
                static_cast<unsigned long long>(settings.seed), dir.c_str(),
                resumedNote(a->resume, *cal).c_str());
    std::fflush(stdout);
    cal->run(*ev, &std::cout);
    ev.reset();
    cal->writeSpread();
    std::printf("best E_cali %.6g (initial %.6g) after %ld evaluations; %s/best.params\n", cal->bestFitness(),
                cal->initialFitness(), cal->optimizer().evaluations(), dir.c_str());
    for (int i = 0; i < space.dimension(); ++i)
      std::printf("  %-32s %.6g (initial %.6g)\n", space.dimensions()[i].label.c_str(), cal->bestValues()[i],
                  space.dimensions()[i].value);
    // Per trial: tilt RMS before (the space's initial values) and after, and the held-out summary.
    const Eigen::VectorXd init = space.initialValues();
    std::string csv = "trial,role,rms_initial_rad,rms_best_rad,E_initial_rad2_s,E_best_rad2_s\n";
    std::printf("%-24s %-8s %12s %12s %8s\n", "trial", "role", "rms initial", "rms best", "change");
    double sum[2][2] = {{0, 0}, {0, 0}};
    int n[2] = {0, 0};
    for (std::size_t k = 0; k < set.trials.size(); ++k) {
      const auto& t = set.trials[k];
      const calib::ReplayResult r0 = problem->runTrial(init, static_cast<int>(k));
      const calib::ReplayResult r1 = problem->runTrial(cal->bestValues(), static_cast<int>(k));
      const char* role = t.holdout ? "holdout" : "train";
      std::printf("%-24s %-8s %12.4f %12.4f %+7.1f%%\n", t.name.c_str(), role, r0.rms_rad, r1.rms_rad,
                  100.0 * (r1.rms_rad - r0.rms_rad) / r0.rms_rad);
      char line[256];
      std::snprintf(line, sizeof line, "%s,%s,%.6g,%.6g,%.6g,%.6g\n", t.name.c_str(), role, r0.rms_rad, r1.rms_rad,
                    r0.E_rad2_s, r1.E_rad2_s);
      csv += line;
      sum[t.holdout][0] += r0.rms_rad;
      sum[t.holdout][1] += r1.rms_rad;
      ++n[t.holdout];
    }
    for (int h = 0; h < 2; ++h)
      if (n[h] > 0)
        std::printf("%s: mean tilt rms %.4f -> %.4f rad (%+.1f%%) over %d trials\n", h ? "held-out" : "training",
                    sum[h][0] / n[h], sum[h][1] / n[h], 100.0 * (sum[h][1] - sum[h][0]) / sum[h][0], n[h]);
    calib::writeFileAtomically(cal->outDir() + "/summary.csv", csv);
    return kExitOk;
  };
}

}  // namespace gapsim::cli
