// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli loop: the BIOLOID sim-to-reality loop of paper 002 (docs/bioloid.md "The loop").
// Each iteration: optimise the rising controllers in simulation (current calibrated parameters),
// execute them on reality (the twin, or the real robot through files in a directory), add the
// (commanded motion, recording) pairs to the calibration set, calibrate on all pairs so far
// (E_cali), and go on with the tasks that failed on reality.
//
// Nothing is lost: every step writes its result into OUTDIR (atomically) and is skipped when that
// file exists, the CMA-ES runs checkpoint every generation, so `--resume OUTDIR` (after a kill or
// after dropping a recording into the reality directory) continues with the same result.
#include <chrono>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "app/cli/calibration_job.h"
#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "calib/calibration.h"
#include "calib/controller_optimization.h"
#include "calib/evaluator.h"
#include "calib/recording_replay.h"
#include "calib/rising_pair.h"
#include "calib/rising_twin.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/text_file.h"

namespace gapsim::cli {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& p) { return p.empty() ? p : fs::absolute(p).lexically_normal().string(); }

std::string slurpFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

struct LoopInputs {
  std::string robot = "bioloid", params, tasks = "all", reality = "twin", twin_params, space, init_dir;
  int iterations = 3;
  int first_opt_generations = -1;  // -1: opt_generations
  int opt_generations = 8, opt_population = 8, cal_generations = 15, cal_population = 8;  // the acceptance runs' budget
  double opt_sigma0 = 0.1, cal_sigma0 = 0.2;
  /// W of the encoder term in E_cali (calib/recording_replay.h; 0: the tilt only, paper 002).
  double cal_joint_weight = 10.0;  // docs/bioloid.md "Acceptance runs": W = 1 too weak, 10 finds mass and gains
  double cal_settle_s = 0.0;  ///< ReplayOptions::settle_s of the calibration's replays
  /// Robust re-optimisation: the controller's fitness is the worst over `robust_models` models,
  /// the calibrated one with all servo gains (kp, kd) scaled by factors evenly spread over
  /// [1 - robust_gain_spread, 1 + robust_gain_spread] (1: the calibrated model alone).
  int robust_models = 1;
  double robust_gain_spread = 0.2;
  std::uint64_t seed = 1;

  nlohmann::json toJson() const {
    return {{"kind", "loop"},
            {"robot", robot},
            {"params", params},
            {"tasks", tasks},
            {"reality", reality},
            {"twin_params", twin_params},
            {"space", space},
            {"init_dir", init_dir},
            {"iterations", iterations},
            {"first_opt_generations", first_opt_generations},
            {"opt_generations", opt_generations},
            {"opt_population", opt_population},
            {"cal_generations", cal_generations},
            {"cal_population", cal_population},
            {"opt_sigma0", opt_sigma0},
            {"cal_sigma0", cal_sigma0},
            {"cal_joint_weight", cal_joint_weight},
            {"cal_settle_s", cal_settle_s},
            {"robust_models", robust_models},
            {"robust_gain_spread", robust_gain_spread},
            {"seed", std::to_string(seed)}};
  }
  static LoopInputs fromJson(const nlohmann::json& j) {
    LoopInputs in;
    in.robot = j.at("robot");
    in.params = j.at("params");
    in.tasks = j.at("tasks");
    in.reality = j.at("reality");
    in.twin_params = j.at("twin_params");
    in.space = j.at("space");
    in.init_dir = j.at("init_dir");
    in.iterations = j.at("iterations");
    in.first_opt_generations = j.at("first_opt_generations");
    in.opt_generations = j.at("opt_generations");
    in.opt_population = j.at("opt_population");
    in.cal_generations = j.at("cal_generations");
    in.cal_population = j.at("cal_population");
    in.opt_sigma0 = j.at("opt_sigma0");
    in.cal_sigma0 = j.at("cal_sigma0");
    // Loops started before these options calibrated on the tilt alone, without settling.
    in.cal_joint_weight = j.value("cal_joint_weight", 0.0);
    in.cal_settle_s = j.value("cal_settle_s", 0.0);
    in.robust_models = j.value("robust_models", 1);
    in.robust_gain_spread = j.value("robust_gain_spread", 0.2);
    in.seed = std::stoull(j.at("seed").get<std::string>());
    return in;
  }
};

