// SPDX-License-Identifier: BSD-3-Clause
// The synthetic leg experiment (calib/leg_excite_workflow.h) called as a library: a short MIMO
// chirp on the stand is simulated with Table V's biases (the MIMO default), the log it writes is
// the one identify leg-* reads, the hook to claim the output runs before the file exists, the
// report says what was written, and options and result survive JSON.
#include "calib/leg_excite_workflow.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "calib/leg_id_workflow.h"
#include "sim/input_error.h"
#include "tests/scratch_files.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;
namespace fs = std::filesystem;
}  // namespace

TEST(LegExciteWorkflow, WritesTheMimoLogWithTheTableVBiasesAndRoundTrips) {
  const fs::path dir = test::freshDir("gapsim_leg_excite_workflow_test");
  LegExciteOptions o;
  o.out = (dir / "mimo.csv").string();
  o.dof = "both";
  o.chirp.f_end_Hz = 5;  // 0.5 .. 5 Hz, 3 steps of 2 periods: about 6 s
  o.chirp.steps = 3;
  o.chirp.periods = 2;
  o.encoder_bits = 14;
  bool claimed_before_write = false;
  std::ostringstream report;
  const LegExciteResult r = exciteLeg(o, &report, [&] { claimed_before_write = !fs::exists(o.out); });
  EXPECT_TRUE(claimed_before_write);
  EXPECT_TRUE(r.mimo);
  EXPECT_EQ(r.b_mLA_Nm, tableVBias_Nm(LegSide::Left, true));
  EXPECT_EQ(r.b_mLS_Nm, tableVBias_Nm(LegSide::Left, false));
  EXPECT_NEAR(r.encoder_rad, 2 * M_PI / 16384, 1e-15);
  const std::string text = report.str();
  EXPECT_NE(text.find("excite leg: " + std::to_string(r.samples) + " samples"), std::string::npos) << text;
  EXPECT_NE(text.find("written: " + o.out), std::string::npos) << text;

  const LegExperiment e = legExperiment(LegSide::Left, "both");
  const LegExperimentLog log = LegExperimentLog::read(o.out, e);
  EXPECT_EQ(static_cast<int>(log.time_s.size()), r.samples);
  EXPECT_DOUBLE_EQ(log.sample_time_s, r.sample_time_s);
  const auto [lo, hi] = std::minmax_element(log.q_mLS_rad.begin(), log.q_mLS_rad.end());
  EXPECT_NEAR(*lo, r.q_mLS_min_rad, 1e-9);  // the CSV's 10 digits
  EXPECT_NEAR(*hi, r.q_mLS_max_rad, 1e-9);
  EXPECT_LT(r.q_mLS_min_rad, r.q_mLS_max_rad);  // the leg moved

  const LegExciteOptions o2 = LegExciteOptions::fromJson(o.toJson());
  EXPECT_EQ(o2.dof, "both");
  EXPECT_EQ(o2.chirp.steps, 3);
  EXPECT_FALSE(o2.offset_Nm.has_value());
  EXPECT_EQ(o2.toJson(), o.toJson());
  const LegExciteResult r2 = LegExciteResult::fromJson(r.toJson());
  EXPECT_EQ(r2.samples, r.samples);
  EXPECT_EQ(r2.offset_mLA_Nm, r.offset_mLA_Nm);
  EXPECT_EQ(r2.toJson(), r.toJson());
  fs::remove_all(dir);
}

TEST(LegExciteWorkflow, RefusesABadEncoderResolutionNamingTheOption) {
  LegExciteOptions o;
  o.out = (fs::temp_directory_path() / "gapsim_leg_excite_never_written.csv").string();
  o.encoder_bits = 41;
  EXPECT_TRUE(throwsSaying<InputError>([&] { exciteLeg(o); }, {"--encoder-bits"}));
  EXPECT_FALSE(fs::exists(o.out));
}
