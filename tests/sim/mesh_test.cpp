// SPDX-License-Identifier: BSD-3-Clause
// Robot-file meshes (sim/mesh.h): reading STL (binary, ASCII) and COLLADA with its unit, the cache,
// package:// and relative URIs, convex hulls; and a robot standing on mesh feet collides where the
// mesh is. Fixtures: data/urdf_quirks/mesh_pkg (make_meshes.py there).
#include "sim/mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <thread>

#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

const std::string kPkg = std::string(GAPSIM_TEST_DATA_DIR) + "/urdf_quirks/mesh_pkg";
const std::string kRobot = kPkg + "/urdf/mesh_robot.urdf";

std::set<std::uint32_t> hullVertices(const TriangleMesh& m) {
  std::set<std::uint32_t> s;
  for (const auto& t : m.hull) s.insert(t.begin(), t.end());
  return s;
}

TEST(Mesh, BinaryStlWithItsHull) {
  auto m = loadMesh(kPkg + "/meshes/foot.stl");
  EXPECT_EQ(m->triangles.size(), 40u);  // sole 5 x 3 quads, 5 faces of 2 triangles
  EXPECT_TRUE(m->lower.isApprox(Eigen::Vector3f(-0.04f, -0.035f, -0.03f)));
  EXPECT_TRUE(m->upper.isApprox(Eigen::Vector3f(0.10f, 0.035f, 0.0f), 1e-6f));
  // The hull of a box is its 8 corners (the 16 inner sole vertices lie on a face).
  EXPECT_EQ(hullVertices(*m).size(), 8u);
  EXPECT_EQ(m->hull.size(), 12u);
  ASSERT_EQ(m->parts.size(), 1u);
  EXPECT_FALSE(m->parts[0].has_color);  // STL has no material
}

TEST(Mesh, AsciiStl) {
  auto m = loadMesh(kPkg + "/meshes/shin.stl");
  EXPECT_EQ(m->triangles.size(), 12u);
  EXPECT_TRUE(m->lower.isApprox(Eigen::Vector3f(-0.02f, -0.02f, -0.2f)));
}

TEST(Mesh, ColladaInMillimetresWithTwoMaterials) {
  auto m = loadMesh(kPkg + "/meshes/head.dae");
  // <unit meter="0.001">: the 100 mm cube is 0.1 m; up_axis is ignored (z stays up).
  EXPECT_TRUE(m->lower.isApprox(Eigen::Vector3f(-0.05f, -0.05f, -0.05f), 1e-5f)) << m->lower.transpose();
  EXPECT_TRUE(m->upper.isApprox(Eigen::Vector3f(0.05f, 0.05f, 0.05f), 1e-5f)) << m->upper.transpose();
  ASSERT_EQ(m->parts.size(), 2u);
  std::set<std::pair<float, std::uint32_t>> red_parts;
  for (const auto& p : m->parts) {
    EXPECT_TRUE(p.has_color);
    if (p.rgba.isApprox(Eigen::Vector4f(0.8f, 0.1f, 0.1f, 1.0f))) red_parts.insert({p.rgba.x(), p.triangle_count});
  }
  ASSERT_EQ(red_parts.size(), 1u);
  EXPECT_EQ(red_parts.begin()->second, 2u);  // the top face
  EXPECT_EQ(m->triangles.size(), 12u);
}

TEST(Mesh, CachedPerFile) {
  auto a = loadMesh(kPkg + "/meshes/foot.stl");
  auto b = loadMesh(kPkg + "/meshes/foot.stl");
  EXPECT_EQ(a.get(), b.get());
}

TEST(Mesh, UnreadableFileNamesItself) {
  try {
    loadMesh(kPkg + "/package.xml");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("package.xml"), std::string::npos) << e.what();
  }
}

TEST(Mesh, UriResolution) {
  // package:// found by the package.xml above the robot file, relative to the robot file, absent.
  EXPECT_EQ(resolveMeshUri("package://gapsim_mesh_test_description/meshes/foot.stl", kRobot),
            kPkg + "/meshes/foot.stl");
  EXPECT_EQ(resolveMeshUri("../meshes/shin.stl", kRobot), kPkg + "/meshes/shin.stl");
  EXPECT_EQ(resolveMeshUri("file://" + kPkg + "/meshes/shin.stl", kRobot), kPkg + "/meshes/shin.stl");
  std::vector<std::string> tried;
  EXPECT_EQ(resolveMeshUri("package://nowhere_description/meshes/x.stl", kRobot, &tried), "");
  // ROS_PACKAGE_PATH: a directory holding the package.
  const std::string parent = std::string(GAPSIM_TEST_DATA_DIR) + "/urdf_quirks";
  setenv("ROS_PACKAGE_PATH", parent.c_str(), 1);
  EXPECT_EQ(resolveMeshUri("package://mesh_pkg/meshes/foot.stl", "/tmp/elsewhere.urdf"), kPkg + "/meshes/foot.stl");
  unsetenv("ROS_PACKAGE_PATH");
}

// package.xml is XML: a <name> in a comment or inside another element is not the package's name.
TEST(Mesh, PackageNameIsTheNameElementOfPackageXml) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "gapsim_pkg_name_test";
  fs::remove_all(root);
  fs::create_directories(root / "urdf");
  fs::create_directories(root / "meshes");
  fs::copy_file(kPkg + "/meshes/foot.stl", root / "meshes/foot.stl");
  std::ofstream(root / "package.xml") << R"(<?xml version="1.0"?>
