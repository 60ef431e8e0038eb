// SPDX-License-Identifier: BSD-3-Clause
// RoboPlus .mtn import: the real files of jietan/bioGP (tests/sim/data/mtn, LGPL-3.0), the tick ->
// rad map q = s (tick - 512) 5pi/3/1024 + offset, playback times, and bad input with line + field.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "sim/input_error.h"
#include "sim/mtn_reader.h"
#include "tests/sim/expect_input_error.h"

using namespace gapsim;

namespace {

const std::string kData = std::string(GAPSIM_TEST_DATA_DIR) + "/mtn/";
const std::string kMap = std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/motor_map.csv";
constexpr double kTick = 5.0 * std::numbers::pi / 3.0 / 1024.0;

std::string writeTemp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("gapsim_mtn_test_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

std::string header() {
  return "type=motion\nversion=1.01\nenable=0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0\n";
}
std::string step(const std::string& tick11, const std::string& tail = "0.000 1.000") {
  std::string s = "step=512 512 512 512 512 512 512 512 512 512 512 " + tick11;
  for (int i = 12; i < 26; ++i) s += " 512";
  return s + " " + tail + "\n";
}
std::string page(const std::string& name, const std::string& steps) {
  return "page_begin\nname=" + name +
         "\ncompliance=5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5\n"
         "play_param=0 0 1 1.0 32\n" +
         steps + "page_end\n";
}

}  // namespace

TEST(MotorMap, ShippedMapHas18ServosIncludingHipYaw) {
  const MotorMap m = MotorMap::read(kMap);
  ASSERT_EQ(m.entries.size(), 18u);
  int found = 0;
  for (const auto& e : m.entries) {
    if (e.dynamixel_id == 7) {
      EXPECT_EQ(e.joint, "r_hip_yaw");
      ++found;
    }
    if (e.dynamixel_id == 8) {
      EXPECT_EQ(e.joint, "l_hip_yaw");
      ++found;
    }
    if (e.dynamixel_id == 17) {
      EXPECT_EQ(e.joint, "r_foot");
      EXPECT_TRUE(e.swap);
      ++found;
    }
  }
  EXPECT_EQ(found, 3);
}

TEST(MotorMap, TickToRadAndBack) {
  // r_shin: swap 1, offset 1.0: tick 612 -> -(100) * 5pi/3/1024 + 1 = 0.48868 rad.
  const MotorMapEntry shin{"r_shin", 13, 1.0, true};
  EXPECT_NEAR(MotorMap::tickToRad(shin, 612), 1.0 - 100 * kTick, 1e-12);
  EXPECT_NEAR(MotorMap::radToTick(shin, MotorMap::tickToRad(shin, 612)), 612.0, 1e-9);
  // One tick is 0.0051132 rad (README of the data: 0.29297 deg).
  EXPECT_NEAR(kTick, 0.0051132, 1e-7);
}

TEST(Mtn, SitPosePagesByName) {
  const MtnFile f = MtnFile::read(kData + "sitPose.mtn");
  EXPECT_EQ(f.pages.size(), 255u);
  const std::vector<std::string> want = {"sit",      "sit-to-stand",  "sit-to-stand-hard",
                                         "sit-hard", "kneel",         "kneel-to-stand",
                                         "lean",     "lean-to-stand", "lean-to-stand-quickStart"};
  EXPECT_EQ(f.pageNames(), want);
  const MtnPage& p = f.page("lean-to-stand");
  EXPECT_EQ(p.number, 12);
  ASSERT_EQ(p.steps.size(), 3u);
  EXPECT_DOUBLE_EQ(p.steps[0].pause_s, 2.0);
  EXPECT_DOUBLE_EQ(p.steps[0].time_s, 2.0);
  EXPECT_DOUBLE_EQ(p.steps[1].time_s, 0.096);
  EXPECT_EQ(&f.page("12"), &p);  // by number too
  const MtnFile sq = MtnFile::read(kData + "bio_gp_squat.mtn");
  EXPECT_EQ(sq.pageNames(), (std::vector<std::string>{"Init", "Squat"}));
}

TEST(Mtn, PageMotionTimesAndKnownAngles) {
  const MtnFile f = MtnFile::read(kData + "sitPose.mtn");
  const MotorMap map = MotorMap::read(kMap);
  // lean-to-stand: (pause 2, time 2), (0, 0.096), (0, 1.0): knots 0, 2, 4, 4.096, 5.096.
  const Motion m = mtnPageMotion(f, "lean-to-stand", map, {{"r_thigh", 0.0}});
  EXPECT_EQ(m.times_s(), (std::vector<double>{0.0, 2.0, 4.0, 4.096, 5.096}));
  EXPECT_EQ(m.jointCount(), 18u);
  // sit: Dynamixel 11 (r_thigh, s = +1, offset -0.5) = 762, 12 (l_thigh, swap) = 262:
  // both 250 ticks * 5pi/3/1024 - 0.5 = 0.77832 rad.
  const Motion sit = mtnPageMotion(f, "sit", map);
  const double want = 250 * kTick - 0.5;
  EXPECT_NEAR(sit.sample(sit.jointIndex("r_thigh"), 5.0), want, 1e-12);
  EXPECT_NEAR(sit.sample(sit.jointIndex("l_thigh"), 5.0), want, 1e-12);
  EXPECT_NEAR(want, 0.77832, 1e-5);
  // Ramps linearly from the initial pose: halfway through the 1 s step.
  const Motion sit0 = mtnPageMotion(f, "sit", map, {{"r_thigh", -0.5}});
  EXPECT_NEAR(sit0.sample(sit0.jointIndex("r_thigh"), 0.5), 0.5 * (-0.5 + want), 1e-12);
  // Hip yaw at 512 = 0 rad.
  EXPECT_NEAR(sit.sample(sit.jointIndex("r_hip_yaw"), 1.0), 0.0, 1e-15);
}

TEST(Mtn, UnknownPageListsThePages) {
  const MtnFile f = MtnFile::read(kData + "sitPose.mtn");
  try {
    f.page("stand-up");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "page");
    const std::string w = e.what();
    EXPECT_NE(w.find("stand-up"), std::string::npos) << w;
    EXPECT_NE(w.find("lean-to-stand-quickStart"), std::string::npos) << w;
    EXPECT_NE(w.find("kneel"), std::string::npos) << w;
  }
}

