// SPDX-License-Identifier: BSD-3-Clause
// The stability sweep: draws are reproducible and within bounds; a small sweep of the Nao's
// drivetrain stays finite (upright, fallen, or cleanly reported, never NaN or a crash).
#include "calib/stability_sweep.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {
namespace {

RobotModel nao() { return loadRobotFile(resolveRobotFile("nao")); }

double valueOf(const RobotModel& m, const std::string& name) {
  for (const auto& e : listParameters(m))
    if (e.name == name) return e.value;
  return NAN;
}

TEST(StabilitySweep, DrawsAreReproducibleIndependentAndWithinBounds) {
  const RobotModel m = nao();
  const auto ranges = naoDrivetrainRanges();
  const auto a = drawSet(m, ranges, 7, 3), b = drawSet(m, ranges, 7, 3), c = drawSet(m, ranges, 7, 4);
  ASSERT_EQ(a.size(), ranges.size());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (int i = 0; i < 50; ++i) {
    const auto s = drawSet(m, ranges, 11, i);
    for (size_t k = 0; k < ranges.size(); ++k) {
      const auto& r = ranges[k];
      const double base = r.relative ? valueOf(m, r.name) : 1.0;
      EXPECT_GE(s[k].second, r.lower * base * (1 - 1e-12)) << r.name;
      EXPECT_LE(s[k].second, r.upper * base * (1 + 1e-12)) << r.name;
    }
  }
}

TEST(StabilitySweep, SmallSweepOfTheNaoStaysFinite) {
  // The full sweep (200 sets x 5 s) is `gapsim-cli sweep`; this is its smoke test: 6 sets x 1.5 s.
  const RobotModel m = nao();
  const auto ranges = naoDrivetrainRanges();
  SweepConfig cfg;
  cfg.duration_s = 1.5;
  for (int i = 0; i < 6; ++i) {
    const SweepCase c = runCase(m, ranges, cfg, i);
    EXPECT_TRUE(c.outcome == "upright" || c.outcome == "fell" || c.outcome == "diverged" || c.outcome == "rejected")
        << c.outcome;
    EXPECT_TRUE(std::isfinite(c.max_tilt_deg)) << "set " << i;
    if (c.outcome == "diverged") {
      EXPECT_NE(c.message.find("diverged at t="), std::string::npos);
    }
  }
}

TEST(StabilitySweep, ASpaceIsSweptWithinItsOwnBoundsSkippingFrozenRows) {
  const RobotModel m = nao();
  const ParameterSpace space =
      ParameterSpace::fromEntries({{"legs/typeB/motor/K_e", 0.0195, 0.01, 0.04, false, "", true},
                                   {"legs/typeA/pid/p", 319.47, 100, 400, true, "", false},
                                   {"legs/soft/D_B", 2006.5, 1000, 3000, false, "", false}},
                                  "test space");
  const auto ranges = rangesFromSpace(space);
  ASSERT_EQ(ranges.size(), 2u);  // the frozen pid/p row is not swept
  EXPECT_EQ(ranges[0].name, "legs/typeB/motor/K_e");
  EXPECT_FALSE(ranges[0].relative);
  EXPECT_TRUE(ranges[0].logarithmic);
  EXPECT_FALSE(ranges[1].logarithmic);
  for (int i = 0; i < 40; ++i) {
    const auto s = drawSet(m, ranges, 3, i);
    EXPECT_GE(s[0].second, 0.01);
    EXPECT_LE(s[0].second, 0.04);
    EXPECT_GE(s[1].second, 1000);
    EXPECT_LE(s[1].second, 3000);
  }
  EXPECT_THROW(rangesFromSpace(
                   ParameterSpace::fromEntries({{"legs/soft/D_B", 2006.5, 1000, 3000, true, "", false}}, "all frozen")),
               InputError);
}

TEST(StabilitySweep, DefaultMotorBoundsAreTheDatasheetTolerances) {
  // K_e sets the no-load speed (+-12 % on the Nao's motor datasheets), S the stall torque (+-10 %).
  for (const auto& r : naoDrivetrainRanges()) {
    if (r.name.ends_with("/motor/K_e")) {
      EXPECT_DOUBLE_EQ(r.lower, 0.88);
      EXPECT_DOUBLE_EQ(r.upper, 1.12);
    }
    if (r.name.ends_with("/motor/S")) {
      EXPECT_TRUE(r.relative);
      EXPECT_DOUBLE_EQ(r.lower, 0.9);
      EXPECT_DOUBLE_EQ(r.upper, 1.1);
    }
  }
}

}  // namespace
}  // namespace gapsim::calib