/// One task's state in one iteration (a row of loop.csv).
struct TaskRow {
  int iteration = 0;
  std::string task;
  double T_s = 0, V_sim = 0;
  bool upright_sim = false;
  calib::RealityOutcome real;
  int pairs = 0;
  double E_before = NAN, E_after = NAN;
};

struct Pair {
  std::string task, motion, recording;
  int iteration = 0;
};

MotorMap motorMapOf(const RobotModel& model) {
  std::string map_file = (fs::path(model.source_file).parent_path() / "motor_map.csv").string();
  if (!fs::exists(map_file)) map_file = robotsDirectory() + "/bioloid/motor_map.csv";
  return MotorMap::read(map_file);
}

class Loop {
 public:
  Loop(LoopInputs in, std::string out, int jobs) : in_(std::move(in)), out_(std::move(out)), jobs_(jobs) {}

  int run() {
    std::printf("loop: tasks %s, reality %s, %d iterations at most, CMA-ES seed %llu, %d job(s), %s\n",
                joined(tasks_).c_str(), in_.reality == "twin" ? ("twin (" + in_.twin_params + ")").c_str() : in_.reality.c_str(),
                in_.iterations, static_cast<unsigned long long>(in_.seed), jobs_, out_.c_str());
    std::fflush(stdout);
    std::vector<std::string> done;
    std::string params;  // the current calibrated parameter file ("" = the robot as configured)
    for (int k = 1; k <= in_.iterations; ++k) {
      std::vector<std::string> active;
      for (const auto& t : tasks_)
        if (std::find(done.begin(), done.end(), t) == done.end()) active.push_back(t);
      if (active.empty()) break;
      const std::string idir = out_ + "/iter" + std::to_string(k);
      fs::create_directories(idir);
      auto sim_model = std::make_shared<RobotModel>(*base_);
      if (!params.empty()) loadParameterFile(*sim_model, params);
      std::vector<TaskRow> rows;
      // 1. optimise in simulation
      for (const auto& t : active) rows.push_back(optimise(k, idir, t, *sim_model));
      // 2. execute on reality
      std::vector<std::string> missing;
      for (const auto& t : active) {
        const std::string rec = idir + "/" + t + "_recording.csv";
        if (fs::exists(rec)) continue;
        if (in_.reality == "twin") runTwin(k, idir, t);
        else if (!fetchRecording(k, idir, t)) missing.push_back(t);
      }
      if (!missing.empty()) return awaitRecordings(k, missing);
      // 3. outcomes, pairs
      for (auto& r : rows) {
        const std::string rec = idir + "/" + r.task + "_recording.csv";
        const auto log = calib::readRisingRecording(rec);
        r.real = calib::realityOutcome(*log, *tasks_default_.at(r.task), r.T_s);
        pairs_.push_back({r.task, idir + "/" + r.task + "_command.csv", rec, k});
        if (r.real.upright) done.push_back(r.task);
      }
      // 4. calibrate on every pair so far (while a task still fails)
      const bool all_done = done.size() == tasks_.size();
      double Eb = NAN, Ea = NAN;
      if (!all_done) {
        params = calibrate(k, idir, params, &Eb, &Ea);
        printCalibrated(k, params);
      }
      for (auto& r : rows) {
        r.pairs = static_cast<int>(pairs_.size());
        r.E_before = Eb;
        r.E_after = Ea;
        printRow(r);
        table_.push_back(r);
      }
      writeTable();
      std::fflush(stdout);
      if (all_done) {
        std::printf("loop: every task succeeds on reality after %d iteration(s)\n", k);
        return kExitOk;
      }
    }
    std::string failing;
    for (const auto& t : tasks_)
      if (std::find(done.begin(), done.end(), t) == done.end()) failing += (failing.empty() ? "" : ", ") + t;
    std::printf("loop: after %d iteration(s) still failing on reality: %s (continue with --resume %s --iterations N)\n",
                in_.iterations, failing.c_str(), out_.c_str());
    return kExitFailure;
  }

