// SPDX-License-Identifier: BSD-3-Clause
#include "calib/fd_sensitivity.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gapsim::calib {

std::vector<Eigen::VectorXd> sensitivityProbes(const Eigen::VectorXd& y0, double step) {
  std::vector<Eigen::VectorXd> ys{y0};
  for (Eigen::Index i = 0; i < y0.size(); ++i)
    for (double sign : {-1.0, 1.0}) {
      Eigen::VectorXd y = y0;
      y[i] = std::clamp(y0[i] + sign * step, 0.0, 1.0);
      ys.push_back(y);
    }
  return ys;
}

std::vector<AxisSensitivity> sensitivityFromFitness(const Eigen::VectorXd& y0, const std::vector<double>& fitness,
                                                    double step) {
  const std::vector<Eigen::VectorXd> ys = sensitivityProbes(y0, step);
  if (fitness.size() != ys.size())
    throw std::invalid_argument("sensitivityFromFitness: " + std::to_string(fitness.size()) + " values for " +
                                std::to_string(ys.size()) + " probes");
  const double inf = std::numeric_limits<double>::infinity();
  const double f0 = fitness[0];
  std::vector<AxisSensitivity> out;
  for (Eigen::Index i = 0; i < y0.size(); ++i) {
    const std::size_t k = 1 + 2 * static_cast<std::size_t>(i);
    AxisSensitivity a;
    a.f0 = f0;
    a.f_minus = fitness[k];
    a.f_plus = fitness[k + 1];
    a.step_minus = y0[i] - ys[k][i];
    a.step_plus = ys[k + 1][i] - y0[i];
    const double hm = a.step_minus, hp = a.step_plus;
    if (!std::isfinite(f0) || f0 <= 0 || (hm <= 0 && hp <= 0)) {
      // No finite, positive error at the result (or a zero-width range): nothing to scale by.
      a.curvature = a.rise_relative = std::nan("");
      a.halfwidth = inf;
    } else if (!std::isfinite(a.f_minus) || !std::isfinite(a.f_plus)) {
      // The data exclude this move outright: the parameter is known at least to within the step.
      a.curvature = a.rise_relative = inf;
      // (A probe at a bound repeats y0, whose fitness is finite: a failing side has a step.)
      a.halfwidth = std::min(std::isfinite(a.f_minus) ? inf : hm, std::isfinite(a.f_plus) ? inf : hp);
    } else {
      const double fm = hm > 0 ? a.f_minus : f0, fp = hp > 0 ? a.f_plus : f0;
      a.rise_relative = ((fm + fp) / 2 - f0) / f0;
      if (hm > 0 && hp > 0) {
        a.curvature = 2 * (hm * a.f_plus + hp * a.f_minus - (hp + hm) * f0) / (hp * hm * (hp + hm));
        a.halfwidth = a.curvature > 0 ? std::sqrt(2 * kFitnessRiseForWidth * f0 / a.curvature) : inf;
      } else {
        // At a bound only one side can be probed: the slope into the range, s = (f - f0) / h,
        // raises f by r f0 at w = r f0 / s (no curvature from one difference).
        a.curvature = std::nan("");
        const double slope = hm > 0 ? (a.f_minus - f0) / hm : (a.f_plus - f0) / hp;
        a.halfwidth = slope > 0 ? kFitnessRiseForWidth * f0 / slope : inf;
      }
    }
    a.well = a.halfwidth <= kWellDeterminedWidth;
    out.push_back(a);
  }
  return out;
}

}  // namespace gapsim::calib
