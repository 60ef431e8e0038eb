// SPDX-License-Identifier: BSD-3-Clause
#include "sim/robot_export.h"

#include <Eigen/Geometry>
#include <charconv>
#include <cmath>
#include <functional>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "sim/drive_kinds.h"
#include "sim/kinematics.h"
#include "sim/text.h"

namespace gapsim {
namespace {

/// The shortest text that reads back as the same double (std::to_chars): 0.08, not 0.080000000000000002.
std::string num(double v) {
  return v == 0 ? "0" : shortestText(v);  // also -0
}

std::string vec(const Eigen::Vector3d& v) { return num(v.x()) + " " + num(v.y()) + " " + num(v.z()); }

/// URDF rpy of R = Rz(yaw) Ry(pitch) Rx(roll). Near pitch = +-pi/2 (the BIOLOID's frames sit
/// 5e-12 from it) roll and yaw are each ill-determined (R21, R22, R00, R10 are all ~cos pitch):
/// yaw is therefore taken from R Rx(roll)^T Ry(pitch)^T, which absorbs roll's error up to a
/// rotation of (roll error) * cos(pitch), so the rpy reproduce R to rounding.
Eigen::Vector3d rpyOf(const Eigen::Matrix3d& R) {
  const double pitch = std::atan2(-R(2, 0), std::hypot(R(0, 0), R(1, 0)));
  const double roll = std::atan2(R(2, 1), R(2, 2));
  const Eigen::Matrix3d Z = R * Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()).toRotationMatrix().transpose() *
                            Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()).toRotationMatrix().transpose();
  return {roll, pitch, std::atan2(Z(1, 0), Z(0, 0))};
}

std::string origin(const Eigen::Isometry3d& T) {
  return "<origin xyz=\"" + vec(T.translation()) + "\" rpy=\"" + vec(rpyOf(T.linear())) + "\"/>";
}

std::string xmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&')
      o += "&amp;";
    else if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

std::string urdfGeometry(const Geometry& g) {
  const Eigen::Vector3d& s = g.size_m;
  switch (g.type) {
    case Geometry::Type::Box:
      return "<box size=\"" + vec(s) + "\"/>";
    case Geometry::Type::Sphere:
      return "<sphere radius=\"" + num(s.x()) + "\"/>";
    case Geometry::Type::Cylinder:
      return "<cylinder radius=\"" + num(s.x()) + "\" length=\"" + num(s.y()) + "\"/>";
    case Geometry::Type::Capsule:
      return "<capsule radius=\"" + num(s.x()) + "\" length=\"" + num(s.y()) + "\"/>";
    case Geometry::Type::Mesh:
      return "<mesh filename=\"" + xmlEscape(g.mesh_file) + "\" scale=\"" + vec(g.mesh_scale) + "\"/>";
  }
  return "";
}

/// The Coulomb friction that runs at a joint: the file's <dynamics friction> and the drive's.
double dryFriction_Nm(const Joint& j) { return j.friction_Nm + j.drive.dry_friction_Nm; }

/// Mass, COM and inertia about the COM of rigidly joined parts, in one frame:
/// I = sum R_i I_i R_i^T + m_i (|d|^2 1 - d d^T), d = c_i - c.
struct MassProps {
  double mass_kg = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia_kgm2 = Eigen::Matrix3d::Zero();
};

MassProps combine(const std::vector<std::tuple<double, Eigen::Isometry3d, Eigen::Matrix3d>>& parts) {
  MassProps mp;
  for (const auto& [m, f, I] : parts) {
    mp.mass_kg += m;
    mp.com += m * f.translation();
  }
  if (mp.mass_kg <= 0) return mp;
  mp.com /= mp.mass_kg;
  for (const auto& [m, f, I] : parts) {
    const Eigen::Vector3d d = f.translation() - mp.com;
    mp.inertia_kgm2 += f.linear() * I * f.linear().transpose() +
                       m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return mp;
}

/// MJCF numbers: 12 significant digits, as bench/mujoco_walk.cpp always wrote them (its walk is
/// chaotic: the last digits flip whether MuJoCo's Nao falls, so the benchmark keeps its text).
std::string num12(double v) {
  std::ostringstream s;
  s << std::setprecision(12) << v;
  return s.str();
}

std::string vec12(const Eigen::Vector3d& v) { return num12(v.x()) + " " + num12(v.y()) + " " + num12(v.z()); }

/// MuJoCo quaternion order: w x y z.
std::string quat12(const Eigen::Matrix3d& R) {
  const Eigen::Quaterniond q(R);
  return num12(q.w()) + " " + num12(q.x()) + " " + num12(q.y()) + " " + num12(q.z());
}

}  // namespace

