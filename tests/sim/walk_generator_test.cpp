// SPDX-License-Identifier: BSD-3-Clause
// The walk generator's plan, its errors, its motion file, and the walk and the kick simulated
// with ideal servos.
#include "sim/walk_generator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/motion_speed_check.h"
#include "sim/parameters.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/urdf_parser.h"
#include "sim/walk_kick.h"
#include "sim/walk_metrics.h"
#include "tests/scratch_files.h"

namespace gapsim {
namespace {

const RobotModel& nao() {
  static const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  return m;
}

std::shared_ptr<RobotModel> plainNao() {
  auto m = std::make_shared<RobotModel>(nao());
  makePlain(*m);
  return m;
}

using test::slurp;

std::string expectError(const std::string& spec) {
  try {
    planWalk(nao(), parseWalkParams(spec));
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << spec << ": no InputError";
  return {};
}

TEST(WalkGenerator, FootstepPlan) {
  const WalkParams p = parseWalkParams("speed=0.2,step_duration=1.0,steps=10");
  const WalkPlan plan = planWalk(nao(), p);
  ASSERT_EQ(plan.footsteps.size(), 12u);  // 2 initial feet + 10 steps
  EXPECT_EQ(plan.footsteps[2].side, LegSide::Right);
  // Step length = speed * single-step time = 0.2 * 0.5 = 0.1 m; the last step closes the feet.
  for (size_t i = 3; i + 1 < plan.footsteps.size(); ++i) {
    EXPECT_NE(plan.footsteps[i].side, plan.footsteps[i - 1].side);
    EXPECT_NEAR(plan.footsteps[i].x_m - plan.footsteps[i - 1].x_m, 0.1, 1e-12);
    EXPECT_NEAR(plan.footsteps[i].land_s - plan.footsteps[i].lift_s, 0.4, 1e-12);  // 80 % single support
  }
  EXPECT_NEAR(plan.footsteps.back().x_m, plan.footsteps[plan.footsteps.size() - 2].x_m, 1e-12);
  EXPECT_NEAR(plan.footsteps.back().x_m, 0.9, 1e-12);
  EXPECT_NEAR(std::abs(plan.footsteps.back().y_m - plan.footsteps[plan.footsteps.size() - 2].y_m), 0.1, 1e-12);
  // Turning: the feet turn by turn_rate * step time per step, the torso between them.
  const WalkPlan turn = planWalk(nao(), parseWalkParams("speed=0.05,turn_rate=0.3,steps=6"));
  EXPECT_EQ(turn.footsteps[2].side, LegSide::Left);  // turning left starts with the left foot
  EXPECT_NEAR(turn.footsteps.back().yaw_rad, 0.3 * 0.5 * 5, 1e-12);
}

TEST(WalkGenerator, ParsesKeyValuePairs) {
  const WalkParams p = parseWalkParams("speed=0.1, step_duration=1.5,com_height=0.24,duration=6");
  EXPECT_DOUBLE_EQ(p.forward_speed_m_s, 0.1);
  EXPECT_DOUBLE_EQ(p.step_duration_s, 1.5);
  EXPECT_DOUBLE_EQ(p.com_height_m, 0.24);
  EXPECT_EQ(p.stepCount(), 8);
  for (const char* bad : {"speed=abc", "sped=0.1", "speed", "steps=2.5", "steps=3,duration=2", "step_duration=0",
                          "double_support=0.95", "com_height=-1"}) {
    EXPECT_THROW(parseWalkParams(bad), InputError) << bad;
  }
  try {
    parseWalkParams("sped=0.1");
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "sped");
    EXPECT_NE(std::string(e.what()).find("step_duration"), std::string::npos) << "lists the keys: " << e.what();
  }
}

// Infeasible requests name the limit: the leg's reach, the joint with its value and limit.
TEST(WalkGenerator, InfeasibleRequestsNameTheLimit) {
  std::string m = expectError("speed=0.5,step_duration=1.0");
  EXPECT_NE(m.find("out of reach"), std::string::npos) << m;
  EXPECT_NE(m.find("0.2029 m of thigh + tibia"), std::string::npos) << m;
  m = expectError("speed=0.2,com_height=0.2");
  EXPECT_NE(m.find("LHipRoll: -0.3812 rad is beyond the joint limit -0.3794 rad"), std::string::npos) << m;
  EXPECT_NE(m.find(" at t = "), std::string::npos) << m;
  m = expectError("speed=0.05,lateral_speed=0.1");
  EXPECT_NE(m.find("lateral_speed: the feet would collide"), std::string::npos) << m;
}

// The motion file reads back to exactly the motion the generator returns.
TEST(WalkGenerator, MotionCsvRoundTrip) {
  const WalkPlan plan = planWalk(nao(), parseWalkParams("speed=0.1,steps=4"));
  const std::string path = (std::filesystem::temp_directory_path() / "gapsim_walk_roundtrip.csv").string();
  plan.writeCsv(path);
  const Motion read = readMotionCsv(path);
  const Motion made = plan.motion();
  ASSERT_EQ(read.joints(), made.joints());
  ASSERT_EQ(read.frameCount(), made.frameCount());
  for (size_t f = 0; f < made.frameCount(); ++f)
    for (size_t j = 0; j < made.jointCount(); ++j) ASSERT_EQ(read.givenValue_rad(f, j), made.givenValue_rad(f, j));
  std::filesystem::remove(path);
  // Leg joints only, without the mimic RHipYawPitch.
  EXPECT_EQ(made.jointCount(), 11u);
  EXPECT_EQ(made.jointIndex("RHipYawPitch"), -1);
}

// The shipped motions are what the generator produces now (regenerate them as docs/walk.md says).
TEST(WalkGenerator, ShippedMotionsAreCurrent) {
  struct Shipped {
    const char* file;
    const char* spec;  // as in docs/walk.md
  };
  const Shipped shipped[] = {
      {"walk_200mm_s_1s.csv", "speed=0.2,step_duration=1.0"},
      {"walk_50mm_s_2s.csv", "speed=0.05,step_duration=2.0,steps=10"},
      {"walk_100mm_s_1.5s.csv", "speed=0.1,step_duration=1.5,steps=12"},
      {"walk_150mm_s_0.8s.csv", "speed=0.15,step_duration=0.8,steps=24"},
  };
  const std::string dir = robotsDirectory() + "/nao/motions/";
  const std::string tmp = (std::filesystem::temp_directory_path() / "gapsim_walk_shipped.csv").string();
  for (const Shipped& s : shipped) {
    planWalk(nao(), parseWalkParams(s.spec)).writeCsv(tmp);
    EXPECT_EQ(slurp(tmp), slurp(dir + s.file)) << s.file << " is not what `gapsim-cli walk` writes for " << s.spec;
  }
  planKick(nao()).writeCsv(tmp);
  EXPECT_EQ(slurp(tmp), slurp(dir + "kick.csv")) << "kick.csv is not what `gapsim-cli walk --kick` writes";
  std::filesystem::remove(tmp);
}

// Long steps in a 1 s cycle: with 20 % double support the knee targets turn faster than the type
// B drives' no-load speed; the generator shortens the double support, 0.05 at a time, to the first
// value whose targets they can follow, and keeps the request when asked to or when it is slow enough.
TEST(WalkGenerator, FitsTheDoubleSupportToTheDrivesSpeed) {
  const WalkPlan fitted = planWalk(nao(), parseWalkParams("speed=0.25,step_duration=1.0,steps=12"));
  EXPECT_DOUBLE_EQ(fitted.requested_double_support_fraction, 0.2);
  EXPECT_NEAR(fitted.params.double_support_fraction, 0.05, 1e-12);
  EXPECT_TRUE(jointsFasterThanTheirDrives(nao(), fitted).empty());
  EXPECT_EQ(fitted.driveFitNote().rfind("double support 0.05 instead of 0.20 of each step", 0), 0u)
      << fitted.driveFitNote();
  // 0.1 is not enough: the fit takes the longest double support that is.
  const WalkPlan at_0_1 =
      planWalk(nao(), parseWalkParams("speed=0.25,step_duration=1.0,steps=12,double_support=0.1,fit_drives=0"));
  EXPECT_FALSE(jointsFasterThanTheirDrives(nao(), at_0_1).empty());
  // Its swing phases are the longer ones: (1 - 0.05) * 0.5 s.
  const Footstep& step = fitted.footsteps[3];
  EXPECT_NEAR(step.land_s - step.lift_s, 0.95 * 0.5, 1e-9);

  const WalkPlan as_given = planWalk(nao(), parseWalkParams("speed=0.25,step_duration=1.0,steps=12,fit_drives=0"));
  EXPECT_DOUBLE_EQ(as_given.params.double_support_fraction, 0.2);
  EXPECT_FALSE(jointsFasterThanTheirDrives(nao(), as_given).empty());
  const WalkPlan slow = planWalk(nao(), parseWalkParams("speed=0.1,step_duration=1.5,steps=12"));
  EXPECT_DOUBLE_EQ(slow.params.double_support_fraction, 0.2);
  EXPECT_EQ(slow.requested_double_support_fraction, slow.params.double_support_fraction);
  EXPECT_EQ(slow.driveFitNote(), "");
  EXPECT_EQ(as_given.driveFitNote(), "");
}

// Acceptance: with ideal servos the 200 mm/s walk (1 s gait cycle) covers at least 10 steps
// without falling and its speed over the steady part is within 15 % of the command. dWorldStep:
// with QuickStep's 20 iterations the ideal servos sag under single support (docs/walk.md).
TEST(WalkGenerator, Walk200mmPerSecondWithIdealServos) {
  const WalkParams p = parseWalkParams("speed=0.2,step_duration=1.0,steps=14");
  auto model = plainNao();
  const WalkPlan plan = planWalk(*model, p);
  const Motion motion = plan.motion();
  SimOptions so;
  so.quickstep = false;
  Simulation sim(model, so);
  RunConfig cfg;
  cfg.duration_s = motion.endTime_s() + 0.5;
  Log log(Recorder(*model).columns());
  const RunSummary sum = runMotion(sim, &motion, cfg, &log);
  ASSERT_FALSE(sum.diverged) << sum.divergence;
  EXPECT_FALSE(sum.fall_time_s.has_value()) << "fell at " << *sum.fall_time_s;
  const WalkMetrics m = measureWalk(log, plan, sum.fall_time_s);
  EXPECT_GE(m.steps_before_fall, 10);
  ASSERT_TRUE(m.has_steady);
  EXPECT_NEAR(m.speed_m_s, 0.2, 0.15 * 0.2) << "measured " << m.speed_m_s;
  EXPECT_LT(sum.max_tilt_deg, 5.0);
  // The whole distance: 13 steps of 0.1 m (the 14th closes the feet).
  EXPECT_NEAR(sum.distance_m, 1.3, 0.15 * 1.3);
  std::printf("200 mm/s walk: %.1f mm/s, pitch amplitude %.3f deg, roll amplitude %.3f deg, max tilt %.2f deg\n",
              m.speed_m_s * 1000, m.pitch_amplitude_rad * 180 / M_PI, m.roll_amplitude_rad * 180 / M_PI,
              sum.max_tilt_deg);
}

// Acceptance: the shipped kick keeps the robot upright with ideal servos (the robot file's
// QuickStep solver, where the servos are softest).
TEST(WalkGenerator, KickStaysUprightWithIdealServos) {
  auto model = plainNao();
  const Motion kick = loadMotion(robotsDirectory() + "/nao/motions/kick.csv");
  // Single support: like the walks, the open-loop kick needs the exact LCP (QuickStep at the robot
  // file's 15 iterations lets the stance leg sag and the Nao falls; plain needs >= 40 iterations).
  SimOptions so;
  so.quickstep = false;
  Simulation sim(model, so);
  RunConfig cfg;
  cfg.duration_s = kick.endTime_s() + 1.0;
  const RunSummary sum = runMotion(sim, &kick, cfg, nullptr);
  ASSERT_FALSE(sum.diverged) << sum.divergence;
  EXPECT_FALSE(sum.fall_time_s.has_value());
  EXPECT_LT(sum.max_tilt_deg, 10.0);
  EXPECT_LT(sum.distance_m, 0.03);
}

}  // namespace
}  // namespace gapsim
