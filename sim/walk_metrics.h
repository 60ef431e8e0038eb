// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// What the MoToFlex paper measures on a walk (Section 5), computed from a gapsim log of a
/// planned walk: forward speed over the steady part, torso pitch and roll oscillation, fall.
///
/// Steady part: from one gait cycle after the first lift-off to half a cycle before the last
/// touch-down (start-up and stopping excluded), cut 0.5 s before a fall, then shortened to a whole
/// number of gait cycles (when at least one fits).
///   speed       = (torso x(t1) - torso x(t0)) / (t1 - t0), x along the initial heading (m/s)
///   amplitude   = (max - min) / 2 of the signal over the steady part (rad)
///   frequency   = the peak of the amplitude spectrum of the mean-free signal, 0.2..5 Hz (walking
///                 rates; above, foot impacts dominate a tiny oscillation), found by
///                 a direct DFT on a 0.01 Hz grid (Hz); a walk's pitch oscillates at the step rate
///                 (2 / step_duration) or, when alternate steps differ, at the gait rate.

#include <optional>

#include "sim/log_writer.h"
#include "sim/walk_generator.h"

namespace gapsim {

struct WalkMetrics {
  double steady_from_s = 0, steady_to_s = 0;  ///< the window used (empty if the robot fell before it)
  bool has_steady = false;
  double speed_m_s = 0;
  double pitch_amplitude_rad = 0, pitch_frequency_hz = 0;
  double roll_amplitude_rad = 0, roll_frequency_hz = 0;
  double pitch_mean_rad = 0, roll_mean_rad = 0;
  std::optional<double> fall_time_s;
  int steps_before_fall = 0;  ///< touch-downs before the fall (all of them if no fall)
};

/// `log` is a Recorder log (time_s, torso/pitch_rad, torso/roll_rad, torso/x_m, torso/y_m) of the
/// walk `plan` played from t = 0; fall_time_s is the run's (RunSummary::fall_time_s).
/// Throws InputError if a column is missing.
WalkMetrics measureWalk(const Log& log, const WalkPlan& plan, std::optional<double> fall_time_s);

}  // namespace gapsim