std::string writeUrdf(const RobotModel& m) {
  std::ostringstream x;
  x << "<?xml version=\"1.0\"?>\n<!-- Written by gapsim-cli export from " << xmlEscape(m.source_file)
    << ": masses, COMs, inertias, joint frames, limits and the joint friction that runs (file + drivetrain dry "
       "friction). Drivetrains, armature, soft links and sensors are not expressible in URDF. -->\n";
  x << "<robot name=\"" << xmlEscape(m.name) << "\">\n";
  const bool planar = m.planar_base;
  if (planar) x << "  <link name=\"world\"/>\n";
  for (const Link& l : m.links) {
    x << "  <link name=\"" << xmlEscape(l.name) << "\">\n";
    if (l.has_inertial) {
      const Eigen::Matrix3d& I = l.inertial.inertia_kgm2;
      x << "    <inertial>" << origin(l.inertial.origin) << "<mass value=\"" << num(l.inertial.mass_kg) << "\"/>"
        << "<inertia ixx=\"" << num(I(0, 0)) << "\" ixy=\"" << num(I(0, 1)) << "\" ixz=\"" << num(I(0, 2))
        << "\" iyy=\"" << num(I(1, 1)) << "\" iyz=\"" << num(I(1, 2)) << "\" izz=\"" << num(I(2, 2))
        << "\"/></inertial>\n";
    }
    for (size_t k = 0; k < l.visuals.size(); ++k) {
      const Geometry& g = l.visuals[k];
      x << "    <visual>" << origin(g.origin) << "<geometry>" << urdfGeometry(g) << "</geometry>";
      if (g.has_color)
        x << "<material name=\"" << xmlEscape(l.name) << "_visual" << k << "\"><color rgba=\"" << vec(g.rgba.head<3>())
          << " " << num(g.rgba.w()) << "\"/></material>";
      x << "</visual>\n";
    }
    for (const Geometry& g : l.collisions)
      x << "    <collision>" << origin(g.origin) << "<geometry>" << urdfGeometry(g) << "</geometry></collision>\n";
    x << "  </link>\n";
  }
  if (planar) {
    // The joint frame is the root's initial pose; the plane's normal in that frame is the axis.
    const Eigen::Isometry3d& T = m.initial_root_pose;
    x << "  <joint name=\"" << xmlEscape(m.links[m.root_link].name)
      << "_planar\" type=\"planar\"><parent link=\"world\"/><child link=\"" << xmlEscape(m.links[m.root_link].name)
      << "\"/>" << origin(T) << "<axis xyz=\"" << vec(T.linear().transpose() * m.planar_normal) << "\"/></joint>\n";
  }
  for (const Joint& j : m.joints) {
    x << "  <joint name=\"" << xmlEscape(j.name) << "\" type=\"" << jointTypeName(j.type) << "\">\n"
      << "    <parent link=\"" << xmlEscape(m.links[j.parent].name) << "\"/><child link=\""
      << xmlEscape(m.links[j.child].name) << "\"/>\n    " << origin(j.origin) << "\n";
    if (j.movable()) {
      x << "    <axis xyz=\"" << vec(j.axis) << "\"/>\n";
      // The limits that run: the servo's force and speed caps (the file's effort and velocity, or
      // gapsim's defaults where the file had none).
      x << "    <limit";
      if (j.type == JointType::Revolute || j.type == JointType::Prismatic)
        x << " lower=\"" << num(j.has_limits ? j.lower : -1e3) << "\" upper=\"" << num(j.has_limits ? j.upper : 1e3)
          << '"';
      x << " effort=\"" << num(j.effort > 0 ? j.effort : j.servo.fmax_Nm) << "\" velocity=\""
        << num(j.velocity > 0 ? j.velocity : j.servo.max_velocity_rad_s) << "\"/>\n";
      if (j.damping_Nms_rad > 0 || dryFriction_Nm(j) > 0)
        x << "    <dynamics damping=\"" << num(j.damping_Nms_rad) << "\" friction=\"" << num(dryFriction_Nm(j))
          << "\"/>\n";
      if (j.mimic.master >= 0)
        x << "    <mimic joint=\"" << xmlEscape(m.joints[j.mimic.master].name) << "\" multiplier=\""
          << num(j.mimic.multiplier) << "\" offset=\"" << num(j.mimic.offset) << "\"/>\n";
    }
    x << "  </joint>\n";
  }
  x << "</robot>\n";
  return x.str();
}

