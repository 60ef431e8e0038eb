// SPDX-License-Identifier: BSD-3-Clause
// Export (sim/robot_export.h): a URDF read by gapsim and written again keeps masses, inertias and
// joint frames to 1e-9; the MJCF loads in MuJoCo 2.2 (where libmujoco-dev is installed) with the
// robot's mass.
#include "sim/robot_export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

#ifdef GAPSIM_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace gapsim {
namespace {

std::vector<std::string> robotFiles() {
  const std::string q = std::string(GAPSIM_TEST_DATA_DIR) + "/urdf_quirks/";
  return {resolveRobotFile("nao"),
          resolveRobotFile("bioloid"),
          resolveRobotFile("mabel"),
          q + "nao_ros_like.urdf",
          q + "mesh_pkg/urdf/mesh_robot.urdf",
          q + "planar_root.urdf",
          q + "milligram_links.urdf",
          q + "limits.urdf"};
}

void expectIsoNear(const Eigen::Isometry3d& a, const Eigen::Isometry3d& b, const std::string& what) {
  EXPECT_LT((a.translation() - b.translation()).norm(), 1e-9) << what;
  EXPECT_LT((a.linear() - b.linear()).norm(), 1e-9) << what;
}

TEST(RobotExport, UrdfRoundTripKeepsMassesInertiasAndFrames) {
  for (const std::string& file : robotFiles()) {
    SCOPED_TRACE(file);
    const RobotModel a = loadRobotFile(file);
    // Read back as if it lay where the original does (relative mesh URIs resolve the same).
    const RobotModel b = parseRobotXml(writeUrdf(a), file);
    ASSERT_EQ(a.links.size(), b.links.size());
    ASSERT_EQ(a.joints.size(), b.joints.size());
    EXPECT_EQ(a.links[a.root_link].name, b.links[b.root_link].name);
    EXPECT_EQ(a.fixed_base, b.fixed_base);
    EXPECT_EQ(a.planar_base, b.planar_base);
    if (a.planar_base) {
      EXPECT_LT((a.planar_normal - b.planar_normal).norm(), 1e-9);
    }
    for (size_t l = 0; l < a.links.size(); ++l) {
      const Link &la = a.links[l], &lb = b.links[l];
      EXPECT_EQ(la.name, lb.name);
      ASSERT_EQ(la.has_inertial, lb.has_inertial) << la.name;
      EXPECT_NEAR(la.inertial.mass_kg, lb.inertial.mass_kg, 1e-9 * la.inertial.mass_kg) << la.name;
      EXPECT_LT((la.inertial.inertia_kgm2 - lb.inertial.inertia_kgm2).norm(),
                1e-9 * la.inertial.inertia_kgm2.norm() + 1e-300)
          << la.name;
      expectIsoNear(la.inertial.origin, lb.inertial.origin, la.name + " inertial");
      ASSERT_EQ(la.collisions.size(), lb.collisions.size()) << la.name;
      ASSERT_EQ(la.visuals.size(), lb.visuals.size()) << la.name;
      for (size_t g = 0; g < la.collisions.size(); ++g) {
        EXPECT_EQ(la.collisions[g].type, lb.collisions[g].type);
        expectIsoNear(la.collisions[g].origin, lb.collisions[g].origin, la.name + " collision");
        EXPECT_LT((la.collisions[g].size_m - lb.collisions[g].size_m).norm(), 1e-12);
      }
    }
    for (size_t j = 0; j < a.joints.size(); ++j) {
      const Joint &ja = a.joints[j], &jb = b.joints[j];
      EXPECT_EQ(ja.name, jb.name);
      EXPECT_EQ(ja.type, jb.type) << ja.name;
      EXPECT_EQ(ja.parent, jb.parent) << ja.name;
      EXPECT_EQ(ja.child, jb.child) << ja.name;
      expectIsoNear(ja.origin, jb.origin, ja.name);
      if (!ja.movable()) continue;
      EXPECT_LT((ja.axis - jb.axis).norm(), 1e-12) << ja.name;
      EXPECT_EQ(ja.has_limits, jb.has_limits) << ja.name;
      if (ja.has_limits) {
        EXPECT_EQ(ja.lower, jb.lower) << ja.name;
        EXPECT_EQ(ja.upper, jb.upper) << ja.name;
      }
      EXPECT_EQ(ja.mimic.master, jb.mimic.master) << ja.name;
      // The friction that runs (file + drivetrain) is written as the URDF's.
      EXPECT_NEAR(jb.friction_Nm, ja.friction_Nm + ja.drive.dry_friction_Nm, 1e-12) << ja.name;
    }
    EXPECT_NEAR(a.totalMass_kg(), b.totalMass_kg(), 1e-12);
  }
}

#ifdef GAPSIM_HAVE_MUJOCO
TEST(RobotExport, MjcfLoadsInMujocoWithTheRobotsMass) {
  for (const std::string& file : robotFiles()) {
    SCOPED_TRACE(file);
    const RobotModel m = loadRobotFile(file);
    char path[] = "/tmp/gapsim_export_XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    std::ofstream(path) << writeMjcf(m).xml;
    char err[1000] = "";
    mjModel* mm = mj_loadXML(path, nullptr, err, sizeof err);
    std::remove(path);
    ASSERT_NE(mm, nullptr) << err;
    // MuJoCo's boundmass gives each massless moving body 1e-6 kg.
    EXPECT_NEAR(mj_getTotalmass(mm), m.totalMass_kg(), 1e-4) << file;
    mjData* d = mj_makeData(mm);
    for (int i = 0; i < 100; ++i) mj_step(mm, d);
    EXPECT_EQ(d->warning[mjWARN_BADQACC].number, 0);
    mj_deleteData(d);
    mj_deleteModel(mm);
  }
}
#endif

}  // namespace
}  // namespace gapsim
