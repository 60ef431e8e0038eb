// SPDX-License-Identifier: BSD-3-Clause
// Bad input never kills gapsim-cli and never runs nonsense. Finite but absurd numbers in a
// motion, a robot file or a parameter used to reach ODE, whose assertions abort()ed the process
// (exit 134, no message of gapsim's), or to run zero steps and exit 0. The readers now refuse them
// with exit 2 and "file:line: field: value is outside the accepted range ..." (sim/plausible.h);
// what still fails inside ODE ends as a divergence, exit 3 (tests/sim/ode_error_test.cpp).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers
using Result = CliResult;

std::string scratch(const std::string& file, const std::string& text) {
  const std::string path = (gapsim::test::testDir("gapsim_bad_input_cli") / file).string();
  std::ofstream(path) << text;
  return path;
}

/// A two-link robot on the ground; `origin` is the joint's origin xyz, `box` the base's box size.
std::string tinyRobot(const std::string& file, const std::string& origin, const std::string& box = "0.2 0.2 0.2") {
  return scratch(file, R"(<robot name="tiny">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
    <collision><geometry><box size=")" +
                           box + R"("/></geometry></collision></link>
  <link name="arm"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz=")" +
                           origin + R"("/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="5"/></joint>
</robot>
)");
}

/// Exit 2 with `message` (the located error, after the file's directory), and no sign of ODE's abort.
void expectRefused(const Result& r, const std::string& message) {
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out.rfind("error: ", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.out, message)) << "lacks '" << message << "':\n" << r.out;
  EXPECT_FALSE(contains(r.out, "ODE INTERNAL ERROR")) << r.out;
}

TEST(BadInputCli, AHugeJointTargetIsRefusedWithItsLine) {
  const std::string m = scratch("knee_1e308.csv", "time_s,knee_L\n0,0\n0.5,1e308\n");
  expectRefused(cli("run --robot mabel --quiet --duration 1 --motion " + m),
                "knee_1e308.csv:3: knee_L: joint target 1e+308 is outside the accepted range [-1000, 1000] rad");
  const std::string w = scratch("knee.motion", "#WEBOTS_MOTION,V1.0,knee_L\n00:00:000,a,0\n00:00:500,b,-1e308\n");
  expectRefused(cli("run --robot mabel --quiet --duration 1 --motion " + w),
                "knee.motion:3: knee_L: joint target -1e+308 is outside the accepted range [-1000, 1000] rad");
  const std::string t = scratch("late.csv", "time_s,knee_L\n0,0\n1e308,0.1\n");
  expectRefused(cli("run --robot mabel --quiet --motion " + t),
                "late.csv:3: time_s: time 1e+308 is outside the accepted range [-1e+06, 1e+06] s");
}

TEST(BadInputCli, ASubnormalBackEmfConstantIsRefused) {
  expectRefused(cli("run --robot nao --quiet --duration 1 --set legs/typeB/motor/K_e=1e-320"),
                "legs/typeB/motor/K_e: 1e-320 is outside the accepted range 0 or |v| in [1e-06, 1000] V s/rad");
  const std::string p = scratch("k_e.params", "name,value\n# a subnormal\nlegs/typeB/motor/K_e,1e-320\n");
  expectRefused(cli("run --robot nao --quiet --duration 1 --params " + p),
                "k_e.params:3: legs/typeB/motor/K_e: 1e-320");
  EXPECT_EQ(cli("run --robot nao --quiet --duration 0.05 --set legs/typeB/motor/K_e=0").code,
            0);  // 0 = folded into B_v
}

TEST(BadInputCli, AFarCentreOfMassIsRefused) {
  // It moved the torso 2 km in 1 s, with no divergence reported.
  expectRefused(cli("run --robot nao --quiet --duration 1 --set link/torso/com_z=1e6"),
                "link/torso/com_z: 1e+06 is outside the accepted range [-1000, 1000] m");
}

TEST(BadInputCli, AHugeJointOriginOrBoxIsRefusedWithItsLine) {
  expectRefused(cli("run --quiet --duration 0.5 --robot " + tinyRobot("origin_1e308.urdf", "1e308 0 0.1")),
                "origin_1e308.urdf:5: joint 'j'/origin@xyz: 1e+308 is outside the accepted range [-1000, 1000] m");
  expectRefused(cli("run --quiet --duration 0.5 --robot " + tinyRobot("origin_-1e308.urdf", "-1e308 0 0.1")),
                "origin_-1e308.urdf:5: joint 'j'/origin@xyz: -1e+308");
  expectRefused(
      cli("run --quiet --duration 0.5 --robot " + tinyRobot("box_2e32.urdf", "0 0 0.1", "4294967296 0.2 0.2")),
      "box_2e32.urdf:3: link 'base'/collision/geometry/box@size: 4294967296 is outside the accepted range "
      "(0, 1000] m");
  EXPECT_EQ(cli("run --quiet --duration 0.5 --robot " + tinyRobot("fine.urdf", "0 0 0.1")).code, 0);
}

