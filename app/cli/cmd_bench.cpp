// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli bench: real-time factors of the shipped robots and a breakdown of where the time
// goes. Figures only: speed is never asserted in a test (the machines are noisy, +-30%).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/bench_calibration.h"
#include "app/cli/commands.h"
#include "app/cli/run_setup.h"
#include "sim/mabel_hop_run.h"
#include "sim/robot_library.h"

namespace gapsim::cli {

namespace {

struct BenchArgs {
  std::string robot = "nao";
  std::vector<std::string> motions{"walk_200mm_s_1s.csv", "kick.csv"};  ///< the job users do: a walk, the kick
  int reps = 3;
  double duration_s = 10.0;
  std::optional<int> iterations;
  std::optional<int> plain_iterations;  ///< default: the robot file's
  std::string stepper;
  bool plain_only = false;
  bool calibration = false;
  CalibrationBenchArgs calib;
  bool standing_only = false;
  std::string controller;  ///< hop: MABEL hopping under its controller (benchHop)
  std::string hop;         ///< --hop options
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double threadCpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// One repetition: real-time factors from wall and thread CPU time, and the stage breakdown.
struct Rep {
  double rtf_wall = 0, rtf_cpu = 0, us = 0, coll = 0, step = 0, rest = 0;
  std::string status;
};

Rep runOnce(const BenchArgs& b, const std::string& motion_path, bool plain) {
  RunArgs a;
  a.robot = b.robot;
  a.motion = motion_path;
  a.duration_s = b.duration_s;
  a.iterations = plain ? b.plain_iterations : b.iterations;
  a.stepper = plain ? std::string("quick") : b.stepper;
  a.quiet = true;
  a.plain = plain;
  RunSetup s = prepareRun(a, false, true);
  const double c0 = threadCpu_s();
  RunSummary sum = runMotion(*s.sim, s.motion.get(), s.config, nullptr);
  const double cpu = threadCpu_s() - c0;
  const StageTimes& t = s.sim->stageTimes();
  const double n = static_cast<double>(std::max(1L, t.steps));
  Rep r;
  r.rtf_wall = sum.rtf;
  r.rtf_cpu = cpu > 0 ? sum.sim_time_s / cpu : 0.0;
  r.us = cpu / n * 1e6;
  // Stage shares of the step's wall time (steady clock: under load the absolute figures inflate).
  const double total = std::max(t.total_s, 1e-12);
  r.coll = 100.0 * t.collide_s / total;
  r.step = 100.0 * t.step_s / total;
  r.rest = 100.0 * (t.total_s - t.collide_s - t.step_s) / total;  // actuate (drivetrains) and checks
  r.status = sum.diverged
                 ? "diverged"
                 : (sum.fall_time_s ? "fell at " + std::to_string(*sum.fall_time_s).substr(0, 5) + " s" : "upright");
  return r;
}

void print(const std::string& label, const std::vector<Rep>& reps) {
  std::vector<double> cpu, wall, us, coll, step, rest;
  for (const Rep& r : reps) {
    cpu.push_back(r.rtf_cpu);
    wall.push_back(r.rtf_wall);
    us.push_back(r.us);
    coll.push_back(r.coll);
    step.push_back(r.step);
    rest.push_back(r.rest);
  }
  std::printf(
      "%-34s rtf %6.2f [%6.2f..%6.2f] (wall %6.2f)  cpu us/step %6.1f: collide %2.0f%% ode_step %2.0f%% "
      "drivetrains+rest %2.0f%%  (%s)\n",
      label.c_str(), median(cpu), *std::min_element(cpu.begin(), cpu.end()), *std::max_element(cpu.begin(), cpu.end()),
      median(wall), median(us), median(coll), median(step), median(rest), reps.front().status.c_str());
}

/// One case (standing or a motion): plain and full repetitions alternate (after one warm-up of
/// each), so that a change of machine load hits both; the ratio is the median of the per-round
/// ratios of thread-CPU real-time factors.
double benchCase(const BenchArgs& b, const std::string& name, const std::string& motion_path) {
  std::vector<Rep> plain, full;
  std::vector<double> ratio;
  runOnce(b, motion_path, true);  // warm-up
  if (!b.plain_only) runOnce(b, motion_path, false);
  for (int r = 0; r < b.reps; ++r) {
    plain.push_back(runOnce(b, motion_path, true));
    if (b.plain_only) continue;
    full.push_back(runOnce(b, motion_path, false));
    ratio.push_back(full.back().rtf_cpu / plain.back().rtf_cpu);
  }
  print(b.robot + " " + name + ", plain", plain);
  if (b.plain_only) return 0.0;
  print(b.robot + " " + name + ", full", full);
  std::printf("%-34s full/plain %.2f [%.2f..%.2f]\n", (b.robot + " " + name).c_str(), median(ratio),
              *std::min_element(ratio.begin(), ratio.end()), *std::max_element(ratio.begin(), ratio.end()));
  return median(ratio);
}

/// --controller hop: MABEL's real-time factor while hopping (sim/mabel_hop_run.h), the full model
/// only (a plain model cannot hop: its joints are position servos).
int benchHop(const BenchArgs& b) {
  const MabelHopController::Params hp = parseHopParams(b.hop);
  std::printf(
      "gapsim bench: %s hopping under the Appendix D controller, %.1f s simulated per repetition, %d reps "
      "after a warm-up;\nrtf = simulated s per thread-CPU s (median [min..max])\n",
      b.robot.c_str(), b.duration_s, b.reps);
  std::vector<Rep> reps;
  std::string hops;
  for (int r = 0; r <= b.reps; ++r) {
    RunArgs a;
    a.robot = b.robot;
    a.duration_s = b.duration_s;
    a.iterations = b.iterations;
    a.stepper = b.stepper;
    a.quiet = true;
    RunSetup s = prepareRun(a, false, true);
    SimOptions so;
    so.profile = true;
    so.iterations = b.iterations;
    if (!b.stepper.empty()) so.quickstep = b.stepper == "quick";
    auto model = hopStartModel(*s.model, hp.drop_m);
    Simulation sim(model, so);
    MabelHopController ctl(sim, hp);
    const double c0 = threadCpu_s();
    const HopSummary h = runHop(sim, ctl, s.config, nullptr);
    const double cpu = threadCpu_s() - c0;
    if (r == 0) continue;  // warm-up
    const StageTimes& t = sim.stageTimes();
    const double total = std::max(t.total_s, 1e-12);
    Rep rep;
    rep.rtf_wall = h.run.rtf;
    rep.rtf_cpu = cpu > 0 ? h.run.sim_time_s / cpu : 0.0;
    rep.us = cpu / static_cast<double>(std::max(1L, t.steps)) * 1e6;
    rep.coll = 100.0 * t.collide_s / total;
    rep.step = 100.0 * t.step_s / total;
    rep.rest = 100.0 * (t.total_s - t.collide_s - t.step_s) / total;
    rep.status = std::to_string(h.hops) + " hops" +
                 (h.fall_time_s ? ", fell at " + std::to_string(*h.fall_time_s).substr(0, 5) + " s" : ", upright");
    reps.push_back(rep);
  }
  print(b.robot + " hopping", reps);
  return kExitOk;
}

}  // namespace

Action addBench(CLI::App& app) {
  auto b = std::make_shared<BenchArgs>();
  app.add_option("--robot", b->robot, "robot to measure")->capture_default_str();
  app.add_option("--motion", b->motions,
                 "moving motions (file names under robots/<robot>/motions, or paths); standing is always measured")
      ->capture_default_str();
  app.add_option("--reps", b->reps, "measured rounds per case (after one warm-up)")->capture_default_str();
  app.add_option("--duration", b->duration_s, "simulated seconds per repetition")->capture_default_str();
  app.add_option("--iterations", b->iterations, "QuickStep iterations of the full runs (default: the robot file's)");
  app.add_option("--stepper", b->stepper, "stepper of the full runs: quick or big")
      ->check(CLI::IsMember({"quick", "big"}));
  app.add_option("--plain-iterations", b->plain_iterations,
                 "QuickStep iterations of the plain runs (default: the robot file's)");
  app.add_flag("--plain-only", b->plain_only, "measure only the plain model");
  app.add_flag("--calibration", b->calibration,
               "instead: calibration evaluations per second with 1 and 2 worker processes, alternating rounds, "
               "and the scaling efficiency (app/cli/bench_calibration.h)");
  app.add_option("--space", b->calib.space, "--calibration: parameter space (default: calib/examples/nao_twin)");
  app.add_option("--scenarios", b->calib.scenarios, "--calibration: scenario set (default: calib/examples/nao_twin)");
  app.add_option("--evals", b->calib.evaluations, "--calibration: evaluations per round and worker count")
      ->capture_default_str();
  app.add_option("--rounds", b->calib.rounds, "--calibration: alternating 1/2-worker rounds")->capture_default_str();
  app.add_flag("--standing-only", b->standing_only, "measure only the standing robot (no motions)");
  app.add_option("--controller", b->controller, "instead: the robot under a controller (hop: MABEL hopping)")
      ->check(CLI::IsMember({"hop"}));
  app.add_option("--hop", b->hop, "--controller hop: controller options, as for run --hop");
  return [b] {
    if (b->controller == "hop") return benchHop(*b);
    if (b->calibration) {
      b->calib.robot = b->robot;
      b->calib.stepper = b->stepper;
      return runCalibrationBench(b->calib);
    }
    if (b->reps < 1) throw std::invalid_argument("--reps must be >= 1");
    namespace fs = std::filesystem;
    const std::string plain_it = b->plain_iterations ? std::to_string(*b->plain_iterations) + " iterations"
                                                     : std::string("the robot file's solver");
    std::printf(
        "gapsim bench: %s, %.0f s simulated per repetition, %d rounds, one thread, dt from the robot file\n"
        "plain = ideal velocity servos, rigid links, %s; full = the robot file's drivetrains and soft\n"
        "links at its own solver settings; motions play with the controller they name (defaults)\n"
        "rtf = simulated s per thread-CPU s (median [min..max]); plain and full alternate in each round;\n"
        "the stage shares are of the step's wall time\n",
        b->robot.c_str(), b->duration_s, b->reps, plain_it.c_str());
    std::vector<std::pair<std::string, double>> ratios;
    ratios.emplace_back("standing", benchCase(*b, "standing", ""));
    for (const std::string& m : b->standing_only ? std::vector<std::string>{} : b->motions) {
      std::string path = m;
      if (!fs::exists(path)) path = (fs::path(robotsDirectory()) / b->robot / "motions" / m).string();
      const std::string name = fs::path(path).stem().string();
      ratios.emplace_back(name, benchCase(*b, name, path));
    }
    if (b->plain_only) return kExitOk;
    std::printf("full/plain speed:");
    for (std::size_t k = 0; k < ratios.size(); ++k)
      std::printf("%s %s %.2f", k ? "," : "", ratios[k].first.c_str(), ratios[k].second);
    std::printf("\n(targets on the Nao's 200 mm/s walk: full >= 12x, plain >= 18x real time on one core)\n");
    return kExitOk;
  };
}

}  // namespace gapsim::cli
