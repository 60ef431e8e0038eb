// SPDX-License-Identifier: BSD-3-Clause
#include "calib/replay_commands.h"

#include <cmath>
#include <filesystem>
#include <limits>

#include "sim/input_error.h"
#include "sim/robot_library.h"

namespace gapsim::calib {

namespace fs = std::filesystem;

ReplayTrial loadReplayTrial(const std::string& recording_path) {
  std::error_code ec;
  const fs::path rec = fs::weakly_canonical(fs::absolute(recording_path), ec);
  if (ec || !fs::is_regular_file(rec))
    throw InputError(recording_path, 0, "", "no such recording");
  // The package root is the nearest ancestor that holds rising/lean-to-stand.
  fs::path root;
  for (fs::path p = rec.parent_path(); !p.empty(); p = p.parent_path()) {
    if (fs::is_directory(p / "rising" / "lean-to-stand") && fs::is_directory(p / "motions")) {
      root = p;
      break;
    }
    if (p == p.root_path()) break;
  }
  if (root.empty())
    throw InputError(recording_path, 0, "",
                     "not a lean-to-stand recording of the BIOLOID data package (expected a CSV below "
                     "<package>/rising/lean-to-stand, e.g. ../shared/real-data/bioloid)");
  // The trial name as ReplaySet names it: the path below rising/lean-to-stand without .csv.
  const fs::path rel = rec.lexically_relative(root / "rising" / "lean-to-stand");
  if (rel.empty() || *rel.begin() == "..")
    throw InputError(recording_path, 0, "", "not a trial of " + root.string() + " (expected rising/lean-to-stand/<dur>-<n>.csv)");
  std::string name = (rel.parent_path() / rel.stem()).generic_string();
  const bool cable = rel.parent_path() == "withPowerCable";
  return readTrial(root.string(), rec.string(), name, cable);
}

MotorMap motorMapFor(const RobotModel& model) {
  std::string map_file = (fs::path(model.source_file).parent_path() / "motor_map.csv").string();
  if (!fs::exists(map_file)) map_file = robotsDirectory() + "/bioloid/motor_map.csv";
  return MotorMap::read(map_file);
}

std::shared_ptr<const Motion> replayCommands(const ReplayTrial& trial, const MotorMap& map, const ReplayOptions& o) {
  const Motion& cmd = *trial.motion;
  const std::vector<double> t_rec = trial.recording->column("time_s");
  const double t0 = t_rec.front();
  const double settle = o.settle_s;  // replayTrial holds the first command this long first
  const std::size_t J = cmd.jointCount();
  // As replayTrial: at a jump (two rows with one time) the earlier row applies at that time (the
  // authors' Motion.cpp), so commands are sampled one ulp early.
  auto sample = [&](double t) {
    std::vector<double> q;
    cmd.sampleAll(std::nextafter(t, -std::numeric_limits<double>::infinity()), q);
    return q;
  };
  std::vector<double> times;
  std::vector<std::vector<double>> values;
  if (!o.hold_commands) {
    // The command's own frames after t0 (jumps kept), after the first command held while settling.
    times = {0.0};
    values = {sample(t0)};
    if (settle > 0) {
      times.push_back(settle);
      values.push_back(values.front());
    }
    for (std::size_t k = 0; k < cmd.frameCount(); ++k) {
      const double t = cmd.times_s()[k];
      if (t <= t0) continue;
      // The earlier row of a jump is the left limit at its time; any other frame the value at it.
      std::vector<double> v(J);
      if (k + 1 < cmd.frameCount() && cmd.times_s()[k + 1] == t) v = sample(t);
      else cmd.sampleAll(t, v);
      times.push_back(t - t0 + settle);
      values.push_back(v);
    }
    return std::make_shared<const Motion>(cmd.joints(), std::move(times), std::move(values), trial.motion_path);
  }
  // Motion column -> motor map entry (null: not a Dynamixel of the map: unquantised), as replayTrial.
  std::vector<const MotorMapEntry*> entry(J, nullptr);
  for (std::size_t c = 0; c < J; ++c)
    for (const auto& e : map.entries)
      if (e.joint == cmd.joints()[c]) entry[c] = &e;
  auto command = [&](double t) {
    std::vector<double> q = sample(t);
    for (std::size_t c = 0; c < J; ++c)
      if (entry[c]) {
        const double tick = std::trunc(MotorMap::radToTick(*entry[c], q[c]) + 1e-3);  // as replayTrial
        q[c] = MotorMap::tickToRad(*entry[c], tick);
      }
    return q;
  };
  // replayTrial switches to frame k when time_s[k] <= t0 + t_sim - settle + 1e-12; the step frames
  // sit that 1e-12 s early so that a player sampling at t_sim switches at the same step.
  std::vector<double> held = command(t_rec[0]);
  times.push_back(0.0);
  values.push_back(held);
  for (std::size_t k = 1; k < t_rec.size(); ++k) {
    const double t = std::max(0.0, t_rec[k] - t0 + settle - 1e-12);
    times.push_back(t);
    values.push_back(held);  // ends the hold of the previous frame
    held = command(t_rec[k]);
    times.push_back(t);
    values.push_back(held);
  }
  return std::make_shared<const Motion>(cmd.joints(), std::move(times), std::move(values), trial.recording_path);
}

}  // namespace gapsim::calib
