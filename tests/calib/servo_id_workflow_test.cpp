// SPDX-License-Identifier: BSD-3-Clause
// The servo identification workflows (calib/servo_id_workflow.h) called as a library on the real
// AX-18 step test (tests/calib/data/ankle_r_foot_slope32.csv): the paper's method with its
// inertia sweep, simulated check and Fig. 2 data; the M1 model fitted by simulation with a small
// budget; and options and results through JSON.
#include "calib/servo_id_workflow.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;

namespace fs = std::filesystem;

const std::string kSlope32 = std::string(GAPSIM_TEST_DATA_DIR) + "/ankle_r_foot_slope32.csv";

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  return dir;
}

}  // namespace

TEST(ServoIdWorkflow, PaperMethodScalesWithInertiaAndWritesFigureData) {
  const fs::path dir = freshDir("gapsim_servo_id_workflow_paper");
  ServoPaperIdOptions o;
  o.log = kSlope32;
  o.out_dir = dir.string();
  std::ostringstream report;
  const ServoPaperIdResult r = identifyServoByPaper(o, &report);
  EXPECT_NE(report.str().find("the paper's method"), std::string::npos) << report.str();
  EXPECT_FALSE(r.inertia_given);
  EXPECT_EQ(r.inertia_kgm2, r.model_inertia_kgm2);
  EXPECT_GT(r.kp_Nm_rad.value, 0);
  EXPECT_GT(r.kd_Nm_s_rad.value, 0);
  // y = I qdd is linear in I and the regressors are not: every gain scales exactly with I
  // (rounding of the least-squares solve only).
  ASSERT_EQ(r.inertia_sweep.size(), 3u);
  const ServoInertiaRow& half = r.inertia_sweep[0];
  const ServoInertiaRow& twice = r.inertia_sweep[2];
  EXPECT_NEAR(twice.kp_Nm_rad, 4 * half.kp_Nm_rad, 1e-9 * twice.kp_Nm_rad);
  EXPECT_NEAR(twice.kd_Nm_s_rad, 4 * half.kd_Nm_s_rad, 1e-9 * std::abs(twice.kd_Nm_s_rad));
  EXPECT_EQ(r.inertia_sweep[1].kp_Nm_rad, r.kp_Nm_rad.value);
  // The check simulates every used sample. This excerpt identifies kc < 0, which the servo law
  // cannot take: the check runs with kc = 0 and says so.
  EXPECT_EQ(r.replay_samples, r.samples);
  EXPECT_TRUE(std::isfinite(r.replay_rms_rad));
  ASSERT_LT(r.kc_Nm.value, 0);
  ASSERT_EQ(r.replay_notes.size(), 1u);
  EXPECT_NE(r.replay_notes[0].find("kc = 0"), std::string::npos) << r.replay_notes[0];
  CsvReadOptions repeated_stamps;  // the log's 1 ms stamps repeat, and so do the CSV's
  repeated_stamps.time_column = "";
  const CsvTable csv = CsvTable::read(r.csv, repeated_stamps);
  EXPECT_EQ(static_cast<int>(csv.rows()), r.samples);
  EXPECT_TRUE(csv.has("q_sim_rad"));
  EXPECT_EQ(r.figure == FigureStatus::kWritten, fs::exists(r.png));
  fs::remove_all(dir);
}

TEST(ServoIdWorkflow, PaperMethodRefusesANonPositiveInertia) {
  ServoPaperIdOptions o;
  o.log = kSlope32;
  o.inertia_kgm2 = -1;
  EXPECT_TRUE(throwsSaying<InputError>([&] { identifyServoByPaper(o); }, {"--inertia"}));
}

