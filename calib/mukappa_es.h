// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The (mu, kappa, lambda)-ES with self-adaptive step sizes (Schwefel and Rudolph 1995,
/// "Contemporary evolution strategies"; Schwefel, "Evolution and Optimum Seeking", 1995), as
/// used by MoToFlex (Urbann et al. 2011, Section 4: (10 + 800), lifetime kappa = 3).
///
/// An individual is (x, sigma_1..n, age). One generation:
///   recombination: pick rho parents uniformly (with replacement); x discrete (each coordinate
///                  from one of them), sigma intermediate (their arithmetic mean); rho = 1: copy.
///   mutation:      sigma_i' = sigma_i exp(tau0 N + tau N_i),  x_i' = x_i + sigma_i' N_i'
///                  tau0 = 1 / sqrt(2 n), tau = 1 / sqrt(2 sqrt(n))  (Schwefel's defaults)
///   selection:     the mu best of the lambda children and of the parents whose age < kappa;
///                  every selected individual's age grows by one.
/// So an individual is a parent for at most kappa generations: kappa = 1 is comma selection,
/// kappa = infinity (kKappaInfinite) plus selection. The initial parents (mu copies of x0 with
/// step sizes sigma0) are not evaluated and serve only as the first generation's sources.

#include <climits>

#include "calib/optimizer.h"

namespace gapsim::calib {

constexpr int kKappaInfinite = INT_MAX;

struct EsSettings {
  Eigen::VectorXd x0;
  double sigma0 = 0.3;  ///< initial step size of every coordinate, units of x
  int mu = 10;
  int lambda = 800;
  int kappa = 3;  ///< maximum number of generations as a parent; kKappaInfinite: plus-ES
  int rho = 2;    ///< parents per child
  std::uint64_t seed = 1;
  double sigma_min = 1e-12;  ///< step sizes are kept above this (prevents collapse to 0)
  void validate() const;
};

class MuKappaLambdaEs final : public Optimizer {
 public:
  struct Individual {
    Eigen::VectorXd x, sigma;
    int age = 0;  ///< generations as a parent so far
    double fitness = 0;
  };

  explicit MuKappaLambdaEs(EsSettings s);
  std::string name() const override { return "es"; }
  std::vector<Eigen::VectorXd> ask() override;
  void tell(const std::vector<double>& fitness) override;
  double stepSize() const override;
  Eigen::VectorXd spread() const override;
  nlohmann::json save() const override;
  void restore(const nlohmann::json& j) override;

  const std::vector<Individual>& parents() const { return parents_; }

 private:
  EsSettings s_;
  int n_ = 0;
  double tau0_ = 0, tau_ = 0;
  std::vector<Individual> parents_;
  std::vector<Individual> children_;  // of the current ask()
};

}  // namespace gapsim::calib
