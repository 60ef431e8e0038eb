// SPDX-License-Identifier: BSD-3-Clause
// The leg identification workflow (calib/leg_id_workflow.h) called as a library: a synthetic SISO
// stand experiment simulated with Table V's friction is fitted back to it by eq. (19), the
// measured-vs-simulated CSV has a row per sample, the report names both, and options and result survive JSON.
#include "calib/leg_id_workflow.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "tests/scratch_files.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;

namespace fs = std::filesystem;

/// A short SISO mLS experiment of the left leg (0.5-20 Hz, 8 steps, 3 periods: 14 s), exact
/// encoders, simulated with the stand's parameters (Table V friction, Table IV bias).
std::string writeSisoLog(const fs::path& dir) {
  const RobotModel stand = loadLegStand("");
  const LegExperiment e = legExperiment(LegSide::Left, "mLS");
  const auto leg = legWithOverrides(stand, LegSide::Left, {});
  LegExcitation x;
  x.mLS.f_end_Hz = 20;
  x.mLS.steps = 8;
  x.mLS.periods = 3;
  x.mLS.amplitude_start_Nm = 0.03;
  x.mLS.amplitude_end_Nm = 0.3;
  x.mLS.sample_time_s = stand.solver.dt_s * std::max(1.0, std::round(0.001 / stand.solver.dt_s));
  x.mLA = x.mLS;
  const LegPose pose = standInitialPose(stand, LegSide::Left);
  const LegHold hold = legHoldCommands(stand, LegSide::Left, leg, pose);  // keeps the knee off its stop
  x.mLA.offset_Nm = hold.u_mLA_Nm;
  x.mLS.offset_Nm = hold.u_mLS_Nm;
  const std::string path = (dir / "siso_mLS.csv").string();
  synthesizeLegExperiment(stand, e, leg, pose, x).write(path, "leg_id_workflow_test");
  return path;
}

}  // namespace

TEST(LegIdWorkflow, FrictionFitRecoversTableVAndWritesTheComparison) {
  const fs::path dir = test::freshDir("gapsim_leg_id_workflow_test");
  LegIdOptions o;
  o.log = writeSisoLog(dir);
  o.out_dir = (dir / "out").string();
  std::ostringstream report;
  const LegIdResult r = identifyLeg(o, &report);
  // The report says what was fitted, and where the comparison went, in that order.
  const std::string text = report.str();
  EXPECT_LT(text.find("leg friction, eq. (19)"), text.find("mu_mLS = ")) << text;
  EXPECT_NE(text.find("measured vs simulated (CSV): " + r.csv), std::string::npos) << text;
  EXPECT_TRUE(r.actuated_mLS && !r.actuated_mLA);
  EXPECT_TRUE(r.converged);
  ASSERT_EQ(r.estimates.size(), 1u);
  EXPECT_EQ(r.estimates[0].param, "mu_mLS");
  // The log was simulated with Table V's mu of mLS_L and no noise: the fit finds it again.
  EXPECT_NEAR(r.estimates[0].value, 9.844e-3, 1e-5);
  EXPECT_DOUBLE_EQ(r.estimates[0].table_v, 9.844e-3);
  EXPECT_LT(r.cost_J_rad, r.initial_cost_J_rad);
  const CsvTable csv = CsvTable::read(r.csv);
  EXPECT_EQ(static_cast<int>(csv.rows()), r.samples);
  EXPECT_TRUE(csv.has("q_mLS_sim_rad"));
  fs::remove_all(dir);
}

TEST(LegIdWorkflow, RefusesAMimoDofForTheFrictionFit) {
  LegIdOptions o;
  o.log = "/nonexistent.csv";
  o.dof = "both";
  EXPECT_TRUE(throwsSaying<InputError>([&] { identifyLeg(o); }, {"--dof"}));
}

TEST(LegIdWorkflow, OptionsAndResultSurviveJson) {
  LegIdOptions o;
  o.fit = LegIdOptions::Fit::kBias;
  o.log = "mimo.csv";
  o.sets = {"mLS/K_T=1.0"};
  o.mu_mLA_Nms_rad = 0.01;
  o.b_start_mLS_Nm = -0.02;
  const LegIdOptions o2 = LegIdOptions::fromJson(nlohmann::json::parse(o.toJson().dump()));
  EXPECT_EQ(o2.toJson(), o.toJson());
  EXPECT_EQ(o2.fit, LegIdOptions::Fit::kBias);
  EXPECT_FALSE(o2.mu_mLS_Nms_rad.has_value());
  EXPECT_EQ(o2.outputNames(), (std::vector<std::string>{"mimo_leg_bias.csv", "mimo_leg_bias.png"}));

  LegIdResult r;
  r.samples = 14000;
  r.estimates = {{"b_mLA", -2.46e-3, 1e-5, -2e-3, -2.461e-3}, {"b_mLS", -1.45e-2, 2e-5, -1e-2, -1.446e-2}};
  r.converged = true;
  r.figure = FigureStatus::kFailed;
  const LegIdResult back = LegIdResult::fromJson(nlohmann::json::parse(r.toJson().dump()));
  EXPECT_EQ(back.toJson(), r.toJson());
  EXPECT_EQ(back.estimates[1].param, "b_mLS");
  EXPECT_EQ(back.figure, FigureStatus::kFailed);
}
