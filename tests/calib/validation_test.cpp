// SPDX-License-Identifier: BSD-3-Clause
// Validation that refuses to overfit (calib/calibration.h): on a quadratic training fitness whose
// minimum lies beyond the validation minimum, the training best walks past the parameters that
// validate best. Checked: validation.csv, best.params = the validation best and best_train.params
// = the training best, the warning when validation rises as training falls, a resume that
// continues bit-identically, the files of a run without validation, the per-parameter table, the
// prior term |y - y0|^2 and the scenario roles.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "calib/calibration.h"
#include "calib/evaluator.h"
#include "calib/objective.h"
#include "calib/parameter_space.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "tests/scratch_files.h"

namespace gapsim::calib {
namespace {

namespace fs = std::filesystem;

std::string tempDir(const std::string& name) { return test::freshProcessDir("gapsim_validation_test_", name); }

/// Two linear dimensions on [0, 1], starting at 0.1 (the parameter names only label them).
ParameterSpace space() {
  return ParameterSpace::fromEntries({{"legs/typeA/pid/p", 0.1, 0.0, 1.0, false, "", false, 1},
                                      {"legs/typeB/pid/p", 0.1, 0.0, 1.0, false, "", false, 2}},
                                     "test");
}

// Training minimum at (0.6, 0.6); validation minimum at (0.3, 0.3): a training fit that goes all
// the way overfits for the validation.
EvalResult trainFit(const Eigen::VectorXd& v) { return {(v.array() - 0.6).square().sum(), {}, ""}; }
EvalResult validationFit(const Eigen::VectorXd& v) { return {(v.array() - 0.3).square().sum(), {}, ""}; }

CalibrationSettings settings() { return {.generations = 25, .lambda = 8, .sigma0 = 0.1, .seed = 3}; }

}  // namespace

TEST(Validation, BestParamsAreTheValidationBestAndTheOverfitIsWarnedAbout) {
  const std::string d = tempDir("overfit");
  SerialEvaluator ev(trainFit);
  Calibration c(space(), settings(), d);
  c.setValidation(validationFit);
  c.run(ev, nullptr);
  const auto& vh = c.validationHistory();
  ASSERT_GE(vh.size(), 3u);
  EXPECT_EQ(vh.front().generation, 0);
  EXPECT_DOUBLE_EQ(vh.front().validation, 2 * 0.2 * 0.2);  // the initial values (0.1, 0.1)
  // Training converged near (0.6, 0.6); the validation best lies near (0.3, 0.3), far from it.
  EXPECT_LT(c.bestFitness(), 1e-4);
  double best_v = 1e9;
  for (const auto& r : vh) best_v = std::min(best_v, r.validation);
  EXPECT_EQ(c.bestValidationFitness(), best_v);
  EXPECT_DOUBLE_EQ(validationFit(c.resultValues()).fitness, best_v);
  EXPECT_GT((c.resultValues() - c.bestValues()).norm(), 0.2);
  // Training falls on every row (a row is written only when it improves).
  for (std::size_t k = 1; k < vh.size(); ++k) EXPECT_LT(vh[k].train, vh[k - 1].train);
  // Validation rose while training fell: warned, once per rise, and in warnings.txt.
  int rises = 0;
  for (std::size_t k = 1; k < vh.size(); ++k) rises += vh[k].validation > vh[k - 1].validation;
  EXPECT_GT(rises, 0);
  EXPECT_EQ(static_cast<int>(c.warnings().size()), rises);
  EXPECT_NE(test::slurp(d + "/warnings.txt").find("validation fitness rose"), std::string::npos);
  // The files.
  const std::string csv = test::slurp(d + "/validation.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "generation,train_fitness,validation_fitness");
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), vh.size() + 1);
  const Eigen::VectorXd best = ParameterSpace::load(d + "/best.params").initialValues();
  const Eigen::VectorXd train = ParameterSpace::load(d + "/best_train.params").initialValues();
  EXPECT_NEAR((best - c.resultValues()).norm(), 0, 1e-12);
  EXPECT_NEAR((train - c.bestValues()).norm(), 0, 1e-12);
  EXPECT_NE(test::slurp(d + "/best.params").find("early stopping"), std::string::npos);
}

TEST(Validation, AResumedRunContinuesBitIdentically) {
  const std::string d = tempDir("resume");
  SerialEvaluator ev(trainFit);
  {
    Calibration full(space(), settings(), d + "/full");
    full.setValidation(validationFit);
    full.run(ev, nullptr);
  }
  {
    Calibration part(space(), settings(), d + "/part");
    part.setValidation(validationFit);
    part.run(ev, nullptr, 7);
  }
  Calibration resumed = Calibration::fromCheckpoint(space(), d + "/part");
  resumed.setValidation(validationFit);
  resumed.run(ev, nullptr);
  for (const char* f : {"validation.csv", "best.params", "best_train.params", "history.csv", "warnings.txt"})
    EXPECT_EQ(test::slurp(d + "/full/" + f), test::slurp(d + "/part/" + f)) << f;
}

