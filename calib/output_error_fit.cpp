// SPDX-License-Identifier: BSD-3-Clause
#include "calib/output_error_fit.h"

#include <ceres/ceres.h>

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "calib/dense_fit.h"
#include "calib/jacobian_gram.h"
#include "calib/servo_identification.h"

namespace gapsim::calib {

namespace {

/// Residuals y_k - y_sim,k for k = 1..n-1 from x = (ln J, ln mu, bias).
struct OutputErrorResiduals {
  std::span<const double> u, y;
  double Ts;
  bool fit_bias;

  template <typename T>
  bool operator()(T const* const* x, T* r) const {
    const T J = exp(x[0][0]), mu = exp(x[0][1]);
    const T bias = fit_bias ? x[0][2] : T(0.0);
    const T a = exp(-mu * Ts / J);
    const T b = (T(1.0) - a) / mu;
    T ys(y[0]);
    for (std::size_t k = 1; k < y.size(); ++k) {
      ys = a * ys + b * (T(u[k - 1]) + bias);
      r[k - 1] = T(y[k]) - ys;
    }
    return true;
  }
};

double quantile(double confidence, std::size_t dof) {
  return studentTQuantile(0.5 + confidence / 2.0, static_cast<double>(std::max<std::size_t>(dof, 1)));
}

}  // namespace

std::vector<double> simulateFirstOrder(std::span<const double> u, double y0, double J, double mu, double bias,
                                       double Ts) {
  const double a = std::exp(-mu * Ts / J), b = (1.0 - a) / mu;
  std::vector<double> y(u.size());
  if (y.empty()) return y;
  y[0] = y0;
  for (std::size_t k = 1; k < u.size(); ++k) y[k] = a * y[k - 1] + b * (u[k - 1] + bias);
  return y;
}

OutputErrorFit refineFirstOrderOutputError(std::span<const double> u, std::span<const double> y, double Ts,
                                           const FirstOrderFit& start, const OutputErrorOptions& o) {
  if (u.size() != y.size())
    throw std::invalid_argument("output-error fit: u and omega differ in length (" + std::to_string(u.size()) + " vs " +
                                std::to_string(y.size()) + ")");
  if (u.size() < 10) throw std::invalid_argument("output-error fit: need at least 10 samples");
  if (!(Ts > 0) || !std::isfinite(Ts)) throw std::invalid_argument("output-error fit: sample time must be > 0");
  if (!(start.J_kgm2 > 0) || !(start.mu_Nms > 0))
    throw std::invalid_argument("output-error fit: the starting J and mu must be > 0 (is the ARX fit stable?)");
  if (!(o.confidence > 0.5 && o.confidence < 0.999))
    throw std::invalid_argument("output-error fit: confidence must lie in (0.5, 0.999)");

  const int p = o.fit_bias ? 3 : 2;
  std::vector<double> x = {std::log(start.J_kgm2), std::log(start.mu_Nms), o.fit_bias ? start.bias_Nm : 0.0};
  x.resize(static_cast<std::size_t>(p));
  const std::size_t n_res = y.size() - 1;

  auto* cost =
      new ceres::DynamicAutoDiffCostFunction<OutputErrorResiduals, 4>(new OutputErrorResiduals{u, y, Ts, o.fit_bias});
  cost->AddParameterBlock(p);
  cost->SetNumResiduals(static_cast<int>(n_res));
  ceres::Problem problem;
  problem.AddResidualBlock(cost, nullptr, x.data());

  OutputErrorFit f;
  f.samples = y.size();
  {
    double c0 = 0;
    problem.Evaluate(ceres::Problem::EvaluateOptions(), &c0, nullptr, nullptr, nullptr);
    f.initial_rms = std::sqrt(2.0 * c0 / static_cast<double>(n_res));
  }
  const ceres::Solver::Summary summary = solveDense(problem, o.max_iterations, 1e-14, 1e-12, 1e-16);
  f.iterations = static_cast<int>(summary.iterations.size());
  f.converged = summary.termination_type == ceres::CONVERGENCE;
  f.residual_rms = std::sqrt(2.0 * summary.final_cost / static_cast<double>(n_res));
  f.J_kgm2 = std::exp(x[0]);
  f.mu_Nms = std::exp(x[1]);
  f.bias_Nm = o.fit_bias ? x[2] : 0.0;

  // Covariance s^2 (G^T G)^-1 with G = d r / d x at the optimum (Ceres' Jacobian, CRS).
  const Eigen::MatrixXd GtG = jacobianGram(problem);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(GtG);
  const double lmax = eig.eigenvalues().maxCoeff(), lmin = eig.eigenvalues().minCoeff();
  if (!(lmax > 0) || !(lmin > 1e-12 * lmax))
    throw std::invalid_argument(
        "output-error fit: the information matrix is singular; the input does not excite the model");
  const Eigen::MatrixXd C = GtG.inverse();
  const std::size_t dof = n_res > static_cast<std::size_t>(p) ? n_res - static_cast<std::size_t>(p) : 1;
  const double s2 = 2.0 * summary.final_cost / static_cast<double>(dof);
  const double z = quantile(o.confidence, dof);
  f.J_half_width_kgm2 = z * f.J_kgm2 * std::sqrt(s2 * C(0, 0));
  f.mu_half_width_Nms = z * f.mu_Nms * std::sqrt(s2 * C(1, 1));
  if (o.fit_bias) f.bias_half_width_Nm = z * std::sqrt(s2 * C(2, 2));
  return f;
}

}  // namespace gapsim::calib
