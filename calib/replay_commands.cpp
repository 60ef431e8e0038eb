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
  const RecordingManifest m = loadRecordingOf(recording_path);
  return readTrial(m.trials.front());
}

MotorMap motorMapFor(const RobotModel& model) {
  std::string map_file = (fs::path(model.source_file).parent_path() / "motor_map.csv").string();
  if (!fs::exists(map_file)) map_file = robotsDirectory() + "/bioloid/motor_map.csv";
  return MotorMap::read(map_file);
}

namespace {

/// As replayTrial: at a jump (two rows with one time) the earlier row applies at that time (the
/// authors' Motion.cpp), so commands are sampled one ulp early.
std::vector<double> sampleLeftLimit(const Motion& cmd, double t) {
  std::vector<double> q;
  cmd.sampleAll(std::nextafter(t, -std::numeric_limits<double>::infinity()), q);
  return q;
}

/// Continuous commands: the command's own frames after t0 (jumps kept), after the first command
/// held while settling.
std::shared_ptr<const Motion> continuousCommands(const ReplayTrial& trial, double t0, double settle) {
  const Motion& cmd = *trial.motion;
  std::vector<double> times = {0.0};
  std::vector<std::vector<double>> values = {sampleLeftLimit(cmd, t0)};
  if (settle > 0) {
    times.push_back(settle);
    values.push_back(values.front());
  }
  for (std::size_t k = 0; k < cmd.frameCount(); ++k) {
    const double t = cmd.times_s()[k];
    if (t <= t0) continue;
    // The earlier row of a jump is the left limit at its time; any other frame the value at it.
    std::vector<double> v(cmd.jointCount());
    if (k + 1 < cmd.frameCount() && cmd.times_s()[k + 1] == t)
      v = sampleLeftLimit(cmd, t);
    else
      cmd.sampleAll(t, v);
    times.push_back(t - t0 + settle);
    values.push_back(v);
  }
  return std::make_shared<const Motion>(cmd.joints(), std::move(times), std::move(values), trial.motion_path);
}

/// The times a held command changes, as replayTrial: the recorded frames, the command's rows or
/// a fixed rate from the first frame.
std::vector<double> switchTimes(const ReplayTrial& trial, const std::vector<double>& t_rec) {
  if (trial.spec.hold == CommandHold::kFrames) return t_rec;
  if (trial.spec.hold == CommandHold::kRows) return trial.motion->times_s();
  std::vector<double> sw;
  const double t0 = t_rec.front();
  for (long k = 0; t0 + static_cast<double>(k) * (1.0 / trial.spec.rate_hz) <= t_rec.back(); ++k)
    sw.push_back(t0 + static_cast<double>(k) * (1.0 / trial.spec.rate_hz));
  return sw;
}

/// Held commands: steps at the switch times, each command quantised to whole Dynamixel ticks
/// where the trial says they were sent so.
std::shared_ptr<const Motion> heldCommands(const ReplayTrial& trial, const MotorMap& map,
                                           const std::vector<double>& t_rec, double settle) {
  const Motion& cmd = *trial.motion;
  const std::size_t J = cmd.jointCount();
  const double t0 = t_rec.front();
  // Motion column -> motor map entry (null: not a Dynamixel of the map: unquantised), as replayTrial.
  std::vector<const MotorMapEntry*> entry(J, nullptr);
  if (trial.spec.whole_ticks)
    for (std::size_t c = 0; c < J; ++c)
      for (const auto& e : map.entries)
        if (e.joint == cmd.joints()[c]) entry[c] = &e;
  auto command = [&](double t) {
    std::vector<double> q = sampleLeftLimit(cmd, t);
    for (std::size_t c = 0; c < J; ++c)
      if (entry[c]) {
        const double tick = std::trunc(MotorMap::radToTick(*entry[c], q[c]) + 1e-3);  // as replayTrial
        q[c] = MotorMap::tickToRad(*entry[c], tick);
      }
    return q;
  };
  const std::vector<double> sw = switchTimes(trial, t_rec);
  std::size_t first = 0;
  if (trial.spec.hold != CommandHold::kFrames)
    while (first + 1 < sw.size() && sw[first + 1] <= t0) ++first;
  // replayTrial switches to time k when sw[k] <= t0 + t_sim - settle + 1e-12; the step frames
  // sit that 1e-12 s early so that a player sampling at t_sim switches at the same step.
  std::vector<double> held_q = command(sw.empty() || sw[first] > t0 ? t0 : sw[first]);
  std::vector<double> times = {0.0};
  std::vector<std::vector<double>> values = {held_q};
  for (std::size_t k = first + 1; k < sw.size(); ++k) {
    const double t = std::max(0.0, sw[k] - t0 + settle - 1e-12);
    times.push_back(t);
    values.push_back(held_q);  // ends the hold of the previous switch
    held_q = command(sw[k]);
    times.push_back(t);
    values.push_back(held_q);
  }
  return std::make_shared<const Motion>(cmd.joints(), std::move(times), std::move(values), trial.recording_path);
}

}  // namespace

std::shared_ptr<const Motion> replayCommands(const ReplayTrial& trial, const MotorMap& map, const ReplayOptions& o) {
  const std::vector<double> t_rec = trial.recording->column("time_s");
  const double settle =
      trial.spec.settle_s ? *trial.spec.settle_s : o.settle_s;  // replayTrial holds the first command this long first
  const bool held = o.hold_commands && trial.spec.hold != CommandHold::kContinuous;
  return held ? heldCommands(trial, map, t_rec, settle) : continuousCommands(trial, t_rec.front(), settle);
}

}  // namespace gapsim::calib