TEST(BadInputCli, RunLengthsOutsideTheirRangesAreRefused) {
  // inf and 1e308 s ran zero steps and said exit 0; so did a 1e-300 s step.
  for (const auto& [given, shown] : {std::pair{"inf", "inf"}, {"1e308", "1e+308"}, {"0", "0"}, {"-1", "-1"}})
    expectRefused(cli(std::string("run --robot nao --quiet --duration ") + given),
                  std::string("--duration: ") + shown + " is outside the accepted range (0, 1e+06] s");
  expectRefused(cli("run --robot nao --quiet --duration 1 --dt 1e-300"),
                "--dt: 1e-300 is outside the accepted range [1e-06, 0.1] s");
  expectRefused(cli("run --robot nao --quiet --duration 1 --log-period 1e-300"), "--log-period: 1e-300");
}

TEST(BadInputCli, AScenarioLastingSixtyEightYearsIsRefused) {
  // duration_s = 2^31 s ran a calibration for ever.
  const std::string motion = std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_twin/motions/squat_fast.csv";
  const std::string set =
      scratch("long_set.csv", "name,motion,reference,duration_s\nlong," + motion + ",ref.csv,2147483648\n");
  expectRefused(cli("twin --robot nao --scenarios " + set + " --out " +
                    (gapsim::test::testDir("gapsim_bad_input_cli") / "twin_out").string()),
                "long_set.csv:2: duration_s: duration 2147483648 is outside the accepted range (0, 1e+06] s");
}

TEST(BadInputCli, AScenarioSetLongerThanTheSimulatedTimeLimitIsRefusedBeforeItRuns) {
  // Each duration is plausible, their sum is not what anyone meant: refused with the longest line
  // and the option that raises the limit, before a single step.
  const std::string motion = std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_twin/motions/squat_fast.csv";
  const std::string set = scratch(
      "sum_set.csv", "name,motion,reference,duration_s\na," + motion + ",a.csv,300\nb," + motion + ",b.csv,400\n");
  const std::string out = (gapsim::test::testDir("gapsim_bad_input_cli") / "twin_sum").string();
  expectRefused(cli("twin --robot nao --scenarios " + set + " --out " + out),
                "sum_set.csv:3: duration_s: the scenarios last 700 s of simulated time in total (the longest, 'b', "
                "400 s), more than --max-sim-time 600 s: raise --max-sim-time to run it");
  const std::string ex = std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_twin";
  const Result r = cli("calibrate --robot nao --space " + ex + "/space.csv --scenarios " + ex +
                       "/scenarios.csv --lambda 4 --generations 3 --max-sim-time 2 --out " + out + "_cal");
  expectRefused(r, "scenarios.csv:6: duration_s: the scenarios last 2.5 s of simulated time in total");
  EXPECT_FALSE(std::filesystem::exists(out + "_cal")) << "the results directory was made before the refusal";
  expectRefused(cli("twin --robot nao --scenarios " + set + " --max-sim-time 0 --out " + out),
                "--max-sim-time: must be > 0");
}

TEST(BadInputCli, WhatTheFuzzerFoundIsRefusedWithItsLine) {
  // tests/fuzz/regressions/ holds the inputs themselves (ctest cli_fuzz_regressions replays them);
  // here the messages. A foot contact listed twice: "log column 'LToe/contact': duplicate name"
  // without file or line.
  const std::string src = GAPSIM_SOURCE_DIR;
  expectRefused(
      cli("run --quiet --duration 0.05 --robot " + src + "/tests/fuzz/regressions/urdf-mabel/foot_contact_twice.urdf"),
      "foot_contact_twice.urdf:310: gapsim/sensors/foot_contact@name: 'LToe' listed twice");
  // A keyframe line repeated: rise simulated 95 s.
  std::string ctrl = "duration_s,hip_yaw_rad,hip_rad,thigh_rad,shin_rad,heel_rad,foot_rad\n";
  for (int k = 0; k < 70; ++k) ctrl += "0.5,0,0,-0.8,0.9,-0.3,0\n";
  expectRefused(cli("rise --task lean --controller " + scratch("long_ctrl.csv", ctrl)),
                "long_ctrl.csv:62: duration_s: keyframe 61: the keyframes last 30.5 s up to here, more than a "
                "controller may (30 s in all)");
  // Two scenarios whose logs would have one name: the second overwrote the first.
  const std::string motion = src + "/calib/examples/nao_twin/motions/squat_fast.csv";
  const std::string set = scratch("clash_set.csv", "name,motion,reference,duration_s\na," + motion +
                                                       ",x/r.csv,0.1\nb," + motion + ",y/r.csv,0.1\n");
  expectRefused(cli("twin --robot nao --scenarios " + set + " --out " +
                    (gapsim::test::testDir("gapsim_bad_input_cli") / "twin_clash").string()),
                "clash_set.csv:3: reference: the log 'r.csv' is written for line 2 already");
}

TEST(BadInputCli, CountsAndLengthsThatWouldRunForEverAreRefused) {
  const std::string chirp = (gapsim::test::testDir("gapsim_bad_input_cli") / "never_chirp.csv").string();
  for (const char* opt : {"--periods 1000000000", "--ts 1e-9 --f-end 1e8", "--steps 100000000"}) {
    const Result r = cli(std::string("excite chirp --out ") + chirp + " " + opt);
    EXPECT_EQ(r.code, 2) << opt << ": " << r.out;
    EXPECT_TRUE(contains(r.out, "chirp: ")) << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(chirp));
  expectRefused(cli("sweep --sets 2 --duration 1e9"), "--duration: 1e+09 is outside the accepted range (0, 1e+06] s");
  expectRefused(cli("sweep --sets 1000000 --duration 10"), "--sets x --duration: simulated time 1e+07");
}

}  // namespace
