// SPDX-License-Identifier: BSD-3-Clause
#include "sim/kinematics.h"

#include <cmath>
#include <limits>

namespace gapsim {

Eigen::Isometry3d jointTransform(const Joint& j, double q) {
  Eigen::Isometry3d T = j.origin;
  switch (j.type) {
    case JointType::Revolute:
    case JointType::Continuous:
      T.rotate(Eigen::AngleAxisd(q, j.axis));
      break;
    case JointType::Prismatic:
      T.translate(q * j.axis);
      break;
    case JointType::Fixed:
      break;
  }
  return T;
}

std::vector<Eigen::Isometry3d> linkPoses(const RobotModel& m, const std::vector<double>& q,
                                         const Eigen::Isometry3d& root_pose) {
  std::vector<Eigen::Isometry3d> pose(m.links.size(), Eigen::Isometry3d::Identity());
  std::vector<bool> done(m.links.size(), false);
  pose[m.root_link] = m.fixed_base ? Eigen::Isometry3d::Identity() : root_pose;
  done[m.root_link] = true;
  // The joint list is not necessarily in tree order: sweep until every link is placed (the
  // parser has rejected cycles, so at most links.size() sweeps).
  for (size_t sweep = 0, placed = 1; placed < m.links.size() && sweep <= m.links.size(); ++sweep) {
    for (size_t i = 0; i < m.joints.size(); ++i) {
      const Joint& j = m.joints[i];
      if (done[j.child] || !done[j.parent]) continue;
      pose[j.child] = pose[j.parent] * jointTransform(j, q[i]);
      done[j.child] = true;
      ++placed;
    }
  }
  return pose;
}

namespace {

/// Lowest z of one geometry placed at world pose T.
double lowestZ(const Geometry& g, const Eigen::Isometry3d& T) {
  const Eigen::Vector3d c = T.translation();
  const Eigen::Matrix3d& R = T.linear();
  switch (g.type) {
    case Geometry::Type::Box: {
      // Half-extent of a rotated box along world z: sum |R(2,k)| * half_size_k.
      double h = 0.0;
      for (int k = 0; k < 3; ++k) h += std::abs(R(2, k)) * 0.5 * g.size_m(k);
      return c.z() - h;
    }
    case Geometry::Type::Sphere:
      return c.z() - g.size_m.x();
    case Geometry::Type::Capsule: {
      const double half = 0.5 * g.size_m.y();
      return c.z() - std::abs(R(2, 2)) * half - g.size_m.x();
    }
    case Geometry::Type::Cylinder: {
      // End disc lowest point: the disc of radius r perpendicular to the axis a reaches
      // r * sqrt(1 - a_z^2) below its centre.
      const double half = 0.5 * g.size_m.y();
      const double az = R(2, 2);
      return c.z() - std::abs(az) * half - g.size_m.x() * std::sqrt(std::max(0.0, 1.0 - az * az));
    }
    case Geometry::Type::Mesh: {
      // What collides is the convex hull of the scaled vertices: its lowest vertex.
      if (!g.mesh) break;
      double z = std::numeric_limits<double>::infinity();
      for (const auto& t : g.mesh->hull)
        for (std::uint32_t v : t)
          z = std::min(z, (T * g.mesh->vertices[v].cast<double>().cwiseProduct(g.mesh_scale)).z());
      return z;
    }
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace

double lowestCollisionPoint_m(const RobotModel& m, const std::vector<Eigen::Isometry3d>& link_poses) {
  // Links rigidly attached to `world` (a tower, a boom mount) never touch the ground plane.
  std::vector<bool> is_static(m.links.size(), false);
  if (m.fixed_base) {
    is_static[m.root_link] = true;
    for (size_t sweep = 0; sweep < m.links.size(); ++sweep)
      for (const Joint& j : m.joints)
        if (!j.movable() && is_static[j.parent]) is_static[j.child] = true;
  }
  double z = std::numeric_limits<double>::infinity();
  for (size_t l = 0; l < m.links.size(); ++l) {
    if (is_static[l]) continue;
    for (const Geometry& g : m.links[l].collisions) z = std::min(z, lowestZ(g, link_poses[l] * g.origin));
  }
  return z;
}

Eigen::Isometry3d initialRootPose(const RobotModel& m) {
  Eigen::Isometry3d root = m.initial_root_pose;
  if (m.fixed_base || !m.has_ground_clearance) return root;
  const double low = lowestCollisionPoint_m(m, linkPoses(m, m.initial_q, root));
  if (std::isfinite(low)) root.translation().z() += m.ground_clearance_m - low;
  return root;
}

}  // namespace gapsim
