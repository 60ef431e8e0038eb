// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/run_setup.h"

#include <filesystem>
#include <iostream>
#include <map>

#include "sim/ankle_balance.h"
#include "sim/input_error.h"
#include "sim/key_values.h"
#include "sim/motion_readers.h"
#include "sim/mtn_reader.h"
#include "sim/parameters.h"
#include "sim/plausible.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "sim/walk_generator.h"

namespace gapsim::cli {

void addRunArgs(CLI::App& app, RunArgs& a) {
  app.add_option("--robot", a.robot, "nao, bioloid, mabel or a path to a robot file")->capture_default_str();
  app.add_option("--motion", a.motion,
                 "motion file: CSV keyframes (time_s + joints), a joint table with "
                 "--frame-period, or a Webots .motion");
  app.add_option("--page", a.page,
                 "page (name or number) of a RoboPlus .mtn motion; ticks are mapped to joints "
                 "with motor_map.csv next to the robot file (robots/bioloid/motor_map.csv)");
  app.add_option("--walk", a.walk,
                 "generate a walk and play it, e.g. speed=0.2,step_duration=1.0 (keys: " + walkParamKeys() +
                     "; see docs/walk.md)");
  app.add_option("--frame-period", a.frame_period_s, "frame period (s) of a joint table without time column");
  app.add_option("--duration", a.duration_s, "simulated time (s); default: the motion's length + 1 s, or 10 s");
  app.add_option("--dt", a.dt_s, "physics step (s); default from the robot file (0.001)");
  app.add_option("--iterations", a.iterations, "QuickStep iterations; default from the robot file");
  app.add_option("--stepper", a.stepper, "quick (dWorldQuickStep) or big (dWorldStep)")
      ->check(CLI::IsMember({"quick", "big"}));
  app.add_option("--out", a.out, "write the log (CSV) here");
  app.add_option("--log-period", a.log_period_s, "log sample period (s)")->capture_default_str();
  app.add_option("--seed", a.seed, "seed of every random choice in the run")->capture_default_str();
  app.add_flag("--stop-on-fall", a.stop_on_fall, "end the run when the robot falls");
  app.add_flag("--quiet", a.quiet, "no warnings about the robot file");
  app.add_flag("--plain", a.plain, "plain ODE: ideal position servos on every joint, rigid links");
  app.add_option("--params", a.params_file, "parameter file (CSV name,value) applied to the robot");
  app.add_option("--set", a.sets,
                 "set a parameter, e.g. --set legs/typeA/gear/D_g=6e6 (repeatable); "
                 "`gapsim-cli params ROBOT` lists the names");
  app.add_option("--controller", a.controller,
                 "closed-loop controller instead of a motion: hop (MABEL's "
                 "hopping controller, docs/mabel.md)")
      ->check(CLI::IsMember({"hop"}));
  app.add_option("--hop", a.hop, "hopping-controller parameters, e.g. torso_update=0,K_Tor=0.5 (docs/mabel.md)");
  app.add_option("--balance", a.balance,
                 "gyro feedback on the stance ankles while the motion plays, e.g. "
                 "roll_rate=0.1 (keys: " +
                     fieldKeys(balanceParamFields()) + "; docs/walk.md)");
  app.add_flag("--open-loop", a.open_loop,
               "play the motion without the controller its file names "
               "(walks name the ankle balance: `# controller:` line, docs/walk.md)");
  app.add_option("--probe", a.probes,
                 "log internal signals whose column matches this glob, e.g. 'LKnee*' "
                 "(repeatable)");
}

SimOptions simOptions(const RunArgs& a, bool profile) {
  SimOptions so;
  so.seed = a.seed;
  so.dt_s = a.dt_s;
  so.iterations = a.iterations;
  if (!a.stepper.empty()) so.quickstep = a.stepper == "quick";
  so.profile = profile;
  return so;
}

std::shared_ptr<RobotModel> loadRobotWithSettings(const RunArgs& a) {
  auto model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile(a.robot)));
  if (!a.params_file.empty()) loadParameterFile(*model, a.params_file);
  for (const auto& s : a.sets) setParameterAssignment(*model, s);
  return model;
}

std::shared_ptr<RobotModel> loadConfiguredModel(const RunArgs& a) {
  auto model = loadRobotWithSettings(a);
  if (a.plain) makePlain(*model);
  return model;
}

