// SPDX-License-Identifier: BSD-3-Clause
#include "calib/poly_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gapsim::calib {

double Polynomial::value(double t_s) const {
  const double s = (t_s - t0_s) / scale_s;
  double v = 0.0;
  for (int k = degree(); k >= 0; --k) v = v * s + c[k];  // Horner
  return v;
}

double Polynomial::derivative(double t_s) const {
  const double s = (t_s - t0_s) / scale_s;
  double v = 0.0;
  for (int k = degree(); k >= 1; --k) v = v * s + k * c[k];
  return v / scale_s;
}

double Polynomial::second(double t_s) const {
  const double s = (t_s - t0_s) / scale_s;
  double v = 0.0;
  for (int k = degree(); k >= 2; --k) v = v * s + k * (k - 1) * c[k];
  return v / (scale_s * scale_s);
}

Polynomial fitPolynomial(std::span<const double> t_s, std::span<const double> y, int degree) {
  if (degree < 0 || degree > 10)
    throw std::invalid_argument("fitPolynomial: degree must be in 0..10, got " + std::to_string(degree));
  if (t_s.size() != y.size())
    throw std::invalid_argument("fitPolynomial: " + std::to_string(t_s.size()) + " times but " +
                                std::to_string(y.size()) + " values");
  for (std::size_t i = 0; i < t_s.size(); ++i)
    if (!std::isfinite(t_s[i]) || !std::isfinite(y[i]))
      throw std::invalid_argument("fitPolynomial: non-finite sample at index " + std::to_string(i));
  std::vector<double> distinct(t_s.begin(), t_s.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (static_cast<int>(distinct.size()) < degree + 1)
    throw std::invalid_argument("fitPolynomial: " + std::to_string(distinct.size()) +
                                " distinct times cannot determine a polynomial of degree " + std::to_string(degree));
  Polynomial p;
  // Centre and half-range: s in [-1, 1].
  p.t0_s = 0.5 * (distinct.front() + distinct.back());
  p.scale_s = std::max(0.5 * (distinct.back() - distinct.front()), 1e-300);
  const Eigen::Index n = static_cast<Eigen::Index>(t_s.size());
  Eigen::MatrixXd V(n, degree + 1);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double s = (t_s[i] - p.t0_s) / p.scale_s;
    double pw = 1.0;
    for (int k = 0; k <= degree; ++k, pw *= s) V(i, k) = pw;
    b(i) = y[i];
  }
  const Eigen::VectorXd c = V.colPivHouseholderQr().solve(b);
  p.c.assign(c.data(), c.data() + c.size());
  return p;
}

}  // namespace gapsim::calib
