// SPDX-License-Identifier: BSD-3-Clause
#include "calib/distribution_objective.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapsim::calib {

double wasserstein1(std::vector<double> a, std::vector<double> b) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (a.empty() || b.empty()) return nan;
  for (const auto* v : {&a, &b})
    for (double x : *v)
      if (!std::isfinite(x)) return nan;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  // Quantile functions are step functions: a[i] on (i/n, (i+1)/n], b[j] on (j/m, (j+1)/m]. Walk
  // the merged breakpoints; (i+1)/n vs (j+1)/m is compared as (i+1) m vs (j+1) n in integers so
  // that equal breakpoints are met together (no sliver of width 1e-17 between them).
  const std::size_t n = a.size(), m = b.size();
  std::size_t i = 0, j = 0;
  double u = 0, w = 0;
  while (i < n && j < m) {
    const unsigned long long ui = (i + 1) * static_cast<unsigned long long>(m),
                             uj = (j + 1) * static_cast<unsigned long long>(n);
    const double next = ui <= uj ? static_cast<double>(i + 1) / static_cast<double>(n)
                                 : static_cast<double>(j + 1) / static_cast<double>(m);
    w += (next - u) * std::abs(a[i] - b[j]);
    u = next;
    if (ui <= uj) ++i;
    if (uj <= ui) ++j;
  }
  return w;
}

double distributionDistance(const Log& sim, const Log& ref, double fall_time_s, double settle_s,
                            double fall_penalty_rad, const std::vector<std::string>* joints) {
  const int sim_t = sim.columnIndex("time_s"), ref_t = ref.columnIndex("time_s");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (sim_t < 0 || ref_t < 0) return nan;
  std::vector<std::size_t> rows_sim, rows_ref;
  std::size_t N = 0;
  for (std::size_t r = 0; r < sim.rows(); ++r) {
    const double t = sim.at(r, static_cast<std::size_t>(sim_t));
    if (t < settle_s - 1e-12) continue;
    ++N;
    if (fall_time_s < 0 || t <= fall_time_s + 1e-12) rows_sim.push_back(r);
  }
  for (std::size_t r = 0; r < ref.rows(); ++r)
    if (ref.at(r, static_cast<std::size_t>(ref_t)) >= settle_s - 1e-12) rows_ref.push_back(r);
  if (N == 0 || rows_ref.empty()) return nan;
  const double kept = static_cast<double>(rows_sim.size()) / static_cast<double>(N);
  double sum = 0;
  int J = 0;
  for (std::size_t c = 0; c < sim.columns().size(); ++c) {
    const std::string& name = sim.columns()[c];
    if (name.size() < 6 || name.compare(name.size() - 6, 6, "/q_rad") != 0 || !ref.has(name)) continue;
    if (joints && std::find(joints->begin(), joints->end(), name.substr(0, name.size() - 6)) == joints->end()) continue;
    const auto rc = static_cast<std::size_t>(ref.columnIndex(name));
    std::vector<double> a, b;
    for (std::size_t r : rows_sim) a.push_back(sim.at(r, c));
    for (std::size_t r : rows_ref) b.push_back(ref.at(r, rc));
    // Fell before the first sample after settling: nothing to compare, all at the penalty.
    const double w1 = a.empty() ? 0.0 : wasserstein1(std::move(a), std::move(b));
    sum += kept * w1 + (1.0 - kept) * fall_penalty_rad;
    ++J;
  }
  return J > 0 ? sum / J : nan;
}

}  // namespace gapsim::calib