namespace {

/// A RoboPlus page: motor map next to the robot file (else the shipped BIOLOID's), played from
/// the model's initial pose.
Motion loadMtnPage(const RunArgs& a, const RobotModel& model) {
  if (a.frame_period_s) throw InputError("", 0, "--frame-period", "a .mtn file carries its own times");
  const MtnFile file = MtnFile::read(a.motion);
  if (a.page.empty()) {
    std::string pages;
    for (const auto& n : file.pageNames()) pages += (pages.empty() ? "" : ", ") + n;
    throw InputError(a.motion, 0, "--page", "a .mtn file holds many pages: choose one (pages: " + pages + ")");
  }
  std::string map_file = std::filesystem::path(model.source_file).parent_path() / "motor_map.csv";
  if (!std::filesystem::exists(map_file)) map_file = robotsDirectory() + "/bioloid/motor_map.csv";
  std::map<std::string, double> initial;
  for (std::size_t j = 0; j < model.joints.size(); ++j) initial[model.joints[j].name] = model.initial_q[j];
  return mtnPageMotion(file, a.page, MotorMap::read(map_file), initial);
}

}  // namespace

RunSetup prepareRun(const RunArgs& a, bool with_log, bool profile) {
  RunSetup s;
  // --plain comes after the walk's plan: the robot's own drives decide its fit to their speed
  // (WalkParams::fit_drive_speed), so plain and full runs play the same walk.
  auto model = loadRobotWithSettings(a);
  if (!a.walk.empty()) {
    if (!a.motion.empty()) throw InputError("", 0, "--walk", "give --motion or --walk, not both");
    s.walk = planWalk(*model, parseWalkParams(a.walk));
    if (const std::string fit = s.walk->driveFitNote(); !fit.empty() && !a.quiet)
      std::cerr << "--walk: " << fit << "\n";
    s.motion = std::make_unique<Motion>(s.walk->motion("--walk"));
  }
  if (a.plain) makePlain(*model);
  if (!a.quiet)
    for (const auto& w : model->warnings) std::cerr << "warning: " << model->source_file << ": " << w << "\n";
  s.model = model;
  if (!a.motion.empty() && isMtnPath(a.motion))
    s.motion = std::make_unique<Motion>(loadMtnPage(a, *model));
  else if (!a.motion.empty())
    s.motion = std::make_unique<Motion>(loadMotion(a.motion, a.frame_period_s));
  else if (a.frame_period_s)
    throw InputError("", 0, "--frame-period", "given without --motion");
  if (!a.page.empty() && !isMtnPath(a.motion)) throw InputError("", 0, "--page", "given without a .mtn --motion");
  if (s.motion) {
    std::vector<std::string> names;
    for (const Joint& j : model->joints) names.push_back(j.name);
    s.motion->checkJoints(names);
  }
  // inf or 1e308 s ran zero steps (the step count overflows), 1e-300 s too: refused with the range.
  if (a.dt_s) plausible::check(*a.dt_s, plausible::kTimeStep_s, "", 0, "--dt");
  if (a.duration_s) plausible::check(*a.duration_s, plausible::kDuration_s, "", 0, "--duration");
  plausible::check(a.log_period_s, plausible::kLogPeriod_s, "", 0, "--log-period");
  if (a.iterations && (*a.iterations < 1 || *a.iterations > 10000))
    throw InputError("", 0, "--iterations", "must be within 1..10000");
  s.sim = std::make_unique<Simulation>(s.model, simOptions(a, profile));
  s.config.duration_s = a.duration_s.value_or(s.motion ? s.motion->endTime_s() + 1.0 : 10.0);
  s.config.log_period_s = a.log_period_s;
  s.config.stop_on_fall = a.stop_on_fall;
  if (!a.balance.empty()) {
    if (!s.motion) throw InputError("", 0, "--balance", "needs a motion to add the feedback to (--motion or --walk)");
    if (a.open_loop) throw InputError("", 0, "--balance", "give --balance or --open-loop, not both");
    s.config.balance = parseBalanceParams(a.balance);
  } else if (s.motion && !a.open_loop) {
    // The controller the motion names plays by default (walks and the kick name the ankle balance).
    s.config.balance = motionController(*s.motion);
    if (s.config.balance && !a.quiet)
      std::cerr << "controller: " << s.motion->controller() << " (named by the motion; --open-loop plays it without)\n";
  }
  if (s.config.balance)
    AnkleBalance check(*s.model, *s.config.balance);  // refuses a robot without ankles now, not mid-run
  if (!a.probes.empty()) {
    const auto available = Recorder::probeColumns(*s.model);
    for (const auto& p : a.probes)
      if (Recorder(*s.model, {p}).columns().size() == Recorder(*s.model).columns().size())
        throw InputError("", 0, "--probe",
                         "'" + p + "' matches no probe" +
                             (available.empty() ? std::string(" (this robot has none: its joints are ideal servos)")
                                                : " (e.g. " + available.front() + ")"));
  }
  s.config.probe_patterns = a.probes;
  if (with_log) s.log = std::make_unique<Log>(Recorder(*s.model, a.probes).columns());
  return s;
}

}  // namespace gapsim::cli