  /// Loads and checks every input (InputError before anything is written or simulated).
  void setup() {
    if (in_.tasks == "all") tasks_ = risingTaskNames();
    else {
      std::stringstream ss(in_.tasks);
      for (std::string t; std::getline(ss, t, ',');)
        if (!t.empty()) tasks_.push_back(t);
    }
    if (tasks_.empty()) throw InputError("", 0, "--task", "no task given (lean, sit, kneel or all)");
    RunArgs ra;
    ra.quiet = true;
    ra.robot = in_.robot;
    ra.params_file = in_.params;
    base_ = loadConfiguredModel(ra);
    map_ = motorMapOf(*base_);
    for (const auto& t : tasks_) tasks_default_[t] = std::make_shared<const RisingTask>(makeRisingTask(t, *base_));
    if (in_.reality == "twin") {
      auto hidden = std::make_shared<RobotModel>(*base_);
      loadParameterFile(*hidden, in_.twin_params);  // InputError: file, line, field
      hidden_ = hidden;
    } else if (!fs::is_directory(in_.reality)) {
      throw InputError(in_.reality, 0, "--reality", "neither 'twin' nor a directory");
    }
    calib::ParameterSpace::load(in_.space).checkAgainst(*base_);  // a bad space fails now, not after the first step
    for (const auto& t : tasks_) {
      const std::string p = in_.init_dir + "/" + t + ".csv";
      if (!fs::exists(p)) throw InputError(p, 0, "--init-dir", "no initial controller for task " + t);
      current_.emplace(t, KeyframeController::read(p));
      current_.at(t).checkAgainst(tasks_default_.at(t)->legs);
    }
  }


