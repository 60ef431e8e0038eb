// SPDX-License-Identifier: BSD-3-Clause
// The stability sweep: draws are reproducible and within bounds; a small sweep of the Nao's
// drivetrain stays finite (upright, fallen, or cleanly reported, never NaN or a crash).
#include <gtest/gtest.h>

#include <cmath>

#include "calib/stability_sweep.h"
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

}  // namespace
}  // namespace gapsim::calib
