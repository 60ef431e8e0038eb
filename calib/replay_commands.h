// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// One recorded trial as something any player can play: the recording found by its path, and
/// the commands the real robot received as a Motion on the simulation clock. The GUI replays a
/// recording with these (File > Replay Real Recording), so what it shows is what
/// `gapsim-cli replay` scores.

#include <memory>
#include <string>

#include "calib/recording_replay.h"
#include "sim/motion.h"
#include "sim/mtn_reader.h"

namespace gapsim::calib {

/// The trial `recording_path` names (loadRecordingOf: the first trial of a .json manifest, a CSV
/// named by a recordings.json above it, or a CSV of the lean-to-stand layout), read alone.
/// InputError naming the file when it is none of these or is malformed.
ReplayTrial loadReplayTrial(const std::string& recording_path);

/// The motor map of a BIOLOID model: motor_map.csv next to its robot file, else the shipped
/// robots/bioloid/motor_map.csv (InputError from MotorMap::read for a bad file).
MotorMap motorMapFor(const RobotModel& model);

/// The commands of replayTrial() as a Motion whose time 0 is the recording's first frame:
///  - held (the trial's hold, unless o.hold_commands is false): the command at each switch time
///    (recorded frame, command row or fixed rate; in whole ticks of `map` if the trial was sent
///    so) from that time - time_s[0] until the next (a zero-order hold: equal-time frame pairs);
///  - otherwise: the commanded motion itself, shifted to start at the recording's first frame.
/// Joints of the commanded motion only; the others keep the model's initial pose.
std::shared_ptr<const Motion> replayCommands(const ReplayTrial& trial, const MotorMap& map, const ReplayOptions& o);

}  // namespace gapsim::calib