namespace {

/// Writes one MJCF document: the bodies are the rigid groups (links joined by fixed joints), each
/// in its representative link's frame, nested depth-first over the movable joints.
class MjcfWriter {
 public:
  MjcfWriter(const RobotModel& m, const MjcfOptions& a) : m_(m), a_(a), nl_(m.links.size()) {
    group_.assign(nl_, -1);
    group_[m.root_link] = m.root_link;
    for (size_t sweep = 0; sweep <= nl_; ++sweep)
      for (const Joint& j : m.joints)
        if (group_[j.parent] >= 0 && group_[j.child] < 0) group_[j.child] = j.movable() ? j.child : group_[j.parent];
    for (size_t l = 0; l < nl_; ++l)
      if (group_[l] < 0) throw std::runtime_error(m.source_file + ": link '" + m.links[l].name + "' is not connected");
    pose0_ = linkPoses(m, std::vector<double>(m.joints.size(), 0.0), Eigen::Isometry3d::Identity());
  }

  Mjcf write() {
    Mjcf out;
    for (size_t l = 0; l < nl_; ++l)
      out.body_of_link.push_back(m_.fixed_base && group_[l] == m_.root_link ? "world" : m_.links[group_[l]].name);
    worldbody();
    equality();
    actuators();
    const std::string a_text = assets_.str();
    out.xml = header() + (a_text.empty() ? "" : "  <asset>\n" + a_text + "  </asset>\n") + x_.str();
    return out;
  }

 private:
  std::string header() const {
    std::ostringstream head;
    head << "<mujoco model=\"" << xmlEscape(a_.model_name.empty() ? m_.name : a_.model_name) << "\">\n"
         << "  <!-- Written by gapsim from " << xmlEscape(m_.source_file)
         << " (sim/robot_export.h says what is kept). -->\n"
         << "  <compiler angle=\"radian\" inertiafromgeom=\"false\" balanceinertia=\"true\" boundmass=\"1e-6\" "
            "boundinertia=\"1e-12\"/>\n"
         << "  <option timestep=\"" << num12(m_.solver.dt_s) << "\" gravity=\"" << vec12(m_.solver.gravity_m_s2)
         << "\"/>\n"
         << "  <default>\n"
         << "    <geom friction=\"" << num12(m_.contact.mu) << " 0.005 0.0001\" contype=\"1\" conaffinity=\""
         << (m_.contact.self_collision ? 1 : 0) << "\"/>\n"
         << "  </default>\n";
    return head.str();
  }

  /// The geometry's shape attributes; a mesh goes inline into the assets (vertices in metres, the
  /// URDF scale applied): no file paths, and COLLADA, which MuJoCo 2.2 does not read, works too.
  void shape(const Geometry& g) {
    switch (g.type) {
      case Geometry::Type::Box:
        x_ << " type=\"box\" size=\"" << vec12(g.size_m / 2) << '"';
        return;
      case Geometry::Type::Sphere:
        x_ << " type=\"sphere\" size=\"" << num12(g.size_m.x()) << '"';
        return;
      case Geometry::Type::Capsule:
        x_ << " type=\"capsule\" size=\"" << num12(g.size_m.x()) << ' ' << num12(g.size_m.y() / 2) << '"';
        return;
      case Geometry::Type::Cylinder:
        x_ << " type=\"cylinder\" size=\"" << num12(g.size_m.x()) << ' ' << num12(g.size_m.y() / 2) << '"';
        return;
      case Geometry::Type::Mesh:
        break;
    }
    const std::string name = "mesh" + std::to_string(mesh_count_++);
    assets_ << "    <mesh name=\"" << name << "\" vertex=\"";
    for (const auto& v : g.mesh->vertices) assets_ << vec12(v.cast<double>().cwiseProduct(g.mesh_scale)) << ' ';
    assets_ << "\" face=\"";
    for (const auto& t : g.mesh->triangles) assets_ << t[0] << ' ' << t[1] << ' ' << t[2] << ' ';
    assets_ << "\"/>\n";
    x_ << " type=\"mesh\" mesh=\"" << name << '"';
  }

