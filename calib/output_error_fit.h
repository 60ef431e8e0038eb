// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Output-error refinement of the first-order actuator model (MABEL paper 003, Section IV-B:
/// "ARX ... then an output-error model"), J omega_dot + mu omega = u (+ bias), by nonlinear least
/// squares with Ceres (libceres-dev).
///
/// Why: the ARX(1,1) fit of calib/mabel_identification.h is an equation-error fit; with noise on
/// the measured speed it regresses on a noisy y_{k-1} and is biased (a is pulled toward 0, so mu
/// and J come out wrong by an amount that grows with the noise). The output-error model simulates
/// the whole response from the input alone,
///     y_sim,0 = y_0,   y_sim,k = a y_sim,k-1 + b (u_{k-1} + bias),
///     a = exp(-mu T_s / J),  b = (1 - a) / mu     (exact zero-order hold),
/// and minimises sum_k (y_k - y_sim,k)^2: with white measurement noise this is the maximum-
/// likelihood estimate and its covariance s^2 (G^T G)^-1 (G the Jacobian of y_sim, s^2 the
/// residual variance SSR / (N - p)) gives the confidence intervals. J and mu are optimised as
/// logarithms (they stay positive); the intervals are mapped back with the delta method,
/// J (1 +- z sd(ln J)).

#include <cstddef>
#include <span>

#include "calib/mabel_identification.h"

namespace gapsim::calib {

struct OutputErrorOptions {
  bool fit_bias = false;     ///< also estimate the amplifier bias (the plant sees u + bias)
  double confidence = 0.95;  ///< two-sided level of the intervals (0.5 .. 0.999)
  int max_iterations = 100;
};

struct OutputErrorFit {
  double J_kgm2 = 0, mu_Nms = 0, bias_Nm = 0;
  double J_half_width_kgm2 = 0, mu_half_width_Nms = 0, bias_half_width_Nm = 0;  ///< CI half widths
  double residual_rms = 0;  ///< rms simulated-minus-measured speed [rad/s]
  double initial_rms = 0;   ///< the same for the starting point (the ARX fit)
  int iterations = 0;
  bool converged = false;
  std::size_t samples = 0;
};

/// Refines `start` (usually fitFirstOrder/fitFirstOrderWithBias of the same data). Throws
/// std::invalid_argument on mismatched sizes, fewer than 10 samples, a non-positive sample time
/// or starting J/mu, or a singular information matrix (the input does not excite the model).
OutputErrorFit refineFirstOrderOutputError(std::span<const double> u_Nm, std::span<const double> omega_rad_s,
                                           double sample_time_s, const FirstOrderFit& start,
                                           const OutputErrorOptions& options = {});

/// The simulated response y_sim of the model above (exposed for plots and tests).
std::vector<double> simulateFirstOrder(std::span<const double> u_Nm, double omega0_rad_s, double J_kgm2, double mu_Nms,
                                       double bias_Nm, double sample_time_s);

}  // namespace gapsim::calib
