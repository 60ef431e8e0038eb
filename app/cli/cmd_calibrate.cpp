// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli calibrate: fit drivetrain/soft parameters to reference logs (calib/calibration.h).
// gapsim-cli twin: write the reference logs of a virtual robot with hidden parameters
// (calib/twin.h) for twin experiments.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "app/cli/calibrate_replay.h"
#include "app/cli/calibration_job.h"
#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "calib/calibration.h"
#include "calib/evaluator.h"
#include "calib/mpi_evaluator.h"
#include "calib/objective.h"
#include "calib/twin.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/reality.h"

namespace gapsim::cli {

namespace {

namespace fs = std::filesystem;

struct CalibrateArgs {
  std::string robot = "nao";
  std::string params;  // base parameter file applied before the space
  std::string space, scenarios;
  calib::CalibrationSettings settings;
  std::string objective = "F";
  double m = 5.0, w_F = 1.0, w_E = 1.0;
  std::uint64_t sim_seed = 0;
  std::string stepper;           // "", quick, big
  std::string f_joints = "all";  // all, motion
  int jobs = 0;
  std::string backend = "processes";
  std::string out, resume;
  bool force = false;
  double max_sim_time_s = kDefaultMaxSimTime_s;
  double prior_weight = 0.0;
  bool sensitivity = true;  // the curvature of the training fitness at the result (2n + 1 evaluations)
  // Recorded trials instead of a scenario set (calibrate_replay.h).
  std::string recordings, trials, holdout;
  double settle_s = 0.0;
  bool no_wall = false;
  double resync_horizon_s = calib::ObjectiveSettings{}.resync_horizon_s;
  double w1_settle_s = calib::ObjectiveSettings{}.w1_settle_s;
};

void writeBestLogsAndSummary(const calib::CalibrationProblem& problem, const calib::Calibration& cal) {
  const auto& set = problem.scenarios();
  const Eigen::VectorXd init = problem.space().initialValues();
  const Eigen::VectorXd& best = cal.resultValues();  // the validation best when there is validation
  std::string csv = "scenario,role,F_initial,F_best,E_initial,E_best,fall_initial_s,fall_best_s\n";
  std::printf("%-16s %-8s %12s %12s %12s %12s\n", "scenario", "role", "F initial", "F best", "E initial", "E best");
  for (std::size_t k = 0; k < set.scenarios.size(); ++k) {
    const auto& sc = set.scenarios[k];
    Log log;
    const calib::ScenarioScore a = problem.runScenario(init, static_cast<int>(k), nullptr);
    const calib::ScenarioScore b = problem.runScenario(best, static_cast<int>(k), &log);
    if (log.rows() > 0) calib::writeFileAtomically(cal.outDir() + "/best_" + sc.name + ".csv", log.toCsv());
    const std::string role = calib::toString(calib::subsetOf(sc));
    std::printf("%-16s %-8s %12.5g %12.5g %12.5g %12.5g%s\n", sc.name.c_str(), role.c_str(), a.F, b.F, a.E, b.E,
                b.error.empty() ? "" : ("  " + b.error).c_str());
    csv += sc.name + "," + role;
    for (double v : {a.F, b.F, a.E, b.E, a.fall_time_s, b.fall_time_s}) csv += "," + sixDigits(v);
    csv += "\n";
  }
  using calib::ScenarioSubset;
  if (problem.hasValidation()) {
    const double a = problem.evaluate(init, ScenarioSubset::Validate).fitness;
    const double b = problem.evaluate(best, ScenarioSubset::Validate).fitness;
    std::printf("validation fitness: initial %.6g, best %.6g (%+.1f%%)\n", a, b, 100.0 * (b - a) / a);
  }
  if (problem.hasHoldout()) {
    const double a = problem.evaluate(init, ScenarioSubset::Holdout).fitness;
    const double b = problem.evaluate(best, ScenarioSubset::Holdout).fitness;
    std::printf("held-out fitness: initial %.6g, best %.6g (%+.1f%%)\n", a, b, 100.0 * (b - a) / a);
  }
  calib::writeFileAtomically(cal.outDir() + "/summary.csv", csv);
}

/// Per free dimension: how far it moved and how well the data determine it (parameters.csv).
void printParameterTable(const calib::Calibration& cal) {
  const auto& space = cal.space();
  const Eigen::MatrixXd C = cal.optimizer().searchCovariance();
  const Eigen::VectorXd& v = cal.resultValues();
  const auto& fd = cal.sensitivity();
  std::printf("%-32s %12s %12s %9s %10s %10s %-10s", "parameter", "initial", "result", "moved", "std/range",
              "std/sigma0", " by spread");
  if (!fd.empty()) std::printf(" %9s %10s  %s", "rise@5%", "half-width", "by curvature, alone");
  std::printf("\n");
  for (int i = 0; i < space.dimension(); ++i) {
    const auto& d = space.dimensions()[static_cast<std::size_t>(i)];
    const double sd = std::sqrt(std::max(0.0, C(i, i))), shrink = sd / cal.settings().sigma0;
    std::printf("%-32s %12.6g %12.6g %+8.1f%% %10.3g %10.3g %-10s", d.label.c_str(), d.value, v[i],
                d.value != 0 ? 100.0 * (v[i] - d.value) / std::abs(d.value) : 0.0, sd, shrink,
                shrink <= 0.5 ? " well" : " weak");
    if (!fd.empty()) {
      const calib::AxisSensitivity& a = fd[static_cast<std::size_t>(i)];
      std::printf(" %+8.1f%% %10.3g  %s", 100 * a.rise_relative, a.halfwidth, a.well ? "well" : "weak");
    }
    std::printf("\n");
  }
  std::printf("condition number of the search covariance: %.3g (%s/parameters.csv, parameters.json)\n",
              cal.conditionNumber(), cal.outDir().c_str());
}

}  // namespace

namespace {

/// The run's inputs: from the command line, or from the checkpoint when resuming (which also
/// gives the settings, with --generations raised if the user gives it).
nlohmann::json calibrationInputs(const CalibrateArgs& a, const CLI::Option* generations_opt,
                                 calib::CalibrationSettings& settings) {
  if (!a.resume.empty()) {
    nlohmann::json inputs;
    settings = resumeCheckpoint(a.resume, generations_opt->count() > 0 ? a.settings.generations : 0, &inputs);
    return inputs;
  }
  if (a.space.empty() || a.scenarios.empty())
    throw InputError("", 0, "--space/--scenarios", "both are required (or --resume DIR)");
  if (a.out.empty()) throw InputError("", 0, "--out", "a results directory is required");
  return {{"robot", a.robot},
          {"params", absolutePath(a.params)},
          {"space", absolutePath(a.space)},
          {"scenarios", absolutePath(a.scenarios)},
          {"objective", a.objective},
          {"m", a.m},
          {"w_F", a.w_F},
          {"w_E", a.w_E},
          {"sim_seed", std::to_string(a.sim_seed)},
          {"stepper", a.stepper},
          {"f_joints", a.f_joints},
          {"prior_weight", a.prior_weight},
          {"resync_horizon_s", a.resync_horizon_s},
          {"w1_settle_s", a.w1_settle_s}};
}

/// The objective as the inputs state it; keys that older checkpoints lack take their defaults.
calib::ObjectiveSettings objectiveSettings(const nlohmann::json& inputs) {
  calib::ObjectiveSettings os;
  os.kind = calib::parseObjectiveKind(inputs.at("objective").get<std::string>());
  os.m = inputs.at("m").get<double>();
  os.weight_F = inputs.at("w_F").get<double>();
  os.weight_E = inputs.at("w_E").get<double>();
  os.sim_seed = std::stoull(inputs.at("sim_seed").get<std::string>());
  const std::string stepper = inputs.value("stepper", std::string());
  if (!stepper.empty()) os.quickstep = stepper == "quick";
  os.f_motion_joints_only = inputs.value("f_joints", std::string("all")) == "motion";
  os.prior_weight = inputs.value("prior_weight", 0.0);
  os.resync_horizon_s = inputs.value("resync_horizon_s", os.resync_horizon_s);
  os.w1_settle_s = inputs.value("w1_settle_s", os.w1_settle_s);
  calib::validateObjectiveSettings(os);
  return os;
}

/// The closing lines: the best parameters (by validation when there is one) and the warnings.
void printOutcome(const calib::Calibration& cal, const std::string& dir) {
  if (cal.hasValidation()) {
    std::printf(
        "early stopping: best.params = the training best of generation %d, best validation fitness %.6g "
        "(initial %.6g); training best %.6g (initial %.6g) in best_train.params, after %ld evaluations; %s\n",
        cal.bestValidationGeneration(), cal.bestValidationFitness(), cal.validationHistory().front().validation,
        cal.bestFitness(), cal.initialFitness(), cal.optimizer().evaluations(), dir.c_str());
    if (!cal.warnings().empty())
      std::printf("%zu warning(s): validation rose while training fell (%s/warnings.txt)\n", cal.warnings().size(),
                  dir.c_str());
  } else {
    std::printf("best fitness %.6g (initial %.6g) after %ld evaluations; %s/best.params\n", cal.bestFitness(),
                cal.initialFitness(), cal.optimizer().evaluations(), dir.c_str());
  }
}

/// The objective's own setting for the opening line: F's exponent, resync's horizon, gait_w1's settle time.
std::string objectiveDetail(const calib::ObjectiveSettings& os) {
  if (os.kind == calib::ObjectiveKind::Resync) return "H = " + sixDigits(os.resync_horizon_s) + " s";
  if (os.kind == calib::ObjectiveKind::GaitW1) return "settle " + sixDigits(os.w1_settle_s) + " s";
  char m[32];
  std::snprintf(m, sizeof m, "m = %g", os.m);
  return m;
}

/// What `gapsim-cli calibrate` does once its options are parsed.
int runCalibrate(const std::shared_ptr<CalibrateArgs>& a, const CLI::Option* generations_opt) {
  calib::CalibrationSettings settings = a->settings;
  const nlohmann::json inputs = calibrationInputs(*a, generations_opt, settings);
  const calib::ObjectiveSettings os = objectiveSettings(inputs);  // refuses bad values before any loading
  settings.validate();
  RunArgs ra;
  ra.robot = inputs.at("robot").get<std::string>();
  ra.params_file = inputs.at("params").get<std::string>();
  auto model = loadConfiguredModel(ra);
  calib::ParameterSpace space = calib::ParameterSpace::load(inputs.at("space").get<std::string>());
  calib::ScenarioSet set = calib::ScenarioSet::load(inputs.at("scenarios").get<std::string>());
  checkSimulatedTime(set, a->max_sim_time_s, settings.lambda > 0 ? long{settings.lambda} * settings.generations : 0);
  auto problem = std::make_shared<const calib::CalibrationProblem>(model, space, set, os);
  calib::EvalFunction fn = [problem](const Eigen::VectorXd& v) { return problem->evaluate(v); };

  // --- backend (MPI worker ranks serve and return here) and results directory ---
  CalibrationJob job =
      startCalibrationJob(a->backend, a->jobs, fn, space, settings, a->out, a->resume, a->force, inputs);
  if (job.served) return kExitOk;
  std::unique_ptr<calib::BatchEvaluator>& ev = job.ev;
  std::unique_ptr<calib::Calibration>& cal = job.cal;
  const std::string dir = a->resume.empty() ? a->out : a->resume;
  int train = 0, validate = 0;
  for (const auto& sc : set.scenarios) {
    train += !sc.holdout;
    validate += sc.validate;
  }
  // Validation runs in this process after each improving generation (one scenario-set evaluation).
  if (problem->hasValidation())
    cal->setValidation(
        [problem](const Eigen::VectorXd& v) { return problem->evaluate(v, calib::ScenarioSubset::Validate); });
  std::printf(
      "calibrate: %s, %d free dimensions (%zu parameters), %d training + %d validation + %zu held-out "
      "scenarios, objective %s (%s)%s, %s, seed %llu, %s%s\n",
      settings.optimizer.c_str(), space.dimension(), space.entries().size(), train, validate,
      set.scenarios.size() - static_cast<std::size_t>(train + validate), toString(os.kind).c_str(),
      objectiveDetail(os).c_str(), os.prior_weight > 0 ? (", prior weight " + sixDigits(os.prior_weight)).c_str() : "",
      ev->describe().c_str(), static_cast<unsigned long long>(settings.seed), dir.c_str(),
      resumedNote(a->resume, *cal).c_str());
  std::fflush(stdout);
  cal->run(*ev, &std::cout);
  if (a->sensitivity) cal->computeSensitivity(*ev, &std::cout);
  ev.reset();  // MPI: stop the workers and finalise before the serial epilogue
  cal->writeSpread();
  printOutcome(*cal, dir);
  printParameterTable(*cal);
  writeBestLogsAndSummary(*problem, *cal);
  return kExitOk;
}

}  // namespace

/// Long on purpose: the command's options as one table, an option per statement in the order
/// `--help` lists them.
Action addCalibrate(CLI::App& app) {
  auto a = std::make_shared<CalibrateArgs>();
  auto& s = a->settings;
  app.add_option("--robot", a->robot, "robot to calibrate")->capture_default_str();
  app.add_option("--params", a->params, "parameter file applied to the robot before the space's values");
  app.add_option("--space", a->space, "parameter space CSV: name,value,lower,upper,frozen[,tie[,scale]]");
  app.add_option("--scenarios", a->scenarios, "scenario set CSV: name,motion,reference,duration_s[,weight[,role]]");
  app.add_option("--optimizer", s.optimizer, "cmaes or es ((mu,kappa,lambda)-ES)")
      ->check(CLI::IsMember({"cmaes", "es"}))
      ->capture_default_str();
  CLI::Option* generations_opt = addSearchOptions(app, s, "children per generation (0: CMA-ES 4+3 ln n, ES 800)");
  app.add_option("--mu", s.mu, "parents (0: CMA-ES lambda/2, ES 10)")->capture_default_str();
  app.add_option("--kappa", s.kappa, "ES: generations a parent may live (0: infinite = plus selection)")
      ->capture_default_str();
  app.add_option("--rho", s.rho, "ES: parents per child (recombination)")->capture_default_str();
  app.add_option("--ipop", s.ipop_restarts, "CMA-ES: IPOP restarts (population doubles at each)")
      ->capture_default_str();
  app.add_option(
         "--objective", a->objective,
         "F (MoToFlex joint angles / T^m), E_cali (torso tilt), sum, resync (joint-angle RMS re-synchronised to "
         "the log every --resync-horizon) or gait_w1 (joint-angle distributions, Wasserstein-1)")
      ->check(CLI::IsMember({"F", "E_cali", "sum", "resync", "gait_w1"}))
      ->capture_default_str();
  app.add_option("--resync-horizon", a->resync_horizon_s,
                 "resync: seconds simulated from each re-synchronisation to the log")
      ->capture_default_str();
  app.add_option("--w1-settle", a->w1_settle_s, "gait_w1: seconds at the start left out of both distributions")
      ->capture_default_str();
  app.add_option("--m", a->m, "exponent m of T in F")->capture_default_str();
  app.add_option("--w-f", a->w_F, "weight of F in the sum")->capture_default_str();
  app.add_option("--w-e", a->w_E, "weight of E_cali in the sum")->capture_default_str();
  app.add_option("--sim-seed", a->sim_seed, "SimOptions::seed of every evaluation")->capture_default_str();
  app.add_option("--stepper", a->stepper,
                 "quick or big (dWorldStep: walks with ideal servos need it); default the "
                 "robot file's")
      ->check(CLI::IsMember({"quick", "big"}));
  app.add_option("--f-joints", a->f_joints,
                 "joints of F: all (every joint both logs have, as the paper) or motion (only those the "
                 "scenario's motion commands)")
      ->check(CLI::IsMember({"all", "motion"}))
      ->capture_default_str();
  app.add_option("--prior-weight", a->prior_weight,
                 "regularisation toward the space file's values: + W |y - y0|^2 on the training fitness, y in units "
                 "of each parameter's range")
      ->capture_default_str();
  app.add_flag("!--no-sensitivity", a->sensitivity,
               "skip the curvature of the training fitness at the result (2n + 1 evaluations after the last "
               "generation; parameters.csv then says '-')");
  addJobOptions(app, a->backend, a->jobs, a->out, a->resume, a->force);
  addSimTimeOption(app, a->max_sim_time_s);
  // Recorded trials (a recording manifest, docs/recordings.md) instead of --scenarios: E_cali on
  // the headline signal of each training trial, as calibrate-replay.
  CLI::Option* recordings_opt = app.add_option("--recordings", a->recordings,
                                               "recording manifest (or the BIOLOID data package) to calibrate "
                                               "against instead of --scenarios: E_cali over its training trials");
  app.add_option("--trials", a->trials, "with --recordings: comma-separated globs of the trials used (default all)");
  app.add_option("--holdout", a->holdout, "with --recordings: globs of the held-out trials (only reported)");
  app.add_option("--settle", a->settle_s, "with --recordings: hold the first command this long first (s)")
      ->capture_default_str();
  app.add_flag("--no-wall", a->no_wall, "with --recordings: without the authors' wall");
  recordings_opt->excludes(app.get_option("--scenarios"));
  return [a, generations_opt, &app] {
    const bool on_recordings = !a->recordings.empty() || resumesReplayCalibration(a->resume);
    if (!on_recordings) {
      for (const char* o : {"--trials", "--holdout", "--settle", "--no-wall"})
        if (app.get_option(o)->count() > 0)
          throw InputError("", 0, o, "belongs to a calibration on recorded trials (--recordings)");
      return runCalibrate(a, generations_opt);
    }
    // The scenario set's objective options have no meaning on recorded trials: refuse, not ignore.
    for (const char* o : {"--objective", "--m", "--w-f", "--w-e", "--stepper", "--f-joints", "--prior-weight",
                          "--resync-horizon", "--w1-settle"})
      if (app.get_option(o)->count() > 0)
        throw InputError("", 0, o, "applies to --scenarios; a calibration on recorded trials fits E_cali");
    CalibrateReplayArgs r;
    if (app.get_option("--robot")->count() > 0) r.in.robot = a->robot;
    r.in.params = a->params;
    r.in.recordings = a->recordings;
    r.in.trials = a->trials;
    r.in.holdout = a->holdout;
    r.in.space = a->space;
    r.in.sim_seed = a->sim_seed;
    r.in.settle_s = a->settle_s;
    r.no_wall = a->no_wall;
    r.settings = a->settings;
    r.out = a->out;
    r.resume = a->resume;
    r.backend = a->backend;
    r.jobs = a->jobs;
    r.force = a->force;
    r.sensitivity = a->sensitivity;
    return runReplayCalibration(r, app.get_option("--robot")->count() > 0, generations_opt->count() > 0);
  };
}

Action addTwin(CLI::App& app) {
  auto ra = std::make_shared<RunArgs>();
  auto set_path = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto ts = std::make_shared<calib::TwinSettings>();
  auto max_sim_time = std::make_shared<double>(kDefaultMaxSimTime_s);
  auto force = std::make_shared<bool>(false);
  app.add_option("--robot", ra->robot, "robot")->capture_default_str();
  app.add_option("--params", ra->params_file, "the hidden parameter set (parameter file, name,value[,...])");
  app.add_option("--set", ra->sets, "hidden parameter name=value (repeatable, after --params)");
  app.add_option("--scenarios", *set_path, "scenario set: its motions are run, its reference logs written")->required();
  app.add_option("--out", *out, "directory of the logs (required: twin never writes into the set it reads)");
  addForceOption(app, *force);
  app.add_option("--imu-noise", ts->imu_noise_rad, "IMU noise standard deviation (rad, rad/s)")->capture_default_str();
  app.add_option("--imu-delay", ts->imu_delay_s, "IMU delay (s)")->capture_default_str();
  app.add_option("--noise-seed", ts->noise_seed, "seed of the noise")->capture_default_str();
  app.add_option("--sim-seed", ts->sim_seed, "SimOptions::seed")->capture_default_str();
  app.add_option("--log-period", ts->log_period_s, "sample period (s)")->capture_default_str();
  app.add_option("--stepper", ra->stepper, "quick or big (dWorldStep); default the robot file's")
      ->check(CLI::IsMember({"quick", "big"}));
  addSimTimeOption(app, *max_sim_time);
  // The twin's reality effects (sim/reality.h), all off by default.
  auto mass_offsets = std::make_shared<std::string>();
  auto com_offsets = std::make_shared<std::string>();
  RealityEffects& re = ts->reality;
  // The scalar effects' options, units and meanings come from their one table (sim/reality.h).
  for (const RealityScalar& r : realityScalars())
    app.add_option(r.option, re.*r.field, std::string("reality: ") + r.meaning + " (" + r.unit + ")")
        ->capture_default_str();
  app.add_option("--mass-offset", *mass_offsets, "reality: link=kg[;link=kg...] added to link masses");
  app.add_option("--com-offset", *com_offsets, "reality: link=x:y:z[;...] COM shifts in the link frame (m)");
  app.add_option("--mass-seed", re.mass_seed, "reality: seed of the mass jitter")->capture_default_str();
  return [ra, set_path, out, ts, max_sim_time, force, mass_offsets, com_offsets] {
    ra->quiet = true;
    ts->reality.mass_offset_kg = parseLinkValues(*mass_offsets, "--mass-offset");
    ts->reality.com_offset_m = parseLinkVectors(*com_offsets, "--com-offset");
    ts->reality.validate();
    if (!ra->stepper.empty()) ts->quickstep = ra->stepper == "quick";
    const auto model = loadConfiguredModel(*ra);
    const auto set = calib::ScenarioSet::load(*set_path, false);
    if (out->empty())
      throw InputError(set.source, 0, "--out",
                       "give the directory to write the reference logs into: twin never writes into the scenario set "
                       "it reads (to regenerate the set's own logs, give their directory and --force)");
    // The logs are named as the references: each must be a name of its own that can be written,
    // said with the set's line before any scenario runs.
    std::vector<std::string> files;
    std::map<std::string, int> line_of;
    for (const auto& sc : set.scenarios) {
      const std::string name = fs::path(sc.reference_path).filename().string();
      if (name.empty() || name == "." || name == ".." || name.size() > 255)
        throw InputError(set.source, sc.line, "reference",
                         "'" + name.substr(0, 40) + (name.size() > 40 ? "...'" : "'") +
                             " is not a file name the twin can write (1 to 255 characters)");
      if (!line_of.emplace(name, sc.line).second)
        throw InputError(set.source, sc.line, "reference",
                         "the log '" + name + "' is written for line " + std::to_string(line_of[name]) + " already");
      files.push_back(name);
    }
    checkSimulatedTime(set, *max_sim_time, 0, true);
    // Link names are checked before the output directory is claimed.
    if (ts->reality.changesModel()) applyRealityToModel(*model, ts->reality);
    claimOutputDir(*out, files, *force);
    for (const auto& p : calib::writeTwinLogs(*model, set, *ts, *out)) std::printf("wrote %s\n", p.c_str());
    std::printf("twin logs are SYNTHETIC: simulated with hidden parameters%s%s\n",
                ts->imu_noise_rad > 0 || ts->imu_delay_s > 0 ? " and IMU noise/delay" : "",
                ts->reality.any() ? ", and reality effects outside the model:" : "");
    std::printf("%s", ts->reality.describe().c_str());
    return kExitOk;
  };
}

}  // namespace gapsim::cli
