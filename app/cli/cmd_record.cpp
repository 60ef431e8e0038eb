// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli record: a simulation run written as a recording set (a recording manifest,
// docs/recordings.md): plays a motion on a robot from its robot file's pose and writes
// DIR/<name>.csv (the recording), DIR/<name>_command<ext> (the commanded motion as played) and
// DIR/recordings.json (created, or the trial added), so `gapsim-cli replay --recordings DIR`
// replays it. A stand-in for a real robot's set, or a twin experiment's reference.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/run_setup.h"
#include "calib/calibration.h"
#include "calib/recording_manifest.h"
#include "calib/recording_writer.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/text_file.h"

namespace gapsim::cli {

namespace fs = std::filesystem;

namespace {

struct RecordArgs {
  RunArgs ra;
  std::string dir, name, units = "rad", role = "train";
  std::vector<std::string> tags;
  calib::RecordSettings s;
  bool force = false;
};

/// What `gapsim-cli record` does once its options are parsed.
int runRecord(const std::shared_ptr<RecordArgs>& a) {
  if (a->units != "rad" && a->units != "deg")
    throw InputError("", 0, "--units", "'" + a->units + "': expected rad or deg");
  if (a->role != "train" && a->role != "validate" && a->role != "test")
    throw InputError("", 0, "--role", "'" + a->role + "': expected train, validate or test");
  RunArgs ra = a->ra;
  ra.quiet = true;
  const auto model = loadConfiguredModel(ra);
  const Motion motion = loadMotion(ra.motion);
  if (!ra.page.empty())
    throw InputError(ra.motion, 0, "--page", "record plays CSV and .motion files; convert the page with run first");
  motion.checkJoints([&] {
    std::vector<std::string> n;
    for (const Joint& j : model->joints) n.push_back(j.name);
    return n;
  }());
  calib::RecordSettings s = a->s;
  s.degrees = a->units == "deg";
  if (s.duration_s == 0) s.duration_s = motion.endTime_s() + 0.5;
  s.validate();
  const std::string name = a->name.empty() ? fs::path(ra.motion).stem().string() : a->name;
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

  const Log rec = calib::recordRun(*model, motion, s);
  const std::string rec_file = name + ".csv";
  const std::string cmd_file = name + "_command" + fs::path(ra.motion).extension().string();
  calib::writeFileAtomically((fs::path(a->dir) / rec_file).string(), rec.toCsv());
  calib::writeFileAtomically((fs::path(a->dir) / cmd_file).string(), readTextFile(ra.motion));

  const std::string u = a->units;
  const std::string imu = model->imus.empty() ? model->links[model->root_link].name : model->imus.front().name;
  nlohmann::json t = {{"name", name},
                      {"recording", rec_file},
                      {"robot", ra.robot},
                      {"initial_pose", {{"from", "robot"}, {"settle_s", 0.0}}},
                      {"commands", {{"file", cmd_file}, {"hold", "continuous"}, {"units", "rad"}}},
                      {"signals",
                       {{{"column", imu + "/tilt_" + u}, {"unit", u}, {"weight", 1.0}},
                        {{"column", "*/q_" + u}, {"unit", u}, {"weight", 1.0}},
                        {{"column", "com/z_m"}, {"unit", "m"}, {"weight", 1.0}}}},
                      {"role", a->role},
                      {"tags", a->tags}};
  if (fs::exists(ra.robot)) t["robot"] = fs::absolute(ra.robot).lexically_normal().string();
  if (!ra.params_file.empty()) t["params"] = fs::absolute(ra.params_file).lexically_normal().string();
  trials.push_back(t);
  calib::writeFileAtomically(manifest, m.dump(2) + "\n");
  calib::loadRecordings(manifest);  // what was written reads back
  std::printf("record: %s on %s, %.3f s at %g Hz (%zu frames, angles in %s) -> %s/%s, trial %s in %s\n",
              ra.motion.c_str(), model->name.c_str(), s.duration_s, s.frame_rate_hz, rec.rows(), u.c_str(),
              a->dir.c_str(), rec_file.c_str(), name.c_str(), manifest.c_str());
  return kExitOk;
}

}  // namespace

Action addRecord(CLI::App& app) {
  auto a = std::make_shared<RecordArgs>();
  a->ra.robot = "bioloid";
  app.add_option("--robot", a->ra.robot, "robot name or file")->capture_default_str();
  app.add_option("--params", a->ra.params_file, "parameter file applied to the robot (the model that records)");
  app.add_option("--set", a->ra.sets, "parameter name=value (repeatable, after --params)");
  app.add_option("--motion", a->ra.motion, "the commanded motion (CSV, .motion, .mtn with --page)")->required();
  app.add_option("--page", a->ra.page, "the page of a RoboPlus .mtn motion");
  app.add_option("--out", a->dir, "the recording set's directory (recordings.json is created or extended)")->required();
  app.add_option("--name", a->name, "trial name (default: the motion file's stem)");
  app.add_option("--duration", a->s.duration_s, "recorded time (s; default: the motion's end + 0.5 s)");
  app.add_option("--frame-rate", a->s.frame_rate_hz, "frames per second")->capture_default_str();
  app.add_option("--units", a->units, "angle unit of the joint and tilt columns: rad or deg")->capture_default_str();
  app.add_option("--role", a->role, "the trial's role: train, validate or test")->capture_default_str();
  app.add_option("--tag", a->tags, "a free tag of the trial (repeatable)");
  app.add_option("--sim-seed", a->s.sim_seed, "SimOptions::seed")->capture_default_str();
  app.add_flag("--force", a->force, "replace a trial of the same name");
  return [a] { return runRecord(a); };
}

}  // namespace gapsim::cli
