// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// `gapsim-cli bench --calibration`: evaluations per second of a calibration scenario set with 1
/// and 2 worker processes, and the scaling efficiency (rate with 2 / (2 x rate with 1)).
/// The machine is shared, so the two cases alternate round by round (1, 2, then 2, 1, ...) and
/// every round is printed with the load average at its start; the figure is the median of the
/// per-round ratios, not a ratio of medians taken at different times. The workers' CPU seconds
/// (getrusage of the reaped children) give the CPU cost of one evaluation, which does not depend
/// on the load. Figures only: nothing here is asserted on speed.

#include <string>

namespace gapsim::cli {

struct CalibrationBenchArgs {
  std::string robot = "nao";
  std::string space;      ///< default: the shipped example's space.csv
  std::string scenarios;  ///< default: the shipped example's scenarios.csv
  std::string stepper;    ///< "", quick or big (as calibrate --stepper)
  int evaluations = 8;    ///< per round and worker count
  int rounds = 3;
};

/// Runs the benchmark, printing to stdout; returns the exit code.
int runCalibrationBench(const CalibrationBenchArgs& a);

}  // namespace gapsim::cli
