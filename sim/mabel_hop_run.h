// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Runs MABEL under the hopping controller (sim/mabel_hop_controller.h): the loop behind
/// `gapsim-cli run --controller hop` and `gapsim-cli bench --controller hop`. Counts hops
/// (touchdowns), measures the hop period and the apex height, and detects a fall.
///
/// A fall is any of: the torso tilt above the model's fall threshold, the hip below 0.6 m, or a
/// part other than the point toes touching the rigid ground (the thigh or shin capsules, the torso).

#include <memory>
#include <string>
#include <vector>

#include "sim/log_writer.h"
#include "sim/mabel_hop_controller.h"
#include "sim/runner.h"

namespace gapsim {

struct HopSummary {
  RunSummary run;
  int touchdowns = 0;  ///< I -> II transitions (hops landed)
  int hops = 0;        ///< touchdowns after the first (complete flight cycles)
  std::optional<double> fall_time_s;
  std::string fall_reason;
  double period_s = 0;      ///< mean time between touchdowns over the last 10 hops
  double apex_hip_m = 0;    ///< mean highest hip (torso origin) height per flight, last 10 hops
  double apex_toe_m = 0;    ///< mean highest clearance of the lower toe per flight, last 10 hops
  double stance_hip_m = 0;  ///< hip height at the start of the run
  double speed_m_s = 0;     ///< mean forward speed of the hip along the boom circle, last 10 hops
};

/// A copy of `model` with the boom tilted up so that the hip starts drop_m higher (the hop run
/// starts from a drop). Throws std::invalid_argument without boom_pitch/torso_pitch joints.
std::shared_ptr<RobotModel> hopStartModel(const RobotModel& model, double drop_m);

/// Columns added to the Recorder's: hop/phase (1 I, 2 II, 3 III, 4 IVa, 5 IVb, 6 V),
/// hop/touchdowns, hop/h_Tor_rad.
std::vector<std::string> hopLogColumns(const RobotModel& model, const std::vector<std::string>& probes);

/// Steps `sim` for cfg.duration_s with `ctl` writing the motor commands every step, logging into
/// `log` (may be null; columns from hopLogColumns). Stops at a fall if cfg.stop_on_fall.
/// A divergence ends the run and is reported in the summary.
HopSummary runHop(Simulation& sim, MabelHopController& ctl, const RunConfig& cfg, Log* log);

/// The summary line: formatSummary(...) plus hops=, period_s=, apex_hip_m=, apex_toe_m=, ...
std::string formatHopSummary(const HopSummary& s);

}  // namespace gapsim
