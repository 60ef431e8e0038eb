// SPDX-License-Identifier: BSD-3-Clause
// Walk metrics on a synthetic log whose answers are known: x = v t, pitch = A sin(2 pi f t).
#include "sim/walk_metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

TEST(WalkMetrics, SpeedAmplitudeFrequencyAndFall) {
  const RobotModel model = loadRobotFile(resolveRobotFile("nao"));
  const WalkPlan plan = planWalk(model, parseWalkParams("speed=0.2,step_duration=1.0,steps=10"));
  Log log({"time_s", "torso/x_m", "torso/pitch_rad", "torso/roll_rad"});
  for (int k = 0; k <= 1000; ++k) {
    const double t = 0.01 * k;
    const double row[4] = {t, 0.17 * t, 0.05 * std::sin(2 * M_PI * 2.0 * t) + 0.01,
                           0.02 * std::sin(2 * M_PI * 1.0 * t)};
    log.appendRow(row);
  }
  WalkMetrics m = measureWalk(log, plan, std::nullopt);
  ASSERT_TRUE(m.has_steady);
  EXPECT_NEAR(m.steady_from_s, plan.walk_start_s + 1.0, 1e-12);
  EXPECT_NEAR(std::fmod(m.steady_to_s - m.steady_from_s, 1.0), 0.0, 1e-9);  // whole gait cycles
  EXPECT_NEAR(m.speed_m_s, 0.17, 1e-9);
  // Sampled every 10 ms: the extremes are within 2 pi f * 5 ms of the peak, amplitude error
  // below A (1 - cos(0.063)) = 0.1 %.
  EXPECT_NEAR(m.pitch_amplitude_rad, 0.05, 0.05 * 0.002);
  EXPECT_NEAR(m.pitch_mean_rad, 0.01, 0.002);
  // The spectral peak of a sinusoid seen over T = 6 s (plus the one extra sample) lies within a
  // small fraction of the resolution 1/T = 0.17 Hz of its frequency.
  EXPECT_NEAR(m.pitch_frequency_hz, 2.0, 0.03);
  EXPECT_NEAR(m.roll_amplitude_rad, 0.02, 0.02 * 0.002);
  EXPECT_NEAR(m.roll_frequency_hz, 1.0, 0.03);
  EXPECT_EQ(m.steps_before_fall, 10);
  // A fall at 4 s: 3 touch-downs before it (lift-off 2.5 s, one every 0.5 s, landing 0.4 s later),
  // the steady part (from 3.5 s) ends 0.5 s before the fall: too short to measure.
  m = measureWalk(log, plan, 4.0);
  EXPECT_EQ(m.steps_before_fall, 3);
  EXPECT_FALSE(m.has_steady);
}

}  // namespace
}  // namespace gapsim
