// SPDX-License-Identifier: BSD-3-Clause
#include "calib/recorded_commands.h"

#include <cmath>
#include <limits>

namespace gapsim::calib {

namespace {

/// The times at which a held command changes (kContinuous: none).
std::vector<double> commandSwitchTimes(const ReplayTrial& trial, const std::vector<double>& t_rec) {
  switch (trial.spec.hold) {
    case CommandHold::kFrames:
      return t_rec;
    case CommandHold::kRows:
      return trial.motion->times_s();
    case CommandHold::kRate: {
      std::vector<double> out;
      const double dt = 1.0 / trial.spec.rate_hz;
      for (long k = 0; t_rec.front() + static_cast<double>(k) * dt <= t_rec.back(); ++k)
        out.push_back(t_rec.front() + static_cast<double>(k) * dt);
      return out;
    }
    case CommandHold::kContinuous:
      break;
  }
  return {};
}

}  // namespace

RecordedCommands::RecordedCommands(const RobotModel& model, const ReplayTrial& trial, const MotorMap& map,
                                   const ReplayOptions& o, const std::vector<double>& t_rec)
    : trial_(trial),
      frame_times_s_(t_rec),
      held_(o.hold_commands && trial.spec.hold != CommandHold::kContinuous),
      quantise_(held_ && trial.spec.whole_ticks),
      switch_times_s_(held_ ? commandSwitchTimes(trial, t_rec) : std::vector<double>{}),
      target_(model.initial_q) {
  std::vector<std::string> names;
  for (const Joint& j : model.joints) names.push_back(j.name);
  to_joint_ = trial.motion->mapJoints(names);
  entry_.assign(to_joint_.size(), nullptr);
  for (std::size_t c = 0; c < to_joint_.size(); ++c)
    for (const auto& e : map.entries)
      if (e.joint == trial.motion->joints()[c]) entry_[c] = &e;
}

void RecordedCommands::balanceWith(const RobotModel& model) {
  if (!trial_.spec.balance.empty()) balance_.emplace(model, *parseMotionController(trial_.spec.balance, trial_.name));
}

void RecordedCommands::command(double t, bool whole_ticks) {
  // At a jump (two rows with one time) the authors' Motion.cpp applies the earlier row for t
  // equal to that time (data README); gapsim's Motion the later one. Sampling one ulp earlier
  // gives the data's rule: the 0.00 ramp's frame 0 (t = 0) commands the start pose, not the end.
  trial_.motion->sampleAll(std::nextafter(t, -std::numeric_limits<double>::infinity()), values_, cursor_);
  for (std::size_t c = 0; c < to_joint_.size(); ++c) {
    double q = values_[c];
    if (whole_ticks && entry_[c]) {
      // C++ int() of the tick value; + 1e-3 tick undoes the 6-decimal rounding of the motion
      // CSVs (<= 1e-4 tick), so a knot at a whole tick stays that tick.
      const double tick = std::trunc(MotorMap::radToTick(*entry_[c], q) + 1e-3);
      q = MotorMap::tickToRad(*entry_[c], tick);
    }
    target_[static_cast<std::size_t>(to_joint_[c])] = q;
  }
}

void RecordedCommands::apply(Simulation& sim) { sim.setTargets(balance_ ? balance_->adjust(sim, target_) : target_); }

void RecordedCommands::applyFirst(Simulation& sim) {
  const double t_first = frame_times_s_.front();
  if (held_) {
    // Rows or a rate may start before the recording: the command in force at its first frame.
    if (trial_.spec.hold != CommandHold::kFrames)
      while (cmd_frame_ + 1 < switch_times_s_.size() && switch_times_s_[cmd_frame_ + 1] <= t_first) ++cmd_frame_;
    command(!switch_times_s_.empty() && switch_times_s_[cmd_frame_] <= t_first ? switch_times_s_[cmd_frame_] : t_first,
            quantise_);
  } else {
    command(t_first, false);
  }
  apply(sim);
}

void RecordedCommands::update(Simulation& sim) {
  const double t = t0_s_ + sim.time_s();
  if (held_) {
    // The command of switch time k applies from that time on.
    bool changed = false;
    while (cmd_frame_ + 1 < switch_times_s_.size() && switch_times_s_[cmd_frame_ + 1] <= t + 1e-12) {
      ++cmd_frame_;
      changed = true;
    }
    if (changed) command(switch_times_s_[cmd_frame_], quantise_);
  } else {
    command(t, false);
  }
  apply(sim);
}

}  // namespace gapsim::calib
