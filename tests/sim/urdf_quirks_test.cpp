// SPDX-License-Identifier: BSD-3-Clause
// Quirks of real URDFs: each fixture in data/urdf_quirks/ (README there) either loads
// and stands 5 s at the defaults without diverging, or is refused with a located message that
// says what to change. What the compile step changes is in the compile report with its numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "sim/input_error.h"
#include "sim/kinematics.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"
#include "tests/sim/expect_input_error.h"

namespace gapsim {
namespace {

std::string quirk(const std::string& name) { return std::string(GAPSIM_TEST_DATA_DIR) + "/urdf_quirks/" + name; }

bool hasWarning(const RobotModel& m, const std::string& text) {
  return std::any_of(m.warnings.begin(), m.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

const CompileReport::Change* change(const CompileReport& r, const std::string& item) {
  for (const auto& c : r.changes)
    if (c.item == item) return &c;
  return nullptr;
}

struct StandResult {
  double max_tilt_rad = 0;
  double root_drop_m = 0;  ///< how far the root link sank from its initial height
  bool diverged = false;
  std::string what;
};

/// Holds the initial pose with the file's drives for `seconds`.
StandResult stand(const std::shared_ptr<const RobotModel>& m, double seconds = 5.0) {
  StandResult r;
  Simulation sim(m);
  const double z0 = sim.linkPose(m->root_link).translation().z();
  try {
    while (sim.time_s() < seconds - 1e-9) sim.step();
  } catch (const DivergenceError& e) {
    r.diverged = true;
    r.what = e.what();
  }
  r.max_tilt_rad = sim.maxTilt_rad();
  r.root_drop_m = z0 - sim.linkPose(m->root_link).translation().z();
  return r;
}

std::shared_ptr<const RobotModel> load(const std::string& name) {
  return std::make_shared<const RobotModel>(loadRobotFile(quirk(name)));
}

constexpr double kDeg = 3.14159265358979323846 / 180.0;

TEST(UrdfQuirks, FixedJointsWithZeroAxisLoadAndStand) {
  auto m = load("fixed_axis_zero.urdf");
  EXPECT_EQ(m->movableJoints().size(), 2u);
  const StandResult r = stand(m);
  EXPECT_FALSE(r.diverged) << r.what;
  EXPECT_LT(r.max_tilt_rad, 1 * kDeg);
  EXPECT_LT(std::abs(r.root_drop_m), 0.002);
}

TEST(UrdfQuirks, MovableZeroAxisIsRefusedWithWhatToChange) {
  std::string xml =
      "<robot name='z'><link name='a'><inertial><mass value='1'/><inertia ixx='1e-3' iyy='1e-3' izz='1e-3'/>"
      "</inertial></link>\n<link name='b'><inertial><mass value='1'/><inertia ixx='1e-3' iyy='1e-3' izz='1e-3'/>"
      "</inertial></link>\n<joint name='j' type='continuous'><parent link='a'/><child link='b'/>\n"
      "<axis xyz='0 0 0'/></joint></robot>";
  test::expectInputError([&] { parseRobotXml(xml, "z.urdf"); }, 4, "joint 'j'/axis@xyz", "type=\"fixed\"");
}

TEST(UrdfQuirks, MilligramLinksAreWeldedAndReported) {
  auto m = load("milligram_links.urdf");
  Simulation sim(m);
  const CompileReport& r = sim.compileReport();
  // The 2 mg gripper, the mimic fingers below the arm and the massless laser frame: welded.
  for (const char* j : {"joint hand", "joint finger1", "joint laser_tilt"}) EXPECT_NE(change(r, j), nullptr) << j;
  EXPECT_EQ(change(r, "joint finger2"), nullptr);   // inside finger1's weld: one line for the subtree
  EXPECT_EQ(change(r, "joint shoulder"), nullptr);  // 0.2 kg of 3.8: simulated
  EXPECT_NE(change(r, "joint finger1")->in_file.find("4e-06 kg"), std::string::npos)
      << change(r, "joint finger1")->in_file;
  // Bodies: body (+ fsr, laser), arm (+ gripper, fingers), two legs. Every milligram kept.
  EXPECT_EQ(sim.bodyCount(), 4);
  double mass = 0;
  for (const auto& b : r.bodies) mass += b.mass_kg;
  EXPECT_NEAR(mass, m->totalMass_kg(), 1e-12);
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 1 * kDeg);
  // A welded joint reads the value it is welded at.
  EXPECT_EQ(sim.jointAngle_rad(m->jointIndex("finger1")), 0.0);
}

TEST(UrdfQuirks, MasslessDummyBetweenJointsGetsASmallReportedMass) {
  auto m = load("massless_dummy.urdf");
  Simulation sim(m);
  EXPECT_EQ(sim.bodyCount(), 5);  // pelvis, 2 dummies, 2 legs
  const auto* c = change(sim.compileReport(), "body hip_roll_l: mass");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->compiled.find("0.0105 kg"), std::string::npos) << c->compiled;  // 3e-3 of 3.5 kg
  EXPECT_NE(change(sim.compileReport(), "body hip_roll_r: mass"), nullptr);    // <mass value="0"/>
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 2 * kDeg);
  EXPECT_LT(std::abs(s.root_drop_m), 0.005);
}

TEST(UrdfQuirks, InertiaQuirksLoadStandAndAreReported) {
  auto m = load("inertia_quirks.urdf");
  EXPECT_TRUE(hasWarning(*m, "triangle inequality"));
  Simulation sim(m);
  // leg_fr is a point mass (all moments 0), leg_fl a rod with izz = 0: floored at 0.4 m (1 mm)^2.
  const auto* fr = change(sim.compileReport(), "body leg_fr: principal moments");
  const auto* fl = change(sim.compileReport(), "body leg_fl: principal moments");
  ASSERT_NE(fr, nullptr);
  ASSERT_NE(fl, nullptr);
  EXPECT_NE(fr->compiled.find("8e-08"), std::string::npos) << fr->compiled;  // 0.4 * 0.2 kg * 1e-6 m^2
  EXPECT_EQ(change(sim.compileReport(), "body leg_bl: principal moments"), nullptr);
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 1 * kDeg);
}

