// SPDX-License-Identifier: BSD-3-Clause
#include "calib/mukappa_es.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace gapsim::calib {

void EsSettings::validate() const {
  std::ostringstream e;
  checkStart(x0, sigma0, "the ES", e);
  if (mu < 1) e << "mu = " << mu << " must be >= 1; ";
  if (lambda < mu) e << "lambda = " << lambda << " must be >= mu = " << mu << "; ";
  if (kappa < 1) e << "kappa = " << kappa << " must be >= 1; ";
  if (rho < 1) e << "rho = " << rho << " must be >= 1; ";
  if (!e.str().empty()) throw std::invalid_argument("ES settings: " + e.str());
}

MuKappaLambdaEs::MuKappaLambdaEs(EsSettings s) : s_(std::move(s)) {
  s_.validate();
  n_ = static_cast<int>(s_.x0.size());
  rng_ = Rng(s_.seed);
  tau0_ = 1.0 / std::sqrt(2.0 * n_);
  tau_ = 1.0 / std::sqrt(2.0 * std::sqrt(static_cast<double>(n_)));
  // Initial parents: unevaluated sources, never selected again (age = kappa).
  parents_.assign(s_.mu, Individual{s_.x0, Eigen::VectorXd::Constant(n_, s_.sigma0), s_.kappa,
                                    std::numeric_limits<double>::infinity()});
}

std::vector<Eigen::VectorXd> MuKappaLambdaEs::ask() {
  if (children_.empty()) {
    const auto np = static_cast<std::uint64_t>(parents_.size());
    children_.reserve(s_.lambda);
    std::vector<const Individual*> mates(s_.rho);
    for (int k = 0; k < s_.lambda; ++k) {
      for (auto& m : mates) m = &parents_[rng_.below(np)];
      Individual c{Eigen::VectorXd(n_), Eigen::VectorXd::Zero(n_), 0, 0.0};
      for (int i = 0; i < n_; ++i) {
        c.x[i] = mates.size() == 1 ? mates[0]->x[i] : mates[rng_.below(mates.size())]->x[i];
        for (const auto* m : mates) c.sigma[i] += m->sigma[i];
        c.sigma[i] /= static_cast<double>(mates.size());
      }
      const double common = tau0_ * rng_.normal();
      for (int i = 0; i < n_; ++i) {
        c.sigma[i] = std::max(s_.sigma_min, c.sigma[i] * std::exp(common + tau_ * rng_.normal()));
        c.x[i] += c.sigma[i] * rng_.normal();
      }
      children_.push_back(std::move(c));
    }
  }
  std::vector<Eigen::VectorXd> xs;
  xs.reserve(children_.size());
  for (const auto& c : children_) xs.push_back(c.x);
  return xs;
}

void MuKappaLambdaEs::tell(const std::vector<double>& f) {
  if (children_.empty()) throw std::logic_error("MuKappaLambdaEs::tell without ask");
  if (f.size() != children_.size())
    throw std::invalid_argument("MuKappaLambdaEs::tell: wrong number of fitness values");
  std::vector<Eigen::VectorXd> xs;
  for (std::size_t k = 0; k < children_.size(); ++k) {
    children_[k].fitness = f[k];
    xs.push_back(children_[k].x);
  }
  noteBest(xs, f);
  // Pool: the parents still allowed to live (age < kappa), then the children; ties favour the
  // earlier entry, so an old parent beats an equally good child (deterministic either way).
  std::vector<Individual> pool;
  for (auto& p : parents_)
    if (p.age < s_.kappa) pool.push_back(std::move(p));
  for (auto& c : children_) pool.push_back(std::move(c));
  std::vector<double> pf(pool.size());
  for (std::size_t i = 0; i < pool.size(); ++i) pf[i] = pool[i].fitness;
  const std::vector<int> idx = rankOrder(pf);
  parents_.clear();
  for (int i = 0; i < s_.mu; ++i) {
    Individual p = std::move(pool[idx[i]]);
    ++p.age;
    parents_.push_back(std::move(p));
  }
  children_.clear();
  ++generation_;
}

double MuKappaLambdaEs::stepSize() const {
  // Geometric mean of the best parent's step sizes.
  return std::exp(parents_.front().sigma.array().log().mean());
}

Eigen::VectorXd MuKappaLambdaEs::spread() const {
  if (parents_.size() < 2) return parents_.front().sigma;
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(n_);
  for (const auto& p : parents_) mean += p.x;
  mean /= static_cast<double>(parents_.size());
  Eigen::VectorXd var = Eigen::VectorXd::Zero(n_);
  for (const auto& p : parents_) var += (p.x - mean).cwiseAbs2();
  return (var / static_cast<double>(parents_.size() - 1)).cwiseSqrt();
}

nlohmann::json MuKappaLambdaEs::save() const {
  nlohmann::json j = saveBase();
  auto ps = nlohmann::json::array();
  for (const auto& p : parents_)
    ps.push_back({{"x", toJson(p.x)}, {"sigma", toJson(p.sigma)}, {"age", p.age}, {"fitness", toJson(p.fitness)}});
  j["parents"] = ps;
  return j;
}

void MuKappaLambdaEs::restore(const nlohmann::json& j) {
  restoreBase(j);
  parents_.clear();
  children_.clear();
  for (const auto& p : j.at("parents")) {
    Individual ind{vectorFromJson(p.at("x")), vectorFromJson(p.at("sigma")), p.at("age").get<int>(),
                   doubleFromJson(p.at("fitness"))};
    if (ind.x.size() != n_) throw std::invalid_argument("checkpoint: ES dimension differs from the space");
    parents_.push_back(std::move(ind));
  }
}

}  // namespace gapsim::calib
