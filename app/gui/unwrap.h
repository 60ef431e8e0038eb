// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Angle unwrapping for the plots: an angle logged in (-pi, pi] (the IMU's roll and pitch) jumps
/// by 2 pi when it passes +-pi, as the roll of a robot lying on its side does. The unwrapped copy
/// adds the multiple of 2 pi that keeps every step between consecutive finite samples within
/// [-pi, pi]:
///   u[0] = a[0],   u[i] = a[i] + 2 pi k[i],   k[i] = k[i-1] - round((a[i] - a[i-1]) / 2 pi)
/// which is the true path whenever the angle moves less than pi per sample (at 100 Hz: 314 rad/s).
/// Non-finite samples pass through and are skipped as predecessors. Incremental, so a growing log
/// costs only its new samples.

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace gapsim::gui {

struct Unwrapped {
  std::vector<double> values;      ///< one per input sample processed so far
  double offset_rad = 0;           ///< 2 pi k of the last finite sample
  double last_rad = std::nan("");  ///< the last finite input sample
};

/// Unwraps angles[u.values.size() ...] onto u (angles in rad; angles must extend what u has seen).
void unwrapAppend(std::span<const double> angles, Unwrapped& u);

/// True for a column holding an angle in rad by the unit-suffix convention ("torso/roll_rad",
/// not "LKneePitch/dq_rad_s").
bool isAngleColumn(const std::string& column);

}  // namespace gapsim::gui
