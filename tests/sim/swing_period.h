// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test helper: the period of a pendulum's swing, measured on the simulation as a stopwatch would.
#include <cmath>
#include <limits>
#include <vector>

#include "sim/simulation.h"

namespace gapsim::test {

/// Steps `sim` until `until_s` and returns the mean period of joint 0's swing over five swings:
/// the times where its angle crosses 0 going down (interpolated linearly within the step), the
/// sixth minus the first over five. NaN if the joint crossed fewer than six times.
inline double meanSwingPeriod_s(Simulation& sim, double until_s) {
  std::vector<double> down;
  double prev = sim.jointAngle_rad(0), prev_t = sim.time_s();
  while (sim.time_s() < until_s) {
    sim.step();
    const double q = sim.jointAngle_rad(0);
    if (prev > 0 && q <= 0) down.push_back(prev_t + (sim.time_s() - prev_t) * prev / (prev - q));
    prev = q;
    prev_t = sim.time_s();
  }
  if (down.size() < 6) return std::numeric_limits<double>::quiet_NaN();
  return (down[5] - down[0]) / 5;
}

}  // namespace gapsim::test
