// SPDX-License-Identifier: BSD-3-Clause
#include "calib/cma_es.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace gapsim::calib {

void CmaEsSettings::validate() const {
  std::ostringstream e;
  checkStart(x0, sigma0, "CMA-ES", e);
  if (lambda != 0 && lambda < 2) e << "lambda = " << lambda << " must be >= 2; ";
  if (mu < 0 || (mu > 0 && lambda > 0 && mu > lambda)) e << "mu = " << mu << " must be in [1, lambda]; ";
  if (ipop_restarts < 0) e << "ipop_restarts = " << ipop_restarts << " must be >= 0; ";
  if (!e.str().empty()) throw std::invalid_argument("CMA-ES settings: " + e.str());
}

CmaEs::CmaEs(CmaEsSettings s) : s_(std::move(s)) {
  s_.validate();
  n_ = static_cast<int>(s_.x0.size());
  rng_ = Rng(s_.seed);
  start(s_.lambda > 0 ? s_.lambda : 4 + static_cast<int>(std::floor(3.0 * std::log(n_))));
}

void CmaEs::start(int lambda) {
  const double n = n_;
  lambda_ = lambda;
  mu_ = (s_.mu > 0 && restarts_ == 0) ? std::min(s_.mu, lambda_) : lambda_ / 2;
  w_.resize(mu_);
  for (int i = 0; i < mu_; ++i) w_[i] = std::log(mu_ + 0.5) - std::log(i + 1.0);
  w_ /= w_.sum();
  mueff_ = 1.0 / w_.squaredNorm();
  cc_ = (4 + mueff_ / n) / (n + 4 + 2 * mueff_ / n);
  cs_ = (mueff_ + 2) / (n + mueff_ + 5);
  c1_ = 2 / ((n + 1.3) * (n + 1.3) + mueff_);
  cmu_ = std::min(1 - c1_, 2 * (mueff_ - 2 + 1 / mueff_) / ((n + 2) * (n + 2) + mueff_));
  damps_ = 1 + 2 * std::max(0.0, std::sqrt((mueff_ - 1) / (n + 1)) - 1) + cs_;  // tutorial (Table 1)
  chiN_ = std::sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
  mean_ = s_.x0;
  sigma_ = s_.sigma0;
  pc_ = Eigen::VectorXd::Zero(n_);
  ps_ = Eigen::VectorXd::Zero(n_);
  C_ = Eigen::MatrixXd::Identity(n_, n_);
  B_ = Eigen::MatrixXd::Identity(n_, n_);
  D_ = Eigen::VectorXd::Ones(n_);
  eigen_eval_ = evaluations_;
  restart_evals_ = evaluations_;
  restart_gen_ = 0;
  best_history_.clear();
  pending_.clear();
}

std::vector<Eigen::VectorXd> CmaEs::ask() {
  if (!pending_.empty()) return pending_;
  pending_.reserve(lambda_);
  Eigen::VectorXd z(n_);
  for (int k = 0; k < lambda_; ++k) {
    for (int i = 0; i < n_; ++i) z[i] = rng_.normal();
    pending_.push_back(mean_ + sigma_ * (B_ * D_.cwiseProduct(z)));
  }
  return pending_;
}

void CmaEs::updateEigen() {
  C_ = C_.triangularView<Eigen::Upper>();
  C_ = C_.selfadjointView<Eigen::Upper>();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(C_);
  B_ = es.eigenvectors();
  D_ = es.eigenvalues().cwiseMax(1e-300).cwiseSqrt();
  eigen_eval_ = evaluations_;
}

