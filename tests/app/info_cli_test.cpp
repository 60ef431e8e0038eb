// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli info: the file as read, and (--compiled, --json) what the compile step makes of it.
#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

const std::string kQuirks = std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/urdf_quirks/";

// Welded joints are not actuated: of shoulder, hand, laser_tilt, hip_l and hip_r (ideal servos),
// hand and laser_tilt move milligrams or a massless frame and are welded; the mimic fingers never count.
TEST(InfoCli, WeldedJointsAreNotCountedAsActuated) {
  const auto r = cli("info " + kQuirks + "milligram_links.urdf");
  ASSERT_TRUE(
      exitedWith(r, 0, {"degrees of freedom (actuated): 3", "7 movable, 4 of them welded by the compile step"}));
}

// A planar joint from `world` (a boom-held robot such as MABEL without its boom links) is named.
TEST(InfoCli, PlanarBaseIsNotFloating) {
  auto r = cli("info " + kQuirks + "planar_root.urdf");
  ASSERT_TRUE(exitedWith(r, 0, {"base: planar (moves in the plane with normal"}));
  r = cli("info " + kQuirks + "floating_root.urdf");
  EXPECT_TRUE(contains(r.out, "base: floating")) << r.out;
}

TEST(InfoCli, CompiledPrintsBodiesJointsDrivesAndChanges) {
  const auto r = cli("info nao --compiled");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* part :
       {"compiled: QuickStep", "bodies (", "joints (", "damper_Nms", "MoToFlex chain", "mimic of LHipYawPitch",
        "LKneePitch: armature: file the drive's reflected rotor inertia",
        "LKneePitch: motor/B_v and back-EMF: file B_v", "values that run differently from the file's ("})
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
}

TEST(InfoCli, JsonHoldsTheCompiledModel) {
  auto r = cli("info mabel --json");
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("robot"), "mabel");
  ASSERT_FALSE(j.at("bodies").empty());
  double mass = 0;
  for (const auto& b : j.at("bodies")) mass += b.at("mass_kg").get<double>();
  EXPECT_GT(mass, 40.0);  // MABEL's torso alone is 40.9 kg (Table VIII)
  r = cli("info --json " + kQuirks + "planar_root.urdf");
  ASSERT_EQ(r.code, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  bool planar = false;
  for (const auto& c : j.at("changes")) planar |= c.at("why").get<std::string>() == "ODE has no planar joint";
  EXPECT_TRUE(planar);
}

// A robot from a description package (tests/sim/data/op3_like): info reports the mass and the
// joints the file holds. The expected numbers are read from the file here, not from gapsim: the
// sum of its <mass value> and its count of joints and of revolute joints.
TEST(InfoCli, ReportsTheMassAndJointsOfADescriptionPackage) {
  const std::string file = std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/op3_like/urdf/op3_like.urdf";
  const std::string xml = gapsim::test::slurp(file);
  double mass = 0;
  const std::regex mass_re("<mass value=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), mass_re); it != std::sregex_iterator(); ++it)
    mass += std::stod((*it)[1]);
  auto count = [&](const std::string& what) {
    const std::regex re(what);
    return std::distance(std::sregex_iterator(xml.begin(), xml.end(), re), std::sregex_iterator());
  };
  // URDF joints have a type; the <joint name> inside <transmission> and <ros2_control> do not.
  const long joints = count("<joint name=\"[^\"]+\" type="),
             revolute = count("<joint name=\"[^\"]+\" type=\"revolute\"");
  ASSERT_EQ(revolute, 20);  // the OP3's 20 degrees of freedom
  char total[64];
  std::snprintf(total, sizeof total, "total mass: %.6f kg", mass);
  const auto r = cli("info " + file);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, total)) << total << "\n" << r.out;
  EXPECT_TRUE(contains(r.out, "joints (" + std::to_string(joints) + ", " + std::to_string(revolute) + " movable, 0 of"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "degrees of freedom (actuated): " + std::to_string(revolute))) << r.out;
}

// A Booster T1-like package (tests/sim/data/t1_like, README there): the numbers make_t1_like.py
// prints and the README states. The `world` link and its floating joint are the free base, not a
// link and a joint; base_link and the four sensor frames hang on fixed joints.
TEST(InfoCli, ReportsTheMassAndJointsOfAT1LikeDescriptionPackage) {
  const std::string file = std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/t1_like/urdf/t1_like.urdf";
  const auto r = cli("info " + file);
  ASSERT_TRUE(
      exitedWith(r, 0,
                 {"total mass: 31.739357 kg", "joints (28, 23 movable, 0 of them welded by the compile step",
                  "links (29)", "degrees of freedom (actuated): 23", "base: floating", "ignored 1 <mujoco> element"}));
}

// The compile step's light-link rule in `info --compiled`: the OP3-like package's shoulder bracket
// with its moments, both neighbours' masses, the raised moment and the threshold.
TEST(InfoCli, CompiledListsTheLightLinksWithTheirNumbers) {
  const auto r =
      cli("info --compiled " + std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/op3_like/urdf/op3_like.urdf");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* part :
       {"body l_sho_pitch_link: principal moments: file 1.65e-06 3.60599e-06 4.23401e-06 kg m^2; 0.0117594 kg between "
        "body_link (1.34928 kg) and l_sho_roll_link (0.177576 kg) -> runs as at least 3.04183e-05 (the smallest moment "
        "of l_sho_roll_link)",
        "solver light_link_mass_ratio 0.2", "<dynamics damping> 0.1 as an implicit row"})
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
}

}  // namespace
