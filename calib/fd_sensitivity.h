// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// How well the data determine each calibrated parameter, from the fitness landscape itself: the
/// training fitness at the result y* and at y* +- h along each optimiser axis (y: 1 = a
/// dimension's whole range, or log range), 2n + 1 evaluations. Per axis, the second difference
/// with the steps actually taken (h- and h+ differ where y* +- h would leave [0, 1]):
///   c = 2 (h- f+ + h+ f- - (h+ + h-) f0) / (h+ h- (h+ + h-))      (= d2f/dy2 of a quadratic)
///   rise = ((f+ + f-) / 2 - f0) / f0                               (relative, at a move of h)
///   half-width w = sqrt(2 r f0 / c)                                (the move that raises f by r f0)
/// with r = kFitnessRiseForWidth. A parameter is "well" determined when w <= kWellDeterminedWidth
/// of its range: moving it by a tenth of its range costs the fit more than a tenth of its error.
/// A relative rise is the shape of the classical confidence region of a least-squares fit,
/// S(theta) <= S_min (1 + p / (n - p) F_alpha(p, n - p)) (Bates and Watts 1988, ch. 6); with the
/// thousands of samples of a log that bound is far below 10 %, so r = 0.1 is the cautious side.
/// c <= 0 (flat, or the result is not a minimum along that axis) gives w = inf; a probe that
/// fails (+inf: divergence, fall, refused value) gives w = its step, the data exclude that move.
/// This is the diagonal of the Hessian: each parameter moved alone, the others held at the result.
/// Parameters that trade off against each other (a move of one undone by a move of another) can
/// each be "well" determined alone and still drift together; that shows in the condition number
/// of the CMA-ES covariance (calibration.h), not here. And the result is the best of many
/// evaluations: on a chaotic walk its fitness is a lucky low, so every probe looks dearer than
/// the landscape is (the walking twin, seed 2: type A gear B_g "well" alone, +54 % from hidden).

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace gapsim::calib {

constexpr double kSensitivityStep = 0.05;     ///< h, in optimiser units (5 % of the range)
constexpr double kFitnessRiseForWidth = 0.1;  ///< r: the half-width is where f rose by 10 %
constexpr double kWellDeterminedWidth = 0.1;  ///< w at or below this fraction of the range: "well"

struct AxisSensitivity {
  double step_minus = 0, step_plus = 0;  ///< h-, h+ actually taken (0 at a bound)
  double f0 = 0, f_minus = 0, f_plus = 0;
  double curvature = 0;      ///< c, fitness per (range fraction)^2
  double rise_relative = 0;  ///< of the fitness at a move of h
  double halfwidth = 0;      ///< w, as a fraction of the range (inf: not determined)
  bool well = false;         ///< w <= kWellDeterminedWidth
};

/// The 2n + 1 optimiser points to evaluate: y0 first, then y0 - h e_i and y0 + h e_i for each i,
/// each clamped to [0, 1].
std::vector<Eigen::VectorXd> sensitivityProbes(const Eigen::VectorXd& y0, double step = kSensitivityStep);

/// The per-axis figures of the file comment from the fitness of sensitivityProbes(y0, step),
/// in that order.
std::vector<AxisSensitivity> sensitivityFromFitness(const Eigen::VectorXd& y0, const std::vector<double>& fitness,
                                                    double step = kSensitivityStep);

}  // namespace gapsim::calib
