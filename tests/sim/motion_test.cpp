// SPDX-License-Identifier: BSD-3-Clause
#include "sim/motion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "tests/sim/expect_input_error.h"

namespace gapsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string data(const std::string& name) { return std::string(GAPSIM_TEST_DATA_DIR) + "/timeseries/" + name; }

using gapsim::test::expectInputError;

// ------------------------------------------------------------------ Motion built in code

TEST(Motion, LinearInterpolationExactAtAndBetweenKeyframes) {
  // q(t): 0 at 0 s, 1 at 1 s, -1 at 3 s. Dyadic values, so every expectation below is exact:
  // the ramp a + (b - a)(t - t_a)/(t_b - t_a) involves no rounding for these numbers.
  const Motion m({"HeadYaw"}, {0.0, 1.0, 3.0}, {{0.0}, {1.0}, {-1.0}});
  EXPECT_EQ(m.sample(0, 0.0), 0.0);
  EXPECT_EQ(m.sample(0, 0.5), 0.5);
  EXPECT_EQ(m.sample(0, 1.0), 1.0);
  EXPECT_EQ(m.sample(0, 1.5), 0.5);
  EXPECT_EQ(m.sample(0, 2.0), 0.0);
  EXPECT_EQ(m.sample(0, 3.0), -1.0);
  EXPECT_EQ(m.sample(0, -1.0), 0.0);   // held before the first frame
  EXPECT_EQ(m.sample(0, 10.0), -1.0);  // held after the last
  EXPECT_EQ(m.sample(0, kNaN), 0.0);
  EXPECT_EQ(m.duration_s(), 3.0);
  EXPECT_EQ(m.frameCount(), 3u);
  EXPECT_EQ(m.jointIndex("HeadYaw"), 0);
  EXPECT_EQ(m.jointIndex("HeadPitch"), -1);
}

TEST(Motion, EqualTimesAreAStepWhereTheLaterFrameWins) {
  const Motion m({"LKneePitch"}, {0.0, 1.0, 1.0, 2.0}, {{0.0}, {0.0}, {2.0}, {4.0}});
  EXPECT_EQ(m.sample(0, 0.5), 0.0);
  EXPECT_EQ(m.sample(0, std::nextafter(1.0, 0.0)), 0.0);
  EXPECT_EQ(m.sample(0, 1.0), 2.0);
  EXPECT_EQ(m.sample(0, 1.5), 3.0);
  // A step at the very start: before it the first frame, from it on the later one.
  const Motion s({"A"}, {0.0, 0.0, 1.0}, {{5.0}, {1.0}, {1.0}});
  EXPECT_EQ(s.sample(0, -0.5), 5.0);
  EXPECT_EQ(s.sample(0, 0.0), 1.0);
  // A step at the end: the last frame holds.
  const Motion e({"A"}, {0.0, 1.0, 1.0}, {{0.0}, {1.0}, {7.0}});
  EXPECT_EQ(e.sample(0, 0.5), 0.5);
  EXPECT_EQ(e.sample(0, 1.0), 7.0);
  EXPECT_EQ(e.sample(0, 9.0), 7.0);
}

TEST(Motion, NanHolesInterpolatedBetweenGivingFramesAndHeldAtTheEnds) {
  // Joint A given at 0 s (0) and 4 s (4): a line q = t through the holes at 1 s and 2 s.
  // Joint B given only at 2 s: held everywhere. Joint C given at 1 s and 2 s: held outside.
  const Motion m({"A", "B", "C"}, {0.0, 1.0, 2.0, 4.0},
                 {{0.0, kNaN, kNaN}, {kNaN, kNaN, 1.0}, {kNaN, 2.0, 3.0}, {4.0, kNaN, kNaN}});
  for (double t : {-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0}) {
    const double expect_a = std::clamp(t, 0.0, 4.0);
    const double expect_c = t <= 1.0 ? 1.0 : t >= 2.0 ? 3.0 : 1.0 + 2.0 * (t - 1.0);
    EXPECT_DOUBLE_EQ(m.sample(0, t), expect_a) << "t=" << t;
    EXPECT_EQ(m.sample(1, t), 2.0) << "t=" << t;
    EXPECT_DOUBLE_EQ(m.sample(2, t), expect_c) << "t=" << t;
  }
  EXPECT_TRUE(std::isnan(m.givenValue_rad(1, 0)));
  EXPECT_EQ(m.givenValue_rad(2, 1), 2.0);
}