  void geom(const Geometry& g, const Eigen::Isometry3d& p, const std::string& ind, bool visual) {
    if (g.type == Geometry::Type::Mesh && !g.mesh) return;  // a mesh that was not loaded
    x_ << ind << "<geom";
    shape(g);
    if (visual) x_ << " contype=\"0\" conaffinity=\"0\" group=\"1\"";
    if (visual && g.has_color) x_ << " rgba=\"" << vec12(g.rgba.head<3>()) << ' ' << num12(g.rgba.w()) << '"';
    x_ << " pos=\"" << vec12(p.translation()) << "\" quat=\"" << quat12(p.linear()) << "\"/>\n";
  }

  void geoms(int rep, const std::string& ind) {
    const Eigen::Isometry3d rep_inv = pose0_[rep].inverse();
    for (size_t l = 0; l < nl_; ++l) {
      if (group_[l] != rep) continue;
      for (const Geometry& g : m_.links[l].collisions) geom(g, rep_inv * pose0_[l] * g.origin, ind, false);
      for (const Geometry& g : m_.links[l].visuals) geom(g, rep_inv * pose0_[l] * g.origin, ind, true);
    }
  }

  /// The group's combined mass properties in the representative's frame. A massless body (a
  /// frame on a joint) is left to the compiler's boundmass / boundinertia.
  void inertial(int rep, const std::string& ind) {
    const Eigen::Isometry3d rep_inv = pose0_[rep].inverse();
    std::vector<std::tuple<double, Eigen::Isometry3d, Eigen::Matrix3d>> parts;
    for (size_t l = 0; l < nl_; ++l)
      if (group_[l] == rep && m_.links[l].has_inertial)
        parts.emplace_back(m_.links[l].inertial.mass_kg, rep_inv * pose0_[l] * m_.links[l].inertial.origin,
                           m_.links[l].inertial.inertia_kgm2);
    const MassProps mp = combine(parts);
    if (mp.mass_kg <= 0) return;
    const Eigen::Matrix3d& I = mp.inertia_kgm2;
    x_ << ind << "<inertial pos=\"" << vec12(mp.com) << "\" mass=\"" << num12(mp.mass_kg) << "\" fullinertia=\""
       << num12(I(0, 0)) << ' ' << num12(I(1, 1)) << ' ' << num12(I(2, 2)) << ' ' << num12(I(0, 1)) << ' '
       << num12(I(0, 2)) << ' ' << num12(I(1, 2)) << "\"/>\n";
  }

  static bool actuated(const Joint& j) { return j.movable() && j.mimic.master < 0 && !passiveJoint(j); }

  /// The joint with what MuJoCo's position actuator needs around it: armature for the implicit
  /// stability of kp at this time step, the servo's damping, the dry friction as frictionloss.
  void joint(const Joint& j, const std::string& ind) {
    const double dt = m_.solver.dt_s;
    const std::optional<PositionServoLaw> servo = positionServoLaw(j.drive);
    const double kp = servo ? servo->kp_Nm_rad : a_.kp_Nm_rad;
    const double armature = std::max(driveArmature_kgm2(j.drive),
                                     actuated(j) ? kp * dt * dt / (a_.stability_margin * a_.stability_margin) : 0.0);
    const double damping = j.damping_Nms_rad + (servo                                ? servo->kd_Nm_s_rad
                                                : actuated(j) || j.mimic.master >= 0 ? a_.damping_Nms_rad
                                                                                     : 0.0);
    const double friction =
        (a_.joint_friction ? dryFriction_Nm(j) : 0.0) + (servo && a_.joint_friction ? servo->kc_Nm : 0.0);
    x_ << ind << "<joint name=\"" << xmlEscape(j.name) << "\" type=\""
       << (j.type == JointType::Prismatic ? "slide" : "hinge") << "\" axis=\"" << vec12(j.axis) << "\" damping=\""
       << num12(damping) << "\" armature=\"" << num12(armature) << '"';
    if (friction > 0) x_ << " frictionloss=\"" << num12(friction) << '"';
    if (j.has_limits && j.type != JointType::Continuous)
      x_ << " limited=\"true\" range=\"" << num12(j.lower) << ' ' << num12(j.upper) << '"';
    else
      x_ << " limited=\"false\"";
    x_ << "/>\n";
  }