<!-- Template: <name>not_this_one</name> -->
<package format="3">
  <author><name>not_the_author</name></author>
  <name>
    the_real_description
  </name>
</package>
)";
  const std::string robot = (root / "urdf/r.urdf").string();
  EXPECT_EQ(resolveMeshUri("package://the_real_description/meshes/foot.stl", robot),
            (root / "meshes/foot.stl").string());
  EXPECT_EQ(resolveMeshUri("package://not_this_one/meshes/foot.stl", robot), "");
  EXPECT_EQ(resolveMeshUri("package://not_the_author/meshes/foot.stl", robot), "");
  fs::remove_all(root);
}

TEST(Mesh, RobotOnMeshFeetLoadsWithoutWarningsAboutMeshes) {
  const RobotModel m = loadRobotFile(kRobot);
  for (const auto& w : m.warnings) EXPECT_EQ(w.find("mesh"), std::string::npos) << w;
  const Link& body = m.links[m.linkIndex("body")];
  ASSERT_EQ(body.visuals.size(), 2u);
  EXPECT_EQ(body.visuals[1].type, Geometry::Type::Mesh);
  ASSERT_TRUE(body.visuals[1].mesh);
  EXPECT_TRUE(body.visuals[1].mesh_scale.isApprox(Eigen::Vector3d(1.5, 1.5, 1.5)));
  EXPECT_TRUE(body.visuals[0].has_color);
  EXPECT_TRUE(body.visuals[0].rgba.isApprox(Eigen::Vector4d(0.95, 0.55, 0.2, 1)));
  EXPECT_EQ(body.collisions[0].type, Geometry::Type::Box);  // primitives stay primitives
  const Link& shin = m.links[m.linkIndex("shin_l")];
  EXPECT_EQ(shin.collisions.size(), 2u);
  EXPECT_EQ(shin.visuals.size(), 2u);
  // The relative and the package:// URI name the same file: one mesh in memory.
  EXPECT_EQ(shin.visuals[0].mesh.get(), shin.collisions[0].mesh.get());
}

TEST(Mesh, MeshFeetStandWhereTheMeshIs) {
  auto m = std::make_shared<const RobotModel>(loadRobotFile(kRobot));
  Simulation sim(m);
  // Put on the ground by the mesh: the lowest hull vertex (the sole, 0.03 m below the ankle) is at
  // the ground clearance.
  const int foot = m->linkIndex("foot_l");
  EXPECT_NEAR(sim.linkPose(foot).translation().z(), 0.03 + m->ground_clearance_m, 1e-9);
  for (int i = 0; i < 2000; ++i) sim.step();
  EXPECT_FALSE(sim.fallTime_s());
  EXPECT_LT(sim.maxTilt_rad(), 0.01);
  // The sole rests on the ground (ODE's surface layer lets it sink up to 1 mm).
  const Eigen::Isometry3d p = sim.linkPose(foot);
  EXPECT_NEAR(p.translation().z(), 0.03, 0.0015);
  // Contact points lie on the sole's footprint, which is off-centre (x from -0.04 to +0.10 m of
  // the ankle), and span it: front and back corners both carry the foot.
  double xmin = 1, xmax = -1;
  int on_foot = 0;
  for (const Eigen::Vector3d& c : sim.contactPoints_m()) {
    if (c.y() < 0) continue;  // the left foot's (y = +0.06 m)
    const Eigen::Vector3d local = p.inverse() * c;
    ++on_foot;
    EXPECT_GE(local.x(), -0.0401);
    EXPECT_LE(local.x(), 0.1001);
    EXPECT_NEAR(c.z(), 0.0, 0.0015);
    xmin = std::min(xmin, local.x()), xmax = std::max(xmax, local.x());
  }
  EXPECT_EQ(on_foot, m->contact.max_contacts);
  EXPECT_LT(xmin, -0.035);
  EXPECT_GT(xmax, 0.095);
  const FootContactReading f = sim.footContact(0);
  EXPECT_TRUE(f.contact);
  EXPECT_NEAR(f.force_N, 0.5 * m->totalMass_kg() * 9.81, 0.1 * m->totalMass_kg() * 9.81);
}

TEST(Mesh, HullCollisionIsThreadSafeAndDeterministic) {
  // Why hulls and not ODE trimeshes: Debian's ODE keeps trimesh collision caches per process.
  // Worlds with mesh feet stepped in parallel threads end bit-identical to one stepped alone.
  // dWorldStep: QuickStep draws from ODE's one process-wide random seed (DESIGN.md), which threads
  // share whatever the geometry.
  auto m = std::make_shared<const RobotModel>(loadRobotFile(kRobot));
  auto finalPose = [&] {
    SimOptions o;
    o.quickstep = false;
    Simulation sim(m, o);
    std::vector<double> q = m->initial_q;
    for (int i = 0; i < 1500; ++i) {
      q[m->jointIndex("hip_l")] = 0.3 * std::sin(0.004 * i);  // rock on the mesh feet
      sim.setTargets(q);
      sim.step();
    }
    return sim.linkPose(m->root_link).matrix().eval();
  };
  const Eigen::Matrix4d alone = finalPose();
  std::vector<Eigen::Matrix4d> out(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { out[t] = finalPose(); });
  for (auto& th : threads) th.join();
  for (const auto& o : out) EXPECT_TRUE(o == alone);
}

}  // namespace
}  // namespace gapsim
