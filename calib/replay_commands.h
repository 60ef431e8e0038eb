// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// One real BIOLOID trial as something any player can play: the recording found by its path, and
/// the commands the real robot received as a Motion on the simulation clock. The GUI replays a
/// recording with these (File > Replay Real Recording), so what it shows is what
/// `gapsim-cli replay` scores.

#include <memory>
#include <string>

#include "calib/recording_replay.h"
#include "sim/motion.h"
#include "sim/mtn_reader.h"

namespace gapsim::calib {

/// The trial of the data package that holds `recording_path` (a CSV below
/// <root>/rising/lean-to-stand, where <root> also holds motions/lean-to-stand), read alone (not the
/// whole package). InputError naming the file when it is not inside such a package or is malformed.
ReplayTrial loadReplayTrial(const std::string& recording_path);

/// The motor map of a BIOLOID model: motor_map.csv next to its robot file, else the shipped
/// robots/bioloid/motor_map.csv (InputError from MotorMap::read for a bad file).
MotorMap motorMapFor(const RobotModel& model);

/// The commands of replayTrial() as a Motion whose time 0 is the recording's first frame:
///  - hold_commands: frame k's command (the motion at time_s[k], truncated to whole ticks of `map`)
///    from time_s[k] - time_s[0] until the next frame (a zero-order hold: equal-time frame pairs);
///  - otherwise: the commanded motion itself, shifted to start at the recording's first frame.
/// Joints of the commanded motion only; the others keep the model's initial pose.
std::shared_ptr<const Motion> replayCommands(const ReplayTrial& trial, const MotorMap& map, const ReplayOptions& o);

}  // namespace gapsim::calib