TEST(Motion, HoleAfterAStepRampsFromTheStepValue) {
  // A: 0 at 0 s, step to 10 at 1 s, hole at 1 s (last frame there), 20 at 2 s.
  const Motion m({"A", "B"}, {0.0, 1.0, 1.0, 1.0, 2.0},
                 {{0.0, 0.0}, {0.0, 0.0}, {10.0, 0.0}, {kNaN, 0.0}, {20.0, 0.0}});
  EXPECT_EQ(m.sample(0, 0.5), 0.0);
  EXPECT_EQ(m.sample(0, 1.0), 10.0);
  EXPECT_EQ(m.sample(0, 1.5), 15.0);
  EXPECT_EQ(m.sample(0, 2.0), 20.0);
}

TEST(Motion, CursorSamplingMatchesPlainSamplingInAnyOrder) {
  const Motion m({"A", "B"}, {0.0, 0.02, 0.02, 0.05, 0.2, 0.21, 1.0},
                 {{0.0, 1.0}, {0.3, kNaN}, {-0.3, 2.0}, {kNaN, 3.0}, {0.7, kNaN}, {0.1, -1.0}, {0.2, 0.0}});
  std::vector<double> out;
  MotionCursor cursor;
  std::vector<double> times;
  for (int i = -10; i <= 1100; ++i) times.push_back(i * 0.001);                            // 1 ms playback
  for (double t : {0.5, 0.0, 0.9, 0.02, 2.0, -1.0, 0.205, 0.0199999}) times.push_back(t);  // jumps
  for (double t : times) {
    m.sampleAll(t, out, cursor);
    ASSERT_EQ(out.size(), 2u);
    for (std::size_t j = 0; j < 2; ++j) ASSERT_EQ(out[j], m.sample(j, t)) << "t=" << t;
  }
  m.sampleAll(0.035, out);
  EXPECT_EQ(out[0], m.sample(0, 0.035));
  EXPECT_EQ(out[1], m.sample(1, 0.035));
}

TEST(Motion, ConstructorValidates) {
  using S = std::vector<std::string>;
  using V = std::vector<std::vector<double>>;
  expectInputError(
      [] {
        Motion(S{"A"}, {0.0, 1.0, 0.5}, V{{0}, {1}, {2}}, "m.csv", 1, {2, 3, 4});
      },
      4, "time_s", "time goes back: 0.5 s at frame 2 after 1 s at line 3");
  expectInputError(
      [] {
        Motion(S{"A", "B"}, {0.0, 1.0}, V{{0, 1}, {1}}, "m.csv", 1, {2, 3});
      },
      3, "", "frame 1 has 1 values for 2 joints");
  expectInputError([] { Motion(S{"A", "A"}, {0.0}, V{{0, 1}}, "m.csv", 1); }, 1, "A", "appears twice");
  expectInputError(
      [] {
        Motion(S{"A", "B"}, {0.0, 1.0}, V{{0, kNaN}, {1, kNaN}}, "m.csv", 7);
      },
      7, "B", "given a value in no frame");
  expectInputError([] { Motion(S{"A"}, {}, V{}, "m.csv", 1); }, 1, "", "no frames");
  expectInputError([] { Motion(S{}, {0.0}, V{{}}, "m.csv", 1); }, 1, "", "no joints");
  expectInputError([] { Motion(S{"A"}, {0.0}, V{{HUGE_VAL}}, "m.csv", 1, {5}); }, 5, "A", "infinite");
  expectInputError([] { Motion(S{"A"}, {kNaN}, V{{0}}, "m.csv", 1, {5}); }, 5, "time_s", "non-finite time");
}

TEST(Motion, UnknownJointErrorListsTheRobotsJoints) {
  const Motion m({"HeadYaw", "LKneePitch", "Tail"}, {0.0}, {{0.0, 0.0, 0.0}}, "dance.csv", 3);
  expectInputError(
      [&] {
        m.checkJoints({"HeadYaw", "HeadPitch", "LKneePitch"});
      },
      3, "Tail", "unknown joint 'Tail' (the robot has: HeadYaw, HeadPitch, LKneePitch)");
  try {
    m.checkJoints({"HeadYaw"});
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "dance.csv");
    EXPECT_EQ(e.field(), "LKneePitch");  // the first unknown one
  }
  EXPECT_NO_THROW(m.checkJoints({"Tail", "LKneePitch", "HeadYaw", "Extra"}));
  EXPECT_EQ(m.mapJoints({"Tail", "LKneePitch", "HeadYaw", "Extra"}), (std::vector<int>{2, 1, 0}));
  EXPECT_THROW(m.mapJoints({"HeadYaw"}), InputError);
}

