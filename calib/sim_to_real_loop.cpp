// SPDX-License-Identifier: BSD-3-Clause
#include "calib/sim_to_real_loop.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "calib/calibration.h"
#include "calib/controller_optimization.h"
#include "calib/evaluator.h"
#include "calib/json_fields.h"
#include "calib/recording_replay.h"
#include "calib/replay_commands.h"
#include "calib/rising_twin.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/text.h"
#include "sim/text_file.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {

namespace fs = std::filesystem;

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SimToRealLoopOptions, robot, params, tasks, reality, twin_params, space, init_dir,
                                   recordings, iterations, first_opt_generations, opt_generations, opt_population,
                                   cal_generations, cal_population, opt_sigma0, cal_sigma0, cal_joint_weight,
                                   cal_settle_s, robust_models, robust_gain_spread, seed)

nlohmann::json SimToRealLoopOptions::toJson() const {
  nlohmann::json j = toJsonWithSeeds(*this, {"seed"});
  j["kind"] = "loop";
  return j;
}

SimToRealLoopOptions SimToRealLoopOptions::fromJson(const nlohmann::json& j) {
  // Loops started before these options had no recordings, calibrated on the tilt alone without
  // settling, and on one model.
  return fromJsonWithSeeds<SimToRealLoopOptions>(j, {"seed"},
                                                 {{"recordings", ""},
                                                  {"cal_joint_weight", 0.0},
                                                  {"cal_settle_s", 0.0},
                                                  {"robust_models", 1},
                                                  {"robust_gain_spread", 0.2}});
}

void SimToRealLoopOptions::validate() const {
  if (iterations < 1) throw InputError("", 0, "--iterations", "must be >= 1");
  if (!(cal_joint_weight >= 0)) throw InputError("", 0, "--cal-joint-weight", "must be >= 0");
  if (!(cal_settle_s >= 0 && cal_settle_s <= 10))
    throw InputError("", 0, "--cal-settle", "expected a time in [0, 10] s");
  if (robust_models < 1 || robust_models > 9) throw InputError("", 0, "--robust-models", "expected 1 to 9");
  if (!(robust_gain_spread >= 0 && robust_gain_spread < 1))
    throw InputError("", 0, "--robust-gain-spread", "expected a fraction in [0, 1)");
}

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

struct Pair {
  std::string task, motion, recording;
  int iteration = 0;
};

/// A fresh optimisation in `dir` (created), or the one checkpointed there continued.
std::unique_ptr<Calibration> openRun(const ParameterSpace& space, const CalibrationSettings& s, const std::string& dir,
                                     bool resume, const nlohmann::json& inputs) {
  if (resume) return std::make_unique<Calibration>(Calibration::fromCheckpoint(space, dir, s.generations));
  fs::create_directories(dir);
  return std::make_unique<Calibration>(space, s, dir, inputs);
}

std::unique_ptr<BatchEvaluator> backend(int jobs, const EvalFunction& fn) {
  if (jobs == 1) return std::make_unique<SerialEvaluator>(fn);
  return std::make_unique<ProcessPoolEvaluator>(fn, jobs);
}

std::string resumedNote(bool resume, const Calibration& cal) {
  return resume ? " (resumed at generation " + std::to_string(cal.optimizer().generation()) + ")" : "";
}

class Loop {
 public:
  Loop(SimToRealLoopOptions in, std::string out, int jobs, std::FILE* report)
      : in_(std::move(in)), out_(std::move(out)), jobs_(jobs), report_(report) {}

