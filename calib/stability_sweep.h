// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Stability sweep: draw parameter sets within bounds, simulate each, and classify the outcome
/// (upright, fell, diverged with the divergence message, or rejected by validation). The same
/// machinery will sample calibration parameter spaces.
///
/// Draws use a splitmix64 stream from the seed, mapped to doubles by the top 53 bits, so a sweep is
/// reproducible on every platform and compiler (std::uniform_real_distribution is not).

#include <cstdint>
#include <string>
#include <vector>

#include "calib/parameter_space.h"
#include "sim/robot_model.h"

namespace gapsim::calib {

struct ParameterRange {
  std::string name;  ///< a parameter name of sim/parameters.h
  double lower = 0, upper = 0;
  bool relative = true;     ///< bounds are factors of the model's current value
  bool logarithmic = true;  ///< draw log-uniformly (needs lower > 0)
};

/// The default bounds for the Nao's MoToFlex leg drivetrains and soft legs: the spread a real
/// Nao can have around the robot file's values (sources in the definition).
std::vector<ParameterRange> naoDrivetrainRanges();

/// Every free row of a calibration space, drawn within its bounds (absolute; log-uniform where
/// the row is log-scaled). InputError if no row is free.
std::vector<ParameterRange> rangesFromSpace(const ParameterSpace& space);

struct SweepCase {
  int index = 0;
  std::vector<std::pair<std::string, double>> values;
  std::string outcome;  ///< upright, fell, diverged, rejected
  double fall_time_s = 0;
  double max_tilt_deg = 0;
  std::string message;  ///< divergence or validation message
};

struct SweepConfig {
  int sets = 200;
  double duration_s = 5.0;
  std::uint64_t seed = 1;
  std::string motion;  ///< empty: stand
};

/// Deterministic draw of set `index` (independent of how many sets run, or in which order).
std::vector<std::pair<std::string, double>> drawSet(const RobotModel& base, const std::vector<ParameterRange>& ranges,
                                                    std::uint64_t seed, int index);

/// Runs one case (set values onto a copy of `base`, simulate, classify).
SweepCase runCase(const RobotModel& base, const std::vector<ParameterRange>& ranges, const SweepConfig& cfg, int index);

}  // namespace gapsim::calib