TEST(UrdfQuirks, NegativeInertiaIsRefusedNamingTheSigns) {
  std::string xml =
      "<robot name='n'>\n<link name='a'><inertial><mass value='1'/>\n"
      "<inertia ixx='1e-3' iyy='1e-3' izz='1e-3' ixy='5e-3'/></inertial></link></robot>";
  test::expectInputError([&] { parseRobotXml(xml, "n.urdf"); }, 3, "link 'a'/inertial/inertia", "signs of ixy");
}

TEST(UrdfQuirks, ContinuousJointsAndZeroLimitsWarnOnceAndStand) {
  auto m = load("limits.urdf");
  int effort = 0, velocity = 0;
  for (const auto& w : m->warnings) {
    effort += w.find("effort 0") != std::string::npos;
    velocity += w.find("velocity 0") != std::string::npos;
  }
  EXPECT_EQ(effort, 1);
  EXPECT_EQ(velocity, 1);
  EXPECT_TRUE(hasWarning(*m, "wheel_l_joint, wheel_r_joint, mast_joint"));
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 2 * kDeg);
}

// A joint the <gapsim> section makes passive (<servo fmax_Nm="0">, MABEL's boom) or gives a
// torque limit (<servo_defaults fmax_Nm>) is no longer left at the servo's default: no warning.
TEST(UrdfQuirks, ZeroEffortJointsGivenAServoLimitDoNotWarn) {
  const std::string joint =
      "<robot name='p'><link name='base'><inertial><mass value='1'/><inertia ixx='1e-2' iyy='1e-2' izz='1e-2'/>"
      "</inertial></link><link name='arm'><inertial><mass value='0.1'/><inertia ixx='1e-3' iyy='1e-3' izz='1e-3'/>"
      "</inertial></link><joint name='hinge' type='continuous'><parent link='base'/><child link='arm'/>"
      "<axis xyz='0 1 0'/></joint>";
  auto warns = [](const RobotModel& m, const char* what) {
    return std::any_of(m.warnings.begin(), m.warnings.end(),
                       [&](const std::string& w) { return w.find(what) != std::string::npos; });
  };
  const RobotModel bare = parseRobotXml(joint + "</robot>", "p.urdf");
  EXPECT_TRUE(warns(bare, "effort 0"));
  EXPECT_TRUE(warns(bare, "velocity 0"));
  const RobotModel passive =
      parseRobotXml(joint + "<gapsim><servo joint='hinge' fmax_Nm='0'/></gapsim></robot>", "p.urdf");
  EXPECT_FALSE(warns(passive, "effort 0"));
  EXPECT_FALSE(warns(passive, "velocity 0"));  // a passive joint has no speed to limit
  const RobotModel limited = parseRobotXml(joint + "<gapsim><servo_defaults fmax_Nm='3'/></gapsim></robot>", "p.urdf");
  EXPECT_FALSE(warns(limited, "effort 0"));
  EXPECT_TRUE(warns(limited, "velocity 0"));
  EXPECT_FALSE(warns(loadRobotFile(resolveRobotFile("mabel")), "effort 0"));
}

