// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli record: a simulation run written as a recording set (a recording manifest,
// docs/recordings.md): plays a motion on a robot from its robot file's pose, or a BIOLOID rising
// task's keyframe controller from the task's pose and scene, and writes
// DIR/<name>.csv (the recording), DIR/<name>_command<ext> (the commanded motion as played) and
// DIR/recordings.json (created, or the trial added), so `gapsim-cli replay --recordings DIR`
// replays it. A stand-in for a real robot's set, or a twin experiment's reference.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli/commands.h"
#include "app/cli/run_setup.h"
#include "calib/calibration.h"
#include "calib/recording_manifest.h"
#include "calib/recording_writer.h"
#include "sim/input_error.h"
#include "sim/keyframe_controller.h"
#include "sim/motion_readers.h"
#include "sim/rising_task.h"
#include "sim/simulation.h"
#include "sim/text_file.h"

namespace gapsim::cli {

namespace fs = std::filesystem;

namespace {

struct RecordArgs {
  RunArgs ra;
  std::string dir, name, units = "rad", role = "train";
  std::vector<std::string> tags;
  calib::RecordSettings s;
  std::string task, controller;
  std::optional<double> settle_s;
  bool force = false;
};

/// What a trial plays: a motion file, or a rising task's keyframe controller as a motion on the
/// task's model (its scene and initial pose), with the command file's text.
struct Played {
  std::shared_ptr<const RobotModel> model;
  std::optional<Motion> motion;
  std::string command_text, command_ext, default_name;
  double default_duration_s = 0, default_settle_s = 0;
  bool task = false;
};

Played playedMotion(const RunArgs& ra, std::shared_ptr<const RobotModel> robot) {
  Played p;
  p.model = std::move(robot);
  p.motion = loadMotion(ra.motion);
  if (!ra.page.empty())
    throw InputError(ra.motion, 0, "--page", "record plays CSV and .motion files; convert the page with run first");
  p.motion->checkJoints([&] {
    std::vector<std::string> n;
    for (const Joint& j : p.model->joints) n.push_back(j.name);
    return n;
  }());
  p.command_text = readTextFile(ra.motion);
  p.command_ext = fs::path(ra.motion).extension().string();
  p.default_name = fs::path(ra.motion).stem().string();
  p.default_duration_s = p.motion->endTime_s() + 0.5;
  return p;
}

/// A BIOLOID rising task (sim/rising_task.h): the robot placed and settled as `rise` does, then
/// the controller's keyframes as a continuous command; recorded until T + 1 s, the time `rise`
/// scores. A stand-in for a real recording of another task than lean-to-stand.
Played playedTask(const RecordArgs& a, const RobotModel& robot) {
  if (a.controller.empty())
    throw InputError("", 0, "--controller", "a rising task plays a keyframe controller: give --controller FILE");
  const RisingTask task = makeRisingTask(a.task, robot);
  const KeyframeController ctrl = KeyframeController::read(a.controller);
  ctrl.checkAgainst(task.legs);
  Played p;
  p.task = true;
  p.model = task.model;
  p.motion = ctrl.toMotion(*task.model, task.legs, task.start_q);
  std::vector<std::string> cols = {"time_s"};
  for (const std::string& j : p.motion->joints()) cols.push_back(j);
  Log cmd(cols);
  std::vector<double> row(cols.size());
  for (std::size_t f = 0; f < p.motion->frameCount(); ++f) {
    row[0] = p.motion->times_s()[f];
    for (std::size_t c = 0; c < p.motion->jointCount(); ++c) row[c + 1] = p.motion->givenValue_rad(f, c);
    cmd.appendRow(row);
  }
  p.command_text =
      "# " + a.task + " controller " + a.controller + " as a motion (gapsim-cli record --task)\n" + cmd.toCsv();
  p.command_ext = ".csv";
  p.default_name = a.task;
  p.default_duration_s = ctrl.duration_s() + 1.0;
  p.default_settle_s = task.settle_s;
  return p;
}

/// The placed pose of a rising task's robot and its scene, stated in the trial so that replay
/// starts where the recording did (the robot file's pose is the standing one).
void describeTaskStart(const RobotModel& m, nlohmann::json& trial, double settle_s) {
  nlohmann::json joints = nlohmann::json::object();
  for (int j : m.movableJoints()) joints[m.joints[static_cast<std::size_t>(j)].name] = m.initial_q[j];
  const Simulation placed(std::make_shared<const RobotModel>(m));  // where the compile step puts the root
  const Eigen::Isometry3d root = placed.linkPose(m.root_link);
  auto rotvec = [](const Eigen::Matrix3d& r) {
    const Eigen::AngleAxisd aa(r);
    const Eigen::Vector3d v = aa.axis() * aa.angle();
    return std::vector<double>{v.x(), v.y(), v.z()};
  };
  const Eigen::Vector3d x = root.translation();
  trial["initial_pose"] = {{"from", "explicit"},
                           {"joints_rad", joints},
                           {"root", {{"xyz_m", {x.x(), x.y(), x.z()}}, {"rotvec_rad", rotvec(root.linear())}}},
                           {"settle_s", settle_s}};
  nlohmann::json boxes = nlohmann::json::array();
  for (const SceneBox& b : m.scene_boxes) {
    const Eigen::Vector3d c = b.pose.translation();
    boxes.push_back({{"name", b.name},
                     {"size_m", {b.size_m.x(), b.size_m.y(), b.size_m.z()}},
                     {"center_m", {c.x(), c.y(), c.z()}},
                     {"rotvec_rad", rotvec(b.pose.linear())}});
  }
  trial["scene"] = {{"boxes", boxes}};
}

/// What `gapsim-cli record` does once its options are parsed.
int runRecord(const std::shared_ptr<RecordArgs>& a) {
  if (a->units != "rad" && a->units != "deg")
    throw InputError("", 0, "--units", "'" + a->units + "': expected rad or deg");
  if (a->role != "train" && a->role != "validate" && a->role != "test")
    throw InputError("", 0, "--role", "'" + a->role + "': expected train, validate or test");
  RunArgs ra = a->ra;
  ra.quiet = true;
  if (ra.motion.empty() == a->task.empty())
    throw InputError("", 0, ra.motion.empty() ? "--motion" : "--task",
                     "give either a motion (--motion FILE) or a rising task (--task lean|sit|kneel --controller FILE)");
  const auto robot = loadConfiguredModel(ra);
  const Played played = a->task.empty() ? playedMotion(ra, robot) : playedTask(*a, *robot);
  const Motion& motion = *played.motion;
  calib::RecordSettings s = a->s;
  s.degrees = a->units == "deg";
  if (s.duration_s == 0) s.duration_s = played.default_duration_s;
  s.settle_s = a->settle_s.value_or(played.default_settle_s);
  s.validate();
  const std::string name = a->name.empty() ? played.default_name : a->name;
  if (name.empty() || name.find('/') != std::string::npos)
    throw InputError("", 0, "--name", "'" + name + "': expected a file name without '/'");

  // The manifest first: a clash is refused before anything is written.
  fs::create_directories(a->dir);
  const std::string manifest = (fs::path(a->dir) / "recordings.json").string();
  nlohmann::json m;
  if (fs::exists(manifest)) {
    calib::loadRecordings(manifest);  // InputError if it is not a valid manifest
    m = nlohmann::json::parse(readTextFile(manifest));
  } else {
    m = {{"format", "gapsim-recordings 1"},
         {"description", "recorded from gapsim simulation runs (gapsim-cli record)"},
         {"authors_wall", false},
         {"trials", nlohmann::json::array()}};
  }
  nlohmann::json& trials = m["trials"];
  for (std::size_t k = 0; k < trials.size(); ++k)
    if (trials[k].value("name", "") == name) {
      if (!a->force)
        throw InputError(manifest, 0, "--name",
                         "'" + name + "': the set has a trial of this name (--force replaces it)");
      trials.erase(k);
      break;
    }

  const RobotModel& model = *played.model;
  const Log rec = calib::recordRun(model, motion, s);
  const std::string rec_file = name + ".csv";
  const std::string cmd_file = name + "_command" + played.command_ext;
  calib::writeFileAtomically((fs::path(a->dir) / rec_file).string(), rec.toCsv());
  calib::writeFileAtomically((fs::path(a->dir) / cmd_file).string(), played.command_text);

  const std::string u = a->units;
  const std::string imu = model.imus.empty() ? model.links[model.root_link].name : model.imus.front().name;
  nlohmann::json t = {{"name", name},
                      {"recording", rec_file},
                      {"robot", ra.robot},
                      {"initial_pose", {{"from", "robot"}, {"settle_s", s.settle_s}}},
                      {"commands", {{"file", cmd_file}, {"hold", "continuous"}, {"units", "rad"}}},
                      {"signals",
                       {{{"column", imu + "/tilt_" + u}, {"unit", u}, {"weight", 1.0}},
                        {{"column", "*/q_" + u}, {"unit", u}, {"weight", 1.0}},
                        {{"column", "com/z_m"}, {"unit", "m"}, {"weight", 1.0}}}},
                      {"role", a->role},
                      {"tags", a->tags}};
  if (played.task) describeTaskStart(model, t, s.settle_s);
  if (fs::exists(ra.robot)) t["robot"] = fs::absolute(ra.robot).lexically_normal().string();
  if (!ra.params_file.empty()) t["params"] = fs::absolute(ra.params_file).lexically_normal().string();
  trials.push_back(t);
  calib::writeFileAtomically(manifest, m.dump(2) + "\n");
  calib::loadRecordings(manifest);  // what was written reads back
  std::printf("record: %s on %s, %.3f s at %g Hz (%zu frames, angles in %s) -> %s/%s, trial %s in %s\n",
              played.task ? ("task " + a->task + " with " + a->controller).c_str() : ra.motion.c_str(),
              model.name.c_str(), s.duration_s, s.frame_rate_hz, rec.rows(), u.c_str(), a->dir.c_str(),
              rec_file.c_str(), name.c_str(), manifest.c_str());
  return kExitOk;
}

}  // namespace

Action addRecord(CLI::App& app) {
  auto a = std::make_shared<RecordArgs>();
  a->ra.robot = "bioloid";
  app.add_option("--robot", a->ra.robot, "robot name or file")->capture_default_str();
  app.add_option("--params", a->ra.params_file, "parameter file applied to the robot (the model that records)");
  app.add_option("--set", a->ra.sets, "parameter name=value (repeatable, after --params)");
  app.add_option("--motion", a->ra.motion, "the commanded motion (CSV, .motion, .mtn with --page)");
  app.add_option("--task", a->task,
                 "instead of a motion: a BIOLOID rising task (lean, sit or kneel), placed and "
                 "settled as `rise` does");
  app.add_option("--controller", a->controller, "the rising task's keyframe controller CSV");
  app.add_option("--settle", a->settle_s,
                 "hold the first command this long before the recording starts (s; default: the task's settle "
                 "time, 0 for a motion)");
  app.add_option("--page", a->ra.page, "the page of a RoboPlus .mtn motion");
  app.add_option("--out", a->dir, "the recording set's directory (recordings.json is created or extended)")->required();
  app.add_option("--name", a->name, "trial name (default: the motion file's stem)");
  app.add_option("--duration", a->s.duration_s,
                 "recorded time (s; default: the motion's end + 0.5 s, a task's T + 1 s)");
  app.add_option("--frame-rate", a->s.frame_rate_hz, "frames per second")->capture_default_str();
  app.add_option("--units", a->units, "angle unit of the joint and tilt columns: rad or deg")->capture_default_str();
  app.add_option("--role", a->role, "the trial's role: train, validate or test")->capture_default_str();
  app.add_option("--tag", a->tags, "a free tag of the trial (repeatable)");
  app.add_option("--sim-seed", a->s.sim_seed, "SimOptions::seed")->capture_default_str();
  app.add_flag("--force", a->force, "replace a trial of the same name");
  return [a] { return runRecord(a); };
}

}  // namespace gapsim::cli
