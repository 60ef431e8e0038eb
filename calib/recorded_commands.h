// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The commands a recorded trial's robot received, set as the simulation's targets before every
/// step of its replay (replayTrial, calib/recording_replay.h): held from each switch time (the
/// recorded frames, the command file's rows or a fixed rate; in whole Dynamixel ticks when the
/// trial was sent so) or, for a continuous stream, the commanded motion at the current time;
/// through the trial's ankle balance (sim/ankle_balance.h) when it names one.
///
/// The replay's clock: recording time = t0 + simulation time, t0 fixed after the settle.

#include <optional>
#include <vector>

#include "calib/recording_replay.h"
#include "sim/ankle_balance.h"
#include "sim/run_loop.h"

namespace gapsim::calib {

class RecordedCommands : public Controller {
 public:
  /// `t_rec`: the recording's frame times. Throws InputError when the commanded motion names a
  /// joint `model` lacks.
  RecordedCommands(const RobotModel& model, const ReplayTrial& trial, const MotorMap& map, const ReplayOptions& o,
                   const std::vector<double>& t_rec);
  /// Plays the commands through the trial's ankle balance (InputError for a bad balance line).
  void balanceWith(const RobotModel& model);
  /// Sets the command in force at the recording's first frame, once: the settle holds it.
  void applyFirst(Simulation& sim);
  /// From here on, recording time = t0_s + simulation time.
  void setClockOffset(double t0_s) { t0_s_ = t0_s; }
  void update(Simulation& sim) override;

 private:
  void command(double t_s, bool whole_ticks);
  void apply(Simulation& sim);

  const ReplayTrial& trial_;
  const std::vector<double>& frame_times_s_;
  bool held_, quantise_;
  std::vector<double> switch_times_s_;       // times at which a held command changes
  std::size_t cmd_frame_ = 0;                // switch time whose command is held
  std::vector<int> to_joint_;                // motion column -> model joint
  std::vector<const MotorMapEntry*> entry_;  // motion column -> motor map entry (null: unquantised)
  std::vector<double> target_, values_;
  MotionCursor cursor_;
  std::optional<AnkleBalance> balance_;
  double t0_s_ = 0.0;
};

}  // namespace gapsim::calib