void CmaEs::tell(const std::vector<double>& f) {
  if (pending_.empty()) throw std::logic_error("CmaEs::tell without ask");
  if (f.size() != pending_.size()) throw std::invalid_argument("CmaEs::tell: wrong number of fitness values");
  noteBest(pending_, f);
  const std::vector<int> idx = rankOrder(f);
  const double n = n_;
  const Eigen::VectorXd old = mean_;
  mean_.setZero();
  for (int i = 0; i < mu_; ++i) mean_ += w_[i] * pending_[idx[i]];
  const Eigen::VectorXd yw = (mean_ - old) / sigma_;
  const Eigen::MatrixXd invsqrtC = B_ * D_.cwiseInverse().asDiagonal() * B_.transpose();
  ps_ = (1 - cs_) * ps_ + std::sqrt(cs_ * (2 - cs_) * mueff_) * (invsqrtC * yw);
  ++restart_gen_;
  const double hsig_lhs = ps_.norm() / std::sqrt(1 - std::pow(1 - cs_, 2.0 * restart_gen_)) / chiN_;
  const double hsig = hsig_lhs < 1.4 + 2 / (n + 1) ? 1.0 : 0.0;
  pc_ = (1 - cc_) * pc_ + hsig * std::sqrt(cc_ * (2 - cc_) * mueff_) * yw;
  Eigen::MatrixXd Y(n_, mu_);
  for (int i = 0; i < mu_; ++i) Y.col(i) = (pending_[idx[i]] - old) / sigma_;
  C_ = (1 - c1_ - cmu_ + (1 - hsig) * c1_ * cc_ * (2 - cc_)) * C_ + c1_ * pc_ * pc_.transpose() +
       cmu_ * Y * w_.asDiagonal() * Y.transpose();
  sigma_ *= std::exp(std::min(1.0, (cs_ / damps_) * (ps_.norm() / chiN_ - 1)));
  std::vector<double> sorted(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) sorted[i] = f[idx[i]];
  // Flat fitness (Hansen): the best and the 0.7-quantile agree -> enlarge the step.
  const int q = static_cast<int>(std::ceil(0.7 * lambda_)) - 1;
  if (sorted[0] == sorted[std::clamp(q, 0, lambda_ - 1)]) sigma_ *= std::exp(0.2 + cs_ / damps_);
  if (static_cast<double>(evaluations_ - eigen_eval_) > lambda_ / (c1_ + cmu_) / n / 10) updateEigen();
  best_history_.push_back(sorted[0]);
  ++generation_;
  pending_.clear();
  const std::string why = checkStop(sorted);
  if (!why.empty()) {
    if (restarts_ < s_.ipop_restarts) {
      ++restarts_;
      start(2 * lambda_);
    } else {
      stop_reason_ = why;
    }
  }
}

std::string CmaEs::checkStop(const std::vector<double>& sorted) const {
  const std::size_t hist = 10 + static_cast<std::size_t>(std::ceil(30.0 * n_ / lambda_));
  if (best_history_.size() >= hist && std::isfinite(sorted.front()) && std::isfinite(sorted.back())) {
    double lo = sorted.front(), hi = sorted.back();
    for (std::size_t i = best_history_.size() - hist; i < best_history_.size(); ++i) {
      lo = std::min(lo, best_history_[i]);
      hi = std::max(hi, best_history_[i]);
    }
    if (hi - lo < s_.tol_fun) return "tolfun";
  }
  if ((sigma_ * C_.diagonal().cwiseSqrt()).maxCoeff() < s_.tol_x && (sigma_ * pc_).cwiseAbs().maxCoeff() < s_.tol_x)
    return "tolx";
  const double dmax = D_.maxCoeff(), dmin = D_.minCoeff();
  if (dmax * dmax > 1e14 * dmin * dmin) return "conditioncov";
  if (!std::isfinite(sigma_) || !mean_.allFinite()) return "numerical";
  return "";
}

Eigen::VectorXd CmaEs::spread() const { return sigma_ * C_.diagonal().cwiseSqrt(); }

nlohmann::json CmaEs::save() const {
  nlohmann::json j = saveBase();
  j["lambda"] = lambda_;
  j["mean"] = toJson(mean_);
  j["sigma"] = toJson(sigma_);
  j["pc"] = toJson(pc_);
  j["ps"] = toJson(ps_);
  j["C"] = toJson(C_);
  j["B"] = toJson(B_);
  j["D"] = toJson(D_);
  j["eigen_eval"] = eigen_eval_;
  j["restart_evals"] = restart_evals_;
  j["restart_gen"] = restart_gen_;
  j["restarts"] = restarts_;
  j["best_history"] = toJson(Eigen::VectorXd(
      Eigen::Map<const Eigen::VectorXd>(best_history_.data(), static_cast<Eigen::Index>(best_history_.size()))));
  j["stop_reason"] = stop_reason_;
  return j;
}

void CmaEs::restore(const nlohmann::json& j) {
  restoreBase(j);
  const int gen = generation_;
  const long evals = evaluations_;
  restarts_ = j.at("restarts").get<int>();
  start(j.at("lambda").get<int>());  // strategy parameters from n and lambda
  generation_ = gen;
  evaluations_ = evals;
  mean_ = vectorFromJson(j.at("mean"));
  if (mean_.size() != n_) throw std::invalid_argument("checkpoint: CMA-ES dimension differs from the space");
  sigma_ = doubleFromJson(j.at("sigma"));
  pc_ = vectorFromJson(j.at("pc"));
  ps_ = vectorFromJson(j.at("ps"));
  C_ = matrixFromJson(j.at("C"));
  B_ = matrixFromJson(j.at("B"));
  D_ = vectorFromJson(j.at("D"));
  eigen_eval_ = j.at("eigen_eval").get<long>();
  restart_evals_ = j.at("restart_evals").get<long>();
  restart_gen_ = j.at("restart_gen").get<int>();
  const Eigen::VectorXd h = vectorFromJson(j.at("best_history"));
  best_history_.assign(h.data(), h.data() + h.size());
  stop_reason_ = j.at("stop_reason").get<std::string>();
}

}  // namespace gapsim::calib
