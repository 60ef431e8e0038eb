// SPDX-License-Identifier: BSD-3-Clause
// The robot file parser: what it reads, and that every bad input names file, line and field.
#include "sim/urdf_parser.h"

#include <gtest/gtest.h>

#include "sim/input_error.h"

namespace gapsim {
namespace {

const char* kTwoLinks = R"(<?xml version="1.0"?>
<robot name="two">
  <link name="a">
    <inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="1.5"/>
      <inertia ixx="0.01" iyy="0.02" izz="0.015" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0.05"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
  </link>
  <link name="b">
    <inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial>
    <collision><geometry><capsule radius="0.02" length="0.1"/></geometry></collision>
  </link>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="b"/>
    <origin xyz="0 0 -0.2" rpy="0 0 1.5707963267948966"/>
    <axis xyz="0 2 0"/>
    <limit lower="-1" upper="2" effort="3.5" velocity="6"/>
  </joint>
  <gapsim>
    <initial_pose><joint name="j" value_rad="0.3"/></initial_pose>
    <solver dt_s="0.002" iterations="30" stepper="big"/>
    <sensors><imu name="torso" link="a"/><encoder resolution_rad="0.001"/><foot_contact name="F" link="b"/></sensors>
    <fall tilt_deg="45"/>
  </gapsim>
</robot>)";

TEST(UrdfParser, ReadsLinksJointsAndExtension) {
  RobotModel m = parseRobotXml(kTwoLinks, "two.urdf");
  ASSERT_EQ(m.links.size(), 2u);
  ASSERT_EQ(m.joints.size(), 1u);
  EXPECT_EQ(m.name, "two");
  EXPECT_DOUBLE_EQ(m.totalMass_kg(), 2.0);
  EXPECT_DOUBLE_EQ(m.links[0].inertial.origin.translation().z(), 0.1);
  EXPECT_DOUBLE_EQ(m.links[0].inertial.inertia_kgm2(1, 1), 0.02);
  EXPECT_EQ(m.links[1].collisions[0].type, Geometry::Type::Capsule);
  const Joint& j = m.joints[0];
  EXPECT_EQ(j.parent, 0);
  EXPECT_EQ(j.child, 1);
  EXPECT_NEAR(j.axis.y(), 1.0, 1e-15);  // normalised
  EXPECT_DOUBLE_EQ(j.lower, -1.0);
  EXPECT_DOUBLE_EQ(j.servo.fmax_Nm, 3.5);  // effort limit is the servo's torque limit
  EXPECT_DOUBLE_EQ(j.servo.max_velocity_rad_s, 6.0);
  EXPECT_DOUBLE_EQ(j.encoder_resolution_rad, 0.001);
  // rpy yaw of pi/2 maps x to y
  EXPECT_NEAR((j.origin.linear() * Eigen::Vector3d::UnitX()).y(), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(m.initial_q[0], 0.3);
  EXPECT_DOUBLE_EQ(m.solver.dt_s, 0.002);
  EXPECT_EQ(m.solver.iterations, 30);
  EXPECT_FALSE(m.solver.quickstep);
  EXPECT_NEAR(m.fall_tilt_rad, 45.0 * M_PI / 180.0, 1e-15);
  ASSERT_EQ(m.foot_contacts.size(), 1u);
  EXPECT_EQ(m.foot_contacts[0].link, 1);
  EXPECT_TRUE(m.warnings.empty());
}

/// Parse `xml` and return the InputError it must raise.
InputError errorOf(const std::string& xml) {
  try {
    parseRobotXml(xml, "bad.urdf");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError for:\n" << xml;
  return InputError("", 0, "", "");
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return s.replace(p, from.size(), to);
}

TEST(UrdfParser, BrokenXmlNamesTheLine) {
  InputError e =
      errorOf(replaced(kTwoLinks, "</collision>\n  </link>\n  <link name=\"b\">", "\n  </link>\n  <link name=\"b\">"));
  EXPECT_EQ(e.file(), "bad.urdf");
  EXPECT_GT(e.line(), 1);
  EXPECT_EQ(e.field(), "xml");
}

TEST(UrdfParser, LinkWithoutMassNamesLinkAndField) {
  InputError e = errorOf(replaced(kTwoLinks, "<mass value=\"0.5\"/>", ""));
  EXPECT_EQ(e.line(), 9);
  EXPECT_EQ(e.field(), "link 'b'/inertial/mass");
  InputError e2 = errorOf(replaced(kTwoLinks, "<mass value=\"0.5\"/>", "<mass value=\"-2\"/>"));
  EXPECT_EQ(e2.field(), "link 'b'/inertial/mass@value");
  EXPECT_NE(std::string(e2.what()).find("bad.urdf:9"), std::string::npos) << e2.what();
  // A moved link with no <inertial> at all
  InputError e3 = errorOf(replaced(
      kTwoLinks, "<inertial><mass value=\"0.5\"/><inertia ixx=\"0.001\" iyy=\"0.001\" izz=\"0.001\"/></inertial>", ""));
  EXPECT_EQ(e3.field(), "link 'b'/inertial");
  EXPECT_NE(std::string(e3.what()).find("moved by joint 'j'"), std::string::npos);
}

TEST(UrdfParser, NonNumericAttributeNamesField) {
  InputError e = errorOf(replaced(kTwoLinks, "effort=\"3.5\"", "effort=\"strong\""));
  EXPECT_EQ(e.field(), "joint 'j'/limit@effort");
  EXPECT_EQ(e.line(), 16);
}

TEST(UrdfParser, UnknownLinkAndJointReferences) {
  EXPECT_EQ(errorOf(replaced(kTwoLinks, "<child link=\"b\"/>", "<child link=\"c\"/>")).field(), "joint 'j'/child@link");
  EXPECT_EQ(errorOf(replaced(kTwoLinks, "<joint name=\"j\" value_rad", "<joint name=\"k\" value_rad")).field(),
            "gapsim/initial_pose/joint@name");
  EXPECT_EQ(errorOf(replaced(kTwoLinks, "<fall tilt_deg=\"45\"/>", "<fal tilt_deg=\"45\"/>")).field(), "gapsim/fal");
}

TEST(UrdfParser, InitialPoseOutsideLimitsIsAnError) {
  InputError e = errorOf(replaced(kTwoLinks, "value_rad=\"0.3\"", "value_rad=\"2.5\""));
  EXPECT_EQ(e.field(), "gapsim/initial_pose/joint[j]@value_rad");
}

TEST(UrdfParser, NonPositiveInertiaIsAnErrorTriangleViolationAWarning) {
  InputError e = errorOf(
      replaced(kTwoLinks, "ixx=\"0.01\" iyy=\"0.02\" izz=\"0.015\"", "ixx=\"0.01\" iyy=\"-0.05\" izz=\"0.01\""));
  EXPECT_EQ(e.field(), "link 'a'/inertial/inertia");
  RobotModel m = parseRobotXml(
      replaced(kTwoLinks, "ixx=\"0.01\" iyy=\"0.02\" izz=\"0.015\"", "ixx=\"0.01\" iyy=\"0.05\" izz=\"0.01\""),
      "t.urdf");
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("triangle inequality"), std::string::npos);
}

TEST(UrdfParser, TwoRootsIsAnError) {
  InputError e = errorOf(
      replaced(kTwoLinks, "<parent link=\"a\"/><child link=\"b\"/>", "<parent link=\"b\"/><child link=\"b\"/>"));
  EXPECT_EQ(e.field(), "joint 'j'/child@link");
}

TEST(UrdfParser, ThirdPartyUrdfLoadsWithWarnings) {
  RobotModel m = loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/tests/app/data/thirdparty_arm_robot.urdf");
  EXPECT_EQ(m.movableJoints().size(), 4u);
  // Missing meshes became boxes (one warning naming the files); transmission and gazebo tags were
  // ignored, each kind once.
  int mesh = 0, trans = 0, gazebo = 0;
  for (const auto& w : m.warnings) {
    mesh += w.find("mesh files not found") != std::string::npos;
    trans += w.find("<transmission>") != std::string::npos;
    gazebo += w.find("<gazebo>") != std::string::npos;
  }
  EXPECT_EQ(mesh, 1);
  EXPECT_EQ(trans, 1);
  EXPECT_EQ(gazebo, 1);
  for (const Link& l : m.links)
    for (const Geometry& g : l.collisions) EXPECT_NE(g.type, Geometry::Type::Mesh);
  // The mesh on the base became the box of equal inertia: Ixx = m (b^2 + c^2) / 12.
  const Geometry& g = m.links[0].collisions[0];
  const Eigen::Vector3d s = g.size_m;
  const double mass = 2.0;
  std::vector<double> moments = {mass * (s.y() * s.y() + s.z() * s.z()) / 12,
                                 mass * (s.x() * s.x() + s.z() * s.z()) / 12,
                                 mass * (s.x() * s.x() + s.y() * s.y()) / 12};
  std::sort(moments.begin(), moments.end());
  EXPECT_NEAR(moments[0], 0.005, 1e-9);
  EXPECT_NEAR(moments[1], 0.008, 1e-9);
  EXPECT_NEAR(moments[2], 0.01, 1e-9);
}

}  // namespace
}  // namespace gapsim
