// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A virtual real robot for twin experiments: run a scenario set's motions on a model with hidden
/// parameters and write the logs a real robot would give, in the real-log CSV dialect. Encoder
/// quantisation is already in the simulated `<joint>/q_rad`; optional IMU effects on the
/// `torso/*` angle and gyro columns: white Gaussian noise of a given standard deviation (drawn
/// from the calibration Rng, so the logs are reproducible) and a pure delay (the sample at t
/// shows the value at t - delay, the first value held before that).
/// Reality effects (sim/reality.h: delays, backlash, Stribeck friction, mass and COM offsets, IMU
/// and gyro biases, encoder resolution) put the twin outside every calibrated space; all off by
/// default.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calib/objective.h"
#include "sim/reality.h"

namespace gapsim::calib {

struct TwinSettings {
  double imu_noise_rad = 0.0;  ///< standard deviation on torso angles (rad) and gyros (rad/s)
  double imu_delay_s = 0.0;
  std::uint64_t noise_seed = 1;
  std::uint64_t sim_seed = 0;  ///< SimOptions::seed
  double log_period_s = 0.01;
  std::optional<bool> quickstep;  ///< SimOptions::quickstep (unset: the robot file's stepper)
  RealityEffects reality;         ///< SimOptions::reality, and the log's sensor delay
};

/// Simulates every scenario of `set` (training and held-out) on `hidden` for its duration (no
/// stop at a fall) and writes each log to its reference path, or to out_dir/<file name of the
/// reference> when out_dir is not empty. Returns the paths written.
std::vector<std::string> writeTwinLogs(const RobotModel& hidden, const ScenarioSet& set, const TwinSettings& s,
                                       const std::string& out_dir = "");

}  // namespace gapsim::calib