TEST(Mtn, BadTickNamesLineAndField) {
  // line 4 page_begin, 5 name, 6 compliance, 7 play_param, 8 first step, 9 bad step
  const std::string p = writeTemp("bad_tick.mtn", header() + page("a", step("600") + step("60x")));
  test::expectInputError([&] { MtnFile::read(p); }, 9, "step/id11", "60x");
  const std::string q = writeTemp("range_tick.mtn", header() + page("a", step("1024")));
  EXPECT_THROW(MtnFile::read(q), InputError);
}

TEST(Mtn, MalformedPagesNameTheLine) {
  auto expectError = [](const std::string& name, const std::string& text, int line, const std::string& field) {
    SCOPED_TRACE(name);
    test::expectInputError([&] { MtnFile::read(writeTemp(name, text)); }, line, field);
  };
  // A step line one value short.
  std::string short_step = step("600", "1.000");
  expectError("short.mtn", header() + page("a", short_step), 8, "step");
  // Missing page_end: reported at the next page_begin.
  expectError("noend.mtn", header() + "page_begin\nname=a\nplay_param=0 0 1 1.0 32\n" + page("b", ""), 7, "page_begin");
  // A step outside a page.
  expectError("outside.mtn", header() + step("600") + page("a", ""), 4, "step");
  // Negative time.
  expectError("negtime.mtn", header() + page("a", step("600", "0.000 -1.0")), 8, "step/time");
  // speed_rate 0.
  expectError("speed.mtn", header() + "page_begin\nname=a\nplay_param=0 0 1 0 32\npage_end\n", 6, "play_param");
  // A file cut inside its last page: that page's page_begin, not silence (what follows the last
  // page_end is ignored only as the checksum it is in the real files).
  expectError("truncated.mtn", header() + page("a", step("600")) + "page_begin\nname=b\nstep=512", 10, "page_begin");
}

TEST(Mtn, AnUnknownPageNamesTheLineOfTheFirstPage) {
  const std::string p = writeTemp("pages.mtn", header() + page("a", step("600")) + page("b", step("600")));
  const MtnFile f = MtnFile::read(p);
  try {
    f.page("c");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 4) << e.what();
    EXPECT_NE(std::string(e.what()).find("a (1, line 4), b (2, line 10)"), std::string::npos) << e.what();
  }
}

TEST(Mtn, EmptyPageIsAnErrorWhenPlayed) {
  const MtnFile f = MtnFile::read(kData + "sitPose.mtn");
  const MotorMap map = MotorMap::read(kMap);
  try {
    mtnPageMotion(f, "3", map);  // page 3 is unnamed and empty
    FAIL();
  } catch (const InputError& e) {
    EXPECT_GT(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("no steps"), std::string::npos);
  }
}
