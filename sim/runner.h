// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Runs a Simulation for a while, playing a motion, recording a log and summarising the run:
/// the loop behind `gapsim-cli run`, the benchmarks and the integration tests.

#include <optional>
#include <vector>
#include <string>

#include "sim/ankle_balance.h"
#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/simulation.h"

namespace gapsim {

struct RunConfig {
  double duration_s = 10.0;
  double log_period_s = 0.01;  ///< sample period of the log (rounded to whole steps)
  bool stop_on_fall = false;
  std::vector<std::string> probe_patterns;  ///< extra log columns (Recorder)
  /// Gyro feedback on the stance ankles added to the motion's targets (sim/ankle_balance.h);
  /// none when empty. Only while a motion plays.
  std::optional<BalanceParams> balance;
};

struct RunSummary {
  double sim_time_s = 0;
  long steps = 0;
  std::optional<double> fall_time_s;
  double max_tilt_deg = 0;
  double distance_m = 0;  ///< horizontal displacement of the IMU link (torso) from start to end
  double heading_deg = 0;  ///< change of the IMU link's yaw (about world z) from start to end, in (-180, 180]
  double wall_s = 0;
  double rtf = 0;  ///< simulated seconds per wall-clock second
  bool diverged = false;
  std::string divergence;  ///< the DivergenceError message
};

/// Plays `motion` (may be null: hold the initial pose) on `sim` for cfg.duration_s, appending
/// rows to `log` (may be null). A divergence ends the run early and is reported in the summary
/// (diverged = true), never thrown, so the log up to that moment is kept.
RunSummary runMotion(Simulation& sim, const Motion* motion, const RunConfig& cfg, Log* log);

/// One line of key=value pairs: sim_time_s=... fell=no|<time> max_tilt_deg=... distance_m=... rtf=...
std::string formatSummary(const RunSummary& s);

}  // namespace gapsim