// ------------------------------------------------------------------ CSV keyframes

TEST(MotionReaders, CsvKeyframesWithStepAndHoles) {
  const Motion m = readMotionCsv(data("motion_keyframes.csv"));
  EXPECT_EQ(m.joints(), (std::vector<std::string>{"HeadYaw", "LKneePitch", "RKneePitch"}));
  EXPECT_EQ(m.times_s(), (std::vector<double>{0.0, 1.0, 1.0, 3.0}));
  EXPECT_EQ(m.headerLine(), 2);
  EXPECT_EQ(m.frameLine(0), 3);
  EXPECT_EQ(m.frameLine(3), 6);
  EXPECT_EQ(m.sourceFile(), data("motion_keyframes.csv"));
  EXPECT_EQ(m.duration_s(), 3.0);
  // HeadYaw: 0 -> 1 over [0, 1], then 1 -> -1 over [1, 3].
  EXPECT_EQ(m.sample(0, 0.5), 0.5);
  EXPECT_EQ(m.sample(0, 2.0), 0.0);
  // LKneePitch: 0 until the step at 1 s, 2 from then on.
  EXPECT_EQ(m.sample(1, 0.999), 0.0);
  EXPECT_EQ(m.sample(1, 1.0), 2.0);
  EXPECT_EQ(m.sample(1, 2.5), 2.0);
  // RKneePitch: given 0.5 at 0 s and 1.5 at 3 s; the empty cells are the line q = 0.5 + t/3.
  EXPECT_NEAR(m.sample(2, 1.0), 0.5 + 1.0 / 3.0, 1e-15);
  EXPECT_NEAR(m.sample(2, 1.5), 1.0, 1e-15);
  EXPECT_NEAR(m.sample(2, 2.4), 1.3, 1e-15);
  EXPECT_TRUE(std::isnan(m.givenValue_rad(1, 2)));
}

TEST(MotionReaders, CsvTimeGoingBack) {
  expectInputError([] { readMotionCsv(data("motion_time_back.csv")); }, 4, "time_s",
                   "time 0.5 s at line 4 goes back from 1 s at line 3");
}

TEST(MotionReaders, CsvNonNumericCell) {
  expectInputError([] { readMotionCsv(data("log_bad_cell.csv")); }, 4, "b", "'abc'");
}

TEST(MotionReaders, CsvReplaysTheTargetsOfALog) {
  const Motion m = readMotionCsv(data("motion_log_replay.csv"));
  EXPECT_EQ(m.joints(), (std::vector<std::string>{"HeadYaw"}));
  EXPECT_EQ(m.sample(0, 0.25), 0.5);
}

TEST(MotionReaders, CsvColumnWithASlashThatIsNoTarget) {
  expectInputError([] { readMotionCsv(data("motion_slash_column.csv")); }, 1, "HeadYaw/q_deg", "is not a joint target");
}

TEST(MotionReaders, CsvWithoutTimePointsToFramePeriod) {
  expectInputError([] { loadMotion(data("motion_no_time.csv"), std::nullopt); }, 1, "time_s",
                   "no 'time_s' column; for a joint table without time give --frame-period");
}

// ------------------------------------------------------------------ joint tables

TEST(MotionReaders, JointTableSemicolonsAndFramePeriod) {
  const Motion m = readJointTable(data("walk_table.csv"), 0.02);
  EXPECT_EQ(m.joints(), (std::vector<std::string>{"LHipPitch", "LKneePitch", "LAnklePitch"}));
  ASSERT_EQ(m.frameCount(), 4u);
  for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(m.times_s()[k], static_cast<double>(k) * 0.02);
  EXPECT_EQ(m.frameLine(0), 2);
  EXPECT_EQ(m.sample(1, 0.0), 0.8);
  EXPECT_EQ(m.sample(1, 0.04), 0.88);
  EXPECT_NEAR(m.sample(1, 0.05), 0.9, 1e-15);
  EXPECT_EQ(m.sample(2, 1.0), -0.46);
  EXPECT_NEAR(m.duration_s(), 0.06, 1e-15);

  const Motion via_load = loadMotion(data("walk_table.csv"), 0.02);
  EXPECT_EQ(via_load.times_s(), m.times_s());
  EXPECT_EQ(via_load.sample(0, 0.03), m.sample(0, 0.03));
}

