// SPDX-License-Identifier: BSD-3-Clause
// Bad input never kills gapsim-cli: finite but absurd numbers in a motion, a robot file or a
// parameter used to reach ODE, whose assertions abort()ed the process (exit 134, no message of
// gapsim's). Now ODE's failure ends that simulation as a divergence (exit 3).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/app/cli_runner.h"

namespace {

using gapsim::test::cli;
using gapsim::test::contains;
using Result = gapsim::test::CliResult;

std::string scratch(const std::string& file, const std::string& text) {
  const std::string path = (gapsim::test::testDir("gapsim_bad_input_cli") / file).string();
  std::ofstream(path) << text;
  return path;
}

/// A two-link robot on the ground; `origin` is the joint's origin xyz.
std::string tinyRobot(const std::string& file, const std::string& origin) {
  return scratch(file, R"(<robot name="tiny">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="arm"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz=")" +
                               origin + R"("/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="5"/></joint>
</robot>
)");
}

void expectOdeDivergence(const Result& r) {
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "error: ODE internal error")) << r.out;
  EXPECT_FALSE(contains(r.out, "ODE INTERNAL ERROR")) << r.out;  // ODE's own abort() message
}

TEST(BadInputCli, AHugeJointTargetEndsAsADivergence) {
  const std::string m = scratch("knee_1e308.csv", "time_s,knee_L\n0,0\n0.5,1e308\n");
  expectOdeDivergence(cli("run --robot mabel --quiet --duration 1 --motion " + m));
}

TEST(BadInputCli, ASubnormalBackEmfConstantEndsAsADivergence) {
  expectOdeDivergence(cli("run --robot nao --quiet --duration 1 --set legs/typeB/motor/K_e=1e-320"));
}

TEST(BadInputCli, AHugeJointOriginEndsAsADivergence) {
  expectOdeDivergence(cli("run --quiet --duration 0.5 --robot " + tinyRobot("origin_1e308.urdf", "1e308 0 0.1")));
  expectOdeDivergence(cli("run --quiet --duration 0.5 --robot " + tinyRobot("origin_-1e308.urdf", "-1e308 0 0.1")));
}

}  // namespace
