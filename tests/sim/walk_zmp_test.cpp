// SPDX-License-Identifier: BSD-3-Clause
// ZMP preview control (cart-table model) and the COM the walk generator plans with it.
#include "sim/walk_zmp.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "sim/walk_generator.h"

namespace gapsim {
namespace {

const RobotModel& nao() {
  static const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  return m;
}

// A constant reference: the COM stays exactly where it starts (the controller is at rest).
TEST(WalkZmp, RestsOnAConstantReference) {
  ZmpPreviewController c({});
  const ComTrajectory t = c.track(std::vector<double>(300, 0.02));
  for (size_t k = 0; k < 300; ++k) {
    EXPECT_NEAR(t.pos_m[k], 0.02, 1e-12);
    EXPECT_NEAR(t.acc_m_s2[k], 0.0, 1e-9);
  }
}

// A ramp from 0 to 0.05 m over 0.1 s, held (a double-support shift as steep as the walk's): the
// cart-table ZMP cannot turn the two corners exactly since the jerk is weighted (R = 1e-9); it
// follows within 3 mm (2.5 mm observed) and the COM settles on the new value (integral action).
TEST(WalkZmp, TracksARampAndSettles) {
  ZmpPreviewParams p;
  ZmpPreviewController c(p);
  std::vector<double> ref(500, 0.0);
  for (size_t k = 100; k < ref.size(); ++k) ref[k] = std::min(0.05, 0.05 * (k - 100) / 10.0);
  const ComTrajectory t = c.track(ref);
  double worst = 0;
  for (size_t k = 0; k < ref.size(); ++k)
    worst = std::max(worst, std::abs(t.zmp_m(k, p.com_height_m, p.gravity_m_s2) - ref[k]));
  EXPECT_LT(worst, 0.003);
  EXPECT_NEAR(t.pos_m.back(), 0.05, 1e-4);
  // The preview moves the COM before the reference changes (the counter-movement of Kajita's
  // Fig. 6): it is no longer at 0 well before k = 100.
  EXPECT_GT(std::abs(t.pos_m[80]), 1e-5);
}

TEST(WalkZmp, GainsAreFiniteAndPreviewDecays) {
  ZmpPreviewController c({});
  EXPECT_EQ(c.previewSteps(), 160);
  EXPECT_TRUE(std::isfinite(c.integralGain()));
  EXPECT_GT(std::abs(c.previewGains()[1]), 100 * std::abs(c.previewGains().back()));
}

TEST(WalkZmp, BadParametersThrow) {
  ZmpPreviewParams p;
  p.com_height_m = -1;
  EXPECT_THROW(ZmpPreviewController{p}, InputError);
}

// Acceptance: the cart-table ZMP of the generated COM trajectory stays within 5 mm of the
// reference ZMP, for both of the paper's setups and a faster walk with turning.
TEST(WalkZmp, GeneratedComKeepsTheZmpWithin5mm) {
  for (const char* spec :
       {"speed=0.2,step_duration=1.0", "speed=0.05,step_duration=2.0",
        "speed=0.1,step_duration=0.8,turn_rate=0.2,steps=12", "speed=0.05,lateral_speed=0.02,steps=8"}) {
    const WalkParams p = parseWalkParams(spec);
    const WalkPlan plan = planWalk(nao(), p);
    double worst = 0;
    for (size_t k = 0; k < plan.time_s.size(); ++k) {
      const double ex = plan.com_x.zmp_m(k, p.com_height_m, 9.81) - plan.zmp_ref_x_m[k];
      const double ey = plan.com_y.zmp_m(k, p.com_height_m, 9.81) - plan.zmp_ref_y_m[k];
      worst = std::max(worst, std::hypot(ex, ey));
    }
    EXPECT_LT(worst, 0.005) << spec;
    // The torso placement puts the model's own COM (all links) on the planned one.
    for (size_t k = 0; k < plan.time_s.size(); ++k) {
      ASSERT_NEAR(plan.model_com_x_m[k], plan.com_x.pos_m[k], 1e-6) << spec;
      ASSERT_NEAR(plan.model_com_y_m[k], plan.com_y.pos_m[k], 1e-6) << spec;
      ASSERT_NEAR(plan.model_com_z_m[k], p.com_height_m, 1e-6) << spec;
    }
  }
}

}  // namespace
}  // namespace gapsim
