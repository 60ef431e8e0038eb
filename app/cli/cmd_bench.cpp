// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli bench: real-time factors of the shipped robots and a breakdown of where the time
// goes. Figures only: speed is never asserted in a test (the machines are noisy, +-30%).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/run_setup.h"
#include "sim/robot_library.h"

namespace gapsim::cli {

namespace {

struct BenchArgs {
  std::string robot = "nao";
  std::string motion = "squat.csv";
  int reps = 3;
  double duration_s = 10.0;
  std::optional<int> iterations;
  int plain_iterations = 20;
  std::string stepper;
  bool plain_only = false;
};

struct Figures {
  double rtf = 0, us = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

Figures benchOne(const BenchArgs& b, const std::string& label, const std::string& motion_path, bool plain) {
  RunArgs a;
  a.robot = b.robot;
  a.motion = motion_path;
  a.duration_s = b.duration_s;
  a.iterations = plain ? std::optional<int>(b.plain_iterations) : b.iterations;
  a.stepper = b.stepper;
  a.quiet = true;
  a.plain = plain;
  std::vector<double> rtf, us, coll, step, rest;
  std::string status;
  for (int r = 0; r <= b.reps; ++r) {  // r = 0 is a discarded warm-up
    RunSetup s = prepareRun(a, false, true);
    RunSummary sum = runMotion(*s.sim, s.motion.get(), s.config, nullptr);
    const StageTimes& t = s.sim->stageTimes();
    if (r == 0) {
      status = sum.diverged ? "diverged" : (sum.fall_time_s ? "fell" : "upright");
      continue;
    }
    rtf.push_back(sum.rtf);
    const double n = static_cast<double>(std::max(1L, t.steps));
    us.push_back(sum.wall_s / n * 1e6);
    coll.push_back(t.collide_s / n * 1e6);
    step.push_back(t.step_s / n * 1e6);
    rest.push_back((sum.wall_s - t.collide_s - t.step_s) / n * 1e6);
  }
  std::printf("%-40s rtf median %6.2f [min %6.2f max %6.2f]  us/step %6.1f = collide %5.1f + ode_step %6.1f + rest %5.1f  (%s)\n",
              label.c_str(), median(rtf), *std::min_element(rtf.begin(), rtf.end()),
              *std::max_element(rtf.begin(), rtf.end()), median(us), median(coll), median(step), median(rest),
              status.c_str());
  return {median(rtf), median(us)};
}

}  // namespace

Action addBench(CLI::App& app) {
  auto b = std::make_shared<BenchArgs>();
  app.add_option("--robot", b->robot, "robot to measure")->capture_default_str();
  app.add_option("--motion", b->motion, "moving motion (file name under robots/<robot>/motions, or a path)")
      ->capture_default_str();
  app.add_option("--reps", b->reps, "measured repetitions per case (after one warm-up)")->capture_default_str();
  app.add_option("--duration", b->duration_s, "simulated seconds per repetition")->capture_default_str();
  app.add_option("--iterations", b->iterations, "QuickStep iterations (default: the robot file's)");
  app.add_option("--stepper", b->stepper, "quick or big")->check(CLI::IsMember({"quick", "big"}));
  app.add_option("--plain-iterations", b->plain_iterations, "QuickStep iterations of the plain runs")
      ->capture_default_str();
  app.add_flag("--plain-only", b->plain_only, "measure only the plain model");
  return [b] {
    if (b->reps < 1) throw std::invalid_argument("--reps must be >= 1");
    namespace fs = std::filesystem;
    std::string motion = b->motion;
    if (!fs::exists(motion)) motion = (fs::path(robotsDirectory()) / b->robot / "motions" / b->motion).string();
    std::printf("gapsim bench: %s, %.0f s simulated per repetition, %d repetitions, one thread, dt from the robot file\n"
                "plain = ideal velocity servos, rigid links, QuickStep %d iterations (the raw-ODE reference's setup);\n"
                "full  = the robot file's drivetrains and soft links at its own iteration count\n",
                b->robot.c_str(), b->duration_s, b->reps, b->plain_iterations);
    const std::string mname = fs::path(motion).stem().string();
    const Figures ps = benchOne(*b, b->robot + " standing, plain", "", true);
    const Figures pm = benchOne(*b, b->robot + " " + mname + ", plain", motion, true);
    if (b->plain_only) return kExitOk;
    const Figures fs_ = benchOne(*b, b->robot + " standing, full", "", false);
    const Figures fm = benchOne(*b, b->robot + " " + mname + ", full", motion, false);
    std::printf("full/plain speed: standing %.2f, %s %.2f (target >= 0.8)\n", fs_.rtf / ps.rtf, mname.c_str(),
                fm.rtf / pm.rtf);
    return kExitOk;
  };
}

}  // namespace gapsim::cli
