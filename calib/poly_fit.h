// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Least-squares polynomial regression with analytic derivatives: the smoothing step of the
/// BIOLOID servo identification (paper 000, eq. "Deltaq"):
///   min_{c} sum_i (y_i - p(t_i))^2,   p(t) = sum_{k=0..n} c_k s^k,   s = (t - t0_s) / scale_s
/// (the paper writes a t^4 + b t^3 + c t^2 + d t + e and integrates over t; with samples the
/// integral is this sum). t0_s and scale_s make the powers of s O(1), so the normal equations
/// of a quartic over a 0.65 s segment are well conditioned; the solve is a column-pivoted QR of
/// the Vandermonde matrix (never the normal equations). Derivatives by the chain rule:
///   p'(t) = sum_k k c_k s^(k-1) / scale_s,   p''(t) = sum_k k (k-1) c_k s^(k-2) / scale_s^2.

#include <span>
#include <vector>

namespace gapsim::calib {

struct Polynomial {
  double t0_s = 0.0;  ///< s = (t - t0_s) / scale_s
  double scale_s = 1.0;
  std::vector<double> c;  ///< coefficients of s^0 .. s^n

  int degree() const { return static_cast<int>(c.size()) - 1; }
  double value(double t_s) const;       ///< p(t)   [unit of y]
  double derivative(double t_s) const;  ///< p'(t)  [unit of y / s]
  double second(double t_s) const;      ///< p''(t) [unit of y / s^2]
};

/// Fits a polynomial of `degree` (0..10) to (t_s[i], y[i]). Throws std::invalid_argument if the
/// sizes differ, there are fewer distinct times than degree + 1, or a value is not finite.
Polynomial fitPolynomial(std::span<const double> t_s, std::span<const double> y, int degree = 4);

}  // namespace gapsim::calib