 private:
  static std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
  }

  int taskIndex(const std::string& t) const {
    return static_cast<int>(std::find(tasks_.begin(), tasks_.end(), t) - tasks_.begin());
  }

  /// The controller of task t in iteration k on the current simulation model; writes
  /// <t>.csv (controller) and <t>_command.csv (its commanded motion).
  TaskRow optimise(int k, const std::string& idir, const std::string& t, const RobotModel& sim_model) {
    const std::string ctrl_file = idir + "/" + t + ".csv";
    const auto task = std::make_shared<const RisingTask>(makeRisingTask(t, sim_model));
    const int G = k == 1 && in_.first_opt_generations >= 0 ? in_.first_opt_generations : in_.opt_generations;
    if (!fs::exists(ctrl_file)) {
      const KeyframeController& init = current_.at(t);
      std::string comment = "gapsim-cli loop, iteration " + std::to_string(k) + ", task " + t;
      if (G == 0) {
        comment += ": the initial controller " + init.source() + " unchanged (0 generations)";
        calib::writeFileAtomically(ctrl_file, init.toText(comment));
      } else {
        calib::ControllerSpaceSettings cs;
        cs.keyframes = static_cast<int>(init.keyframes().size());
        const calib::ParameterSpace space = calib::controllerSpace(*task, cs, &init);
        calib::CalibrationSettings s;
        s.generations = G;
        s.lambda = in_.opt_population;
        s.sigma0 = in_.opt_sigma0;
        s.seed = in_.seed + 100u * static_cast<unsigned>(k) + static_cast<unsigned>(taskIndex(t));
        s.validate();
        const std::string dir = idir + "/" + t + ".run";
        const bool resume = fs::exists(dir + "/checkpoint.json");
        // The worst over the robust models (the first: the calibrated model itself).
        std::vector<std::shared_ptr<const RisingTask>> tasks = {task};
        for (const auto& m : robustModels(sim_model)) tasks.push_back(std::make_shared<const RisingTask>(makeRisingTask(t, *m)));
        calib::EvalFunction fn = [tasks, space](const Eigen::VectorXd& v) {
          calib::EvalResult worst;
          for (std::size_t i = 0; i < tasks.size(); ++i) {
            calib::EvalResult r = calib::evaluateControllerValues(*tasks[i], space, v, 0);
            if (i == 0 || !r.error.empty() || r.fitness > worst.fitness) worst = std::move(r);
            if (!worst.error.empty()) break;
          }
          return worst;
        };
        auto cal = openCalibration(space, s, dir, resume ? dir : "", true,
                                   {{"kind", "loop-optimize"}, {"task", t}, {"iteration", k}});
        auto ev = localBackend(jobs_ == 1 ? "serial" : "processes", jobs_, fn);
        std::printf("iteration %d %s: optimising the controller (%d dimensions, %d generations x %d, worst of %zu "
                    "model(s))%s\n",
                    k, t.c_str(), space.dimension(), G, in_.opt_population, tasks.size(),
                    resumedNote(resume ? dir : "", *cal).c_str());
        std::fflush(stdout);
        cal->run(*ev, nullptr);
        ev.reset();
        const KeyframeController best = calib::controllerFromValues(space, cal->bestValues());
        comment += ": CMA-ES " + std::to_string(G) + " generations x " + std::to_string(in_.opt_population) +
                   ", seed " + std::to_string(s.seed) + ", from " + init.source();
        calib::writeFileAtomically(ctrl_file, best.toText(comment));
      }
    }
    KeyframeController ctrl = KeyframeController::read(ctrl_file);
    current_.erase(t);
    current_.emplace(t, ctrl);
    const std::string cmd_file = idir + "/" + t + "_command.csv";
    if (!fs::exists(cmd_file)) calib::writeFileAtomically(cmd_file, calib::commandedMotionCsv(*task, ctrl));
    const RiseResult r = evaluateRise(*task, ctrl);
    TaskRow row;
    row.iteration = k;
    row.task = t;
    row.T_s = ctrl.duration_s();
    row.V_sim = r.V_ctrl;
    row.upright_sim = r.upright;
    return row;
  }

  /// The robust models besides `m` itself: m with every servo's kp and kd scaled by each factor
  /// 1 + x (2 i / (K - 1) - 1), i = 0..K-1, except 1.
  std::vector<std::shared_ptr<const RobotModel>> robustModels(const RobotModel& m) const {
    std::vector<std::shared_ptr<const RobotModel>> out;
    const int K = in_.robust_models;
    if (K < 2) return out;
    double kp = NAN, kd = NAN;
    for (const ParameterEntry& e : listParameters(m)) {
      if (e.name == "servos/servo/kp") kp = e.value;
      if (e.name == "servos/servo/kd") kd = e.value;
    }
    if (std::isnan(kp) || std::isnan(kd))
      throw InputError(m.source_file, 0, "servos/servo/kp", "--robust-models needs the servo gains servos/servo/{kp,kd}");
    for (int i = 0; i < K; ++i) {
      const double f = 1.0 + in_.robust_gain_spread * (2.0 * i / (K - 1) - 1.0);
      if (std::abs(f - 1.0) < 1e-12) continue;
      auto v = std::make_shared<RobotModel>(m);
      setParameter(*v, "servos/servo/kp", kp * f);
      setParameter(*v, "servos/servo/kd", kd * f);
      out.push_back(v);
    }
    return out;
  }

  void runTwin(int k, const std::string& idir, const std::string& t) {
    const RisingTask task = makeRisingTask(t, *hidden_);
    const KeyframeController& ctrl = current_.at(t);
    const Motion cmd = loadMotion(idir + "/" + t + "_command.csv");
    calib::RisingTwinSettings s;
    s.noise_seed = in_.seed * 1000u + 10u * static_cast<unsigned>(k) + static_cast<unsigned>(taskIndex(t));
    const calib::RisingTwinRun run = calib::runRisingTwin(task, cmd, map_, ctrl.duration_s() + 1.0, s);
    if (run.diverged) throw DivergenceError(0, "", "the twin diverged on " + t + " (iteration " + std::to_string(k) + "): " + run.error);
    calib::writeFileAtomically(idir + "/" + t + "_recording.csv", run.recording.toCsv());
  }

  std::string realityName(int k, const std::string& t, const char* what) const {
    return in_.reality + "/iter" + std::to_string(k) + "_" + t + "_" + what + ".csv";
  }

  /// Reality = a directory: hands the controller over and takes the recording if it is there.
  bool fetchRecording(int k, const std::string& idir, const std::string& t) {
    const std::string cmd = realityName(k, t, "command"), ctrl = realityName(k, t, "controller"),
                      rec = realityName(k, t, "recording");
    if (!fs::exists(cmd)) calib::writeFileAtomically(cmd, slurpFile(idir + "/" + t + "_command.csv"));
    if (!fs::exists(ctrl)) calib::writeFileAtomically(ctrl, slurpFile(idir + "/" + t + ".csv"));
    if (!fs::exists(rec)) return false;
    calib::readRisingRecording(rec);  // InputError naming the file if it is not a recording
    calib::writeFileAtomically(idir + "/" + t + "_recording.csv", slurpFile(rec));
    return true;
  }

  int awaitRecordings(int k, const std::vector<std::string>& missing) {
    std::printf("loop: waiting for reality (iteration %d). For each task below, put the robot in the task's start\n"
                "pose (docs/bioloid.md, Rising tasks), play the commanded motion (time_s + 16 joint angles in rad, the\n"
                "real-data dialect of motions/lean-to-stand/*.csv) and record it with motion capture and the encoders\n"
                "from the start of the motion to at least T + 1 s, as a CSV in the dialect of\n"
                "rising/lean-to-stand/*.csv (time_s, <joint>/q_rad, torso/tilt_rad, torso/pitch_signed_rad,\n"
                "torso/rotvec_{x,y,z}, torso/{x,y,z}_m):\n",
                k);
    for (const auto& t : missing)
      std::printf("  %s: play %s (T = %.3f s), record %s\n", t.c_str(), realityName(k, t, "command").c_str(),
                  current_.at(t).duration_s(), realityName(k, t, "recording").c_str());
    std::printf("then continue with: gapsim-cli loop --resume %s\n", out_.c_str());
    return kExitAwaitingRecording;
  }

  /// Calibrates on all pairs, starting from the current parameters; returns the new parameter file.
  std::string calibrate(int k, const std::string& idir, const std::string& params, double* Eb, double* Ea) {
    const std::string out_params = idir + "/calibrated.params", summary = idir + "/calibration.csv";
    if (fs::exists(out_params) && fs::exists(summary)) {
      // calibration.csv: a header line, then "E_before,E_after,pairs" (written below).
      const std::string text = slurpFile(summary);
      const std::size_t nl = text.find('\n');
      if (nl == std::string::npos || std::sscanf(text.c_str() + nl + 1, "%lf,%lf", Eb, Ea) != 2)
        throw InputError(summary, 2, "E_cali_before_rad2_s", "expected two numbers (the loop writes this file)");
      return out_params;
    }
    // The space with the current values as the start (a calibrated file is a space file itself).
    const calib::ParameterSpace space = calib::ParameterSpace::load(params.empty() ? in_.space : params);
    calib::ReplaySet set;
    set.root = out_;
    for (const Pair& p : pairs_)
      set.trials.push_back(calib::risingPairTrial("iter" + std::to_string(p.iteration) + "/" + p.task,
                                                  *tasks_default_.at(p.task), p.motion, p.recording));
    calib::ReplayOptions opt;
    opt.wall = false;  // each pair brings its task's scene
    opt.joint_weight = in_.cal_joint_weight;
    opt.settle_s = in_.cal_settle_s;
    auto problem = std::make_shared<const calib::ReplayProblem>(base_, space, set, map_, opt);
    calib::EvalFunction fn = [problem](const Eigen::VectorXd& v) { return problem->evaluate(v); };
    calib::CalibrationSettings s;
    s.generations = in_.cal_generations;
    s.lambda = in_.cal_population;
    s.sigma0 = in_.cal_sigma0;
    s.seed = in_.seed + 100u * static_cast<unsigned>(k) + 50u;
    s.validate();
    const std::string dir = idir + "/cal";
    const bool resume = fs::exists(dir + "/checkpoint.json");
    auto cal = openCalibration(space, s, dir, resume ? dir : "", true, {{"kind", "loop-calibrate"}, {"iteration", k}});
    auto ev = localBackend(jobs_ == 1 ? "serial" : "processes", jobs_, fn);
    std::printf("iteration %d: calibrating on %zu pairs (%d dimensions, %d generations x %d, encoder weight %g, settle %g s)%s\n",
                k, pairs_.size(),
                space.dimension(), s.generations, s.lambda, opt.joint_weight, opt.settle_s,
                resumedNote(resume ? dir : "", *cal).c_str());
    std::fflush(stdout);
    cal->run(*ev, nullptr);
    ev.reset();
    *Eb = cal->initialFitness();
    *Ea = cal->bestFitness();
    calib::writeFileAtomically(out_params, slurpFile(dir + "/best.params"));
    calib::writeFileAtomically(summary, "E_cali_before_rad2_s,E_cali_after_rad2_s,pairs\n" + fmt("%.17g", *Eb) + "," +
                                            fmt("%.17g", *Ea) + "," + std::to_string(pairs_.size()) + "\n");
    return out_params;
  }

  static void printCalibrated(int k, const std::string& params) {
    std::string s;
    const calib::ParameterSpace cal = calib::ParameterSpace::load(params);
    for (const calib::SpaceEntry& e : cal.entries())
      s += " " + e.name + " " + fmt("%.4g", e.value);
    std::printf("iteration %d: calibrated%s\n", k, s.c_str());
  }

  void printRow(const TaskRow& r) const {
    std::printf("iteration %d %-5s: sim V_ctrl %.4g (T %.3f s, %s in sim) | reality: tilt %.3f rad, height %.3f m at "
                "%.2f s: %s | E_cali %s -> %s rad^2 s (%d pairs)\n",
                r.iteration, r.task.c_str(), r.V_sim, r.T_s, r.upright_sim ? "upright" : "NOT upright",
                r.real.tilt_end_rad, r.real.height_end_m, r.real.t_end_s, r.real.upright ? "SUCCESS" : "FAIL",
                std::isnan(r.E_before) ? "-" : fmt("%.4g", r.E_before).c_str(),
                std::isnan(r.E_after) ? "-" : fmt("%.4g", r.E_after).c_str(), r.pairs);
  }

  void writeTable() const {
    std::string s =
        "iteration,task,T_s,V_ctrl_sim,upright_sim,tilt_end_real_rad,height_end_real_m,t_end_real_s,success_real,pairs,"
        "E_cali_before_rad2_s,E_cali_after_rad2_s\n";
    for (const auto& r : table_)
      s += std::to_string(r.iteration) + "," + r.task + "," + fmt("%.6g", r.T_s) + "," + fmt("%.6g", r.V_sim) + "," +
           (r.upright_sim ? "1" : "0") + "," + fmt("%.6g", r.real.tilt_end_rad) + "," + fmt("%.6g", r.real.height_end_m) +
           "," + fmt("%.6g", r.real.t_end_s) + "," + (r.real.upright ? "1" : "0") + "," + std::to_string(r.pairs) + "," +
           (std::isnan(r.E_before) ? "" : fmt("%.6g", r.E_before)) + "," +
           (std::isnan(r.E_after) ? "" : fmt("%.6g", r.E_after)) + "\n";
    calib::writeFileAtomically(out_ + "/loop.csv", s);
  }

  LoopInputs in_;
  std::string out_;
  int jobs_ = 2;
  std::vector<std::string> tasks_;
  std::shared_ptr<const RobotModel> base_, hidden_;
  MotorMap map_;
  std::map<std::string, std::shared_ptr<const RisingTask>> tasks_default_;
  std::map<std::string, KeyframeController> current_;
  std::vector<Pair> pairs_;
  std::vector<TaskRow> table_;
};

}  // namespace

