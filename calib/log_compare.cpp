// SPDX-License-Identifier: BSD-3-Clause
#include "calib/log_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gapsim {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void checkSignal(const SampledSignal& s) {
  if (s.t_s.size() != s.v.size())
    throw std::invalid_argument("log_compare: " + std::to_string(s.t_s.size()) + " times but " +
                                std::to_string(s.v.size()) + " values");
}
}  // namespace

double interpolateAt(const SampledSignal& s, double t) {
  checkSignal(s);
  const auto& ts = s.t_s;
  if (ts.empty() || !(t >= ts.front()) || !(t <= ts.back())) return kNaN;
  auto it = std::upper_bound(ts.begin(), ts.end(), t);
  if (it == ts.end()) return s.v.back();
  const std::size_t k = static_cast<std::size_t>(it - ts.begin());  // ts[k-1] <= t < ts[k]
  const double t0 = ts[k - 1], t1 = ts[k];
  const double w = (t - t0) / (t1 - t0);
  return s.v[k - 1] + (s.v[k] - s.v[k - 1]) * w;
}

std::vector<double> resample(const SampledSignal& s, std::span<const double> grid, double offset_s) {
  checkSignal(s);
  std::vector<double> out(grid.size(), kNaN);
  const auto& ts = s.t_s;
  if (ts.empty()) return out;
  std::size_t k = 0;  // ts[k] <= x < ts[k+1] for the current x (grid ascending -> k only grows)
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const double x = grid[i] - offset_s;
    if (!(x >= ts.front()) || !(x <= ts.back())) continue;
    while (k + 1 < ts.size() && ts[k + 1] <= x) ++k;
    if (k + 1 == ts.size()) {
      out[i] = s.v[k];
      continue;
    }
    const double w = (x - ts[k]) / (ts[k + 1] - ts[k]);
    out[i] = s.v[k] + (s.v[k + 1] - s.v[k]) * w;
  }
  return out;
}

std::vector<double> uniformGrid(double t0, double t1, double dt) {
  if (!(dt > 0) || !std::isfinite(dt) || !std::isfinite(t0) || !std::isfinite(t1))
    throw std::invalid_argument("uniformGrid: need finite t0, t1 and dt > 0 (dt = " + std::to_string(dt) + ")");
  std::vector<double> g;
  if (t1 < t0) return g;
  const auto n = static_cast<std::size_t>(std::floor((t1 - t0) / dt + 1e-9)) + 1;
  g.reserve(n);
  for (std::size_t i = 0; i < n; ++i) g.push_back(t0 + static_cast<double>(i) * dt);
  return g;
}

RmsDifference rmsDifference(const SampledSignal& ref, const SampledSignal& other, double offset_s) {
  checkSignal(ref);
  const std::vector<double> o = resample(other, ref.t_s, offset_s);
  double sum = 0.0;
  RmsDifference r;
  for (std::size_t i = 0; i < o.size(); ++i) {
    if (std::isnan(o[i])) continue;
    const double d = ref.v[i] - o[i];
    sum += d * d;
    ++r.samples;
  }
  r.rms = r.samples ? std::sqrt(sum / static_cast<double>(r.samples)) : kNaN;
  return r;
}

std::optional<OffsetEstimate> estimateOffset(const SampledSignal& ref, const SampledSignal& other, double dt,
                                             double max_offset_s, double min_overlap_fraction) {
  checkSignal(ref);
  checkSignal(other);
  if (!(dt > 0) || !std::isfinite(dt)) throw std::invalid_argument("estimateOffset: dt must be > 0");
  if (!(max_offset_s >= 0) || !std::isfinite(max_offset_s))
    throw std::invalid_argument("estimateOffset: max_offset_s must be >= 0");
  if (!(min_overlap_fraction > 0 && min_overlap_fraction <= 1))
    throw std::invalid_argument("estimateOffset: min_overlap_fraction must be in (0, 1]");
  if (ref.t_s.size() < 2 || other.t_s.size() < 2) return std::nullopt;

  // Both on one lattice t0 + k dt (t0 = ref's start): then other(t_i - m dt) = b[i - m - j0].
  const double t0 = ref.t_s.front();
  const std::vector<double> ga = uniformGrid(t0, ref.t_s.back(), dt);
  const auto j0 = static_cast<long>(std::ceil((other.t_s.front() - t0) / dt - 1e-9));
  const auto j1 = static_cast<long>(std::floor((other.t_s.back() - t0) / dt + 1e-9));
  if (j1 < j0) return std::nullopt;
  std::vector<double> gb;
  for (long j = j0; j <= j1; ++j) gb.push_back(t0 + static_cast<double>(j) * dt);
  std::vector<double> a = resample(ref, ga), b = resample(other, gb);
  // Centre both (global means) so the per-overlap sums below do not cancel catastrophically.
  auto centre = [](std::vector<double>& x) {
    double s = 0;
    std::size_t n = 0;
    for (double v : x)
      if (!std::isnan(v)) s += v, ++n;
    if (n)
      for (double& v : x) v -= s / static_cast<double>(n);
  };
  centre(a);
  centre(b);
  const auto na = static_cast<long>(a.size()), nb = static_cast<long>(b.size());
  const double min_n = std::max(3.0, min_overlap_fraction * static_cast<double>(std::min(na, nb)));
  const auto M = static_cast<long>(std::floor(max_offset_s / dt + 1e-9));

  std::vector<double> corr(static_cast<std::size_t>(2 * M + 1), kNaN);
  std::vector<std::size_t> count(corr.size(), 0);
  for (long m = -M; m <= M; ++m) {
    // i - m - j0 in [0, nb)  and  i in [0, na)
    const long lo = std::max(0L, m + j0), hi = std::min(na, nb + m + j0);
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    std::size_t n = 0;
    for (long i = lo; i < hi; ++i) {
      const double x = a[static_cast<std::size_t>(i)], y = b[static_cast<std::size_t>(i - m - j0)];
      if (std::isnan(x) || std::isnan(y)) continue;
      sa += x, sb += y, saa += x * x, sbb += y * y, sab += x * y;
      ++n;
    }
    if (static_cast<double>(n) < min_n) continue;
    const double dn = static_cast<double>(n);
    const double va = dn * saa - sa * sa, vb = dn * sbb - sb * sb;
    if (!(va > 0) || !(vb > 0)) continue;
    const double c = (dn * sab - sa * sb) / std::sqrt(va * vb);
    const auto k = static_cast<std::size_t>(m + M);
    corr[k] = c;
    count[k] = n;
  }
  std::optional<std::size_t> best;
  for (std::size_t k = 0; k < corr.size(); ++k)
    if (!std::isnan(corr[k]) && (!best || corr[k] > corr[*best])) best = k;
  if (!best) return std::nullopt;
  const std::size_t k = *best;
  double frac = 0.0;
  if (k > 0 && k + 1 < corr.size() && !std::isnan(corr[k - 1]) && !std::isnan(corr[k + 1])) {
    const double den = corr[k - 1] - 2 * corr[k] + corr[k + 1];
    if (den < 0) frac = std::clamp(0.5 * (corr[k - 1] - corr[k + 1]) / den, -0.5, 0.5);
  }
  OffsetEstimate e;
  e.offset_s = (static_cast<double>(static_cast<long>(k) - M) + frac) * dt;
  e.correlation = corr[k];
  e.samples = count[k];
  return e;
}

}  // namespace gapsim
