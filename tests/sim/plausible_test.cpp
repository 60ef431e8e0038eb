// SPDX-License-Identifier: BSD-3-Clause
// The plausible ranges of what enters the physics (sim/plausible.h) and the readers that apply
// them: each refusal names file, line, field, the value and the range; the shipped robots and
// their parameters lie inside.
#include "sim/plausible.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "tests/sim/expect_input_error.h"

namespace gapsim {
namespace {

using test::expectInputError;

TEST(Plausible, RangesAcceptTheirEndsAndRefuseNaN) {
  EXPECT_TRUE(plausible::accepts(plausible::kPosition_m, -1e3));
  EXPECT_TRUE(plausible::accepts(plausible::kPosition_m, 1e3));
  EXPECT_FALSE(plausible::accepts(plausible::kPosition_m, std::nextafter(1e3, 2e3)));
  EXPECT_FALSE(plausible::accepts(plausible::kSize_m, 0.0));  // (0, 1e3]: a box needs a size
  EXPECT_TRUE(plausible::accepts(plausible::kLength_m, 0.0));
  EXPECT_FALSE(plausible::accepts(plausible::kDuration_s, 0.0));
  for (const auto& r : {plausible::kPosition_m, plausible::kDuration_s, plausible::kAnyNumber})
    EXPECT_FALSE(plausible::accepts(r, NAN));
  // A magnitude range: either sign, 0 too, nothing subnormal or huge.
  const plausible::Range k_e = plausible::parameterRange("V*s/rad");
  EXPECT_TRUE(plausible::accepts(k_e, 0.0));
  EXPECT_TRUE(plausible::accepts(k_e, -0.0131));
  EXPECT_FALSE(plausible::accepts(k_e, 1e-320));
  EXPECT_FALSE(plausible::accepts(k_e, 1e308));
  EXPECT_EQ(plausible::describe(k_e), "0 or |v| in [1e-06, 1000] V s/rad");
  EXPECT_EQ(plausible::describe(plausible::kDuration_s), "(0, 1e+06] s");
  // "N*m" (motorgear) and "N m" (MABEL) are one unit; an unknown unit gets the backstop.
  EXPECT_EQ(plausible::describe(plausible::parameterRange("N*m")),
            plausible::describe(plausible::parameterRange("N m")));
  EXPECT_EQ(plausible::describe(plausible::parameterRange("furlong")), plausible::describe(plausible::kAnyNumber));
}

// Positions are signed; a non-dimensional leaf shows no unit; masses share the robot file's range.
TEST(Plausible, ParameterRangesByUnit) {
  EXPECT_EQ(plausible::describe(plausible::parameterRange("m")), plausible::describe(plausible::kPosition_m));
  EXPECT_EQ(plausible::describe(plausible::parameterRange("-")), "0 or |v| in [1e-09, 1e+06]");
  EXPECT_EQ(plausible::describe(plausible::parameterRange("1/1023")), "0 or |v| in [1e-09, 1023] 1/1023");
  const plausible::Range kg = plausible::parameterRange("kg");
  EXPECT_EQ(kg.lo, plausible::kMass_kg.lo);
  EXPECT_EQ(kg.hi, plausible::kMass_kg.hi);
  EXPECT_TRUE(kg.magnitude);
}

TEST(Plausible, TheMessageNamesFileLineFieldValueAndRange) {
  expectInputError([] { plausible::check(4294967296.0, plausible::kSize_m, "r.urdf", 7, "box@size"); }, 7, "box@size",
                   "4294967296 is outside the accepted range (0, 1000] m");
  expectInputError([] { plausible::check(2147483648.0, plausible::kDuration_s, "s.csv", 3, "duration_s", "duration"); },
                   3, "duration_s", "duration 2147483648 is outside the accepted range (0, 1e+06] s");
}

TEST(Plausible, EveryShippedRobotAndItsParametersLieInside) {
  for (const char* robot : {"nao", "bioloid", "mabel"}) {
    const RobotModel m = loadRobotFile(resolveRobotFile(robot));  // the robot file's ranges
    for (const ParameterEntry& e : listParameters(m))
      EXPECT_NO_THROW(checkParameterValue(m, e.name, e.value)) << robot << " " << e.name << " = " << e.value;
  }
}

/// A one-joint robot: the arm's mass on line 3, the joint's origin on line 4, <gapsim> on line 5.
std::string tiny(const std::string& mass = "0.5", const std::string& origin = "0 0 0.1",
                 const std::string& gapsim = "") {
  return R"(<robot name="tiny">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0 0 0.1"/><mass value=")" +
         mass + R"("/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz=")" +
         origin + R"("/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="5"/></joint>
  <gapsim>)" +
         gapsim +
         R"(</gapsim>
</robot>
)";
}

