// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The virtual real BIOLOID of the sim-to-reality loop: a rising task on a model with hidden
/// parameters, driven like the real robot and recorded like it (calib/rising_pair.h dialect).
///
/// Like the real set-up (real-data/bioloid README, "Time and commands"):
///  - the robot rests `task.settle_s` holding the start pose (placed on the wall, seat or knees);
///  - then the `ctrl` app's loop runs at frame times t_0 = 0 < t_1 < ... (period `frame_period_s`
///    plus a uniform jitter of +-`period_jitter_s`, seeded), until T + 1: in frame k it sends the
///    commanded motion at t_k, truncated to whole Dynamixel ticks (motor map), held until the
///    next frame, and records the frame;
///  - a frame holds the encoders (the true joint angle rounded to a whole tick) and the torso
///    pose from motion capture: rotation with a small random rotation of `mocap_noise_rad` per
///    axis (Gaussian), origin with `mocap_noise_m` per axis; tilt and signed pitch come from the
///    noisy rotation, as the data package computes them.
/// Deterministic: the same inputs and seeds give the same recording.

#include <cstdint>

#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/mtn_reader.h"
#include "sim/rising_task.h"

namespace gapsim::calib {

struct RisingTwinSettings {
  double frame_period_s = 1.0 / 60.0;  ///< the real recordings: median 16.6 ms
  double period_jitter_s = 0.003;      ///< uniform +- (real: 12-21 ms)
  double mocap_noise_rad = 0.002;
  double mocap_noise_m = 0.0005;
  std::uint64_t noise_seed = 1;
  std::uint64_t sim_seed = 0;
};

struct RisingTwinRun {
  Log recording;  ///< real-data dialect
  bool diverged = false;
  std::string error;
};

/// Runs `command` (a motion over the real-data joints) on `hidden_task` (the task built on the
/// hidden model) for `duration_s` after settling. Never throws for a divergence.
RisingTwinRun runRisingTwin(const RisingTask& hidden_task, const Motion& command, const MotorMap& map,
                            double duration_s, const RisingTwinSettings& s);

}  // namespace gapsim::calib
