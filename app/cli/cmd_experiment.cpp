// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli experiment motoflex-walk: the walking experiments of the MoToFlex paper (Urbann,
// Kerner, Tasse, RoboCup 2011, Section 5), open loop, both setups, each with every pipeline
// (plain ODE and the robot file's drivetrains), one table with the paper's figures beside.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <numbers>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "sim/input_error.h"
#include "sim/runner.h"
#include "sim/walk_generator.h"
#include "sim/walk_metrics.h"

namespace gapsim::cli {

namespace {

/// The paper's two setups. Walking time 10 s each (the paper's ES evaluated 10 s walks).
struct Setup {
  const char* name;         ///< file name stem
  const char* label;        ///< table label
  const char* walk;         ///< --walk parameters
  const char* paper_plain;  ///< what the paper reports for ODE only
  const char* paper_full;   ///< what it reports for MoToFlex and the real Nao
};
const Setup kSetups[] = {
    {"setup1_200mm_s_1s", "200 mm/s, 1 s steps", "speed=0.2,step_duration=1.0,duration=10", "ODE only: 200 mm/s",
     "MoToFlex 209 mm/s, real Nao 250 mm/s; pitch oscillation (real larger, same freq.)"},
    {"setup2_50mm_s_2s", "50 mm/s, 2 s steps", "speed=0.05,step_duration=2.0,duration=10", "ODE only: not reported",
     "real Nao: roll oscillation, falls after the first step; MoToFlex falls at a similar time"},
};

/// The pipelines compared. Adding one is one line: a name and how it sets up the run.
struct Pipeline {
  const char* name;
  void (*configure)(RunArgs&);
};
const Pipeline kPipelines[] = {
    {"plain", [](RunArgs& a) { a.plain = true; }},  // ideal position servos, rigid links
    {"full", [](RunArgs& a) { a.plain = false; }},  // the robot file's drivetrains and soft legs
};

std::string fmtNum(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

struct Options {
  std::string out_dir = "motoflex-walk";
  std::string stepper;    ///< empty: the robot file's solver
  bool feedback = false;  ///< play the walks with the controller they name instead of open loop
  std::vector<std::string> pipelines;
  std::string robot = "nao";
  bool force = false;
};

int runMotoflexWalk(const Options& o) {
  namespace fs = std::filesystem;
  claimOutputDir(o.out_dir, {}, o.force, "--out-dir");  // new or empty, unless --force
  std::vector<const Pipeline*> pipes;
  for (const Pipeline& p : kPipelines)
    if (o.pipelines.empty() || std::find(o.pipelines.begin(), o.pipelines.end(), p.name) != o.pipelines.end())
      pipes.push_back(&p);
  for (const std::string& n : o.pipelines)
    if (std::none_of(std::begin(kPipelines), std::end(kPipelines), [&](const Pipeline& p) { return n == p.name; }))
      throw InputError("", 0, "--pipelines", "unknown pipeline '" + n + "' (plain, full)");

  std::printf("MoToFlex walking experiments (paper Section 5): %s ZMP walk, robot %s, stepper %s\n",
              o.feedback ? "closed-loop (the walk's ankle balance)" : "open-loop", o.robot.c_str(),
              o.stepper.empty() ? "of the robot file" : o.stepper.c_str());
  std::printf("%-20s %-8s %10s %13s %9s %12s %8s  %-22s  %s\n", "setup", "pipeline", "speed_mm_s", "pitch_amp_deg",
              "pitch_Hz", "roll_amp_deg", "roll_Hz", "fell", "paper");
  for (const Setup& setup : kSetups) {
    bool first = true;
    for (const Pipeline* pipe : pipes) {
      RunArgs a;
      a.robot = o.robot;
      a.walk = setup.walk;
      a.stepper = o.stepper;
      a.open_loop = !o.feedback;  // the paper plays its walks open loop
      a.quiet = true;
      pipe->configure(a);
      RunSetup s = prepareRun(a);
      const WalkPlan& plan = *s.walk;
      if (first) plan.writeCsv((fs::path(o.out_dir) / (std::string(setup.name) + "_walk.csv")).string());
      std::fprintf(stderr, "running %s / %s ...\n", setup.name, pipe->name);
      const RunSummary sum = runMotion(*s.sim, s.motion.get(), s.config, s.log.get());
      const std::string stem = (fs::path(o.out_dir) / (std::string(setup.name) + "_" + pipe->name)).string();
      s.log->write(stem + ".csv");
      Log pr({"time_s", "torso/pitch_rad", "torso/roll_rad"});
      const int it = s.log->columnIndex("time_s"), ip = s.log->columnIndex("torso/pitch_rad"),
                ir = s.log->columnIndex("torso/roll_rad");
      for (size_t r = 0; r < s.log->rows(); ++r) {
        const double row[3] = {s.log->at(r, it), s.log->at(r, ip), s.log->at(r, ir)};
        pr.appendRow(row);
      }
      pr.write(stem + "_pitch_roll.csv");
      const WalkMetrics m = measureWalk(*s.log, plan, sum.fall_time_s);
      std::string fell = "no";
      if (sum.diverged)
        fell = "diverged";
      else if (m.fall_time_s)
        fell = fmtNum("%.2f s", *m.fall_time_s) + " (after " + std::to_string(m.steps_before_fall) + " steps)";
      auto cell = [&](const char* f, double v) { return m.has_steady ? fmtNum(f, v) : std::string("-"); };
      std::printf("%-20s %-8s %10s %13s %9s %12s %8s  %-22s  %s\n", first ? setup.label : "", pipe->name,
                  cell("%.1f", m.speed_m_s * 1000).c_str(),
                  cell("%.2f", m.pitch_amplitude_rad * 180 / std::numbers::pi).c_str(),
                  cell("%.2f", m.pitch_frequency_hz).c_str(),
                  cell("%.2f", m.roll_amplitude_rad * 180 / std::numbers::pi).c_str(),
                  cell("%.2f", m.roll_frequency_hz).c_str(), fell.c_str(),
                  std::string(pipe->name) == "plain" ? setup.paper_plain : setup.paper_full);
      std::fflush(stdout);
      first = false;
    }
  }
  std::printf("logs, pitch/roll CSVs and the walk motions: %s/\n", o.out_dir.c_str());
  return kExitOk;
}

}  // namespace

Action addExperiment(CLI::App& app) {
  app.require_subcommand(1);
  auto o = std::make_shared<Options>();
  CLI::App* mw = app.add_subcommand(
      "motoflex-walk",
      "The paper's walking experiments: 200 mm/s with 1 s steps and 50 mm/s with 2 s steps, open loop, with "
      "the plain pipeline (ideal servos) and the full one (drivetrains, soft legs); one table of forward speed, "
      "pitch and roll oscillation and falls, with the paper's figures; logs and pitch/roll CSVs per run");
  mw->add_option("--out-dir", o->out_dir, "directory of the logs")->capture_default_str();
  mw->add_flag("--feedback", o->feedback,
               "play the walks with the ankle balance they name (default: open loop, as the paper)");
  mw->add_option("--stepper", o->stepper, "quick or big (dWorldStep, exact); default: the robot file's")
      ->check(CLI::IsMember({"quick", "big"}))
      ->capture_default_str();
  mw->add_option("--pipelines", o->pipelines, "which pipelines: plain, full (default: all)")->delimiter(',');
  mw->add_option("--robot", o->robot, "the robot (a Nao)")->capture_default_str();
  addForceOption(*mw, o->force);
  return [o, mw] {
    if (mw->parsed()) return runMotoflexWalk(*o);
    return kExitBadInput;
  };
}

}  // namespace gapsim::cli
