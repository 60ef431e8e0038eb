// SPDX-License-Identifier: BSD-3-Clause
// The curvature report of a calibration's result (calib/fd_sensitivity.h) against the answers of
// a quadratic, at a bound, on a flat axis and where a probe fails; and its place in parameters.csv
// and parameters.json.
#include "calib/fd_sensitivity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "calib/calibration.h"
#include "calib/evaluator.h"
#include "calib/parameter_space.h"
#include "tests/scratch_files.h"

namespace gapsim::calib {
namespace {

std::vector<double> evaluateAll(const std::vector<Eigen::VectorXd>& ys,
                                const std::function<double(const Eigen::VectorXd&)>& f) {
  std::vector<double> out;
  for (const auto& y : ys) out.push_back(f(y));
  return out;
}

TEST(FdSensitivity, AQuadraticGivesItsCurvatureRiseAndHalfWidth) {
  // f = f0 + a_i (y_i - y0_i)^2: c = 2 a_i, rise = a_i h^2 / f0, w = sqrt(r f0 / a_i).
  const double f0 = 2.0;
  const Eigen::Vector3d y0(0.5, 0.3, 0.62), a(400.0, 2.0, 0.0);
  auto f = [&](const Eigen::VectorXd& y) { return f0 + (a.array() * (y - y0).array().square()).sum(); };
  const auto s = sensitivityFromFitness(y0, evaluateAll(sensitivityProbes(y0), f));
  ASSERT_EQ(s.size(), 3u);
  const double h = kSensitivityStep, r = kFitnessRiseForWidth;
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(s[i].curvature, 2 * a[i], 1e-9 * a[i]);
    EXPECT_NEAR(s[i].rise_relative, a[i] * h * h / f0, 1e-12);
    EXPECT_NEAR(s[i].halfwidth, std::sqrt(r * f0 / a[i]), 1e-9);
    EXPECT_NEAR(s[i].step_minus, h, 1e-15);
    EXPECT_NEAR(s[i].step_plus, h, 1e-15);
  }
  EXPECT_TRUE(s[0].well);                   // w = 0.022 of the range
  EXPECT_FALSE(s[1].well);                  // w = 0.32
  EXPECT_TRUE(std::isinf(s[2].halfwidth));  // flat: the data say nothing
  EXPECT_FALSE(s[2].well);
}

TEST(FdSensitivity, NearABoundTheStepsShrinkAndAtItTheSlopeDecides) {
  const double f0 = 1.0;
  // Minimum 0.02 from the lower bound: the steps are 0.02 and 0.05, the curvature still exact.
  const Eigen::Vector2d y0(0.02, 1.0);
  auto f = [&](const Eigen::VectorXd& y) { return f0 + 50 * std::pow(y[0] - 0.02, 2) + 3 * (1.0 - y[1]); };
  const auto s = sensitivityFromFitness(y0, evaluateAll(sensitivityProbes(y0), f));
  EXPECT_NEAR(s[0].step_minus, 0.02, 1e-15);
  EXPECT_NEAR(s[0].curvature, 100, 1e-9);
  // At the upper bound only the slope into the range, 3 per unit, is known: w = r f0 / 3.
  EXPECT_EQ(s[1].step_plus, 0.0);
  EXPECT_TRUE(std::isnan(s[1].curvature));
  EXPECT_NEAR(s[1].halfwidth, kFitnessRiseForWidth * f0 / 3, 1e-12);
  EXPECT_TRUE(s[1].well);
}

TEST(FdSensitivity, AFailingProbeBoundsTheHalfWidthByItsStep) {
  const Eigen::Vector2d y0(0.5, 0.5);
  auto f = [&](const Eigen::VectorXd& y) { return y[0] > 0.52 ? INFINITY : 1.0 + (y[1] - 0.5) * (y[1] - 0.5); };
  const auto s = sensitivityFromFitness(y0, evaluateAll(sensitivityProbes(y0), f));
  EXPECT_NEAR(s[0].halfwidth, kSensitivityStep, 1e-15);
  EXPECT_TRUE(std::isinf(s[0].rise_relative));
  EXPECT_TRUE(s[0].well);
  // No error at the result to scale by: nothing is claimed.
  const auto z = sensitivityFromFitness(y0, {0.0, 1, 1, 1, 1});
  EXPECT_TRUE(std::isinf(z[0].halfwidth) && !z[0].well);
  EXPECT_THROW(sensitivityFromFitness(y0, {1.0, 2.0}), std::invalid_argument);
}

TEST(FdSensitivity, ParametersFilesCarryTheCurvatureAfterComputeSensitivity) {
  const std::string d = test::freshDir("gapsim_fd_sensitivity").string();
  std::ofstream(d + "/space.csv") << "name,value,lower,upper,frozen,tie,scale\n"
                                  << "legs/typeB/motor/K_e,0.02,0.01,0.03,0\n"
                                  << "legs/soft/D_B,2000,1000,3000,0\n";
  const ParameterSpace space = ParameterSpace::load(d + "/space.csv");
  // Steep in K_e around 0.02, flat in D_B: the first is determined, the second not.
  SerialEvaluator ev([](const Eigen::VectorXd& v) {
    EvalResult r;
    r.fitness = 1.0 + 1e6 * std::pow(v[0] - 0.02, 2) + 1e-9 * v[1];
    return r;
  });
  CalibrationSettings s;
  s.generations = 3;
  s.lambda = 6;
  s.sigma0 = 0.05;
  Calibration c(space, s, d + "/out");
  c.run(ev, nullptr);
  c.writeSpread();
  std::ifstream csv0(d + "/out/parameters.csv");
  std::string header, row;
  std::getline(csv0, header);
  std::getline(csv0, row);
  EXPECT_NE(header.find("fd_rise_relative,fd_halfwidth_range_fraction,fd_determined"), std::string::npos);
  EXPECT_EQ(row.substr(row.rfind(',') + 1), "-");  // not computed yet

  std::ostringstream progress;
  c.computeSensitivity(ev, &progress);
  c.writeSpread();
  EXPECT_NE(progress.str().find("1 of 2 parameters well determined"), std::string::npos) << progress.str();
  ASSERT_EQ(c.sensitivity().size(), 2u);
  EXPECT_TRUE(c.sensitivity()[0].well);
  EXPECT_FALSE(c.sensitivity()[1].well);
  // K_e: a range of 0.02 mapped to y in [0, 1], so d2f/dy2 = 2e6 * 0.02^2 = 800 at any point.
  EXPECT_NEAR(c.sensitivity()[0].curvature, 800, 1e-3);
  std::ifstream js(d + "/out/parameters.json");
  const nlohmann::json j = nlohmann::json::parse(js);
  EXPECT_EQ(j.at("parameters")[0].at("fd_determined"), "well");
  EXPECT_EQ(j.at("parameters")[1].at("fd_determined"), "weak");
  EXPECT_NEAR(j.at("parameters")[0].at("fd_halfwidth_range_fraction").get<double>(),
              std::sqrt(2 * kFitnessRiseForWidth * c.sensitivity()[0].f0 / 800), 1e-6);
}

}  // namespace
}  // namespace gapsim::calib