TEST(UrdfQuirks, RevoluteWithoutLimitSaysWhatToWrite) {
  test::expectInputError([] { loadRobotFile(quirk("revolute_without_limit.urdf")); }, 7, "joint 'hinge'/limit",
                         "type=\"continuous\"");
}

TEST(UrdfQuirks, FloatingRootFromWorldIsAFreeBase) {
  auto m = load("floating_root.urdf");
  ASSERT_EQ(m->links.size(), 1u);
  EXPECT_FALSE(m->fixed_base);
  EXPECT_EQ(m->links[m->root_link].name, "base");
  Simulation sim(m);
  // Starts where the joint's origin says (x, y, yaw), put on the ground; falls 0 further.
  const Eigen::Isometry3d p = sim.linkPose(m->root_link);
  EXPECT_NEAR(p.translation().x(), 0.3, 1e-12);
  EXPECT_NEAR(p.translation().y(), -0.2, 1e-12);
  EXPECT_NEAR(p.translation().z(), 0.05 + m->ground_clearance_m, 1e-9);
  EXPECT_NEAR(std::atan2(p.linear()(1, 0), p.linear()(0, 0)), 0.5, 1e-12);
}

TEST(UrdfQuirks, PlanarRootMovesInItsPlaneOnly) {
  auto m = load("planar_root.urdf");
  EXPECT_TRUE(m->planar_base);
  EXPECT_FALSE(m->fixed_base);
  Simulation sim(m);
  const double y0 = sim.linkPose(m->root_link).translation().y();
  for (int i = 0; i < 2000; ++i) sim.step();  // the tilted bar falls over (in x-z only)
  const Eigen::Isometry3d p = sim.linkPose(m->root_link);
  EXPECT_NEAR(p.translation().y(), y0, 1e-4);
  // Its y axis stays the world's y: it turned about y only.
  EXPECT_GT(p.linear().col(1).dot(Eigen::Vector3d::UnitY()), 1 - 1e-5);
  EXPECT_GT(sim.maxTilt_rad(), 30 * kDeg);  // it did fall
}

TEST(UrdfQuirks, RosBlocksAreIgnoredOnceEachAndTheRobotStands) {
  auto m = load("ros_blocks.urdf");
  for (const char* kind : {"<transmission>", "<ros2_control>", "<gazebo>", "<xacro:property>", "<sensor:camera>"}) {
    const long n = std::count_if(m->warnings.begin(), m->warnings.end(),
                                 [&](const std::string& w) { return w.find(kind) != std::string::npos; });
    EXPECT_EQ(n, 1) << kind;
  }
  EXPECT_TRUE(hasWarning(*m, "ignored 2 <gazebo> elements"));
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 1 * kDeg);
}

TEST(UrdfQuirks, UnexpandedXacroSaysToRunXacro) {
  test::expectInputError([] { loadRobotFile(quirk("xacro_unexpanded.urdf")); }, 6, "<mass>@value", "xacro xacro");
}

TEST(UrdfQuirks, MissingMeshesGiveOneWarningNamingTheFilesAndBoxes) {
  auto m = load("missing_meshes.urdf");
  const long n = std::count_if(m->warnings.begin(), m->warnings.end(),
                               [](const std::string& w) { return w.find("not found") != std::string::npos; });
  EXPECT_EQ(n, 1);
  EXPECT_TRUE(hasWarning(*m,
                         "3 mesh files not found (meshes/not_here.stl, package://absent_description/meshes/body.dae, "
                         "package://absent_description/meshes/body_collision.stl)"));
  for (const Link& l : m->links) {
    ASSERT_EQ(l.collisions.size(), 1u);
    EXPECT_EQ(l.collisions[0].type, Geometry::Type::Box);
    ASSERT_EQ(l.visuals.size(), 1u);
    EXPECT_EQ(l.visuals[0].type, Geometry::Type::Box);
  }
  EXPECT_TRUE(m->links[0].visuals[0].has_color);  // the material survives the replacement
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
}

