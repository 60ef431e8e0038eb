// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/ghost_pose.h"

#include <Eigen/Geometry>
#include <cmath>

#include "sim/kinematics.h"

namespace gapsim::gui {

namespace {
constexpr double kRedAt_rad = 0.2;  // an error this large or larger is drawn fully red
constexpr float kAlpha = 0.45f;

double valueAt(const SignalStore& store, int source, const std::string& column, double t_s) {
  const auto s = store.signal({source, column});
  return s ? interpolateAt(*s, t_s - store.offset(source)) : std::nan("");
}
}  // namespace

int ghostSource(const RobotModel& m, const SignalStore& store) {
  const std::vector<int> ids = store.overlayIds();
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
    const SignalSource* s = store.source(*it);
    for (int j : m.movableJoints())
      if (s && s->columnIndex(m.joints[static_cast<std::size_t>(j)].name + "/q_rad") >= 0) return *it;
  }
  return -1;
}

GhostPose ghostPose(const RobotModel& m, const SignalStore& store, int source, double t_s, const Frame& sim_frame,
                    double side_m) {
  GhostPose g;
  if (!store.source(source) || sim_frame.links.size() != m.links.size() || m.root_link < 0) return g;
  g.q_rad.assign(m.joints.size(), 0.0);
  g.from_log.assign(m.joints.size(), false);
  g.error_rad.assign(m.links.size(), std::nan(""));
  for (int j : m.movableJoints()) {
    const auto jj = static_cast<std::size_t>(j);
    const std::string col = m.joints[jj].name + "/q_rad";
    const double sim = valueAt(store, SignalStore::kSimulation, col, t_s), log = valueAt(store, source, col, t_s);
    g.from_log[jj] = std::isfinite(log);
    g.q_rad[jj] = g.from_log[jj] ? log : (std::isfinite(sim) ? sim : 0.0);
    if (g.from_log[jj] && std::isfinite(sim))
      g.error_rad[static_cast<std::size_t>(m.joints[jj].child)] = std::abs(log - sim);
  }
  const PoseF& r = sim_frame.links[static_cast<std::size_t>(m.root_link)];
  Eigen::Isometry3d root = Eigen::Isometry3d::Identity();
  root.translation() = Eigen::Vector3d(r.p[0], r.p[1], r.p[2]);
  root.linear() = Eigen::Quaterniond(r.q[0], r.q[1], r.q[2], r.q[3]).normalized().toRotationMatrix();
  Eigen::Vector3d left = root.linear().col(1);
  left.z() = 0;
  if (left.norm() > 1e-6) root.translation() += side_m * left.normalized();
  for (const Eigen::Isometry3d& p : linkPoses(m, g.q_rad, root)) {
    const Eigen::Quaterniond q(p.rotation());
    PoseF out;
    out.p = {float(p.translation().x()), float(p.translation().y()), float(p.translation().z())};
    out.q = {float(q.w()), float(q.x()), float(q.y()), float(q.z())};
    g.links.push_back(out);
  }
  return g;
}

double ghostSide_m(const RobotModel& m, const Frame& sim_frame) {
  if (m.root_link < 0 || static_cast<std::size_t>(m.root_link) >= sim_frame.links.size()) return 0.15;
  return std::max(0.15, static_cast<double>(sim_frame.links[static_cast<std::size_t>(m.root_link)].p[2]));
}

QVector4D ghostColor(double error_rad) {
  if (!std::isfinite(error_rad)) return {0.75f, 0.78f, 0.85f, kAlpha};
  const float a = static_cast<float>(std::clamp(error_rad / kRedAt_rad, 0.0, 1.0));
  return {0.2f + 0.7f * a, 0.8f - 0.6f * a, 0.3f - 0.1f * a, kAlpha};
}

}  // namespace gapsim::gui