TEST(ServoIdWorkflow, ModelM1FittedBySimulationGivesDrivetrainParameters) {
  const fs::path dir = freshDir("gapsim_servo_id_workflow_models");
  ServoModelsOptions o;
  o.logs = {kSlope32};
  o.models = {"M1", "m1"};  // the same model twice is fitted once
  o.evaluations = 300;
  o.polish = false;
  o.out_dir = dir.string();
  std::ostringstream report;
  int read = 0;
  const ServoModelsResult r = identifyServoModels(o, &report, [&](const ServoModelsResult& logs_only) {
    ++read;
    ASSERT_EQ(logs_only.logs.size(), 1u);
    EXPECT_EQ(logs_only.logs[0].first, "slope32");
    EXPECT_TRUE(logs_only.models.empty());  // before the first fit
  });
  EXPECT_EQ(read, 1);
  EXPECT_NE(report.str().find("model M1 (Coulomb-viscous)"), std::string::npos) << report.str();
  ASSERT_EQ(r.models.size(), 1u);
  EXPECT_EQ(r.bestModel().model, motorgear::FrictionModel::M1);
  EXPECT_TRUE(std::isfinite(r.bestModel().test_rms_rad));
  // One log of 0.5 rad steps followed within 20 mrad (the fit reaches ~7.5 mrad).
  EXPECT_LT(r.all_logs_rms_rad, 0.02);
  EXPECT_GT(r.link_inertia_kgm2, 0);
  ASSERT_GE(r.drivetrain.size(), 4u);
  EXPECT_EQ(r.drivetrain[0].first, "armature");
  EXPECT_GE(r.drivetrain[0].second, 0);
  EXPECT_EQ(r.drivetrain[3], (std::pair<std::string, double>{"friction/model", 1.0}));
  EXPECT_TRUE(fs::exists(r.csv));
  fs::remove_all(dir);
}

TEST(ServoIdWorkflow, OptionsAndResultsSurviveJson) {
  ServoPaperIdOptions p;
  p.log = "a.csv";
  p.inertia_kgm2 = 2e-3;
  EXPECT_EQ(ServoPaperIdOptions::fromJson(nlohmann::json::parse(p.toJson().dump())).toJson(), p.toJson());
  ServoModelsOptions m;
  m.logs = {"a_slope32.csv", "b_slope64.csv"};
  m.seed = 18446744073709551615ull;
  const ServoModelsOptions m2 = ServoModelsOptions::fromJson(nlohmann::json::parse(m.toJson().dump()));
  EXPECT_EQ(m2.toJson(), m.toJson());
  EXPECT_EQ(m2.seed, m.seed);

  ServoPaperIdResult r;
  r.kp_Nm_rad = {9.2, 0.1, 0.2};
  r.term_rms_Nm = {1, 2, 3};
  r.inertia_sweep = {{0.5, 1e-3, 4.6, 0.15, 0.015}, {1, 2e-3, 9.2, 0.3, 0.03}};
  r.replay_notes = {"a note"};
  r.figure = FigureStatus::kWritten;
  const ServoPaperIdResult r2 = ServoPaperIdResult::fromJson(nlohmann::json::parse(r.toJson().dump()));
  EXPECT_EQ(r2.toJson(), r.toJson());
  EXPECT_EQ(r2.inertia_sweep[1].kp_Nm_rad, 9.2);

  ServoModelsResult s;
  s.logs = {{"slope32", 3000}};
  s.models.push_back(
      {motorgear::FrictionModel::M3, {"inertia", "delay_s"}, {{"slope32", {2e-3, 0.01}, 1, 2, 3, 4}}, 2, 4, 4});
  s.best = 0;
  s.drivetrain = {{"armature", 1e-3}, {"friction/model", 3}};
  const ServoModelsResult s2 = ServoModelsResult::fromJson(nlohmann::json::parse(s.toJson().dump()));
  EXPECT_EQ(s2.toJson(), s.toJson());
  EXPECT_EQ(s2.bestModel().model, motorgear::FrictionModel::M3);
  EXPECT_EQ(s2.bestModel().runs[0].values[1], 0.01);
}