TEST(Plausible, TheRobotFileRefusesAbsurdNumbersWithTheirLine) {
  EXPECT_NO_THROW(parseRobotXml(tiny(), "r.urdf"));
  expectInputError([] { parseRobotXml(tiny("0.5", "1e308 0 0.1"), "r.urdf"); }, 4, "joint 'j'/origin@xyz",
                   "1e+308 is outside the accepted range [-1000, 1000] m");
  // A subnormal mass passes ODE's check (> 0) and its inverse overflows in the step.
  expectInputError([] { parseRobotXml(tiny("1e-320"), "r.urdf"); }, 3, "link 'arm'/inertial/mass@value",
                   "1e-320 is outside the accepted range [1e-12, 1e+06] kg");
  expectInputError([] { parseRobotXml(tiny("2e6"), "r.urdf"); }, 3, "link 'arm'/inertial/mass@value", "2e+06");
  expectInputError([] { parseRobotXml(tiny("0.5", "0 0 0.1", R"(<solver dt_s="1"/>)"), "r.urdf"); }, 5,
                   "gapsim/solver@dt_s", "1 is outside the accepted range [1e-06, 0.1] s");
  expectInputError([] { parseRobotXml(tiny("0.5", "0 0 0.1", R"(<solver iterations="1e12"/>)"), "r.urdf"); }, 5,
                   "gapsim/solver@iterations", "1e+12 is outside the accepted range [1, 10000]");
  expectInputError(
      [] {
        parseRobotXml(tiny("0.5", "0 0 0.1", R"(<initial_pose><joint name="j" value_rad="1e300"/></initial_pose>)"),
                      "r.urdf");
      },
      5, "gapsim/initial_pose/joint[j]@value_rad", "1e+300 is outside the accepted range [-1000, 1000] rad");
  // A divergence bound: positive and not huge.
  expectInputError(
      [] { parseRobotXml(tiny("0.5", "0 0 0.1", R"(<divergence max_linear_speed_m_s="1e300"/>)"), "r.urdf"); }, 5,
      "gapsim/divergence@max_linear_speed_m_s", "1e+300 is outside the accepted range (0, 1e+12] m/s");
  // A robot file's <param> meets its unit's range.
  expectInputError(
      [] { parseRobotXml(tiny("0.5", "0 0 0.1", R"(<param name="link/arm/com_x" value="1e6"/>)"), "r.urdf"); }, 5,
      "link/arm/com_x", "1e+06 is outside the accepted range [-1000, 1000] m");
}

TEST(Plausible, InertiasMustBeBoundedAndNotVanishing) {
  std::string xml = tiny();
  const std::string arm = R"(ixx="0.001" iyy="0.001" izz="0.001")";
  xml.replace(xml.find(arm), arm.size(), R"(ixx="1e-30" iyy="1e-30" izz="1e-30")");
  expectInputError([&] { parseRobotXml(xml, "r.urdf"); }, 3, "link 'arm'/inertial/inertia",
                   "smallest principal moment 1e-30 is outside the accepted range [1e-28, 1e+06] kg m^2");
}

TEST(Plausible, ParameterFilesAndSetRefuseValuesOutsideTheirUnitsRange) {
  RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  const std::vector<Joint> before = m.joints;
  expectInputError([&] { setParameterAssignment(m, "legs/typeB/motor/K_e=1e-320"); }, 0, "legs/typeB/motor/K_e",
                   "1e-320 is outside the accepted range 0 or |v| in [1e-06, 1000] V s/rad");
  expectInputError([&] { setParameterAssignment(m, "*/gear/D_g=1e300"); }, 0, "*/gear/D_g", "[1e-09, 1e+12] N m/rad");
  expectInputError([&] { setParameterAssignment(m, "link/torso/com_z=1e6"); }, 0, "link/torso/com_z",
                   "[-1000, 1000] m");
  expectInputError([&] { setParameterAssignment(m, "link/torso/mass=1e-300"); }, 0, "link/torso/mass",
                   "[1e-12, 1e+06] kg");
  EXPECT_EQ(m.joints.size(), before.size());
  for (std::size_t j = 0; j < before.size(); ++j)
    EXPECT_EQ(m.joints[j].drive.motoflex.motor.K_e_V_s_rad, before[j].drive.motoflex.motor.K_e_V_s_rad);
  setParameterAssignment(m, "legs/typeB/motor/K_e=0");  // 0: folded into B_v, as before
  const auto dir = std::filesystem::temp_directory_path() / "gapsim_plausible_test";
  std::filesystem::create_directories(dir);
  const std::string p = (dir / "bad.params").string();
  std::ofstream(p) << "name,value\nlegs/typeB/motor/R,17\nlegs/typeB/motor/L,1e-320\n";
  expectInputError([&] { loadParameterFile(m, p); }, 3, "legs/typeB/motor/L", "[1e-09, 1000] H");
}

TEST(Plausible, MotionsRefuseHugeTargetsAndTimes) {
  const auto dir = std::filesystem::temp_directory_path() / "gapsim_plausible_test";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string p = (dir / name).string();
    std::ofstream(p) << text;
    return p;
  };
  expectInputError([&] { readMotionCsv(write("q.csv", "time_s,a,b\n0,0,\n1,0.1,-1e308\n")); }, 3, "b",
                   "joint target -1e+308 is outside the accepted range [-1000, 1000] rad");
  expectInputError([&] { readMotionCsv(write("t.csv", "time_s,a\n0,0\n2e6,0\n")); }, 3, "time_s",
                   "time 2e+06 is outside the accepted range [-1e+06, 1e+06] s");
  expectInputError([&] { readJointTable(write("tab.csv", "a;b\n0;0\n"), 1e-300); }, 0, "frame_period_s",
                   "frame period 1e-300 is outside the accepted range [1e-06, 1000] s");
  expectInputError(
      [&] { readWebotsMotion(write("w.motion", "#WEBOTS_MOTION,V1.0,a\n00:00:000,p,*\n00:01:000,q,1e4\n")); }, 3, "a",
      "joint target 10000");
  EXPECT_NO_THROW(readMotionCsv(write("ok.csv", "time_s,a,b\n0,0,\n1,0.1,-3.1\n")));  // empty = not given
}

}  // namespace
}  // namespace gapsim
