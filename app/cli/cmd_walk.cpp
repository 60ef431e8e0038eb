// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli walk: generate an open-loop Nao walk (ZMP preview control + analytic IK, see
// sim/walk_generator.h) or the keyframe kick, and write it as an ordinary motion CSV.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "sim/input_error.h"
#include "sim/motion_speed_check.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "sim/walk_generator.h"
#include "sim/walk_kick.h"

namespace gapsim::cli {

namespace {

/// One note when joints' targets outrun their drives (sim/motion_speed_check.h): the full
/// pipeline will play the motion slower there than planned.
void noteJointsTooFast(const char* what, const RobotModel& model, const GeneratedMotion& motion) {
  const std::vector<JointTooFast> too_fast = jointsFasterThanTheirDrives(model, motion);
  if (too_fast.empty()) return;
  std::string names;
  for (const JointTooFast& j : too_fast) names += (names.empty() ? "" : " ") + j.joint;
  const JointTooFast& j = too_fast.front();
  std::printf(
      "%s: note: the targets of %zu joint(s) turn faster than their drives can (%s); %s: %.1f rad/s at t = %.2f s, "
      "%.2f times its no-load speed %.1f rad/s. With the full pipeline they lag behind (docs/walk.md)\n",
      what, too_fast.size(), names.c_str(), j.joint.c_str(), j.peak_rad_s, j.at_s, j.peak_rad_s / j.no_load_rad_s,
      j.no_load_rad_s);
}

struct WalkArgs {
  std::string robot = "nao";
  std::optional<double> speed, lateral_speed, turn_rate, step_duration, step_height, com_height, double_support,
      foot_spacing, duration, torso_pitch;
  std::optional<int> steps;
  std::string params;
  bool kick = false;
  std::string out;
  bool force = false;
};

}  // namespace

Action addWalk(CLI::App& app) {
  auto a = std::make_shared<WalkArgs>();
  app.description(
      "Generate an open-loop walk (ZMP preview control on the cart-table model, analytic leg IK) and "
      "write it as a motion CSV: time_s plus the leg joints in radians. Play it with "
      "`gapsim-cli run --motion FILE` (or generate and play at once with `run --walk key=value,...`). "
      "step_duration is the gait cycle (one step with each foot). See docs/walk.md.");
  app.add_option("--robot", a->robot, "a Nao-like robot (name or file)")->capture_default_str();
  // Help texts take unit, meaning and default from the walk's field table: one place.
  auto help = [](const char* key) {
    const WalkParams defaults;
    for (const auto& f : walkParamFields())
      if (f.name == key)
        return std::string(f.description) + " (" + std::string(f.unit) + "); default " + sixDigits(f.get(defaults));
    return std::string(key);
  };
  app.add_option("--speed", a->speed, help("forward_speed"));
  app.add_option("--lateral-speed", a->lateral_speed, help("lateral_speed"));
  app.add_option("--turn-rate", a->turn_rate, help("turn_rate"));
  app.add_option("--step-duration", a->step_duration, help("step_duration"));
  app.add_option("--step-height", a->step_height, help("step_height"));
  app.add_option("--com-height", a->com_height, help("com_height"));
  app.add_option("--double-support", a->double_support, help("double_support"));
  app.add_option("--foot-spacing", a->foot_spacing, help("foot_spacing"));
  auto* steps = app.add_option("--steps", a->steps, help("steps"));
  auto* dur = app.add_option("--duration", a->duration, "walking time (s), instead of --steps");
  steps->excludes(dur);
  app.add_option("--torso-pitch", a->torso_pitch, help("torso_pitch"));
  app.add_option("--params", a->params,
                 "further walk parameters as key=value,... (keys: " + walkParamKeys() +
                     "; `gapsim-cli params --controller walk` lists them)");
  app.add_flag("--kick", a->kick, "write the keyframe kick (sim/walk_kick.h) instead of a walk");
  app.add_option("--out", a->out, "motion CSV to write")->required();
  addForceOption(app, a->force);
  return [a] {
    claimOutputFile(a->out, a->force);
    const RobotModel model = loadRobotFile(resolveRobotFile(a->robot));
    if (a->kick) {
      const GeneratedMotion k = planKick(model);
      k.writeCsv(a->out);
      std::printf("kick: %zu frames, %.2f s -> %s\n", k.frame_times_s.size(), k.frame_times_s.back(), a->out.c_str());
      noteJointsTooFast("kick", model, k);
      return kExitOk;
    }
    WalkParams p = parseWalkParams(a->params);
    auto set = [](double& field, const std::optional<double>& v) {
      if (v) field = *v;
    };
    set(p.forward_speed_m_s, a->speed);
    set(p.lateral_speed_m_s, a->lateral_speed);
    set(p.turn_rate_rad_s, a->turn_rate);
    set(p.step_duration_s, a->step_duration);
    set(p.step_height_m, a->step_height);
    set(p.com_height_m, a->com_height);
    set(p.double_support_fraction, a->double_support);
    set(p.foot_spacing_m, a->foot_spacing);
    set(p.torso_pitch_rad, a->torso_pitch);
    if (a->steps) {
      p.steps = *a->steps;
      p.duration_s.reset();
    }
    if (a->duration) p.duration_s = *a->duration;
    const WalkPlan plan = planWalk(model, p);
    plan.writeCsv(a->out);
    const Footstep& last = plan.footsteps.back();
    std::printf(
        "walk: %d steps of %.3f s, %.3f m/s commanded, ends at (%.3f, %.3f) m yaw %.3f rad; walking %.2f..%.2f s, "
        "motion %.2f s, %zu frames -> %s\n",
        p.stepCount(), p.stepTime_s(), p.forward_speed_m_s, last.x_m, last.y_m, last.yaw_rad, plan.walk_start_s,
        plan.walk_end_s, plan.frame_times_s.back(), plan.frame_times_s.size(), a->out.c_str());
    if (const std::string fit = plan.driveFitNote(); !fit.empty()) std::printf("walk: %s\n", fit.c_str());
    noteJointsTooFast("walk", model, plan);
    return kExitOk;
  };
}

}  // namespace gapsim::cli
