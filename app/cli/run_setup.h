// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The options shared by `run`, `demo` and `bench`, and turning them into a ready Simulation.

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>

#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/runner.h"
#include "sim/simulation.h"
#include "sim/walk_generator.h"

namespace gapsim::cli {

struct RunArgs {
  std::string robot = "nao";
  std::string motion;
  std::string page;  ///< --page: the page to play of a RoboPlus .mtn motion
  std::optional<double> frame_period_s;
  std::optional<double> duration_s;
  std::optional<double> dt_s;
  std::optional<int> iterations;
  std::string stepper;  // "", quick, big
  std::string out;
  double log_period_s = 0.01;
  std::uint64_t seed = 0;
  bool stop_on_fall = false;
  bool quiet = false;
  bool plain = false;               ///< ideal servos, rigid links ("plain ODE")
  std::vector<std::string> sets;    ///< name=value parameter assignments, in order
  std::string params_file;          ///< parameter file applied before `sets`
  std::vector<std::string> probes;  ///< glob patterns of probe columns to log
  std::string walk;                 ///< --walk key=value,...: generate a walk (sim/walk_generator.h) and play it
  std::string controller;           ///< --controller hop: MABEL's hopping controller (sim/mabel_hop_controller.h)
  std::string hop;                  ///< --hop key=value,...: hopping-controller parameters
  std::string balance;     ///< --balance key=value,...: gyro feedback on the stance ankles (sim/ankle_balance.h)
  bool open_loop = false;  ///< --open-loop: ignore the controller the motion names (Motion::controller)
  bool force = false;      ///< --force: replace an existing output (app/cli/output_paths.h)
};

struct RunSetup {
  std::shared_ptr<const RobotModel> model;
  std::unique_ptr<Motion> motion;
  std::optional<WalkPlan> walk;  ///< the plan --walk generated, if any
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<Log> log;
  RunConfig config;
};

void addRunArgs(CLI::App& app, RunArgs& a);
/// Loads a robot file and applies --params and --set (in that order), not --plain.
std::shared_ptr<RobotModel> loadRobotWithSettings(const RunArgs& a);
/// loadRobotWithSettings, then --plain.
std::shared_ptr<RobotModel> loadConfiguredModel(const RunArgs& a);
/// The simulation options --seed, --dt, --iterations and --stepper ask for (unset: the robot
/// file's); `profile` times the stages (bench).
SimOptions simOptions(const RunArgs& a, bool profile);
/// Loads robot and motion (InputError on bad input), builds the simulation and an empty log.
RunSetup prepareRun(const RunArgs& a, bool with_log = true, bool profile = false);

}  // namespace gapsim::cli
