// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Plays a motion on a Simulation with the run loop (sim/run_loop.h), recording a log and
/// summarising the run: what `gapsim-cli run`, the benchmarks, the calibration's evaluations and
/// the integration tests call.

#include <string>

#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"

namespace gapsim {

/// Plays `motion` (may be null: hold the initial pose) on `sim` for cfg.duration_s, with
/// cfg.balance's ankle balance if set, appending rows to `log` (may be null). A divergence ends
/// the run early and is reported in the summary (diverged = true), never thrown.
RunSummary runMotion(Simulation& sim, const Motion* motion, const RunConfig& cfg, Log* log);

/// One line of key=value pairs: sim_time_s=... fell=no|<time> max_tilt_deg=... distance_m=... rtf=...
std::string formatSummary(const RunSummary& s);

}  // namespace gapsim
