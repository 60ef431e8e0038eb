// SPDX-License-Identifier: BSD-3-Clause
#include "calib/optimizer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gapsim::calib {

std::vector<int> rankOrder(const std::vector<double>& f) {
  std::vector<int> idx(f.size());
  std::iota(idx.begin(), idx.end(), 0);
  auto key = [&](int i) { return std::isfinite(f[i]) ? f[i] : std::numeric_limits<double>::infinity(); };
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return key(a) < key(b); });
  return idx;
}

void checkStart(const Eigen::VectorXd& x0, double sigma0, const std::string& who, std::ostream& errors) {
  if (x0.size() < 1) errors << who << " needs at least one dimension; ";
  if (!x0.allFinite()) errors << "x0 not finite; ";
  if (!(sigma0 > 0) || !std::isfinite(sigma0)) errors << "sigma0 = " << sigma0 << " must be > 0; ";
}

void Optimizer::noteBest(const std::vector<Eigen::VectorXd>& xs, const std::vector<double>& f) {
  for (std::size_t i = 0; i < f.size(); ++i)
    if (std::isfinite(f[i]) && (f[i] < best_f_ || best_x_.size() == 0)) {
      best_f_ = f[i];
      best_x_ = xs[i];
    }
  evaluations_ += static_cast<long>(f.size());
}

nlohmann::json Optimizer::saveBase() const {
  return {{"rng", toJson(rng_.state())},
          {"best_x", toJson(best_x_)},
          {"best_f", toJson(best_f_)},
          {"generation", generation_},
          {"evaluations", evaluations_}};
}

void Optimizer::restoreBase(const nlohmann::json& j) {
  rng_.setState(rngStateFromJson(j.at("rng")));
  best_x_ = vectorFromJson(j.at("best_x"));
  best_f_ = doubleFromJson(j.at("best_f"));
  generation_ = j.at("generation").get<int>();
  evaluations_ = j.at("evaluations").get<long>();
}

nlohmann::json toJson(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;  // nlohmann writes the shortest text that reads back to the same double
}

double doubleFromJson(const nlohmann::json& j) {
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument("checkpoint: not a number: '" + s + "'");
  }
  return j.get<double>();
}

nlohmann::json toJson(const Eigen::VectorXd& v) {
  auto a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(toJson(v[i]));
  return a;
}

Eigen::VectorXd vectorFromJson(const nlohmann::json& j) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) v[static_cast<Eigen::Index>(i)] = doubleFromJson(j[i]);
  return v;
}

nlohmann::json toJson(const Eigen::MatrixXd& m) {
  auto a = nlohmann::json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) a.push_back(toJson(Eigen::VectorXd(m.row(r).transpose())));
  return a;
}

Eigen::MatrixXd matrixFromJson(const nlohmann::json& j) {
  if (j.empty()) return {};
  Eigen::MatrixXd m(static_cast<Eigen::Index>(j.size()), static_cast<Eigen::Index>(j[0].size()));
  for (std::size_t r = 0; r < j.size(); ++r) m.row(static_cast<Eigen::Index>(r)) = vectorFromJson(j[r]).transpose();
  return m;
}

nlohmann::json toJson(const Rng::State& s) {
  // 64-bit words as decimal strings: some JSON readers (and viewers) hold numbers as doubles.
  auto w = nlohmann::json::array();
  for (auto x : s.s) w.push_back(std::to_string(x));
  return {{"s", w}, {"has_spare", s.has_spare}, {"spare", toJson(s.spare)}};
}

Rng::State rngStateFromJson(const nlohmann::json& j) {
  Rng::State s;
  for (std::size_t i = 0; i < 4; ++i) s.s[i] = std::stoull(j.at("s").at(i).get<std::string>());
  s.has_spare = j.at("has_spare").get<bool>();
  s.spare = doubleFromJson(j.at("spare"));
  return s;
}

}  // namespace gapsim::calib
