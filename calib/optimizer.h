// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Black-box minimisers with an ask/tell interface: ask() returns one generation of candidates,
/// the caller evaluates them in any order and on any backend, and tell() takes the fitness values
/// in the order of ask(). Everything random comes from the one Rng in the optimizer's state, and
/// the state (including that Rng) round-trips through JSON bit-exactly, so a run resumed from a
/// checkpoint continues exactly as the uninterrupted run would.
///
/// Optimizers work on unbounded R^n; bounds are the job of BoxTransform (parameter_space.h).
/// A non-finite fitness (a diverged or rejected simulation) ranks after every finite one; ties
/// rank by position in ask(), so sorting is deterministic.

#include <Eigen/Core>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "calib/rng.h"

namespace gapsim::calib {

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  virtual std::string name() const = 0;
  /// The candidates of the current generation (the same ones until tell()).
  virtual std::vector<Eigen::VectorXd> ask() = 0;
  /// Fitness (minimised) of the candidates of ask(), same order and size.
  virtual void tell(const std::vector<double>& fitness) = 0;
  /// Best candidate evaluated so far and its fitness (+inf before the first tell()).
  const Eigen::VectorXd& best() const { return best_x_; }
  double bestFitness() const { return best_f_; }
  int generation() const { return generation_; }
  long evaluations() const { return evaluations_; }
  /// A representative step size (CMA-ES: sigma; ES: mean step size of the best parent).
  virtual double stepSize() const = 0;
  /// Per-coordinate spread of the current search distribution (standard deviations).
  virtual Eigen::VectorXd spread() const = 0;
  /// Covariance of the current search distribution (CMA-ES: sigma^2 C; by default the spread's
  /// squares on the diagonal).
  virtual Eigen::MatrixXd searchCovariance() const { return spread().array().square().matrix().asDiagonal(); }
  /// True when the optimizer has converged or cannot go on (its own criteria).
  virtual bool converged() const { return false; }
  /// Why converged() is true ("" otherwise).
  virtual std::string stopReason() const { return ""; }

  /// The whole state, RNG included. restore() of that JSON on an optimizer built with the same
  /// settings continues bit-identically.
  virtual nlohmann::json save() const = 0;
  virtual void restore(const nlohmann::json& j) = 0;

 protected:
  void noteBest(const std::vector<Eigen::VectorXd>& xs, const std::vector<double>& f);
  nlohmann::json saveBase() const;
  void restoreBase(const nlohmann::json& j);

  Rng rng_;
  Eigen::VectorXd best_x_;
  double best_f_ = std::numeric_limits<double>::infinity();
  int generation_ = 0;
  long evaluations_ = 0;
};

/// Indices 0..n-1 sorted by fitness ascending; non-finite last; ties by index.
std::vector<int> rankOrder(const std::vector<double>& f);

/// The start every optimizer's settings must give, checked by their validate(): at least one
/// dimension (`who` names the optimizer in that message), a finite x0, a finite sigma0 > 0. What
/// is off is appended to `errors`, each ending in "; ".
void checkStart(const Eigen::VectorXd& x0, double sigma0, const std::string& who, std::ostream& errors);

// --- JSON helpers: doubles keep every bit (non-finite values as strings, which JSON lacks) ---
nlohmann::json toJson(double v);
double doubleFromJson(const nlohmann::json& j);
nlohmann::json toJson(const Eigen::VectorXd& v);
Eigen::VectorXd vectorFromJson(const nlohmann::json& j);
nlohmann::json toJson(const Eigen::MatrixXd& m);
Eigen::MatrixXd matrixFromJson(const nlohmann::json& j);
nlohmann::json toJson(const Rng::State& s);
Rng::State rngStateFromJson(const nlohmann::json& j);

}  // namespace gapsim::calib
