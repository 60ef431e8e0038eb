// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli calibrate: fit drivetrain/soft parameters to reference logs (calib/calibration.h).
// gapsim-cli twin: write the reference logs of a virtual robot with hidden parameters
// (calib/twin.h) for twin experiments.
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
#include "calib/objective.h"
#include "calib/twin.h"
#include "sim/input_error.h"
#include "sim/parameters.h"

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
  std::string stepper;  // "", quick, big
  std::string f_joints = "all";  // all, motion
  int jobs = 0;
  std::string backend = "processes";
  std::string out, resume;
  bool force = false;
  double max_sim_time_s = kDefaultMaxSimTime_s;
};

std::string absolute(const std::string& p) { return p.empty() ? p : fs::absolute(p).lexically_normal().string(); }

void writeBestLogsAndSummary(const calib::CalibrationProblem& problem, const calib::Calibration& cal) {
  const auto& set = problem.scenarios();
  const Eigen::VectorXd init = problem.space().initialValues();
  std::string csv = "scenario,role,F_initial,F_best,E_initial,E_best,fall_initial_s,fall_best_s\n";
  std::printf("%-16s %-8s %12s %12s %12s %12s\n", "scenario", "role", "F initial", "F best", "E initial", "E best");
  for (std::size_t k = 0; k < set.scenarios.size(); ++k) {
    const auto& sc = set.scenarios[k];
    Log log;
    const calib::ScenarioScore a = problem.runScenario(init, static_cast<int>(k), nullptr);
    const calib::ScenarioScore b = problem.runScenario(cal.bestValues(), static_cast<int>(k), &log);
    if (log.rows() > 0) log.write(cal.outDir() + "/best_" + sc.name + ".csv");
    const char* role = sc.holdout ? "holdout" : "train";
    std::printf("%-16s %-8s %12.5g %12.5g %12.5g %12.5g%s\n", sc.name.c_str(), role, a.F, b.F, a.E, b.E,
                b.error.empty() ? "" : ("  " + b.error).c_str());
    csv += sc.name + "," + role;
    for (double v : {a.F, b.F, a.E, b.E, a.fall_time_s, b.fall_time_s}) csv += "," + sixDigits(v);
    csv += "\n";
  }
  if (problem.hasHoldout()) {
    const double a = problem.evaluate(init, true).fitness, b = problem.evaluate(cal.bestValues(), true).fitness;
    std::printf("held-out fitness: initial %.6g, best %.6g (%+.1f%%)\n", a, b, 100.0 * (b - a) / a);
  }
  calib::writeFileAtomically(cal.outDir() + "/summary.csv", csv);
}

}  // namespace

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
  CLI::Option* generations_opt =
      app.add_option("--generations", s.generations, "generations in total (resuming: default the checkpoint's)")
          ->capture_default_str();
  app.add_option("--lambda", s.lambda, "children per generation (0: CMA-ES 4+3 ln n, ES 800)")->capture_default_str();
  app.add_option("--mu", s.mu, "parents (0: CMA-ES lambda/2, ES 10)")->capture_default_str();
  app.add_option("--kappa", s.kappa, "ES: generations a parent may live (0: infinite = plus selection)")
      ->capture_default_str();
  app.add_option("--rho", s.rho, "ES: parents per child (recombination)")->capture_default_str();
  app.add_option("--sigma0", s.sigma0, "initial step size as a fraction of each parameter's range")->capture_default_str();
  app.add_option("--seed", s.seed, "seed of the optimizer's random numbers")->capture_default_str();
  app.add_option("--ipop", s.ipop_restarts, "CMA-ES: IPOP restarts (population doubles at each)")->capture_default_str();
  app.add_option("--objective", a->objective, "F (MoToFlex joint angles / T^m), E_cali (torso tilt) or sum")
      ->check(CLI::IsMember({"F", "E_cali", "sum"}))
      ->capture_default_str();
  app.add_option("--m", a->m, "exponent m of T in F")->capture_default_str();
  app.add_option("--w-f", a->w_F, "weight of F in the sum")->capture_default_str();
  app.add_option("--w-e", a->w_E, "weight of E_cali in the sum")->capture_default_str();
  app.add_option("--sim-seed", a->sim_seed, "SimOptions::seed of every evaluation")->capture_default_str();
  app.add_option("--stepper", a->stepper, "quick or big (dWorldStep: walks with ideal servos need it); default the "
                                          "robot file's")
      ->check(CLI::IsMember({"quick", "big"}));
  app.add_option("--f-joints", a->f_joints,
                 "joints of F: all (every joint both logs have, as the paper) or motion (only those the "
                 "scenario's motion commands)")
      ->check(CLI::IsMember({"all", "motion"}))
      ->capture_default_str();
  addJobOptions(app, a->backend, a->jobs, a->out, a->resume, a->force);
  addSimTimeOption(app, a->max_sim_time_s);
  return [a, generations_opt] {
    // --- inputs: from the command line, or from the checkpoint when resuming ---
    nlohmann::json inputs;
    calib::CalibrationSettings settings = a->settings;
    if (!a->resume.empty()) {
      settings = resumeCheckpoint(a->resume, generations_opt->count() > 0 ? a->settings.generations : 0, &inputs);
    } else {
      if (a->space.empty() || a->scenarios.empty())
        throw InputError("", 0, "--space/--scenarios", "both are required (or --resume DIR)");
      if (a->out.empty()) throw InputError("", 0, "--out", "a results directory is required");
      inputs = {{"robot", a->robot},         {"params", absolute(a->params)},
                {"space", absolute(a->space)}, {"scenarios", absolute(a->scenarios)},
                {"objective", a->objective}, {"m", a->m},
                {"w_F", a->w_F},             {"w_E", a->w_E},
                {"sim_seed", std::to_string(a->sim_seed)}, {"stepper", a->stepper},
                {"f_joints", a->f_joints}};
    }
    settings.validate();
    RunArgs ra;
    ra.robot = inputs.at("robot").get<std::string>();
    ra.params_file = inputs.at("params").get<std::string>();
    auto model = loadConfiguredModel(ra);
    calib::ParameterSpace space = calib::ParameterSpace::load(inputs.at("space").get<std::string>());
    calib::ScenarioSet set = calib::ScenarioSet::load(inputs.at("scenarios").get<std::string>());
    checkSimulatedTime(set, a->max_sim_time_s, settings.lambda > 0 ? long{settings.lambda} * settings.generations : 0);
    calib::ObjectiveSettings os;
    os.kind = calib::parseObjectiveKind(inputs.at("objective").get<std::string>());
    os.m = inputs.at("m").get<double>();
    os.weight_F = inputs.at("w_F").get<double>();
    os.weight_E = inputs.at("w_E").get<double>();
    os.sim_seed = std::stoull(inputs.at("sim_seed").get<std::string>());
    const std::string stepper = inputs.value("stepper", std::string());  // absent in older checkpoints
    if (!stepper.empty()) os.quickstep = stepper == "quick";
    os.f_motion_joints_only = inputs.value("f_joints", std::string("all")) == "motion";  // absent in older checkpoints
    auto problem = std::make_shared<const calib::CalibrationProblem>(model, space, set, os);
    calib::EvalFunction fn = [problem](const Eigen::VectorXd& v) { return problem->evaluate(v); };

    // --- backend (MPI worker ranks serve and return here) and results directory ---
    CalibrationJob job =
        startCalibrationJob(a->backend, a->jobs, fn, space, settings, a->out, a->resume, a->force, inputs);
    if (job.served) return kExitOk;
    std::unique_ptr<calib::BatchEvaluator>& ev = job.ev;
    std::unique_ptr<calib::Calibration>& cal = job.cal;
    const std::string dir = a->resume.empty() ? a->out : a->resume;
    int train = 0;
    for (const auto& sc : set.scenarios) train += !sc.holdout;
    std::printf("calibrate: %s, %d free dimensions (%zu parameters), %d training + %zu held-out scenarios, "
                "objective %s (m = %g), %s, seed %llu, %s%s\n",
                settings.optimizer.c_str(), space.dimension(), space.entries().size(), train,
                set.scenarios.size() - static_cast<std::size_t>(train), toString(os.kind).c_str(), os.m,
                ev->describe().c_str(), static_cast<unsigned long long>(settings.seed), dir.c_str(),
                resumedNote(a->resume, *cal).c_str());
    std::fflush(stdout);
    cal->run(*ev, &std::cout);
    ev.reset();  // MPI: stop the workers and finalise before the serial epilogue
    cal->writeSpread();
    std::printf("best fitness %.6g (initial %.6g) after %ld evaluations; %s/best.params\n", cal->bestFitness(),
                cal->initialFitness(), cal->optimizer().evaluations(), dir.c_str());
    for (int i = 0; i < space.dimension(); ++i)
      std::printf("  %-32s %.6g (initial %.6g)\n", space.dimensions()[i].label.c_str(), cal->bestValues()[i],
                  space.dimensions()[i].value);
    writeBestLogsAndSummary(*problem, *cal);
    return kExitOk;
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
  return [ra, set_path, out, ts, max_sim_time, force] {
    ra->quiet = true;
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
    claimOutputDir(*out, files, *force);
    for (const auto& p : calib::writeTwinLogs(*model, set, *ts, *out)) std::printf("wrote %s\n", p.c_str());
    std::printf("twin logs are SYNTHETIC: simulated with hidden parameters%s\n",
                ts->imu_noise_rad > 0 || ts->imu_delay_s > 0 ? " and IMU noise/delay" : "");
    return kExitOk;
  };
}

}  // namespace gapsim::cli
