// SPDX-License-Identifier: BSD-3-Clause
// The workflows' options in JSON (calib/json_fields.h): each struct's field list written and read
// back unchanged, a 64-bit seed kept whole as a decimal string, and a checkpoint written before a
// member existed read with the value it meant.
#include "calib/json_fields.h"

#include <gtest/gtest.h>

#include "calib/calibration.h"
#include "calib/sim_to_real_loop.h"

namespace gapsim::calib {
namespace {

constexpr std::uint64_t kBigSeed = 18446744073709551557ull;  // above 2^53: a double would change it

TEST(JsonFields, CalibrationSettingsKeepTheirSeedWholeAndEveryKeyIsRequired) {
  CalibrationSettings s;
  s.optimizer = "es";
  s.generations = 7;
  s.sigma0 = 0.35;
  s.seed = kBigSeed;
  const nlohmann::json j = s.toJson();
  EXPECT_EQ(j.at("seed"), "18446744073709551557");
  EXPECT_EQ(j.size(), 9u);
  const CalibrationSettings back = CalibrationSettings::fromJson(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.seed, kBigSeed);
  EXPECT_EQ(back.optimizer, "es");
  EXPECT_EQ(back.toJson(), j);
  nlohmann::json missing = j;
  missing.erase("rho");
  EXPECT_THROW(CalibrationSettings::fromJson(missing), nlohmann::json::exception);
}

TEST(JsonFields, AnOldLoopCheckpointReadsWithTheDefaultsItRanWith) {
  SimToRealLoopOptions o;
  o.seed = kBigSeed;
  o.cal_joint_weight = 0.5;
  o.robust_models = 3;
  const nlohmann::json j = o.toJson();
  EXPECT_EQ(j.at("kind"), "loop");  // what loop --resume checks
  EXPECT_EQ(SimToRealLoopOptions::fromJson(nlohmann::json::parse(j.dump())).toJson(), j);
  nlohmann::json old = j;
  for (const char* k : {"recordings", "cal_joint_weight", "cal_settle_s", "robust_models", "robust_gain_spread"})
    old.erase(k);
  const SimToRealLoopOptions back = SimToRealLoopOptions::fromJson(old);
  EXPECT_EQ(back.seed, kBigSeed);
  EXPECT_EQ(back.recordings, "");
  EXPECT_EQ(back.cal_joint_weight, 0.0);
  EXPECT_EQ(back.cal_settle_s, 0.0);
  EXPECT_EQ(back.robust_models, 1);
  EXPECT_EQ(back.robust_gain_spread, 0.2);
  old.erase("seed");
  EXPECT_THROW(SimToRealLoopOptions::fromJson(old), nlohmann::json::exception);
}

}  // namespace
}  // namespace gapsim::calib
