// SPDX-License-Identifier: BSD-3-Clause
// calib/drive_curve.h: the envelope of a joint as the robot file builds it (parse -> compile ->
// the joint's drive prototype) against the DC motor's analytic answers, stall torque N K_t V / R
// and no-load speed V / (N K_e), within 1e-9 relative; the CSV's header with units; the errors a
// user gets for a joint that has no envelope.
#include "calib/drive_curve.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/urdf_parser.h"
#include "tests/calib/voltage_rig.h"
#include "tests/throws_saying.h"

namespace gapsim::calib {
namespace {

using gapsim::test::throwsSaying;

constexpr double kR = 8.3, kKt = 0.0061, kKe = 0.0072, kN = 200.0, kV = 11.1;

// The identification rig (one AX joint, gravity off) with the voltage-domain drive and the test's
// own motor constants, no speed cap, no friction.
RobotModel voltageRig() {
  RobotModel m = test::loadVoltageRig("gapsim_drive_curve_test.urdf");
  for (auto [name, value] : {std::pair<const char*, double>{"R", kR},
                             {"K_t", kKt},
                             {"K_e", kKe},
                             {"ratio", kN},
                             {"supply", kV},
                             {"moving_speed", 0.0},
                             {"torque_limit", 1.0},
                             {"max_duty", 1.0},
                             {"friction/tau_c", 0.0}})
    setParameter(m, std::string("servo/servo/") + name, value);
  return m;
}

/// The rig's envelope at r_foot, at `points` speeds.
DriveCurve rigCurve(int points) {
  DriveCurveOptions o;
  o.joint = "r_foot";
  o.points = points;
  return driveCurve(voltageRig(), o);
}

TEST(DriveCurve, RobotFileDriveMeetsTheDcMotorsAnswers) {
  const DriveCurve c = rigCurve(21);
  const double stall = kN * kKt * kV / kR, no_load = kV / (kN * kKe);
  EXPECT_NEAR(c.stall_max_Nm, stall, 1e-9 * stall);
  EXPECT_NEAR(c.stall_min_Nm, -stall, 1e-9 * stall);
  EXPECT_NEAR(c.no_load_max_rad_s, no_load, 1e-9 * no_load);
  EXPECT_NEAR(c.no_load_min_rad_s, -no_load, 1e-9 * no_load);
  EXPECT_EQ(c.unsettled, 0);
  // The range is 1.25 x the found no-load rate (bisected to 1e-12 relative); every point of the
  // upper curve is on the line.
  EXPECT_NEAR(c.points.back().qd_rad_s, 1.25 * no_load, 1e-9 * no_load);
  for (const auto& p : c.points) EXPECT_NEAR(p.upper.tau_Nm, stall * (1 - p.qd_rad_s / no_load), 1e-9 * stall);
  EXPECT_EQ(c.joint, "r_foot");
  EXPECT_FALSE(c.drive.empty());
}

TEST(DriveCurve, CsvHeaderCarriesUnits) {
  const DriveCurve c = rigCurve(3);
  const auto path = std::filesystem::temp_directory_path() / "gapsim_drive_curve_test.csv";
  writeDriveCurveCsv(path.string(), c);
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "qd_rad_s,tau_max_Nm,tau_min_Nm,power_max_W,power_min_W,quadrant_max,quadrant_min,settled");
  int rows = 0;
  for (std::string line; std::getline(in, line);) ++rows;
  EXPECT_EQ(rows, static_cast<int>(c.points.size()));
  const std::string script = driveCurveFigureScript(c, path.string(), "x.png");
  EXPECT_NE(script.find("backdrive"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(DriveCurve, JointsWithoutAnEnvelopeAreInputErrors) {
  const RobotModel m = voltageRig();
  DriveCurveOptions o;
  o.joint = "no_such_joint";
  try {
    driveCurve(m, o);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--joint");
    EXPECT_NE(std::string(e.what()).find("r_foot"), std::string::npos) << e.what();  // the joints it has
  }
  o.joint = "r_foot";
  o.points = 1;
  EXPECT_THROW(driveCurve(m, o), InputError);
  o.points = 10;
  o.max_speed_rad_s = -1;
  EXPECT_THROW(driveCurve(m, o), InputError);
  o.max_speed_rad_s = 0;
  o.error_rad = 0;
  EXPECT_THROW(driveCurve(m, o), InputError);
}

// A slider's envelope would be N against m/s under the hinge's units: refused, by name.
TEST(DriveCurve, PrismaticJointIsRefused) {
  const auto path = std::filesystem::temp_directory_path() / "gapsim_drive_curve_slider.urdf";
  std::ofstream(path) << R"(<robot name="slider">
  <link name="world"/>
  <link name="cart"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="rail" type="prismatic"><parent link="world"/><child link="cart"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
</robot>)";
  const RobotModel m = loadRobotFile(path.string());
  DriveCurveOptions o;
  o.joint = "rail";
  EXPECT_TRUE(throwsSaying<InputError>([&] { driveCurve(m, o); }, {"prismatic"}));
  std::filesystem::remove(path);
}

// MABEL's leg joints are moved by a coupled drive: no envelope of one joint, said so.
TEST(DriveCurve, CoupledDriveJointIsRefused) {
  const RobotModel m = loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/robots/mabel/mabel.urdf");
  bool found = false;
  for (int ji : m.movableJoints()) {
    DriveCurveOptions o;
    o.joint = m.joints[static_cast<std::size_t>(ji)].name;
    o.points = 3;
    try {
      driveCurve(m, o);
    } catch (const InputError& e) {
      if (std::string(e.what()).find("coupled drive") != std::string::npos) found = true;
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace gapsim::calib
