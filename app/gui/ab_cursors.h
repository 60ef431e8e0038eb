// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// A-B cursors (an oscilloscope's pair of time cursors): two times shared by all plots; for each
/// shown signal the values at A and at B (piecewise-linear between samples, so exactly the logged
/// value at a sample time) and their difference, with delta-t = t_B - t_A.

#include <QString>
#include <optional>

#include "calib/log_compare.h"

namespace gapsim::gui {

struct AbCursors {
  std::optional<double> a_s, b_s;
  bool complete() const { return a_s && b_s; }
  double dt_s() const { return complete() ? *b_s - *a_s : 0.0; }
};

struct AbDelta {
  double value_a = 0, value_b = 0;  ///< NaN where the signal has no sample around the time
  double delta() const { return value_b - value_a; }
};

/// Values of s (drawn shifted by offset_s: its sample at t is shown at t + offset_s) at the
/// shown times a_s and b_s.
AbDelta abDelta(const SampledSignal& s, double offset_s, double a_s, double b_s);

/// "Δ 0.123 rad" style figure with 4 significant digits.
QString formatDelta(double v, const QString& unit);

}  // namespace gapsim::gui