TEST(MotionReaders, JointTableErrors) {
  for (double bad : {0.0, -0.02, kNaN, HUGE_VAL}) {
    expectInputError([&] { readJointTable(data("walk_table.csv"), bad); }, 0, "frame_period_s",
                     "frame period must be a positive number of seconds");
  }
  expectInputError([] { readJointTable(data("walk_table_with_time.csv"), 0.02); }, 1, "time_s",
                   "load it without --frame-period");
  // The same table without a period is read as keyframes, which it is not.
  expectInputError([] { loadMotion(data("walk_table.csv"), std::nullopt); }, 1, "time_s", "--frame-period");
}

// ------------------------------------------------------------------ Webots

TEST(MotionReaders, WebotsMotionWithStars) {
  const Motion m = readWebotsMotion(data("wave.motion"));
  EXPECT_EQ(m.joints(), (std::vector<std::string>{"LShoulderRoll", "LElbowRoll", "HeadYaw"}));
  EXPECT_EQ(m.times_s(), (std::vector<double>{0.0, 0.2, 0.4, 62.5}));  // 01:02:500 = 62.5 s
  EXPECT_EQ(m.headerLine(), 1);
  EXPECT_EQ(m.frameLine(3), 5);
  EXPECT_TRUE(std::isnan(m.givenValue_rad(1, 0)));
  EXPECT_EQ(m.givenValue_rad(2, 1), -1.45);  // " -1.45 "
  EXPECT_EQ(m.givenValue_rad(3, 0), 0.1);    // "+0.1"
  // LShoulderRoll: '*' at 0.2 s lies on the ramp 0.1 (0 s) -> -0.3 (0.4 s).
  EXPECT_NEAR(m.sample(0, 0.2), -0.1, 1e-15);
  // LElbowRoll: held at -1.45 after its last value (0.4 s).
  EXPECT_EQ(m.sample(1, 30.0), -1.45);
  // HeadYaw: 0 at 0 s to 1 at 62.5 s through two '*'.
  EXPECT_NEAR(m.sample(2, 0.4), 0.4 / 62.5, 1e-15);
  EXPECT_NEAR(m.sample(2, 31.25), 0.5, 1e-15);

  const Motion via_load = loadMotion(data("wave.motion"), std::nullopt);
  EXPECT_EQ(via_load.times_s(), m.times_s());
}

TEST(MotionReaders, WebotsErrors) {
  expectInputError([] { readWebotsMotion(data("webots_bad_value.motion")); }, 3, "LElbowRoll", "not a number: 'x1'");
  expectInputError([] { readWebotsMotion(data("webots_bad_time.motion")); }, 3, "time", "bad time '00:00:20'");
  expectInputError([] { readWebotsMotion(data("webots_time_back.motion")); }, 3, "time",
                   "time 0.5 s at line 3 goes back from 1 s at line 2");
  expectInputError([] { readWebotsMotion(data("webots_bad_count.motion")); }, 2, "C",
                   "expected time, pose name and 3 values, got 4 cells");
  expectInputError([] { readWebotsMotion(data("motion_keyframes.csv")); }, 1, "", "not a Webots motion file");
  expectInputError([] { loadMotion(data("wave.motion"), 0.02); }, 0, "frame_period_s", "carries its own times");
}

TEST(MotionReaders, LoadDetectsWebotsByItsFirstLine) {
  const Motion m = loadMotion(data("webots_no_extension.txt"), std::nullopt);
  EXPECT_EQ(m.joints(), (std::vector<std::string>{"A"}));
  EXPECT_EQ(m.sample(0, 0.5), 1.0);
  const Motion csv = loadMotion(data("motion_keyframes.csv"), std::nullopt);
  EXPECT_EQ(csv.jointCount(), 3u);
  expectInputError([] { loadMotion(data("no_such_file.csv"), std::nullopt); }, 0, "", "cannot open");
}

}  // namespace
}  // namespace gapsim
