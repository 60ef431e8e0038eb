// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli optimize-controller: CMA-ES over the keyframes of a BIOLOID rising controller
// (paper 001) with the calibration layer's parallel evaluation and checkpoints.
// gapsim-cli rise: play a controller file on a rising task and write the log.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli/calibration_job.h"
#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "calib/calibration.h"
#include "calib/controller_optimization.h"
#include "calib/evaluator.h"
#include "sim/input_error.h"
#include "sim/plausible.h"
#include "sim/rising_task.h"

namespace gapsim::cli {

namespace {

namespace fs = std::filesystem;

void printResult(const char* what, const RiseResult& r) {
  if (r.diverged) {
    std::printf("%s: diverged: %s\n", what, r.error.c_str());
    return;
  }
  std::printf(
      "%s: V_ctrl %.6g over T + 1 = %.4g s; at T + 1 tilt %.4f rad, torso height %.4f m, max tilt %.4f rad: %s\n", what,
      r.V_ctrl, r.T_s + 1.0, r.tilt_end_rad, r.height_end_m, r.max_tilt_rad, r.upright ? "UPRIGHT" : "NOT upright");
}

struct OptimizeArgs {
  std::string robot = "bioloid";
  std::string task;
  int keyframes = 0;  // 0: the task's default
  calib::CalibrationSettings settings;
  int workers = 0;
  std::string init, out, dir, resume;
  std::uint64_t sim_seed = 0;
  bool force = false;
};

/// Default keyframe count (the final standing pose included): two for leaning and sitting, three
/// for kneeling (which has to pass through a squat: the authors' kneel controller has three too).
int defaultKeyframes(const std::string& task) { return task == "kneel" ? 3 : 2; }

}  // namespace

namespace {

/// What `gapsim-cli optimize-controller` does once its options are parsed.
int runOptimizeController(const std::shared_ptr<OptimizeArgs>& a, const CLI::Option* gen_opt) {
  nlohmann::json inputs;
  calib::CalibrationSettings settings = a->settings;
  std::string dir = a->dir;
  if (!a->resume.empty()) {
    settings = resumeCheckpoint(a->resume, gen_opt->count() > 0 ? a->settings.generations : 0, &inputs);
    if (inputs.value("kind", "") != "optimize-controller")
      throw InputError(a->resume + "/checkpoint.json", 0, "inputs", "not an optimize-controller run");
    dir = a->resume;
    if (!a->out.empty()) inputs["out"] = absolutePath(a->out);
  } else {
    if (a->task.empty()) throw InputError("", 0, "--task", "required: lean, sit or kneel");
    if (a->out.empty()) throw InputError("", 0, "--out", "the controller file to write is required");
    if (dir.empty()) dir = a->out + ".run";
    claimOutputFile(a->out, a->force);
    inputs = {{"kind", "optimize-controller"},
              {"robot", a->robot},
              {"task", a->task},
              {"keyframes", a->keyframes > 0 ? a->keyframes : defaultKeyframes(a->task)},
              {"init", absolutePath(a->init)},
              {"out", absolutePath(a->out)},
              {"sim_seed", std::to_string(a->sim_seed)}};
  }
  settings.validate();
  RunArgs ra;
  ra.robot = inputs.at("robot").get<std::string>();
  const auto model = loadConfiguredModel(ra);
  const auto task = std::make_shared<const RisingTask>(makeRisingTask(inputs.at("task").get<std::string>(), *model));
  calib::ControllerSpaceSettings cs;
  cs.keyframes = inputs.at("keyframes").get<int>();
  std::unique_ptr<KeyframeController> init;
  if (!inputs.at("init").get<std::string>().empty())
    init = std::make_unique<KeyframeController>(KeyframeController::read(inputs.at("init").get<std::string>()));
  const calib::ParameterSpace space = calib::controllerSpace(*task, cs, init.get());
  const std::uint64_t sim_seed = std::stoull(inputs.at("sim_seed").get<std::string>());
  calib::EvalFunction fn = [task, space, sim_seed](const Eigen::VectorXd& v) {
    return calib::evaluateControllerValues(*task, space, v, sim_seed);
  };

  std::unique_ptr<calib::Calibration> cal = openCalibration(space, settings, dir, a->resume, a->force, inputs, "--dir");
  std::unique_ptr<calib::BatchEvaluator> ev = localBackend(a->workers == 1 ? "serial" : "local", a->workers, fn);
  std::printf("optimize-controller: task %s (%s), %d keyframes, %d free dimensions, CMA-ES seed %llu, %s, %s%s\n",
              task->name.c_str(), task->description.c_str(), cs.keyframes, space.dimension(),
              static_cast<unsigned long long>(settings.seed), ev->describe().c_str(), dir.c_str(),
              resumedNote(a->resume, *cal).c_str());
  std::printf("fitness = -V_ctrl (V_ctrl = integral over [0, T+1] of 1/(tilt + 0.1) dt; larger V is better)\n");
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  cal->run(*ev, &std::cout);
  ev.reset();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const KeyframeController best = calib::controllerFromValues(space, cal->bestValues());
  RiseOptions ro;
  ro.seed = sim_seed;
  const RiseResult r = evaluateRise(*task, best, ro);
  const std::string out = inputs.at("out").get<std::string>();
  char comment[1024];
  std::snprintf(
      comment, sizeof comment,
      "gapsim keyframe controller, BIOLOID rising task '%s' (docs/bioloid.md)\n"
      "found by: gapsim-cli optimize-controller --robot %s --task %s --keyframes %d --generations %d "
      "--population %d --sigma0 %g --seed %llu --sim-seed %llu%s%s\n"
      "result: V_ctrl %.6g, T %.4g s, tilt at T+1 %.4f rad, %s; %ld evaluations",
      task->name.c_str(), inputs.at("robot").get<std::string>().c_str(), task->name.c_str(), cs.keyframes,
      settings.generations,
      settings.lambda > 0 ? settings.lambda : 4 + static_cast<int>(std::floor(3.0 * std::log(space.dimension()))),
      settings.sigma0, static_cast<unsigned long long>(settings.seed), static_cast<unsigned long long>(sim_seed),
      init ? " --init " : "", init ? fs::path(init->source()).filename().string().c_str() : "", r.V_ctrl, r.T_s,
      r.tilt_end_rad, r.upright ? "upright" : "NOT upright", cal->optimizer().evaluations());
  calib::writeFileAtomically(out, best.toText(comment));
  std::printf("best V_ctrl %.6g (initial %.6g) after %ld evaluations, %.1f s wall this session; wrote %s\n",
              -cal->bestFitness(), -cal->initialFitness(), cal->optimizer().evaluations(), wall, out.c_str());
  printResult("best controller", r);
  return kExitOk;
}

}  // namespace

Action addOptimizeController(CLI::App& app) {
  auto a = std::make_shared<OptimizeArgs>();
  auto& s = a->settings;
  s.generations = 20;
  s.sigma0 = 0.1;
  app.add_option("--robot", a->robot, "robot (a BIOLOID model)")->capture_default_str();
  app.add_option("--task", a->task, "rising task: lean, sit or kneel");
  app.add_option("--keyframes", a->keyframes,
                 "keyframes n, the final standing pose included (default lean/sit 2, kneel 3)");
  CLI::Option* gen_opt =
      app.add_option("--generations", s.generations, "CMA-ES generations in total")->capture_default_str();
  app.add_option("--population", s.lambda, "CMA-ES population lambda (0: 4 + 3 ln n)")->capture_default_str();
  app.add_option("--sigma0", s.sigma0, "initial step size as a fraction of each range")->capture_default_str();
  app.add_option("--seed", s.seed, "seed of CMA-ES")->capture_default_str();
  app.add_option("--workers", a->workers, "worker processes (0: all cores; 1: serial in this process)");
  app.add_option("--sim-seed", a->sim_seed, "SimOptions::seed of every evaluation")->capture_default_str();
  app.add_option("--init", a->init, "initial controller CSV (its keyframes are the CMA-ES start)");
  app.add_option("--out", a->out, "the optimised controller CSV");
  app.add_option("--dir", a->dir, "results directory (checkpoint.json, history.csv; default <out>.run)");
  app.add_option("--resume", a->resume, "continue the run whose checkpoint is in this directory");
  app.add_flag("--force", a->force, "replace an existing --out and write into a non-empty results directory");
  return [a, gen_opt] { return runOptimizeController(a, gen_opt); };
}

Action addRise(CLI::App& app) {
  auto ra = std::make_shared<RunArgs>();
  ra->robot = "bioloid";
  auto task_name = std::make_shared<std::string>();
  auto ctrl_path = std::make_shared<std::string>();
  app.add_option("--robot", ra->robot, "robot (a BIOLOID model)")->capture_default_str();
  app.add_option("--params", ra->params_file, "parameter file applied to the robot");
  app.add_option("--set", ra->sets, "parameter name=value (repeatable, after --params)");
  app.add_option("--task", *task_name, "rising task: lean, sit or kneel")->required();
  app.add_option("--controller", *ctrl_path, "keyframe controller CSV (gapsim-cli optimize-controller --out)")
      ->required();
  app.add_option("--out", ra->out, "log CSV (time_s from the start of settling)");
  app.add_option("--log-period", ra->log_period_s, "log sample period (s)")->capture_default_str();
  app.add_option("--seed", ra->seed, "SimOptions::seed")->capture_default_str();
  addForceOption(app, ra->force);
  return [ra, task_name, ctrl_path] {
    claimOutputFile(ra->out, ra->force);
    plausible::check(ra->log_period_s, plausible::kLogPeriod_s, "", 0, "--log-period");
    const auto model = loadConfiguredModel(*ra);
    const RisingTask task = makeRisingTask(*task_name, *model);
    const KeyframeController ctrl = KeyframeController::read(*ctrl_path);
    ctrl.checkAgainst(task.legs);
    Log log;
    RiseOptions o;
    o.seed = ra->seed;
    o.log_period_s = ra->log_period_s;
    if (!ra->out.empty()) o.log = &log;
    std::printf(
        "rise: task %s (%s), settle %.2f s, then %zu keyframes over T = %.4g s (controller t = 0 at log "
        "time %.2f s)\n",
        task.name.c_str(), task.description.c_str(), task.settle_s, ctrl.keyframes().size(), ctrl.duration_s(),
        task.settle_s);
    const RiseResult r = evaluateRise(task, ctrl, o);
    if (!ra->out.empty()) {
      log.write(ra->out);
      std::printf("wrote %s (%zu rows)\n", ra->out.c_str(), log.rows());
    }
    printResult("result", r);
    return r.diverged ? kExitDivergence : kExitOk;
  };
}

}  // namespace gapsim::cli
