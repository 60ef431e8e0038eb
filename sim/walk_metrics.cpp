// SPDX-License-Identifier: BSD-3-Clause
#include "sim/walk_metrics.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "sim/input_error.h"

namespace gapsim {

namespace {

std::vector<double> column(const Log& log, const char* name) {
  if (!log.has(name)) throw InputError("", 0, name, "the log has no column '" + std::string(name) + "'");
  return log.column(name);
}

/// Dominant frequency (Hz) of the mean-free samples x at times t, 0.2..5 Hz.
double dominantFrequency(const std::vector<double>& t, const std::vector<double>& x) {
  if (x.size() < 8) return 0;
  double mean = 0;
  for (double v : x) mean += v;
  mean /= x.size();
  double best_f = 0, best = -1;
  for (double f = 0.2; f <= 5.0 + 1e-9; f += 0.01) {
    std::complex<double> s = 0;
    for (size_t i = 0; i < x.size(); ++i) s += (x[i] - mean) * std::polar(1.0, -2 * std::numbers::pi * f * t[i]);
    if (std::abs(s) > best) {
      best = std::abs(s);
      best_f = f;
    }
  }
  return best_f;
}

}  // namespace

WalkMetrics measureWalk(const Log& log, const WalkPlan& plan, std::optional<double> fall_time_s) {
  const std::vector<double> t = column(log, "time_s");
  const std::vector<double> x = column(log, "torso/x_m");
  const std::vector<double> pitch = column(log, "torso/pitch_rad");
  const std::vector<double> roll = column(log, "torso/roll_rad");
  WalkMetrics m;
  m.fall_time_s = fall_time_s;
  for (size_t i = 2; i < plan.footsteps.size(); ++i)
    if (!fall_time_s || plan.footsteps[i].land_s < *fall_time_s) ++m.steps_before_fall;
  const double cycle = plan.params.step_duration_s;
  m.steady_from_s = plan.walk_start_s + cycle;
  m.steady_to_s = plan.walk_end_s - 0.5 * cycle;
  if (fall_time_s) m.steady_to_s = std::min(m.steady_to_s, *fall_time_s - 0.5);
  // Whole gait cycles only: the torso speeds up and slows down within each step, so a window of
  // a fractional number of cycles biases the mean speed.
  const double cycles = std::floor((m.steady_to_s - m.steady_from_s) / cycle + 1e-9);
  if (cycles >= 1) m.steady_to_s = m.steady_from_s + cycles * cycle;
  std::vector<double> ts, ps, rs;
  size_t i0 = 0, i1 = 0;
  bool first = true;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] < m.steady_from_s || t[i] > m.steady_to_s) continue;
    if (first) i0 = i;
    first = false;
    i1 = i;
    ts.push_back(t[i]);
    ps.push_back(pitch[i]);
    rs.push_back(roll[i]);
  }
  if (ts.size() < 10 || !(t[i1] - t[i0] >= 0.5 * cycle)) return m;
  m.has_steady = true;
  m.speed_m_s = (x[i1] - x[i0]) / (t[i1] - t[i0]);
  auto amp = [](const std::vector<double>& v, double& mean) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    mean = 0;
    for (double e : v) mean += e;
    mean /= v.size();
    return 0.5 * (*hi - *lo);
  };
  m.pitch_amplitude_rad = amp(ps, m.pitch_mean_rad);
  m.roll_amplitude_rad = amp(rs, m.roll_mean_rad);
  m.pitch_frequency_hz = dominantFrequency(ts, ps);
  m.roll_frequency_hz = dominantFrequency(ts, rs);
  return m;
}

}  // namespace gapsim
