// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// CMA-ES (Hansen, "The CMA Evolution Strategy: A Tutorial", arXiv:1604.00772, 2016/2023;
/// the update below is that of Hansen's purecma.py), with optional IPOP restarts (Auger and
/// Hansen 2005: on stagnation restart with twice the population).
///
/// Sampling (generation g):  z_k ~ N(0, I),  y_k = B D z_k,  x_k = m + sigma y_k,  k = 1..lambda
/// Update with the mu best (weights w_i = ln(mu + 1/2) - ln i, normalised; mu_eff = 1 / sum w_i^2):
///   m'    = sum w_i x_i:lambda,                 y_w = (m' - m) / sigma
///   p_s   = (1 - c_s) p_s + sqrt(c_s (2 - c_s) mu_eff) C^-1/2 y_w
///   h_s   = |p_s| / sqrt(1 - (1 - c_s)^(2(g+1))) / E|N(0,I)|  <  1.4 + 2 / (n + 1)
///   p_c   = (1 - c_c) p_c + h_s sqrt(c_c (2 - c_c) mu_eff) y_w
///   C     = (1 - c_1 - c_mu + (1 - h_s) c_1 c_c (2 - c_c)) C + c_1 p_c p_c^T
///           + c_mu sum w_i y_i:lambda y_i:lambda^T
///   sigma = sigma exp(min(1, c_s / d_s (|p_s| / E|N(0,I)| - 1)))
/// with the default learning rates of the tutorial (Table 1). B, D come from the eigendecomposition
/// of C, recomputed when lambda / (c_1 + c_mu) / n / 10 evaluations have passed (O(n^2) per sample).
///
/// Stops (then restarts if IPOP restarts are left): the best fitness of the last
/// 10 + 30 n / lambda generations and the current generation span less than tol_fun; sigma times
/// every axis length below tol_x; condition of C above 1e14.

#include "calib/optimizer.h"

namespace gapsim::calib {

struct CmaEsSettings {
  Eigen::VectorXd x0;   ///< initial mean (also the mean of every IPOP restart)
  double sigma0 = 0.3;  ///< initial step size, in the units of x
  int lambda = 0;       ///< population; 0: 4 + floor(3 ln n)
  int mu = 0;           ///< parents; 0: lambda / 2
  std::uint64_t seed = 1;
  int ipop_restarts = 0;  ///< IPOP restarts allowed (population doubles at each)
  double tol_fun = 1e-12;
  double tol_x = 1e-12;
  void validate() const;  ///< throws std::invalid_argument with the offending numbers
};

class CmaEs final : public Optimizer {
 public:
  explicit CmaEs(CmaEsSettings s);
  std::string name() const override { return "cmaes"; }
  std::vector<Eigen::VectorXd> ask() override;
  void tell(const std::vector<double>& fitness) override;
  double stepSize() const override { return sigma_; }
  Eigen::VectorXd spread() const override;
  Eigen::MatrixXd searchCovariance() const override { return sigma_ * sigma_ * C_; }
  bool converged() const override { return !stop_reason_.empty(); }
  std::string stopReason() const override { return stop_reason_; }
  nlohmann::json save() const override;
  void restore(const nlohmann::json& j) override;

  int lambda() const { return lambda_; }
  int restarts() const { return restarts_; }
  const Eigen::VectorXd& mean() const { return mean_; }
  const Eigen::MatrixXd& covariance() const { return C_; }

 private:
  void start(int lambda);  // (re)initialise the distribution for a population of lambda
  void updateEigen();
  std::string checkStop(const std::vector<double>& sorted_f) const;

  CmaEsSettings s_;
  int n_ = 0;
  // strategy parameters (derived from n and lambda)
  int lambda_ = 0, mu_ = 0;
  Eigen::VectorXd w_;
  double mueff_ = 0, cc_ = 0, cs_ = 0, c1_ = 0, cmu_ = 0, damps_ = 0, chiN_ = 0;
  // state
  Eigen::VectorXd mean_, pc_, ps_, D_;
  Eigen::MatrixXd C_, B_;
  double sigma_ = 0;
  long eigen_eval_ = 0;  // evaluations at the last eigendecomposition
  long restart_evals_ = 0;
  int restart_gen_ = 0;  // generations since the last (re)start
  int restarts_ = 0;
  std::vector<double> best_history_;  // best fitness per generation since the last (re)start
  std::string stop_reason_;
  std::vector<Eigen::VectorXd> pending_;  // candidates of the current ask()
};

}  // namespace gapsim::calib