  /// Depth-first over movable joints; body frame = the group's representative link frame.
  void body(int rep, const std::string& ind, bool world) {
    if (!world) inertial(rep, ind);
    geoms(rep, ind);
    const Eigen::Isometry3d rep_inv = pose0_[rep].inverse();
    for (const Joint& j : m_.joints) {
      if (!j.movable() || group_[j.parent] != rep) continue;
      const Eigen::Isometry3d rel = rep_inv * pose0_[j.child];
      x_ << ind << "<body name=\"" << xmlEscape(m_.links[j.child].name) << "\" pos=\"" << vec12(rel.translation())
         << "\" quat=\"" << quat12(rel.linear()) << "\">\n";
      joint(j, ind + "  ");
      body(j.child, ind + "  ", false);
      x_ << ind << "</body>\n";
    }
  }

  void worldbody() {
    x_ << "  <worldbody>\n";
    if (m_.ground_plane)
      x_ << "    <geom name=\"ground\" type=\"plane\" size=\"0 0 1\" contype=\"0\" conaffinity=\"1\"/>\n";
    for (const SceneBox& b : m_.scene_boxes)
      x_ << "    <geom name=\"" << xmlEscape(b.name) << "\" type=\"box\" size=\"" << vec12(b.size_m / 2) << "\" pos=\""
         << vec12(b.pose.translation()) << "\" quat=\"" << quat12(b.pose.linear())
         << "\" contype=\"0\" conaffinity=\"1\"/>\n";
    if (m_.fixed_base) {
      body(m_.root_link, "    ", true);
      x_ << "  </worldbody>\n";
      return;
    }
    const Eigen::Isometry3d root = initialRootPose(m_);
    x_ << "    <body name=\"" << xmlEscape(m_.links[m_.root_link].name) << "\" pos=\"" << vec12(root.translation())
       << "\" quat=\"" << quat12(root.linear()) << "\">\n";
    if (m_.planar_base) {
      // Two slides in the plane and a hinge about its normal, in the root's initial frame.
      const Eigen::Vector3d n = root.linear().transpose() * m_.planar_normal;
      const Eigen::Vector3d u = n.unitOrthogonal(), v = n.cross(u);
      x_ << "      <joint name=\"root_u\" type=\"slide\" axis=\"" << vec12(u) << "\"/>\n"
         << "      <joint name=\"root_v\" type=\"slide\" axis=\"" << vec12(v) << "\"/>\n"
         << "      <joint name=\"root_turn\" type=\"hinge\" axis=\"" << vec12(n) << "\"/>\n";
    } else {
      x_ << "      <freejoint name=\"root\"/>\n";
    }
    body(m_.root_link, "      ", false);
    x_ << "    </body>\n  </worldbody>\n";
  }

  /// Mimic joints as joint equalities: q_j = offset + multiplier q_master.
  void equality() {
    bool any_mimic = false;
    for (const Joint& j : m_.joints) any_mimic = any_mimic || (j.movable() && j.mimic.master >= 0);
    if (!any_mimic) return;
    x_ << "  <equality>\n";
    for (const Joint& j : m_.joints)
      if (j.movable() && j.mimic.master >= 0)
        x_ << "    <joint joint1=\"" << xmlEscape(j.name) << "\" joint2=\"" << xmlEscape(m_.joints[j.mimic.master].name)
           << "\" polycoef=\"" << num12(j.mimic.offset) << ' ' << num12(j.mimic.multiplier) << " 0 0 0\"/>\n";
    x_ << "  </equality>\n";
  }

  void actuators() {
    x_ << "  <actuator>\n";
    for (const Joint& j : m_.joints) {
      if (!actuated(j)) continue;
      const std::optional<PositionServoLaw> servo = positionServoLaw(j.drive);
      const double kp = servo ? servo->kp_Nm_rad : a_.kp_Nm_rad;
      const double fmax = servo ? servo->tau_max_Nm : j.servo.fmax_Nm;
      x_ << "    <position name=\"" << xmlEscape(j.name) << "\" joint=\"" << xmlEscape(j.name) << "\" kp=\""
         << num12(kp) << "\" ctrllimited=\"false\" forcelimited=\"true\" forcerange=\"" << num12(-fmax) << ' '
         << num12(fmax) << "\"/>\n";
    }
    x_ << "  </actuator>\n</mujoco>\n";
  }

  const RobotModel& m_;
  const MjcfOptions& a_;
  const size_t nl_;
  std::vector<int> group_;  ///< each link's rigid group, named by its representative link
  std::vector<Eigen::Isometry3d> pose0_;
  std::ostringstream assets_, x_;
  int mesh_count_ = 0;
};

}  // namespace

Mjcf writeMjcf(const RobotModel& m, const MjcfOptions& a) { return MjcfWriter(m, a).write(); }

}  // namespace gapsim
