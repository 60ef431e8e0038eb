// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A recording written from a simulation run, in the dialect replay reads (docs/recordings.md):
/// the robot starts from the model's initial pose (after an optional settle), plays a commanded motion sampled at every
/// step (continuous commands, as the manifest's "hold": "continuous" replays it), and every 1/frame_rate_hz s a frame
/// is written:
///   time_s, <joint>/q_<u> (true joint angle), <imu>/tilt_<u>, <root>/rotvec_{x,y,z} (rad),
///   <root>/{x,y,z}_m, com/z_m, <foot>/contact (0/1)
/// with <u> = rad or deg (a stand-in for a real set in another layout). Replayed on the model that
/// made it, the set scores ~0 (the same steps, up to the rounding of the unit conversion and of
/// the linear sampling between steps).

#include <cstdint>
#include <string>

#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/robot_model.h"

namespace gapsim::calib {

struct RecordSettings {
  double duration_s = 0;       ///< recorded span from t = 0 (> 0)
  double frame_rate_hz = 60;   ///< frames per second (the real BIOLOID data: ~60 Hz)
  bool degrees = false;        ///< joint angles and tilt in deg (else rad)
  std::uint64_t sim_seed = 0;  ///< SimOptions::seed
  /// Before t = 0, the motion's first command held this long and not recorded, so the recording
  /// starts from rest (a rising task's seat or knees); the manifest's `initial_pose.settle_s`.
  double settle_s = 0;
  /// InputError(field) for a duration outside (0, 600] s, a rate outside [1, 2000] Hz or a
  /// settle time outside [0, 10] s.
  void validate() const;
};

/// Simulates `motion` on `model` and returns the recording (DivergenceError if it diverges).
Log recordRun(const RobotModel& model, const Motion& motion, const RecordSettings& s);

}  // namespace gapsim::calib