  SimToRealLoopResult run() {
    SimToRealLoopResult res;
    say("loop: tasks %s, reality %s, %d iterations at most, CMA-ES seed %llu, %d job(s), %s\n", joined(tasks_).c_str(),
        in_.reality == "twin" ? ("twin (" + in_.twin_params + ")").c_str() : in_.reality.c_str(), in_.iterations,
        static_cast<unsigned long long>(in_.seed), jobs_, out_.c_str());
    flush();
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
      std::vector<LoopTaskRow> rows;
      // 1. optimise in simulation
      for (const auto& t : active) rows.push_back(optimise(k, idir, t, *sim_model));
      // 2. execute on reality
      std::vector<std::string> missing;
      for (const auto& t : active) {
        const std::string rec = idir + "/" + t + "_recording.csv";
        if (fs::exists(rec)) continue;
        if (in_.reality == "twin")
          runTwin(k, idir, t);
        else if (!fetchRecording(k, idir, t))
          missing.push_back(t);
      }
      res.iterations = k;
      if (!missing.empty()) {
        awaitRecordings(k, missing);
        res.outcome = SimToRealLoopResult::Outcome::kAwaitingRecordings;
        res.table = table_;
        res.failing = missing;
        return res;
      }
      // 3. outcomes, pairs
      for (auto& r : rows) {
        const std::string rec = idir + "/" + r.task + "_recording.csv";
        const auto log = readRisingRecording(rec);
        r.real = realityOutcome(*log, *tasks_default_.at(r.task), r.T_s);
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
      flush();
      if (all_done) {
        say("loop: every task succeeds on reality after %d iteration(s)\n", k);
        res.outcome = SimToRealLoopResult::Outcome::kSucceeded;
        res.table = table_;
        return res;
      }
    }
    std::string failing;
    for (const auto& t : tasks_)
      if (std::find(done.begin(), done.end(), t) == done.end()) failing += (failing.empty() ? "" : ", ") + t;
    say("loop: after %d iteration(s) still failing on reality: %s (continue with --resume %s --iterations N)\n",
        in_.iterations, failing.c_str(), out_.c_str());
    res.outcome = SimToRealLoopResult::Outcome::kStillFailing;
    res.table = table_;
    for (const auto& t : tasks_)
      if (std::find(done.begin(), done.end(), t) == done.end()) res.failing.push_back(t);
    return res;
  }