TEST(Validation, WithoutValidationBestParamsIsTheTrainingBest) {
  const std::string d = tempDir("plain");
  SerialEvaluator ev(trainFit);
  Calibration c(space(), settings(), d);
  c.run(ev, nullptr);
  c.writeSpread();
  EXPECT_FALSE(fs::exists(d + "/validation.csv"));
  EXPECT_FALSE(fs::exists(d + "/warnings.txt"));
  EXPECT_EQ(ParameterSpace::load(d + "/best.params").initialValues(),
            ParameterSpace::load(d + "/best_train.params").initialValues());
  EXPECT_EQ(c.resultValues(), c.bestValues());
  // parameters.csv: one row per dimension, and the covariance of a converged CMA-ES shrank far
  // below sigma0 on both axes.
  const std::string p = test::slurp(d + "/parameters.csv");
  EXPECT_EQ(p.substr(0, p.find('\n')),
            "dimension,initial,result,training_best,moved_relative,moved_range_fraction,std_range_fraction,"
            "std_over_sigma0,determined,fd_rise_relative,fd_halfwidth_range_fraction,fd_determined");
  EXPECT_NE(p.find("legs/typeA/pid/p,0.1,"), std::string::npos);
  EXPECT_EQ(std::count(p.begin(), p.end(), '\n'), 3);
  EXPECT_NE(p.find(",well,nan,nan,-\n"), std::string::npos);  // curvature: not computed
  EXPECT_GE(c.conditionNumber(), 1.0);
  EXPECT_NE(test::slurp(d + "/parameters.json").find("condition_number"), std::string::npos);
}

TEST(Validation, ScenarioRolesAndThePriorTerm) {
  const std::string d = tempDir("roles");
  const std::string ex = std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_twin";
  std::ofstream(d + "/set.csv") << "name,motion,reference,duration_s,weight,role\n"
                                << "a," << ex << "/motions/squat_fast.csv," << ex
                                << "/reference/squat_fast.csv,0.2,1,train\n"
                                << "b," << ex << "/motions/sway.csv," << ex << "/reference/sway.csv,0.2,1,validate\n"
                                << "c," << ex << "/motions/squat_slow.csv," << ex
                                << "/reference/squat_slow.csv,0.2,1,holdout\n";
  const ScenarioSet set = ScenarioSet::load(d + "/set.csv");
  ASSERT_EQ(set.scenarios.size(), 3u);
  EXPECT_FALSE(set.scenarios[0].holdout);
  EXPECT_TRUE(set.scenarios[1].holdout && set.scenarios[1].validate);
  EXPECT_TRUE(set.scenarios[2].holdout && !set.scenarios[2].validate);
  auto model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  const ParameterSpace sp = ParameterSpace::load(ex + "/space.csv");
  ObjectiveSettings os;
  const CalibrationProblem plain(model, sp, set, os);
  os.prior_weight = 2.5;
  const CalibrationProblem prior(model, sp, set, os);
  EXPECT_TRUE(plain.hasValidation());
  EXPECT_TRUE(plain.hasHoldout());
  Eigen::VectorXd v = sp.initialValues();
  v[0] *= 1.3;
  const double dy2 = (sp.yFromValues(v) - sp.initialY()).squaredNorm();
  EXPECT_GT(dy2, 0);
  EXPECT_DOUBLE_EQ(prior.evaluate(v).fitness, plain.evaluate(v).fitness + 2.5 * dy2);
  // Validation and held-out subsets carry no prior term and run only their own scenario.
  EXPECT_EQ(prior.evaluate(v, ScenarioSubset::Validate).fitness, plain.evaluate(v, ScenarioSubset::Validate).fitness);
  EXPECT_EQ(plain.evaluate(v, ScenarioSubset::Validate).parts.size(), 3u);
  EXPECT_NE(plain.evaluate(v, ScenarioSubset::Validate).fitness, plain.evaluate(v, ScenarioSubset::Holdout).fitness);
  // A bad role and a bad weight are refused with the line and the field.
  std::ofstream(d + "/bad.csv") << "name,motion,reference,duration_s,weight,role\n"
                                << "a," << ex << "/motions/sway.csv," << ex << "/reference/sway.csv,0.2,1,validation\n";
  try {
    ScenarioSet::load(d + "/bad.csv");
    ADD_FAILURE() << "role 'validation' accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.field(), "role");
  }
  os.prior_weight = -1;
  EXPECT_THROW(CalibrationProblem(model, sp, set, os), InputError);
  // An absurd weight is quoted as %g: "1e+308", not the 309 digits of std::to_string.
  os.prior_weight = 1e308;
  try {
    CalibrationProblem(model, sp, set, os);
    ADD_FAILURE() << "--prior-weight 1e308 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--prior-weight: must be in [0, 1e6], not 1e+308");
  }
}

}  // namespace gapsim::calib