TEST(UrdfQuirks, RosNaoDescriptionLoadsAndStandsFiveSeconds) {
  auto m = load("nao_ros_like.urdf");
  EXPECT_TRUE(hasWarning(*m, "mesh files not found"));
  EXPECT_TRUE(hasWarning(*m, "<transmission>"));
  EXPECT_TRUE(hasWarning(*m, "triangle inequality"));
  EXPECT_NEAR(m->totalMass_kg(), 5.00596, 1e-5);
  Simulation sim(m);
  const CompileReport& r = sim.compileReport();
  // Hands and the 2 mg finger links: welded (LHand, RHand and the 6 finger chains per side).
  EXPECT_NE(change(r, "joint LHand"), nullptr);
  EXPECT_NE(change(r, "joint LFinger11"), nullptr);
  EXPECT_EQ(change(r, "joint LWristYaw"), nullptr);
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 5 * kDeg);
  EXPECT_LT(std::abs(s.root_drop_m), 0.01);
}

// A published humanoid loaded as a user loads it: the description package of a ROBOTIS OP3 as its
// vendor shapes it (data/op3_like, README there: every number's source), opened by its URDF with
// no <gapsim> element. Meshes are found through the package.xml above the file; the ROS blocks
// give one warning per kind; the 20 revolute joints are ideal servos holding the zero pose (legs
// straight, arms out) at the XM430-W350's 4.1 N m.
TEST(UrdfQuirks, Op3LikeDescriptionPackageLoadsAndStandsFiveSeconds) {
  auto m = std::make_shared<const RobotModel>(
      loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/op3_like/urdf/op3_like.urdf"));
  EXPECT_FALSE(hasWarning(*m, "not found"));
  for (const char* kind : {"<transmission>", "<gazebo>", "<ros2_control>", "<xacro:property>"})
    EXPECT_TRUE(hasWarning(*m, kind)) << kind;
  EXPECT_EQ(m->movableJoints().size(), 20u);
  // make_op3_like.py: the 21 link masses of op3_kinematics_dynamics.cpp and the 1 mg camera link.
  EXPECT_NEAR(m->totalMass_kg(), 3.147471396, 1e-9);
  const Link& foot = m->links[m->linkIndex("l_ank_roll_link")];
  ASSERT_EQ(foot.collisions.size(), 1u);
  ASSERT_EQ(foot.collisions[0].type, Geometry::Type::Mesh);
  ASSERT_NE(foot.collisions[0].mesh, nullptr);

  // Its meshes lie away from their link origins (the foot plate below and in front of the ankle):
  // ODE's dConvex wants its origin inside the hull and says so on stdout when it is not.
  testing::internal::CaptureStdout();
  Simulation sim(m);
  const std::string ode_said = testing::internal::GetCapturedStdout();
  EXPECT_EQ(ode_said.find("does not contain the origin"), std::string::npos) << ode_said;
  EXPECT_EQ(ode_said.find("counterclockwise"), std::string::npos) << ode_said;
  int servos = 0;
  for (const auto& j : sim.compileReport().joints) servos += j.drive == "ideal servo";
  EXPECT_EQ(servos, 20);

  // At the defaults (QuickStep, 20 iterations) it leans 2.3 degrees, its 12 g brackets between the
  // 1.35 kg body and the 0.18 kg arms and legs raised by the light-link rule (light_link_test.cpp);
  // it stands. The direct solver (robots/README.md) holds it to 0.03.
  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 5 * kDeg);
  EXPECT_LT(std::abs(s.root_drop_m), 0.005);
  auto direct = std::make_shared<RobotModel>(*m);
  direct->solver.quickstep = false;
  const StandResult d = stand(direct);
  EXPECT_FALSE(d.diverged) << d.what;
  EXPECT_LT(d.max_tilt_rad, 0.1 * kDeg);
  // Standing on its soles: the sole frames (0.0305 m below the ankle-roll axes) end on the ground.
  Simulation end(m);
  while (end.time_s() < 5.0 - 1e-9) end.step();
  for (const char* sole : {"l_leg_end_link", "r_leg_end_link"})
    EXPECT_NEAR(end.linkPose(m->linkIndex(sole)).translation().z(), 0.0, 0.003) << sole;
}