  /// Loads and checks every input (InputError before anything is written or simulated).
  void setup() {
    if (in_.tasks == "all")
      tasks_ = risingTaskNames();
    else {
      std::stringstream ss(in_.tasks);
      for (std::string t; std::getline(ss, t, ',');)
        if (!t.empty()) tasks_.push_back(t);
    }
    if (tasks_.empty()) throw InputError("", 0, "--task", "no task given (lean, sit, kneel or all)");
    auto base = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile(in_.robot)));
    if (!in_.params.empty()) loadParameterFile(*base, in_.params);
    base_ = base;
    map_ = motorMapFor(*base_);
    for (const auto& t : tasks_) tasks_default_[t] = std::make_shared<const RisingTask>(makeRisingTask(t, *base_));
    if (in_.reality == "twin") {
      auto hidden = std::make_shared<RobotModel>(*base_);
      loadParameterFile(*hidden, in_.twin_params);  // InputError: file, line, field
      hidden_ = hidden;
    } else if (!fs::is_directory(in_.reality)) {
      throw InputError(in_.reality, 0, "--reality", "neither 'twin' nor a directory");
    }
    ParameterSpace::load(in_.space).checkAgainst(*base_);  // a bad space fails now, not after the first step
    if (!in_.recordings.empty()) {
      // Recordings made before the loop (any task): every calibration fits them too.
      prior_ = ReplaySet::load(in_.recordings);
      std::erase_if(prior_.trials, [](const ReplayTrial& t) { return t.spec.role == "test"; });
      ReplayOptions opt;
      opt.wall = false;
      for (const auto& t : prior_.trials) checkReplayable(*base_, t, opt);
    }
    for (const auto& t : tasks_) {
      const std::string p = in_.init_dir + "/" + t + ".csv";
      if (!fs::exists(p)) throw InputError(p, 0, "--init-dir", "no initial controller for task " + t);
      current_.emplace(t, KeyframeController::read(p));
      current_.at(t).checkAgainst(tasks_default_.at(t)->legs);
    }
  }

 private:
  void say(const char* f, ...) const __attribute__((format(printf, 2, 3))) {
    if (!report_) return;
    va_list ap;
    va_start(ap, f);
    std::vfprintf(report_, f, ap);
    va_end(ap);
  }
  void flush() const {
    if (report_) std::fflush(report_);
  }
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
  LoopTaskRow optimise(int k, const std::string& idir, const std::string& t, const RobotModel& sim_model) {
    const std::string ctrl_file = idir + "/" + t + ".csv";
    const auto task = std::make_shared<const RisingTask>(makeRisingTask(t, sim_model));
    const int G = k == 1 && in_.first_opt_generations >= 0 ? in_.first_opt_generations : in_.opt_generations;
    if (!fs::exists(ctrl_file)) {
      const KeyframeController& init = current_.at(t);
      std::string comment = "gapsim-cli loop, iteration " + std::to_string(k) + ", task " + t;
      if (G == 0) {
        comment += ": the initial controller " + init.source() + " unchanged (0 generations)";
        writeFileAtomically(ctrl_file, init.toText(comment));
      } else {
        ControllerSpaceSettings cs;
        cs.keyframes = static_cast<int>(init.keyframes().size());
        const ParameterSpace space = controllerSpace(*task, cs, &init);
        CalibrationSettings s;
        s.generations = G;
        s.lambda = in_.opt_population;
        s.sigma0 = in_.opt_sigma0;
        s.seed = in_.seed + 100u * static_cast<unsigned>(k) + static_cast<unsigned>(taskIndex(t));
        s.validate();
        const std::string dir = idir + "/" + t + ".run";
        const bool resume = fs::exists(dir + "/checkpoint.json");
        // The worst over the robust models (the first: the calibrated model itself).
        std::vector<std::shared_ptr<const RisingTask>> tasks = {task};
        for (const auto& m : robustModels(sim_model))
          tasks.push_back(std::make_shared<const RisingTask>(makeRisingTask(t, *m)));
        EvalFunction fn = [tasks, space](const Eigen::VectorXd& v) {
          EvalResult worst;
          for (std::size_t i = 0; i < tasks.size(); ++i) {
            EvalResult r = evaluateControllerValues(*tasks[i], space, v, 0);
            if (i == 0 || !r.error.empty() || r.fitness > worst.fitness) worst = std::move(r);
            if (!worst.error.empty()) break;
          }
          return worst;
        };
        auto cal = openRun(space, s, dir, resume, {{"kind", "loop-optimize"}, {"task", t}, {"iteration", k}});
        auto ev = backend(jobs_, fn);
        say("iteration %d %s: optimising the controller (%d dimensions, %d generations x %d, worst of %zu "
            "model(s))%s\n",
            k, t.c_str(), space.dimension(), G, in_.opt_population, tasks.size(), resumedNote(resume, *cal).c_str());
        flush();
        cal->run(*ev, nullptr);
        ev.reset();
        const KeyframeController best = controllerFromValues(space, cal->bestValues());
        comment += ": CMA-ES " + std::to_string(G) + " generations x " + std::to_string(in_.opt_population) +
                   ", seed " + std::to_string(s.seed) + ", from " + init.source();
        writeFileAtomically(ctrl_file, best.toText(comment));
      }
    }
    KeyframeController ctrl = KeyframeController::read(ctrl_file);
    current_.erase(t);
    current_.emplace(t, ctrl);
    const std::string cmd_file = idir + "/" + t + "_command.csv";
    if (!fs::exists(cmd_file)) writeFileAtomically(cmd_file, commandedMotionCsv(*task, ctrl));
    const RiseResult r = evaluateRise(*task, ctrl);
    LoopTaskRow row;
    row.iteration = k;
    row.task = t;
    row.T_s = ctrl.duration_s();
    row.V_sim = r.V_ctrl;
    row.upright_sim = r.upright;
    return row;
  }

  /// The robust models besides `m` itself: m with every servo's gains scaled by each factor
  /// f = 1 + x (2 i / (K - 1) - 1), i = 0..K-1, except 1: kp and kd of the paper law; on a
  /// voltage-domain Dynamixel (which has servos/servo/law) its stall torque, which sets K_t and so
  /// scales the torque of every duty, its position gain and its back-EMF damping alike.
  std::vector<std::shared_ptr<const RobotModel>> robustModels(const RobotModel& m) const {
    std::vector<std::shared_ptr<const RobotModel>> out;
    const int K = in_.robust_models;
    if (K < 2) return out;
    std::map<std::string, double> values;
    for (const ParameterEntry& e : listParameters(m)) values[e.name] = e.value;
    const std::vector<std::string> gains = values.count("servos/servo/law")
                                               ? std::vector<std::string>{"servos/servo/stall_torque"}
                                               : std::vector<std::string>{"servos/servo/kp", "servos/servo/kd"};
    for (const std::string& g : gains)
      if (!values.count(g))
        throw InputError(m.source_file, 0, g,
                         "--robust-models needs the servos' gains: servos/servo/{kp,kd} of the paper law or "
                         "servos/servo/stall_torque of a voltage-domain Dynamixel");
    for (int i = 0; i < K; ++i) {
      const double f = 1.0 + in_.robust_gain_spread * (2.0 * i / (K - 1) - 1.0);
      if (std::abs(f - 1.0) < 1e-12) continue;
      auto v = std::make_shared<RobotModel>(m);
      for (const std::string& g : gains) setParameter(*v, g, values.at(g) * f);
      out.push_back(v);
    }
    return out;
  }

  void runTwin(int k, const std::string& idir, const std::string& t) {
    const RisingTask task = makeRisingTask(t, *hidden_);
    const KeyframeController& ctrl = current_.at(t);
    const Motion cmd = loadMotion(idir + "/" + t + "_command.csv");
    RisingTwinSettings s;
    s.noise_seed = in_.seed * 1000u + 10u * static_cast<unsigned>(k) + static_cast<unsigned>(taskIndex(t));
    const RisingTwinRun run = runRisingTwin(task, cmd, map_, ctrl.duration_s() + 1.0, s);
    if (run.diverged)
      throw DivergenceError(0, "",
                            "the twin diverged on " + t + " (iteration " + std::to_string(k) + "): " + run.error);
    writeFileAtomically(idir + "/" + t + "_recording.csv", run.recording.toCsv());
  }

  std::string realityName(int k, const std::string& t, const char* what) const {
    return in_.reality + "/iter" + std::to_string(k) + "_" + t + "_" + what + ".csv";
  }

  /// Reality = a directory: hands the controller over and takes the recording if it is there.
  bool fetchRecording(int k, const std::string& idir, const std::string& t) {
    const std::string cmd = realityName(k, t, "command"), ctrl = realityName(k, t, "controller"),
                      rec = realityName(k, t, "recording");
    if (!fs::exists(cmd)) writeFileAtomically(cmd, readTextFile(idir + "/" + t + "_command.csv"));
    if (!fs::exists(ctrl)) writeFileAtomically(ctrl, readTextFile(idir + "/" + t + ".csv"));
    if (!fs::exists(rec)) return false;
    readRisingRecording(rec);  // InputError naming the file if it is not a recording
    writeFileAtomically(idir + "/" + t + "_recording.csv", readTextFile(rec));
    return true;
  }

  void awaitRecordings(int k, const std::vector<std::string>& missing) {
    say("loop: waiting for reality (iteration %d). For each task below, put the robot in the task's start\n"
        "pose (docs/bioloid.md, Rising tasks), play the commanded motion (time_s + 16 joint angles in rad, the\n"
        "real-data dialect of motions/lean-to-stand/*.csv) and record it with motion capture and the encoders\n"
        "from the start of the motion to at least T + 1 s, as a CSV in the dialect of\n"
        "rising/lean-to-stand/*.csv (time_s, <joint>/q_rad, torso/tilt_rad, torso/pitch_signed_rad,\n"
        "torso/rotvec_{x,y,z}, torso/{x,y,z}_m):\n",
        k);
    for (const auto& t : missing)
      say("  %s: play %s (T = %.3f s), record %s\n", t.c_str(), realityName(k, t, "command").c_str(),
          current_.at(t).duration_s(), realityName(k, t, "recording").c_str());
    say("then continue with: gapsim-cli loop --resume %s\n", out_.c_str());
  }

  /// Calibrates on all pairs, starting from the current parameters; returns the new parameter file.
  std::string calibrate(int k, const std::string& idir, const std::string& params, double* Eb, double* Ea) {
    const std::string out_params = idir + "/calibrated.params", summary = idir + "/calibration.csv";
    if (fs::exists(out_params) && fs::exists(summary)) {
      // calibration.csv: a header line, then "E_before,E_after,pairs" (written below).
      const std::string text = readTextFile(summary);
      const std::size_t nl = text.find('\n');
      if (nl == std::string::npos || std::sscanf(text.c_str() + nl + 1, "%lf,%lf", Eb, Ea) != 2)
        throw InputError(summary, 2, "E_cali_before_rad2_s", "expected two numbers (the loop writes this file)");
      return out_params;
    }
    // The space with the current values as the start (a calibrated file is a space file itself).
    const ParameterSpace space = ParameterSpace::load(params.empty() ? in_.space : params);
    ReplaySet set;
    set.root = out_;
    for (const Pair& p : pairs_)
      set.trials.push_back(risingPairTrial("iter" + std::to_string(p.iteration) + "/" + p.task,
                                           *tasks_default_.at(p.task), p.motion, p.recording));
    for (const auto& t : prior_.trials) set.trials.push_back(t);
    ReplayOptions opt;
    opt.wall = false;  // each pair brings its task's scene
    opt.joint_weight = in_.cal_joint_weight;
    opt.settle_s = in_.cal_settle_s;
    auto problem = std::make_shared<const ReplayProblem>(base_, space, set, map_, opt);
    EvalFunction fn = [problem](const Eigen::VectorXd& v) { return problem->evaluate(v); };
    CalibrationSettings s;
    s.generations = in_.cal_generations;
    s.lambda = in_.cal_population;
    s.sigma0 = in_.cal_sigma0;
    s.seed = in_.seed + 100u * static_cast<unsigned>(k) + 50u;
    s.validate();
    const std::string dir = idir + "/cal";
    const bool resume = fs::exists(dir + "/checkpoint.json");
    auto cal = openRun(space, s, dir, resume, {{"kind", "loop-calibrate"}, {"iteration", k}});
    auto ev = backend(jobs_, fn);
    if (!prior_.trials.empty())
      say("iteration %d: + %zu recorded trials of %s\n", k, prior_.trials.size(), in_.recordings.c_str());
    say("iteration %d: calibrating on %zu pairs (%d dimensions, %d generations x %d, encoder weight %g, settle %g "
        "s)%s\n",
        k, pairs_.size(), space.dimension(), s.generations, s.lambda, opt.joint_weight, opt.settle_s,
        resumedNote(resume, *cal).c_str());
    flush();
    cal->run(*ev, nullptr);
    ev.reset();
    *Eb = cal->initialFitness();
    *Ea = cal->bestFitness();
    writeFileAtomically(out_params, readTextFile(dir + "/best.params"));
    writeFileAtomically(summary, "E_cali_before_rad2_s,E_cali_after_rad2_s,pairs\n" + shortestText(*Eb) + "," +
                                     shortestText(*Ea) + "," + std::to_string(pairs_.size()) + "\n");
    return out_params;
  }

  void printCalibrated(int k, const std::string& params) const {
    std::string s;
    const ParameterSpace cal = ParameterSpace::load(params);
    for (const SpaceEntry& e : cal.entries()) s += " " + e.name + " " + fmt("%.4g", e.value);
    say("iteration %d: calibrated%s\n", k, s.c_str());
  }

  void printRow(const LoopTaskRow& r) const {
    say("iteration %d %-5s: sim V_ctrl %.4g (T %.3f s, %s in sim) | reality: tilt %.3f rad, height %.3f m at "
        "%.2f s: %s | E_cali %s -> %s rad^2 s (%d pairs)\n",
        r.iteration, r.task.c_str(), r.V_sim, r.T_s, r.upright_sim ? "upright" : "NOT upright", r.real.tilt_end_rad,
        r.real.height_end_m, r.real.t_end_s, r.real.upright ? "SUCCESS" : "FAIL",
        std::isnan(r.E_before) ? "-" : fmt("%.4g", r.E_before).c_str(),
        std::isnan(r.E_after) ? "-" : fmt("%.4g", r.E_after).c_str(), r.pairs);
  }

  void writeTable() const {
    std::string s =
        "iteration,task,T_s,V_ctrl_sim,upright_sim,tilt_end_real_rad,height_end_real_m,t_end_real_s,success_real,pairs,"
        "E_cali_before_rad2_s,E_cali_after_rad2_s\n";
    for (const auto& r : table_)
      s += std::to_string(r.iteration) + "," + r.task + "," + fmt("%.6g", r.T_s) + "," + fmt("%.6g", r.V_sim) + "," +
           (r.upright_sim ? "1" : "0") + "," + fmt("%.6g", r.real.tilt_end_rad) + "," +
           fmt("%.6g", r.real.height_end_m) + "," + fmt("%.6g", r.real.t_end_s) + "," + (r.real.upright ? "1" : "0") +
           "," + std::to_string(r.pairs) + "," + (std::isnan(r.E_before) ? "" : fmt("%.6g", r.E_before)) + "," +
           (std::isnan(r.E_after) ? "" : fmt("%.6g", r.E_after)) + "\n";
    writeFileAtomically(out_ + "/loop.csv", s);
  }

  SimToRealLoopOptions in_;
  std::string out_;
  int jobs_ = 2;
  std::FILE* report_ = nullptr;
  std::vector<std::string> tasks_;
  std::shared_ptr<const RobotModel> base_, hidden_;
  MotorMap map_;
  std::map<std::string, std::shared_ptr<const RisingTask>> tasks_default_;
  std::map<std::string, KeyframeController> current_;
  std::vector<Pair> pairs_;
  ReplaySet prior_;  ///< --recordings
  std::vector<LoopTaskRow> table_;
};

}  // namespace

SimToRealLoopResult runSimToRealLoop(const SimToRealLoopOptions& options, const std::string& dir, int jobs,
                                     std::FILE* report) {
  options.validate();
  if (jobs < 1) throw InputError("", 0, "--jobs", "must be >= 1");
  Loop loop(options, dir, jobs, report);
  loop.setup();
  fs::create_directories(dir);
  const nlohmann::json state = {{"inputs", options.toJson()}};
  writeFileAtomically(dir + "/loop.json", state.dump(2) + "\n");
  return loop.run();
}

}  // namespace gapsim::calib
