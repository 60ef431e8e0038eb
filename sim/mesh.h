// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Triangle meshes of robot files (URDF `<mesh filename="..." scale="..."/>`): where the file is
/// (package://, file://, absolute or relative URIs), reading it (STL binary and ASCII, COLLADA .dae,
/// OBJ and whatever else assimp reads), and its convex hull, which is what the robot collides with
/// (sim/simulation_build.cpp: an ODE dConvex per mesh; see docs/robot-format.md, "Meshes").
///
/// Units: vertices in metres in the mesh's own frame, after the format's unit (COLLADA
/// `<unit meter="0.001"/>` scales by 0.001; STL and OBJ have none: their numbers are taken as metres,
/// as ROS does). The URDF `scale` is not applied here: a mesh is shared by every geometry that names
/// its file, each with its own scale. COLLADA's `up_axis` is ignored (ROS tools read the coordinates
/// as they are: x forward, z up).
///
/// Meshes are cached per file (path and modification time) for the life of the process and shared
/// read-only: a robot loaded 1000 times for a calibration reads each mesh file once. The cache holds
/// only weak references, so it never keeps a mesh alive that no model uses.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gapsim {

struct TriangleMesh {
  std::string path;                                     ///< the file read
  std::vector<Eigen::Vector3f> vertices;                ///< m, mesh frame
  std::vector<std::array<std::uint32_t, 3>> triangles;  ///< counter-clockwise seen from outside
  /// Runs of triangles with one material (one per assimp sub-mesh), in triangle order.
  struct Part {
    std::uint32_t first_triangle = 0;
    std::uint32_t triangle_count = 0;
    bool has_color = false;
    Eigen::Vector4f rgba{0.7f, 0.7f, 0.7f, 1.0f};  ///< the material's diffuse colour
  };
  std::vector<Part> parts;
  /// Convex hull: triangles over `vertices` (counter-clockwise seen from outside). Empty when the
  /// points span no volume (a single flat quad): such a mesh is drawn but not collided.
  std::vector<std::array<std::uint32_t, 3>> hull;
  Eigen::Vector3f lower = Eigen::Vector3f::Zero(), upper = Eigen::Vector3f::Zero();  ///< bounding box
};

/// Reads `path`, or returns the cached mesh of that file. Throws std::runtime_error naming the file
/// and what the reader said when it cannot be read or holds no triangles.
std::shared_ptr<const TriangleMesh> loadMesh(const std::string& path);

/// Where a URDF mesh URI points, or "" when no file is there. `robot_file` is the URDF's path.
///  - `package://PKG/REST`: PKG is looked up in $ROS_PACKAGE_PATH (DIR/PKG or DIR named PKG),
///    $AMENT_PREFIX_PATH (PREFIX/share/PKG), then in the directories above the robot file: one
///    named PKG, one holding a PKG directory, or one whose package.xml says <name>PKG</name> (a
///    description package: PKG/urdf/robot.urdf next to PKG/meshes/).
///  - `file:///abs/path`, `/abs/path`: as given.  - anything else: relative to the robot file.
/// `tried` (optional) receives the candidate paths, for messages.
std::string resolveMeshUri(const std::string& uri, const std::string& robot_file,
                           std::vector<std::string>* tried = nullptr);

}  // namespace gapsim