// A second published humanoid, of another era: a Booster T1 (23 degrees of freedom, 31.7 kg) as a
// CAD exporter and MuJoCo's importer leave its package (data/t1_like, README there: every
// number's source and every habit). Opened by its URDF with no <gapsim> element: the `world` link
// and its floating joint make the free base, the massless base_link and the gram-light sensor
// links ride on fixed joints, the upper-case .STL visuals are found through package.xml.
TEST(UrdfQuirks, T1LikeDescriptionPackageLoadsAndStandsFiveSeconds) {
  auto m = std::make_shared<const RobotModel>(
      loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/t1_like/urdf/t1_like.urdf"));
  EXPECT_FALSE(hasWarning(*m, "not found"));
  EXPECT_TRUE(hasWarning(*m, "ignored 1 <mujoco> element"));
  EXPECT_FALSE(m->fixed_base);
  EXPECT_EQ(m->links[m->root_link].name, "base_link");
  EXPECT_EQ(m->movableJoints().size(), 23u);
  // make_t1_like.py: the vendor's trunk, head, waist and left limbs twice, and 5 g of sensor links.
  EXPECT_NEAR(m->totalMass_kg(), 31.739357, 1e-9);
  const Link& trunk = m->links[m->linkIndex("trunk")];
  ASSERT_EQ(trunk.visuals.size(), 2u);  // the body and the logo, unnamed materials with inline colours
  for (const Geometry& v : trunk.visuals) {
    EXPECT_EQ(v.type, Geometry::Type::Mesh);
    EXPECT_TRUE(v.has_color);
  }
  EXPECT_NEAR(trunk.inertial.inertia_kgm2(0, 2), 0.000646360369011163, 1e-18);  // an off-diagonal term
  EXPECT_NEAR(trunk.inertial.origin.translation().y(), -1.42058017623659E-06, 1e-20);
  EXPECT_EQ(m->links[m->linkIndex("aahead_pitch_link")].collisions[0].type, Geometry::Type::Sphere);
  EXPECT_EQ(m->links[m->linkIndex("left_elbow_pitch_link")].collisions[0].type, Geometry::Type::Cylinder);
  EXPECT_TRUE(m->links[m->linkIndex("left_shoulder_roll_link")].collisions.empty());

  Simulation sim(m);
  const CompileReport& r = sim.compileReport();
  // 23 moving bodies and the trunk; base_link, the IMU, the foot sensors and the camera frame
  // ride in the bodies of their parents, every gram kept.
  EXPECT_EQ(sim.bodyCount(), 24);
  const int trunk_body = r.link_body[static_cast<size_t>(m->linkIndex("trunk"))];
  EXPECT_EQ(r.link_body[static_cast<size_t>(m->linkIndex("imu_link"))], trunk_body);
  EXPECT_EQ(r.link_body[static_cast<size_t>(m->linkIndex("base_link"))], trunk_body);
  EXPECT_EQ(r.link_body[static_cast<size_t>(m->linkIndex("left_foot_sensor_link"))],
            r.link_body[static_cast<size_t>(m->linkIndex("left_ankle_roll_link"))]);
  double mass = 0;
  for (const auto& b : r.bodies) mass += b.mass_kg;
  EXPECT_NEAR(mass, m->totalMass_kg(), 1e-12);
  int servos = 0;
  for (const auto& j : r.joints) servos += j.drive == "ideal servo";
  EXPECT_EQ(servos, 23);
  // The 73 g ankle crosses between the shank and the foot (with its 1 g sensor): the light-link
  // rule raises them to the foot's smallest moment, without which the robot falls at 1.5 s.
  for (const char* side : {"left", "right"}) {
    const auto* cross = change(r, std::string("body ") + side + "_ankle_pitch_link: principal moments");
    ASSERT_NE(cross, nullptr) << side;
    EXPECT_NE(cross->in_file.find("0.073 kg between " + std::string(side) + "_knee_pitch_link (1.82 kg) and " + side +
                                  "_ankle_roll_link (0.686 kg)"),
              std::string::npos)
        << cross->in_file;
  }

  const StandResult s = stand(m);
  EXPECT_FALSE(s.diverged) << s.what;
  EXPECT_LT(s.max_tilt_rad, 1 * kDeg);
  EXPECT_LT(std::abs(s.root_drop_m), 0.005);
  // Standing on its soles: the force-sensor frames at the soles end on the ground.
  Simulation end(m);
  while (end.time_s() < 5.0 - 1e-9) end.step();
  for (const char* sole : {"left_foot_sensor_link", "right_foot_sensor_link"})
    EXPECT_NEAR(end.linkPose(m->linkIndex(sole)).translation().z(), 0.0, 0.003) << sole;
}

}  // namespace
}  // namespace gapsim
