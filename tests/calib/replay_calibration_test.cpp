// SPDX-License-Identifier: BSD-3-Clause
// The calibration on recorded trials as a library (calib/replay_calibration.h): the inputs a
// results directory keeps survive JSON (and an old checkpoint without a settle time reads as 0),
// the problem they describe refuses a set with nothing to train on, and the summary of a
// candidate against the initial values scores each with the problem's own replay.
#include "calib/replay_calibration.h"

#include <gtest/gtest.h>

#include "sim/input_error.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;

ReplayCalibrationInputs squatInputs() {
  ReplayCalibrationInputs in;
  in.recordings = std::string(GAPSIM_SOURCE_DIR) + "/examples/recordings/bioloid_squat";
  in.space = std::string(GAPSIM_SOURCE_DIR) + "/examples/recordings/bioloid_squat_space.csv";
  return in;
}

}  // namespace

TEST(ReplayCalibrationWorkflow, InputsSurviveJsonAndOldCheckpointsReadWithoutSettling) {
  ReplayCalibrationInputs in = squatInputs();
  in.trials = "squat-*";
  in.sim_seed = 18446744073709551615ull;
  in.settle_s = 0.5;
  const nlohmann::json j = in.toJson();
  EXPECT_EQ(j.at("kind"), "replay");  // what calibrate-replay --resume checks
  const ReplayCalibrationInputs back = ReplayCalibrationInputs::fromJson(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.toJson(), j);
  EXPECT_EQ(back.sim_seed, in.sim_seed);
  nlohmann::json old = j;
  old.erase("settle_s");
  EXPECT_EQ(ReplayCalibrationInputs::fromJson(old).settle_s, 0.0);
}

TEST(ReplayCalibrationWorkflow, TheSetNamesItsRobotAndATrainingTrialIsRequired) {
  EXPECT_EQ(recordingsRobot(squatInputs().recordings), "bioloid");
  ReplayCalibrationInputs in = squatInputs();
  in.holdout = "*";
  EXPECT_TRUE(throwsSaying<InputError>([&] { makeReplayCalibrationProblem(in); }, {"--holdout"}));
}

TEST(ReplayCalibrationWorkflow, SummaryComparesTheCandidateWithTheInitialValues) {
  ReplayCalibrationInputs in = squatInputs();
  in.trials = "squat-01";
  const auto problem = makeReplayCalibrationProblem(in);
  ASSERT_EQ(problem->set().trials.size(), 1u);
  // A candidate with every value at its lower bound (compliance slope 32, stall torque 1 N m) against the
  // space's initial values: two different replays, the initial one as runTrial gives it.
  const Eigen::VectorXd init = problem->space().initialValues();
  Eigen::VectorXd low = init;
  for (int i = 0; i < problem->space().dimension(); ++i) low[i] = problem->space().dimensions()[i].lower;
  int rows = 0;
  const ReplayCalibrationSummary s =
      summariseReplayCalibration(*problem, low, [&](const ReplayCalibrationRow&) { ++rows; });
  EXPECT_EQ(rows, 1);
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.rows[0].rms_initial_rad, problem->runTrial(init, 0).rms_rad);
  EXPECT_NE(s.rows[0].rms_best_rad, s.rows[0].rms_initial_rad);
  EXPECT_EQ(s.trials[0], 1);
  EXPECT_EQ(s.trials[1], 0);
  EXPECT_EQ(s.mean_rms_best_rad[0], s.rows[0].rms_best_rad);
  EXPECT_EQ(s.change_percent[0],
            100.0 * (s.rows[0].rms_best_rad - s.rows[0].rms_initial_rad) / s.rows[0].rms_initial_rad);
  EXPECT_EQ(s.csv().rfind("trial,role,rms_initial_rad,rms_best_rad,E_initial_rad2_s,E_best_rad2_s\nsquat-01,train,", 0),
            0u)
      << s.csv();
  const ReplayCalibrationSummary back = ReplayCalibrationSummary::fromJson(nlohmann::json::parse(s.toJson().dump()));
  EXPECT_EQ(back.toJson(), s.toJson());
  EXPECT_EQ(back.csv(), s.csv());
}
