// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// (commanded motion, recording) pairs of the BIOLOID rising tasks, in the dialect of the real
/// lean-to-stand data (real-data/bioloid README), so that the sim-to-reality loop (paper 002)
/// calibrates on them with the very code that replays the real trials (calib/recording_replay.h).
///
///  - Commanded motion: a keyframe controller on a task is piecewise linear from the start pose,
///    so it is exactly a motion CSV `time_s,<joint>...` with one row per knot (t = 0, t_1, .., T)
///    over the 16 joints of the real data (hip yaws are not commanded: 0 in every task and
///    controller). The real robot's tooling plays it like motions/lean-to-stand/<dur>.csv.
///  - Recording: the real-data columns `time_s, <joint>/q_rad x16, torso/tilt_rad,
///    torso/pitch_signed_rad, torso/rotvec_{x,y,z}, torso/{x,y,z}_m`, t = 0 when the motion starts.
///  - Pair replay: ReplayTrial with the task's scene boxes; the replay starts from the recording's
///    first frame (joints, torso orientation, x, y; z by ground clearance) as for the real trials.
///  - Outcome on reality: the recording's last frame is upright when its tilt is below the task's
///    upright tilt and the torso origin is above the task's height (sim/rising_task.h).

#include <memory>
#include <string>
#include <vector>

#include "calib/recording_replay.h"
#include "sim/keyframe_controller.h"
#include "sim/log_writer.h"
#include "sim/rising_task.h"

namespace gapsim::calib {

/// The 16 joints of the real BIOLOID data, in its column order.
const std::vector<std::string>& realDataJoints();

/// The recording columns of the real data (time_s first), in order.
std::vector<std::string> realRecordingColumns();

/// The controller on the task as a motion CSV text (knots at 0, t_1, .., T; values of every joint
/// of realDataJoints(); the motion is held after T). InputError if the model lacks a joint.
std::string commandedMotionCsv(const RisingTask& task, const KeyframeController& ctrl);

/// Reads a rising-task recording and checks it (InputError naming file, line and column: a
/// missing column, fewer than two frames, time not increasing, a non-finite value).
std::shared_ptr<const Log> readRisingRecording(const std::string& path);

/// A pair as a replay trial on the scene of `task` (the motion CSV and recording are read).
ReplayTrial risingPairTrial(const std::string& name, const RisingTask& task, const std::string& motion_path,
                            const std::string& recording_path);

struct RealityOutcome {
  double t_end_s = 0;       ///< time of the last frame
  double tilt_end_rad = 0;  ///< torso tilt in the last frame
  double height_end_m = 0;  ///< torso origin z in the last frame
  double max_tilt_rad = 0;
  bool upright = false;   ///< tilt below task.upright_tilt_rad and height above task.upright_height_m
  bool complete = false;  ///< the recording reaches T + 1 (within one frame, 50 ms)
};

/// Success on reality from a recording of a controller of duration T on `task`.
RealityOutcome realityOutcome(const Log& recording, const RisingTask& task, double T_s);

}  // namespace gapsim::calib
