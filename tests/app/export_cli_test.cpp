// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli export: the Nao with a parameter file applied, as URDF that gapsim reads
// back with the same mass and joints, and as MJCF; a third-party file's quirks reported by info.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

const std::string kQuirks = std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/urdf_quirks/";

TEST(ExportCli, UrdfWithParamsReadsBackWithTheSameMassAndJoints) {
  const std::string params = testing::TempDir() + "export_params.csv";
  std::ofstream(params) << "name,value\nlink/torso/mass,1.5\n";
  const std::string out = testing::TempDir() + "nao_export.urdf";
  auto r = cli("export --robot nao --params " + params + " --format urdf --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  // 5.005914 kg with the torso's 1.03948 kg replaced by 1.5 kg.
  EXPECT_TRUE(contains(r.out, "5.466434 kg")) << r.out;
  ASSERT_TRUE(cliExits("info " + out, 0, {"total mass: 5.466434 kg", "joints (28, 26 movable, 0 of them welded"}));
  const std::string mjcf = testing::TempDir() + "nao_export.xml";
  ASSERT_TRUE(cliExits("export --robot nao --format mjcf --out " + mjcf, 0));
  EXPECT_TRUE(contains(slurp(mjcf), "<freejoint name=\"root\"/>"));
  std::remove(out.c_str());
  std::remove(mjcf.c_str());
  std::remove(params.c_str());
}

TEST(ExportCli, InfoCompiledReportsTheQuirksWithNumbers) {
  auto r = cli("info --compiled " + kQuirks + "nao_ros_like.urdf");
  ASSERT_TRUE(exitedWith(
      r, 0, {"total mass: 5.005962 kg", "joint LHand: file movable, moves 2e-06 kg", "50 mesh files not found"}));
  EXPECT_TRUE(cliExits("info " + kQuirks + "xacro_unexpanded.urdf", 2,
                       {"xacro_unexpanded.urdf:6: <mass>@value: unexpanded xacro expression"}));
}

}  // namespace