Action addLoop(CLI::App& app) {
  struct Args {
    LoopInputs in;
    std::string out, resume;
    int jobs = 2;
    bool force = false;
  };
  auto a = std::make_shared<Args>();
  a->in.twin_params = robotsDirectory() + "/bioloid/calibration/twin_hidden.params";
  a->in.space = robotsDirectory() + "/bioloid/calibration/loop_space.csv";
  a->in.init_dir = robotsDirectory() + "/bioloid/controllers";
  LoopInputs& in = a->in;
  app.add_option("--robot", in.robot, "robot (a BIOLOID model)")->capture_default_str();
  app.add_option("--params", in.params, "parameter file applied to the simulated robot before the loop");
  app.add_option("--task", in.tasks, "lean, sit, kneel, a comma-separated list or all")->capture_default_str();
  app.add_option("--reality", in.reality,
                 "twin (a simulated robot with hidden parameters) or a directory shared with the real robot")
      ->capture_default_str();
  app.add_option("--twin-params", in.twin_params, "the twin's hidden parameter file")->capture_default_str();
  app.add_option("--space", in.space, "calibration parameter space CSV")->capture_default_str();
  app.add_option("--init-dir", in.init_dir, "initial controllers <task>.csv (default: the shipped ones)")
      ->capture_default_str();
  CLI::Option* it_opt =
      app.add_option("--iterations", in.iterations, "iterations at most (resuming: may be raised)")->capture_default_str();
  app.add_option("--first-generations", in.first_opt_generations,
                 "CMA-ES generations of the first optimisation (-1: --generations; 0: the initial controllers as they are)")
      ->capture_default_str();
  app.add_option("--generations", in.opt_generations, "CMA-ES generations per controller optimisation")->capture_default_str();
  app.add_option("--population", in.opt_population, "CMA-ES population of the controller optimisation")->capture_default_str();
  app.add_option("--sigma0", in.opt_sigma0, "initial step of the controller optimisation (fraction of each range)")
      ->capture_default_str();
  app.add_option("--cal-generations", in.cal_generations, "CMA-ES generations per calibration")->capture_default_str();
  app.add_option("--cal-population", in.cal_population, "CMA-ES population of the calibration")->capture_default_str();
  app.add_option("--cal-sigma0", in.cal_sigma0, "initial step of the calibration (fraction of each range)")->capture_default_str();
  app.add_option("--cal-joint-weight", in.cal_joint_weight,
                 "W: E_cali adds W x integral sum_j (q_real_j - q_sim_j)^2 dt of the encoders (0: tilt only, paper 002)")
      ->capture_default_str();
  app.add_option("--robust-models", in.robust_models,
                 "optimise each controller for the worst of K models: the calibrated one with the servo gains scaled "
                 "over [1 - X, 1 + X] (1: the calibrated model alone)")
      ->capture_default_str();
  app.add_option("--robust-gain-spread", in.robust_gain_spread, "X of --robust-models")->capture_default_str();
  app.add_option("--cal-settle", in.cal_settle_s, "the calibration's replays hold the first command this long first (s)")
      ->capture_default_str();
  app.add_option("--seed", in.seed, "seed of CMA-ES and of the twin's sensor noise")->capture_default_str();
  app.add_option("--jobs", a->jobs, "worker processes (1: serial in this process)")->capture_default_str();
  app.add_option("--out", a->out, "loop directory (state, controllers, recordings, calibrations)");
  app.add_option("--resume", a->resume, "continue the loop in this directory");
  app.add_flag("--force", a->force, "start a fresh loop in a non-empty --out directory");
  return [a, it_opt] {
    LoopInputs in = a->in;
    std::string out;
    if (!a->resume.empty()) {
      const std::string state = a->resume + "/loop.json";
      if (!fs::exists(state)) throw InputError(state, 0, "--resume", "no loop state here (not a loop directory)");
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(readTextFile(state));
        in = LoopInputs::fromJson(j.at("inputs"));
      } catch (const nlohmann::json::exception& e) {
        throw InputError(state, 0, "inputs", std::string("unreadable loop state: ") + e.what());
      }
      if (it_opt->count() > 0) in.iterations = a->in.iterations;
      out = a->resume;
    } else {
      if (a->out.empty()) throw InputError("", 0, "--out", "a loop directory is required (or --resume DIR)");
      if (in.reality != "twin") in.reality = absolute(in.reality);
      in.params = absolute(in.params);
      in.twin_params = absolute(in.twin_params);
      in.space = absolute(in.space);
      in.init_dir = absolute(in.init_dir);
      out = a->out;
      claimOutputDir(out, {}, true, "--out");  // a file or an unwritable place is said as such; emptiness below
      if (fs::exists(out) && !fs::is_empty(out) && !a->force)
        throw InputError(out, 0, "--out", "the loop directory is not empty (use --resume to continue it, or --force)");
    }
    if (in.iterations < 1) throw InputError("", 0, "--iterations", "must be >= 1");
    if (!(in.cal_joint_weight >= 0)) throw InputError("", 0, "--cal-joint-weight", "must be >= 0");
    if (!(in.cal_settle_s >= 0 && in.cal_settle_s <= 10)) throw InputError("", 0, "--cal-settle", "expected a time in [0, 10] s");
    if (in.robust_models < 1 || in.robust_models > 9) throw InputError("", 0, "--robust-models", "expected 1 to 9");
    if (!(in.robust_gain_spread >= 0 && in.robust_gain_spread < 1))
      throw InputError("", 0, "--robust-gain-spread", "expected a fraction in [0, 1)");
    if (a->jobs < 1) throw InputError("", 0, "--jobs", "must be >= 1");
    Loop loop(in, out, a->jobs);
    loop.setup();
    fs::create_directories(out);
    const nlohmann::json state = {{"inputs", in.toJson()}};
    calib::writeFileAtomically(out + "/loop.json", state.dump(2) + "\n");
    return loop.run();
  };
}

}  // namespace gapsim::cli
