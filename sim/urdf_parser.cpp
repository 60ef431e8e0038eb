// SPDX-License-Identifier: BSD-3-Clause
#include "sim/urdf_parser.h"

#include <tinyxml2.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <optional>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/input_error.h"
#include "sim/mesh.h"
#include "sim/parameters.h"
#include "sim/plausible.h"
#include "sim/text_file.h"

namespace gapsim {
namespace {

using tinyxml2::XMLElement;
constexpr double kPi = 3.14159265358979323846;

/// Parse context: the file name for messages, and the warnings collected so far, counted per kind
/// so that a URDF with 40 <transmission> tags gives one line, not 40.
struct Ctx {
  std::string file;
  std::map<std::string, int> ignored;  // "<gazebo>" -> count
  std::vector<std::string> warnings;
  std::map<std::string, Eigen::Vector4d> materials;  // robot-level <material name><color rgba>
  std::set<std::string> missing_meshes;               // URIs that resolve to no file
  std::map<std::string, std::string> unreadable_meshes;  // URI -> the reader's message
  std::set<std::string> unknown_materials;
  std::vector<std::string> zero_effort, zero_velocity;  // joints whose <limit> gives 0 (or that have none)
  /// A `floating` or `planar` joint: only from a massless root link (`world`) to the robot, where
  /// it says how the robot's root moves (RobotModel::planar_base) and where it starts.
  struct RootJoint {
    std::string name, type;
    int parent = -1, child = -1, line = 0;
    Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
    Eigen::Vector3d axis = Eigen::Vector3d::UnitX();
  };
  std::vector<RootJoint> root_joints;

  [[noreturn]] void fail(const XMLElement* e, const std::string& field, const std::string& what) const {
    throw InputError(file, e ? e->GetLineNum() : 0, field, what);
  }
  void ignore(const std::string& kind) { ++ignored[kind]; }
  /// plausible::check at e's line.
  void check(const XMLElement* e, const std::string& field, double v, const plausible::Range& r,
             const std::string& what = "") const {
    plausible::check(v, r, file, e ? e->GetLineNum() : 0, field, what);
  }
};

/// The numbers of an attribute, each finite and in `range` (sim/plausible.h).
std::vector<double> parseNumbers(const Ctx& c, const XMLElement* e, const std::string& field, const char* text,
                                 const plausible::Range& range) {
  std::vector<double> out;
  const char* p = text;
  const char* end = text + std::strlen(text);
  while (p < end) {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (p >= end) break;
    double v = 0.0;
    auto [q, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || (q < end && !std::isspace(static_cast<unsigned char>(*q))))
      c.fail(e, field, std::string("not a number: '") + text + "'");
    if (!std::isfinite(v)) c.fail(e, field, std::string("not a finite number: '") + text + "'");
    c.check(e, field, v, range);
    out.push_back(v);
    p = q;
  }
  return out;
}

/// The `count` numbers of attribute `name`, or nothing when it is absent.
std::optional<std::vector<double>> attrNumbers(const Ctx& c, const XMLElement* e, const char* name,
                                               const std::string& field, size_t count, const plausible::Range& range) {
  const char* t = e->Attribute(name);
  if (!t) return std::nullopt;
  const std::string f = field + "@" + name;
  auto v = parseNumbers(c, e, f, t, range);
  if (v.size() != count)
    c.fail(e, f, std::string(count == 1 ? "expected one number" : "expected three numbers") + ", got '" + t + "'");
  return v;
}

/// kAnyNumber, the range of a number without one of its own, is a backstop: 0, or a magnitude
/// that neither overflows nor is subnormal.
double attrDouble(const Ctx& c, const XMLElement* e, const char* name, const std::string& field,
                  std::optional<double> fallback = std::nullopt, const plausible::Range& range = plausible::kAnyNumber) {
  if (auto v = attrNumbers(c, e, name, field, 1, range)) return (*v)[0];
  if (!fallback) c.fail(e, field + "@" + name, "missing attribute");
  return *fallback;
}

Eigen::Vector3d attrVec3(const Ctx& c, const XMLElement* e, const char* name, const std::string& field,
                         std::optional<Eigen::Vector3d> fallback = std::nullopt,
                         const plausible::Range& range = plausible::kAnyNumber) {
  if (auto v = attrNumbers(c, e, name, field, 3, range)) return {(*v)[0], (*v)[1], (*v)[2]};
  if (!fallback) c.fail(e, field + "@" + name, "missing attribute");
  return *fallback;
}

bool attrBool(const Ctx& c, const XMLElement* e, const char* name, const std::string& field, bool fallback) {
  const char* t = e->Attribute(name);
  if (!t) return fallback;
  std::string s = t;
  if (s == "true" || s == "1") return true;
  if (s == "false" || s == "0") return false;
  c.fail(e, field + "@" + name, "expected true or false, got '" + s + "'");
}

std::string attrString(const Ctx& c, const XMLElement* e, const char* name, const std::string& field) {
  const char* t = e->Attribute(name);
  if (!t || !*t) c.fail(e, field + "@" + name, "missing attribute");
  return t;
}

/// URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z: R = Rz * Ry * Rx.
Eigen::Matrix3d rotationFromRpy(const Eigen::Vector3d& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Isometry3d parsePose(const Ctx& c, const XMLElement* e, const std::string& field) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  if (!e) return T;
  T.translation() = attrVec3(c, e, "xyz", field, Eigen::Vector3d::Zero(), plausible::kPosition_m);
  T.linear() = rotationFromRpy(attrVec3(c, e, "rpy", field, Eigen::Vector3d::Zero(), plausible::kAngle_rad));
  return T;
}

Eigen::Isometry3d parseOrigin(const Ctx& c, const XMLElement* parent, const std::string& field) {
  return parsePose(c, parent->FirstChildElement("origin"), field + "/origin");
}

/// <color rgba="r g b a">, each within [0, 1].
Eigen::Vector4d parseRgba(const Ctx& c, const XMLElement* e, const std::string& field) {
  const char* t = e->Attribute("rgba");
  if (!t) c.fail(e, field + "@rgba", "missing attribute (rgba=\"r g b a\", each 0..1)");
  const auto v = parseNumbers(c, e, field + "@rgba", t, plausible::Range{0, 1, "(colour fraction)"});
  if (v.size() != 4) c.fail(e, field + "@rgba", std::string("expected four numbers r g b a, got '") + t + "'");
  return {v[0], v[1], v[2], v[3]};
}

/// Returns false for an element the caller should skip (mesh with no fallback yet).
Geometry parseGeometry(Ctx& c, const XMLElement* holder, const std::string& field) {
  Geometry g;
  g.line = holder->GetLineNum();
  g.origin = parseOrigin(c, holder, field);
  const XMLElement* geo = holder->FirstChildElement("geometry");
  if (!geo) c.fail(holder, field + "/geometry", "missing <geometry>");
  const XMLElement* s = geo->FirstChildElement();
  if (!s) c.fail(geo, field + "/geometry", "empty <geometry>");
  std::string kind = s->Name();
  std::string f = field + "/geometry/" + kind;
  if (kind == "box") {
    g.type = Geometry::Type::Box;
    g.size_m = attrVec3(c, s, "size", f, std::nullopt, plausible::kSize_m);
  } else if (kind == "sphere") {
    g.type = Geometry::Type::Sphere;
    g.size_m.x() = attrDouble(c, s, "radius", f, std::nullopt, plausible::kSize_m);
  } else if (kind == "cylinder" || kind == "capsule") {
    g.type = kind == "cylinder" ? Geometry::Type::Cylinder : Geometry::Type::Capsule;
    g.size_m.x() = attrDouble(c, s, "radius", f, std::nullopt, plausible::kSize_m);
    g.size_m.y() = attrDouble(c, s, "length", f, std::nullopt, plausible::kLength_m);
  } else if (kind == "mesh") {
    g.type = Geometry::Type::Mesh;
    g.mesh_file = attrString(c, s, "filename", f);
    g.mesh_scale = attrVec3(c, s, "scale", f, Eigen::Vector3d::Ones(), plausible::kAnyNumber);
    if (!(g.mesh_scale.cwiseAbs().minCoeff() > 0))
      c.fail(s, f + "@scale", "every scale factor must be non-zero (1 1 1 keeps the mesh's size)");
    const std::string path = resolveMeshUri(g.mesh_file, c.file);
    if (path.empty()) {
      c.missing_meshes.insert(g.mesh_file);
    } else {
      try {
        g.mesh = loadMesh(path);
      } catch (const std::exception& ex) {
        c.unreadable_meshes[g.mesh_file] = ex.what();
      }
    }
  } else {
    c.fail(s, f, "unknown geometry type '" + kind + "' (box, sphere, cylinder, capsule, mesh)");
  }
  if (const XMLElement* mat = holder->FirstChildElement("material")) {
    if (const XMLElement* col = mat->FirstChildElement("color")) {
      g.rgba = parseRgba(c, col, field + "/material/color");
      g.has_color = true;
    } else if (const char* name = mat->Attribute("name")) {
      if (auto it = c.materials.find(name); it != c.materials.end()) {
        g.rgba = it->second;
        g.has_color = true;
      } else if (!mat->FirstChildElement("texture")) {
        c.unknown_materials.insert(name);
      }
    }
  }
  return g;
}

void parseLink(Ctx& c, const XMLElement* e, RobotModel& m) {
  Link l;
  l.line = e->GetLineNum();
  l.name = attrString(c, e, "name", "link");
  std::string f = "link '" + l.name + "'";
  if (m.linkIndex(l.name) >= 0) c.fail(e, f + "@name", "duplicate link name");
  for (const XMLElement* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
    std::string n = ch->Name();
    if (n == "inertial") {
      l.has_inertial = true;
      l.inertial.origin = parseOrigin(c, ch, f + "/inertial");
      const XMLElement* mass = ch->FirstChildElement("mass");
      if (!mass) c.fail(ch, f + "/inertial/mass", "missing <mass>");
      // Mass 0 (generated files write it for frames) is a massless link, as if <inertial> were absent.
      l.inertial.mass_kg = attrDouble(c, mass, "value", f + "/inertial/mass", std::nullopt, plausible::Range{0, plausible::kMass_kg.hi, "kg"});
      if (l.inertial.mass_kg > 0) c.check(mass, f + "/inertial/mass@value", l.inertial.mass_kg, plausible::kMass_kg);
      else l.has_inertial = false;
      const XMLElement* in = ch->FirstChildElement("inertia");
      if (!in) c.fail(ch, f + "/inertial/inertia", "missing <inertia>");
      std::string fi = f + "/inertial/inertia";
      const plausible::Range& ri = plausible::kInertiaElement_kgm2;
      double ixx = attrDouble(c, in, "ixx", fi, std::nullopt, ri), iyy = attrDouble(c, in, "iyy", fi, std::nullopt, ri),
             izz = attrDouble(c, in, "izz", fi, std::nullopt, ri);
      double ixy = attrDouble(c, in, "ixy", fi, 0.0, ri), ixz = attrDouble(c, in, "ixz", fi, 0.0, ri),
             iyz = attrDouble(c, in, "iyz", fi, 0.0, ri);
      Eigen::Matrix3d I;
      I << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(I);
      const Eigen::Vector3d ev = es.eigenvalues();
      // A moment of zero (a point mass, a rod along its axis, a massless frame) is a legal URDF
      // and common in generated files: the body it ends up in gets a floor when the world is built
      // (gapsim-cli info --compiled lists it). A negative one describes no body at all.
      const double zero_tol = 1e-12 * std::max(ev(2), 0.0);
      if (ev(0) < -zero_tol)
        c.fail(in, fi, "inertia is not positive semi-definite (principal moments " + sixDigits(ev(0)) + ", " +
                           sixDigits(ev(1)) + ", " + sixDigits(ev(2)) +
                           " kg m^2): check the signs of ixy, ixz, iyz (URDF takes the tensor's elements, "
                           "e.g. ixy = -sum m x y, not the products of inertia)");
      if (ev(0) > zero_tol) c.check(in, fi, ev(0), plausible::kInertia_kgm2, "smallest principal moment");
      if (ev(2) > 0) c.check(in, fi, ev(2), plausible::kInertia_kgm2, "largest principal moment");
      // Data from CAD exports often violates the triangle inequality slightly (Aldebaran's own
      // Nao URDF does): no rigid body has such an inertia, but ODE integrates it stably, so it is
      // kept as given and reported, as MuJoCo does unless asked to balance it.
      if (ev(0) > zero_tol && ev(0) + ev(1) < ev(2) * (1 - 1e-9))
        c.warnings.push_back("link '" + l.name + "' (line " + std::to_string(in->GetLineNum()) +
                             "): principal moments " + std::to_string(ev(0)) + ", " + std::to_string(ev(1)) + ", " +
                             std::to_string(ev(2)) + " kg m^2 violate the triangle inequality; kept as given");
      l.inertial.inertia_kgm2 = I;
    } else if (n == "collision") {
      l.collisions.push_back(parseGeometry(c, ch, f + "/collision"));
    } else if (n == "visual") {
      l.visuals.push_back(parseGeometry(c, ch, f + "/visual"));
    } else {
      c.ignore("<link>/<" + n + ">");
    }
  }
  m.links.push_back(std::move(l));
}

/// A mesh whose file is missing or unreadable is replaced by the box whose inertia equals the
/// link's (the "equivalent inertia box": for a solid box, Ixx = m (b^2 + c^2) / 12 and cyclic, so
/// a^2 = 6 (Iyy + Izz - Ixx) / m), placed at the COM, for collision and drawing alike; on a massless
/// link it is dropped. One warning names the files.
void replaceMissingMeshes(Ctx& c, RobotModel& m) {
  int replaced = 0, dropped = 0;
  for (Link& l : m.links) {
    for (auto* list : {&l.collisions, &l.visuals}) {
      std::vector<Geometry> kept;
      bool boxed = false;  // several missing meshes on one list become one box
      for (Geometry g : *list) {
        if (g.type != Geometry::Type::Mesh || g.mesh) {
          kept.push_back(g);
          continue;
        }
        if (!l.has_inertial || boxed) {
          ++dropped;
          continue;
        }
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(l.inertial.inertia_kgm2);
        const Eigen::Vector3d I = es.eigenvalues();
        const double mass = l.inertial.mass_kg;
        Eigen::Vector3d sz;
        sz.x() = std::sqrt(std::max(1e-8, 6.0 * (I(1) + I(2) - I(0)) / mass));
        sz.y() = std::sqrt(std::max(1e-8, 6.0 * (I(0) + I(2) - I(1)) / mass));
        sz.z() = std::sqrt(std::max(1e-8, 6.0 * (I(0) + I(1) - I(2)) / mass));
        g.type = Geometry::Type::Box;
        g.size_m = sz;
        g.origin = l.inertial.origin;
        g.origin.linear() = l.inertial.origin.linear() * es.eigenvectors();
        if (g.origin.linear().determinant() < 0) g.origin.linear().col(2) *= -1.0;
        kept.push_back(g);
        boxed = true;
        ++replaced;
      }
      *list = kept;
    }
  }
  auto names = [](const auto& uris) {
    std::string s;
    int k = 0;
    for (const auto& u : uris) {
      if (++k > 12) {
        s += ", and " + std::to_string(uris.size() - 12) + " more";
        break;
      }
      s += (s.empty() ? "" : ", ") + std::string(u);
    }
    return s;
  };
  if (!c.missing_meshes.empty())
    c.warnings.push_back(std::to_string(c.missing_meshes.size()) + " mesh file" + (c.missing_meshes.size() > 1 ? "s" : "") +
                         " not found (" + names(c.missing_meshes) +
                         "): those links collide and draw as the box of equal inertia (" + std::to_string(replaced) +
                         " boxes, " + std::to_string(dropped) +
                         " meshes of massless links or repeated on a link dropped). package:// URIs are looked up in "
                         "ROS_PACKAGE_PATH, AMENT_PREFIX_PATH and the directories above the robot file");
  if (!c.unreadable_meshes.empty()) {
    std::vector<std::string> why;
    for (const auto& [uri, msg] : c.unreadable_meshes) why.push_back(msg);
    c.warnings.push_back(std::to_string(c.unreadable_meshes.size()) + " mesh file(s) could not be read, replaced like missing ones: " +
                         names(why));
  }
}

void parseJoint(Ctx& c, const XMLElement* e, RobotModel& m, std::vector<std::pair<int, std::string>>& mimics) {
  Joint j;
  j.line = e->GetLineNum();
  j.name = attrString(c, e, "name", "joint");
  std::string f = "joint '" + j.name + "'";
  if (m.jointIndex(j.name) >= 0) c.fail(e, f + "@name", "duplicate joint name");
  std::string type = attrString(c, e, "type", f);
  if (type == "revolute") j.type = JointType::Revolute;
  else if (type == "continuous") j.type = JointType::Continuous;
  else if (type == "prismatic") j.type = JointType::Prismatic;
  else if (type == "fixed") j.type = JointType::Fixed;
  else if (type != "floating" && type != "planar")
    c.fail(e, f + "@type", "unknown joint type '" + type + "' (revolute, continuous, prismatic, fixed, floating, planar)");

  auto linkRef = [&](const char* tag) {
    const XMLElement* le = e->FirstChildElement(tag);
    if (!le) c.fail(e, f + "/" + tag, std::string("missing <") + tag + ">");
    std::string name = attrString(c, le, "link", f + "/" + tag);
    int idx = m.linkIndex(name);
    if (idx < 0) c.fail(le, f + "/" + tag + "@link", "unknown link '" + name + "'");
    return idx;
  };
  j.parent = linkRef("parent");
  j.child = linkRef("child");
  if (j.parent == j.child) c.fail(e, f + "/child@link", "a joint cannot connect a link to itself");
  j.origin = parseOrigin(c, e, f);
  // The URDF spec ignores the axis of fixed and floating joints; generators write "0 0 0" there.
  const bool has_axis = type != "fixed" && type != "floating";
  if (const XMLElement* a = e->FirstChildElement("axis"); a && has_axis) {
    j.axis = attrVec3(c, a, "xyz", f + "/axis");
    if (j.axis.norm() < 1e-12)
      c.fail(a, f + "/axis@xyz", "axis must not be zero (a joint that does not move is type=\"fixed\")");
    j.axis.normalize();
  }
  if (type == "floating" || type == "planar") {
    c.root_joints.push_back({j.name, type, j.parent, j.child, j.line, j.origin, j.axis});
    return;
  }
  if (const XMLElement* l = e->FirstChildElement("limit")) {
    std::string fl = f + "/limit";
    j.effort = attrDouble(c, l, "effort", fl, 0.0, plausible::kEffort);
    j.velocity = attrDouble(c, l, "velocity", fl, 0.0, plausible::kJointSpeed);
    if (j.movable() && !e->FirstChildElement("mimic")) {
      if (j.effort <= 0) c.zero_effort.push_back(j.name);
      if (j.velocity <= 0) c.zero_velocity.push_back(j.name);
    }
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic) {
      j.has_limits = l->Attribute("lower") || l->Attribute("upper");
      j.lower = attrDouble(c, l, "lower", fl, 0.0, plausible::kJointPosition);
      j.upper = attrDouble(c, l, "upper", fl, 0.0, plausible::kJointPosition);
      if (j.lower > j.upper) c.fail(l, fl, "lower limit above upper limit");
    }
  } else if (j.type == JointType::Continuous) {
    if (!e->FirstChildElement("mimic")) c.zero_effort.push_back(j.name), c.zero_velocity.push_back(j.name);
  } else if (j.type == JointType::Revolute || j.type == JointType::Prismatic) {
    c.fail(e, f + "/limit",
           "a " + type + " joint needs <limit lower=\"..\" upper=\"..\" effort=\"..\" velocity=\"..\"/> (URDF requires "
           "it)" + (type == "revolute" ? std::string("; a joint that turns without end is type=\"continuous\"") : ""));
  }
  if (const XMLElement* d = e->FirstChildElement("dynamics")) {
    j.damping_Nms_rad = attrDouble(c, d, "damping", f + "/dynamics", 0.0);
    j.friction_Nm = attrDouble(c, d, "friction", f + "/dynamics", 0.0);
    if (j.damping_Nms_rad < 0 || j.friction_Nm < 0) c.fail(d, f + "/dynamics", "damping and friction must be >= 0");
  }
  if (const XMLElement* mi = e->FirstChildElement("mimic")) {
    mimics.emplace_back(static_cast<int>(m.joints.size()), attrString(c, mi, "joint", f + "/mimic"));
    j.mimic.multiplier = attrDouble(c, mi, "multiplier", f + "/mimic", 1.0, plausible::kMimicFactor);
    j.mimic.offset = attrDouble(c, mi, "offset", f + "/mimic", 0.0, plausible::kJointPosition);
  }
  for (const XMLElement* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
    std::string n = ch->Name();
    static const std::set<std::string> known = {"parent", "child",  "origin",           "axis",       "limit",
                                                "dynamics", "mimic", "safety_controller", "calibration"};
    if (!known.count(n)) c.ignore("<joint>/<" + n + ">");
  }
  m.joints.push_back(std::move(j));
}

/// Topology: exactly one root, each link the child of at most one joint, no cycles.
void checkTree(const Ctx& c, const XMLElement* robot, RobotModel& m) {
  std::vector<int> parent_joint(m.links.size(), -1);
  for (size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    if (parent_joint[j.child] >= 0)
      throw InputError(c.file, j.line, "joint '" + j.name + "'/child@link",
                       "link '" + m.links[j.child].name + "' is already the child of joint '" +
                           m.joints[parent_joint[j.child]].name + "'");
    parent_joint[j.child] = static_cast<int>(i);
  }
  std::vector<int> roots;
  for (size_t i = 0; i < m.links.size(); ++i)
    if (parent_joint[i] < 0) roots.push_back(static_cast<int>(i));
  if (m.links.empty()) c.fail(robot, "robot", "no <link>");
  if (roots.size() != 1) {
    std::string names;
    for (int r : roots) names += (names.empty() ? "" : ", ") + m.links[r].name;
    c.fail(robot, "robot", "expected exactly one root link, found " + std::to_string(roots.size()) +
                               (names.empty() ? " (the joints form a cycle)" : ": " + names));
  }
  m.root_link = roots[0];
  m.fixed_base = m.links[m.root_link].name == "world";
  for (size_t i = 0; i < m.links.size(); ++i) {  // cycle check: walk up from each link
    int steps = 0;
    for (int l = static_cast<int>(i); parent_joint[l] >= 0; l = m.joints[parent_joint[l]].parent)
      if (++steps > static_cast<int>(m.links.size()))
        throw InputError(c.file, m.links[i].line, "link '" + m.links[i].name + "'", "joints form a cycle");
  }
}

/// A body in ODE needs mass. Where a link moved by a joint has none itself or through the links
/// fixed to it, the world builder either welds it (nothing with mass or collision geometry below
/// it: a frame) or gives it a small mass (links with mass below it: a dummy link between two joints),
/// and reports that. What stays an error: a moved link that collides but has no mass at all below
/// it (a forgotten <inertial>), and a robot without any mass.
void checkMasses(const Ctx& c, const RobotModel& m) {
  std::vector<std::vector<int>> children(m.links.size());
  for (const Joint& j : m.joints) children[j.parent].push_back(j.child);
  std::function<std::pair<double, bool>(int)> subtree = [&](int l) {  // mass, has collision geometry
    std::pair<double, bool> r{m.links[l].has_inertial ? m.links[l].inertial.mass_kg : 0.0, !m.links[l].collisions.empty()};
    for (int ch : children[l]) {
      const auto s = subtree(ch);
      r.first += s.first;
      r.second = r.second || s.second;
    }
    return r;
  };
  for (const Joint& j : m.joints) {
    if (!j.movable()) continue;
    const auto [mass, collides] = subtree(j.child);
    if (mass <= 0 && collides)
      throw InputError(c.file, m.links[j.child].line, "link '" + m.links[j.child].name + "'/inertial",
                       "link has no mass but is moved by joint '" + j.name +
                           "' and has collision geometry (add <inertial> with <mass> and <inertia>)");
  }
  if (!m.fixed_base && m.totalMass_kg() <= 0)
    throw InputError(c.file, m.links[m.root_link].line, "link '" + m.links[m.root_link].name + "'/inertial",
                     "the robot has no mass (no link has <inertial> with a <mass> above 0)");
}

/// Unexpanded xacro: <xacro:macro>, <xacro:include>, a macro call, or a ${...} / $(...) expression
/// in an attribute means the file is a xacro source, which gapsim does not expand. Harmless
/// leftovers (the xmlns:xacro declaration, <xacro:property>, <xacro:arg>) are ignored.
void checkXacro(Ctx& c, const XMLElement* e) {
  const std::string n = e->Name();
  const std::string kExpand =
      "this is a xacro source, not a URDF: expand it first (ROS 2: `ros2 run xacro xacro FILE.urdf.xacro > "
      "robot.urdf`; ROS 1: `rosrun xacro xacro ...`) and open the result";
  if (n.rfind("xacro:", 0) == 0) {
    if (n == "xacro:property" || n == "xacro:arg") {
      c.ignore("<" + n + ">");
      return;
    }
    c.fail(e, "<" + n + ">", "unexpanded xacro element: " + kExpand);
  }
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string v = a->Value();
    if (v.find("${") != std::string::npos || v.find("$(") != std::string::npos)
      c.fail(e, "<" + n + ">@" + a->Name(), "unexpanded xacro expression '" + v + "': " + kExpand);
  }
  for (const XMLElement* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement()) checkXacro(c, ch);
}

/// A floating or planar joint from a massless root link (`world`) becomes how the robot's root moves:
/// the link is dropped, the joint's origin is the root's initial pose, a planar joint's axis the normal
/// of the plane the root moves in.
void applyRootJoints(Ctx& c, RobotModel& m) {
  if (c.root_joints.empty()) return;
  const Ctx::RootJoint& r = c.root_joints.front();
  const std::string f = "joint '" + r.name + "'";
  if (c.root_joints.size() > 1)
    throw InputError(c.file, c.root_joints[1].line, "joint '" + c.root_joints[1].name + "'@type",
                     "only one floating or planar joint is allowed (between the root link and the robot)");
  const Link& P = m.links[r.parent];
  bool parent_is_child = false, parent_has_other_children = false;
  for (const Joint& j : m.joints) {
    parent_is_child = parent_is_child || j.child == r.parent;
    parent_has_other_children = parent_has_other_children || j.parent == r.parent;
  }
  if (parent_is_child || parent_has_other_children || P.has_inertial || !P.collisions.empty())
    throw InputError(c.file, r.line, f + "@type",
                     "a " + r.type + " joint must connect a massless root link without geometry (such as 'world') to "
                     "the robot and be its only joint; '" + P.name +
                         "' is not such a link. Inside the robot use revolute, continuous, prismatic or fixed joints");
  for (Joint& j : m.joints) {
    if (j.parent > r.parent) --j.parent;
    if (j.child > r.parent) --j.child;
  }
  m.links.erase(m.links.begin() + r.parent);
  m.initial_root_pose = r.origin;
  if (r.type == "planar") {
    m.planar_base = true;
    m.planar_normal = (r.origin.linear() * r.axis).normalized();
  }
}

int requireLink(const Ctx& c, const XMLElement* e, const RobotModel& m, const std::string& field) {
  std::string name = attrString(c, e, "link", field);
  int idx = m.linkIndex(name);
  if (idx < 0) c.fail(e, field + "@link", "unknown link '" + name + "'");
  return idx;
}

int requireJoint(const Ctx& c, const XMLElement* e, const RobotModel& m, const std::string& field) {
  std::string name = attrString(c, e, "joint", field);
  int idx = m.jointIndex(name);
  if (idx < 0) c.fail(e, field + "@joint", "unknown joint '" + name + "'");
  if (!m.joints[idx].movable()) c.fail(e, field + "@joint", "joint '" + name + "' is fixed");
  return idx;
}

std::vector<std::string> splitNames(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string w; ss >> w;) out.push_back(w);
  return out;
}

/// <drivetrain name="legs/typeA" type="motoflex|dynamixel|dynamixel_voltage|ideal|torque"
///             preset="typeA|typeB (motoflex) | AX-12, AX-18, MX-28, MX-64, MX-106, XL-330 (dynamixel_voltage)"
///             joints="A B ..." dry_friction_Nm="..."> <param name="gear/J_rotor" value="..."/> ...
void parseDrivetrain(Ctx& c, const XMLElement* e, RobotModel& m) {
  const std::string f = "gapsim/drivetrain";
  Drivetrain d;
  d.group = attrString(c, e, "name", f);
  const std::string type = attrString(c, e, "type", f);
  if (type == "motoflex") d.kind = DriveKind::MoToFlex;
  else if (type == "dynamixel") d.kind = DriveKind::Dynamixel;
  else if (type == "dynamixel_voltage") d.kind = DriveKind::DynamixelVoltage;
  else if (type == "ideal") d.kind = DriveKind::Ideal;
  else if (type == "torque") d.kind = DriveKind::Torque;
  else c.fail(e, f + "@type", "expected motoflex, dynamixel, dynamixel_voltage, ideal or torque, got '" + type + "'");
  if (const char* pr = e->Attribute("preset"); pr && d.kind == DriveKind::DynamixelVoltage) {
    try {
      d.voltage_servo = motorgear::DynamixelServoModel::fromPreset(motorgear::dynamixelPreset(pr));
    } catch (const std::invalid_argument& ex) {
      c.fail(e, f + "@preset", ex.what());
    }
  } else if (pr) {
    const std::string p = pr;
    if (d.kind != DriveKind::MoToFlex) c.fail(e, f + "@preset", "presets exist for types motoflex and dynamixel_voltage only");
    if (p == "typeA") d.motoflex = motorgear::JointDrivetrain::Params::typeA();
    else if (p == "typeB") d.motoflex = motorgear::JointDrivetrain::Params::typeB();
    else c.fail(e, f + "@preset", "expected typeA or typeB, got '" + p + "'");
  }
  d.dry_friction_Nm = attrDouble(c, e, "dry_friction_Nm", f, 0.0, plausible::kEffort);
  const std::vector<std::string> joints = splitNames(attrString(c, e, "joints", f));
  std::vector<int> idx;
  for (const std::string& jn : joints) {
    const int j = m.jointIndex(jn);
    if (j < 0) c.fail(e, f + "@joints", "unknown joint '" + jn + "'");
    if (!m.joints[j].movable()) c.fail(e, f + "@joints", "joint '" + jn + "' is fixed");
    if (m.joints[j].mimic.master >= 0)
      c.fail(e, f + "@joints", "joint '" + jn + "' is coupled to '" + m.joints[m.joints[j].mimic.master].name +
                                   "' by <mimic>: its master's drivetrain drives it");
    idx.push_back(j);
  }
  for (int j : idx) {
    // Each joint keeps its own servo settings (used by --plain); the drivetrain replaces the rest.
    m.joints[j].drive = d;
  }
  for (const XMLElement* p = e->FirstChildElement(); p; p = p->NextSiblingElement()) {
    if (std::string(p->Name()) != "param") c.fail(p, f + "/" + p->Name(), "expected <param name value>");
    const std::string leaf = attrString(c, p, "name", f + "/param");
    const double v = attrDouble(c, p, "value", f + "/param[" + leaf + "]");
    setInputParameter(m, d.group + "/" + leaf, v, c.file, p->GetLineNum());
  }
  for (int j : idx) {
    try {
      if (d.kind == DriveKind::MoToFlex) m.joints[j].drive.motoflex.validate();
      if (d.kind == DriveKind::Dynamixel) m.joints[j].drive.dynamixel.validate();
      if (d.kind == DriveKind::DynamixelVoltage) m.joints[j].drive.voltage_servo.validate();
    } catch (const std::invalid_argument& ex) {
      c.fail(e, f, ex.what());
    }
  }
}

/// <soft name="legs/soft" links="LThigh ..." segments="2" D_B_Nm_rad="..." damping_Nms_rad="..."
///       friction_Nm="..."/>
void parseSoft(Ctx& c, const XMLElement* e, RobotModel& m) {
  const std::string f = "gapsim/soft";
  SoftLink s;
  s.group = attrString(c, e, "name", f);
  s.line = e->GetLineNum();
  const double segments = attrDouble(c, e, "segments", f, 2);
  if (!(segments >= 1 && segments <= 16)) c.fail(e, f + "@segments", "must be within 1..16");
  s.segments = static_cast<int>(segments);
  s.D_B_Nm_rad = attrDouble(c, e, "D_B_Nm_rad", f, s.D_B_Nm_rad, plausible::parameterRange("N m/rad"));
  s.damping_Nms_rad = attrDouble(c, e, "damping_Nms_rad", f, s.damping_Nms_rad, plausible::parameterRange("N m s/rad"));
  s.friction_Nm = attrDouble(c, e, "friction_Nm", f, s.friction_Nm, plausible::parameterRange("N m"));
  if (!(s.D_B_Nm_rad > 0) || s.damping_Nms_rad < 0 || s.friction_Nm < 0)
    c.fail(e, f, "D_B_Nm_rad must be > 0, damping_Nms_rad and friction_Nm >= 0");
  for (const std::string& ln : splitNames(attrString(c, e, "links", f))) {
    const int l = m.linkIndex(ln);
    if (l < 0) c.fail(e, f + "@links", "unknown link '" + ln + "'");
    bool moved = false;
    for (const Joint& j : m.joints) {
      if (j.child == l && j.movable()) moved = true;
      if (j.parent == l && !j.movable() && m.links[j.child].has_inertial)
        c.fail(e, f + "@links", "link '" + ln + "' has links with mass fixed to it ('" + m.links[j.child].name +
                                    "'); a soft link must be a single link");
    }
    if (!moved) c.fail(e, f + "@links", "link '" + ln + "' is not moved by a joint; only such links can be soft");
    int children = 0;
    for (const Joint& j : m.joints) children += j.parent == l && j.movable();
    if (children != 1)
      c.fail(e, f + "@links", "link '" + ln + "' needs exactly one movable child joint (it defines the link's length)");
    if (!m.links[l].has_inertial) c.fail(e, f + "@links", "link '" + ln + "' has no mass");
    for (const SoftLink& o : m.soft_links)
      if (o.link == l) c.fail(e, f + "@links", "link '" + ln + "' is already soft");
    s.link = l;
    m.soft_links.push_back(s);
  }
}

/// The plausible range of a component's parameter `leaf` (MABEL leg, compliant ground): its unit's.
/// An unknown leaf gets the backstop; the component's set() names it.
plausible::Range leafRange(const std::vector<motorgear::ParamInfo>& info, const std::string& leaf) {
  for (const auto& i : info)
    if (i.name == leaf) return plausible::parameterRange(i.unit);
  return plausible::kAnyNumber;
}

/// <mabel_leg name="mabel/left" preset="left|right" hip="hip_L" knee="knee_L"
///            kp_mLA kd_mLA kp_mLS kd_mLS> <param name="spring/K_B" value="..."/> ... </mabel_leg>
void parseMabelLeg(Ctx& c, const XMLElement* e, RobotModel& m) {
  const std::string f = "gapsim/mabel_leg";
  MabelLegSpec s;
  s.line = e->GetLineNum();
  s.name = attrString(c, e, "name", f);
  const std::string preset = e->Attribute("preset") ? e->Attribute("preset") : "left";
  if (preset == "left") s.params = motorgear::MabelTransmission::Params::left();
  else if (preset == "right") s.params = motorgear::MabelTransmission::Params::right();
  else c.fail(e, f + "@preset", "expected left or right, got '" + preset + "'");
  for (const char* key : {"hip", "knee"}) {
    const std::string jn = attrString(c, e, key, f);
    const int j = m.jointIndex(jn);
    if (j < 0) c.fail(e, f + "@" + key, "unknown joint '" + jn + "'");
    if (m.joints[j].type == JointType::Fixed || m.joints[j].type == JointType::Prismatic)
      c.fail(e, f + "@" + key, "joint '" + jn + "' must be a hinge");
    if (m.joints[j].drive.kind != DriveKind::Torque)
      c.fail(e, f + "@" + key, "joint '" + jn + "' must be torque-driven (<drivetrain type=\"torque\">) before <mabel_leg>");
    for (const MabelLegSpec& o : m.mabel_legs)
      if (o.hip == j || o.knee == j) c.fail(e, f + "@" + key, "joint '" + jn + "' is already driven by '" + o.name + "'");
    (std::string(key) == "hip" ? s.hip : s.knee) = j;
  }
  s.kp_mLA = attrDouble(c, e, "kp_mLA", f, s.kp_mLA);
  s.kd_mLA = attrDouble(c, e, "kd_mLA", f, s.kd_mLA);
  s.kp_mLS = attrDouble(c, e, "kp_mLS", f, s.kp_mLS);
  s.kd_mLS = attrDouble(c, e, "kd_mLS", f, s.kd_mLS);
  if (!(s.kp_mLA >= 0 && s.kd_mLA >= 0 && s.kp_mLS >= 0 && s.kd_mLS >= 0))
    c.fail(e, f, "kp_mLA, kd_mLA, kp_mLS, kd_mLS must be >= 0");
  for (const XMLElement* p = e->FirstChildElement(); p; p = p->NextSiblingElement()) {
    if (std::string(p->Name()) != "param") c.fail(p, f + "/" + p->Name(), "expected <param name value>");
    const std::string leaf = attrString(c, p, "name", f + "/param");
    const double v = attrDouble(c, p, "value", f + "/param[" + leaf + "]", std::nullopt,
                                leafRange(motorgear::MabelTransmission::Params::paramInfo(), leaf));
    try {
      s.params.set(leaf, v);
    } catch (const std::invalid_argument& ex) {
      c.fail(p, f + "/param[" + leaf + "]", ex.what());
    }
  }
  try {
    s.params.validate();
  } catch (const std::invalid_argument& ex) {
    c.fail(e, f, ex.what());
  }
  m.mabel_legs.push_back(s);
}

/// <compliant_ground name="mabel/ground"> <toe name="LToe" link="shin_L" xyz="0 0 -0.5"/> ...
///   <param name="k" value="..."/> </compliant_ground>
void parseCompliantGround(Ctx& c, const XMLElement* e, RobotModel& m) {
  const std::string f = "gapsim/compliant_ground";
  if (!m.compliant_grounds.empty()) c.fail(e, f, "only one <compliant_ground> per robot");
  CompliantGroundSpec g;
  g.line = e->GetLineNum();
  g.name = attrString(c, e, "name", f);
  for (const XMLElement* p = e->FirstChildElement(); p; p = p->NextSiblingElement()) {
    const std::string pn = p->Name();
    if (pn == "toe") {
      ToePoint t;
      t.name = attrString(c, p, "name", f + "/toe");
      t.link = requireLink(c, p, m, f + "/toe");
      t.point_in_link_m = attrVec3(c, p, "xyz", f + "/toe[" + t.name + "]", Eigen::Vector3d::Zero(), plausible::kPosition_m);
      g.toes.push_back(t);
    } else if (pn == "param") {
      const std::string leaf = attrString(c, p, "name", f + "/param");
      const double v = attrDouble(c, p, "value", f + "/param[" + leaf + "]", std::nullopt,
                                  leafRange(motorgear::CompliantGround::Params::paramInfo(), leaf));
      try {
        g.params.set(leaf, v);
      } catch (const std::invalid_argument& ex) {
        c.fail(p, f + "/param[" + leaf + "]", ex.what());
      }
    } else {
      c.fail(p, f + "/" + pn, "expected <toe name link xyz> or <param name value>");
    }
  }
  if (g.toes.empty()) c.fail(e, f, "needs at least one <toe>");
  try {
    g.params.validate();
  } catch (const std::invalid_argument& ex) {
    c.fail(e, f, ex.what());
  }
  m.compliant_grounds.push_back(g);
}

void parseGapsim(Ctx& c, const XMLElement* g, RobotModel& m) {
  std::vector<const XMLElement*> params;  // applied last, in file order
  for (const XMLElement* e = g->FirstChildElement(); e; e = e->NextSiblingElement()) {
    std::string n = e->Name();
    std::string f = "gapsim/" + n;
    if (n == "source") {
      m.source_text = e->GetText() ? e->GetText() : "";
    } else if (n == "initial_pose") {
      m.initial_root_pose = parsePose(c, e, f);
      // Without an explicit height the robot is put on the ground; with one it is taken as given.
      m.has_ground_clearance = !e->Attribute("xyz");
      if (e->Attribute("ground_clearance_m")) {
        m.has_ground_clearance = true;
        m.ground_clearance_m = attrDouble(c, e, "ground_clearance_m", f, std::nullopt, plausible::kPosition_m);
      }
      for (const XMLElement* j = e->FirstChildElement(); j; j = j->NextSiblingElement()) {
        if (std::string(j->Name()) != "joint") c.fail(j, f + "/" + j->Name(), "expected <joint name value_rad>");
        std::string name = attrString(c, j, "name", f + "/joint");
        int idx = m.jointIndex(name);
        if (idx < 0) c.fail(j, f + "/joint@name", "unknown joint '" + name + "'");
        const char* key = j->Attribute("value_rad") ? "value_rad" : "value_m";
        double v = attrDouble(c, j, key, f + "/joint[" + name + "]", std::nullopt, plausible::kJointPosition);
        const Joint& jt = m.joints[idx];
        if (jt.has_limits && (v < jt.lower - 1e-9 || v > jt.upper + 1e-9))
          c.fail(j, f + "/joint[" + name + "]@" + key,
                 "initial value " + std::to_string(v) + " outside the joint limits [" + std::to_string(jt.lower) +
                     ", " + std::to_string(jt.upper) + "]");
        m.initial_q[idx] = v;
      }
    } else if (n == "solver") {
      SolverSettings& s = m.solver;
      s.dt_s = attrDouble(c, e, "dt_s", f, s.dt_s, plausible::kTimeStep_s);
      if (const char* st = e->Attribute("stepper")) {
        std::string v = st;
        if (v == "quick") s.quickstep = true;
        else if (v == "big") s.quickstep = false;
        else c.fail(e, f + "@stepper", "expected quick or big, got '" + v + "'");
      }
      const double iterations = attrDouble(c, e, "iterations", f, s.iterations);
      if (!(iterations >= 1 && iterations <= 10000)) c.fail(e, f + "@iterations", "must be within 1..10000");
      s.iterations = static_cast<int>(iterations);
      if (e->Attribute("iterations_plain")) {
        const double plain = attrDouble(c, e, "iterations_plain", f, 0.0);
        if (!(plain >= 1 && plain <= 10000) || plain != std::floor(plain))
          c.fail(e, f + "@iterations_plain", "must be a whole number within 1..10000, got " + sixDigits(plain));
        s.plain_iterations = static_cast<int>(plain);
      }
      s.min_inertia_kgm2 = attrDouble(c, e, "min_inertia_kgm2", f, s.min_inertia_kgm2);
      if (!(s.min_inertia_kgm2 >= 0 && s.min_inertia_kgm2 <= 1))
        c.fail(e, f + "@min_inertia_kgm2", "must be within 0..1 kg m^2, got " + sixDigits(s.min_inertia_kgm2));
      if (e->Attribute("min_inertia_plain_kgm2")) {
        const double plain = attrDouble(c, e, "min_inertia_plain_kgm2", f, 0.0);
        if (!(plain >= 0 && plain <= 1))
          c.fail(e, f + "@min_inertia_plain_kgm2", "must be within 0..1 kg m^2, got " + sixDigits(plain));
        s.plain_min_inertia_kgm2 = plain;
      }
      s.weld_mass_ratio = attrDouble(c, e, "weld_mass_ratio", f, s.weld_mass_ratio, plausible::kFraction);
      s.erp = attrDouble(c, e, "erp", f, s.erp, plausible::kFraction);
      s.cfm = attrDouble(c, e, "cfm", f, s.cfm, plausible::kCfm);
      s.gravity_m_s2 = attrVec3(c, e, "gravity_m_s2", f, s.gravity_m_s2, plausible::kAcceleration_m_s2);
    } else if (n == "contact") {
      ContactSettings& s = m.contact;
      s.mu = attrDouble(c, e, "mu", f, s.mu, plausible::kFriction);
      s.soft_erp = attrDouble(c, e, "soft_erp", f, s.soft_erp, plausible::kFraction);
      s.soft_cfm = attrDouble(c, e, "soft_cfm", f, s.soft_cfm, plausible::kCfm);
      s.slip1 = attrDouble(c, e, "slip1", f, s.slip1, plausible::kCfm);
      s.slip2 = attrDouble(c, e, "slip2", f, s.slip2, plausible::kCfm);
      const double max_contacts = attrDouble(c, e, "max_contacts", f, s.max_contacts);
      if (!(max_contacts >= 1 && max_contacts <= 64)) c.fail(e, f + "@max_contacts", "must be within 1..64");
      s.max_contacts = static_cast<int>(max_contacts);
      s.surface_layer_m = attrDouble(c, e, "surface_layer_m", f, s.surface_layer_m, plausible::kLength_m);
      s.self_collision = attrBool(c, e, "self_collision", f, s.self_collision);

    } else if (n == "ground") {
      std::string t = attrString(c, e, "type", f);
      if (t == "plane") m.ground_plane = true;
      else if (t == "none") m.ground_plane = false;
      else c.fail(e, f + "@type", "expected plane or none, got '" + t + "'");
    } else if (n == "sensors") {
      for (const XMLElement* s = e->FirstChildElement(); s; s = s->NextSiblingElement()) {
        std::string sn = s->Name();
        std::string fs = f + "/" + sn;
        if (sn == "imu") {
          ImuSpec imu{attrString(c, s, "name", fs), requireLink(c, s, m, fs)};
          imu.R_link_sensor = rotationFromRpy(attrVec3(c, s, "rpy", fs, Eigen::Vector3d::Zero(), plausible::kAngle_rad));
          m.imus.push_back(std::move(imu));
        } else if (sn == "foot_contact") {
          m.foot_contacts.push_back({attrString(c, s, "name", fs), requireLink(c, s, m, fs)});
          for (std::size_t k = 0; k + 1 < m.foot_contacts.size(); ++k)  // their log columns would clash
            if (m.foot_contacts[k].name == m.foot_contacts.back().name) c.fail(s, fs + "@name", "listed twice");
        } else if (sn == "encoder") {
          double r = attrDouble(c, s, "resolution_rad", fs);
          if (r < 0) c.fail(s, fs + "@resolution_rad", "must be >= 0");
          if (s->Attribute("joint")) {
            m.joints[requireJoint(c, s, m, fs)].encoder_resolution_rad = r;
          } else {
            for (Joint& j : m.joints) j.encoder_resolution_rad = r;
          }
        } else {
          c.fail(s, fs, "unknown sensor <" + sn + "> (imu, encoder, foot_contact)");
        }
      }
    } else if (n == "fall") {
      double deg = attrDouble(c, e, "tilt_deg", f);
      if (deg <= 0 || deg > 180) c.fail(e, f + "@tilt_deg", "must be within (0, 180]");
      m.fall_tilt_rad = deg * kPi / 180.0;
    } else if (n == "divergence") {
      m.max_linear_speed_m_s = attrDouble(c, e, "max_linear_speed_m_s", f, m.max_linear_speed_m_s);
      m.max_angular_speed_rad_s = attrDouble(c, e, "max_angular_speed_rad_s", f, m.max_angular_speed_rad_s);
    } else if (n == "servo_defaults") {
      double gain = attrDouble(c, e, "gain_1_s", f, 20.0, plausible::kGain_1_s);
      for (Joint& j : m.joints) j.servo.gain_1_s = gain;
      if (e->Attribute("fmax_Nm")) {
        double fm = attrDouble(c, e, "fmax_Nm", f, std::nullopt, plausible::kEffort);
        for (Joint& j : m.joints)
          if (j.effort <= 0) j.servo.fmax_Nm = fm;
      }
    } else if (n == "servo") {
      Joint& j = m.joints[requireJoint(c, e, m, f)];
      j.servo.gain_1_s = attrDouble(c, e, "gain_1_s", f, j.servo.gain_1_s, plausible::kGain_1_s);
      j.servo.fmax_Nm = attrDouble(c, e, "fmax_Nm", f, j.servo.fmax_Nm, plausible::kEffort);
      j.servo.max_velocity_rad_s =
          attrDouble(c, e, "max_velocity_rad_s", f, j.servo.max_velocity_rad_s, plausible::kJointSpeed);
      if (j.servo.gain_1_s <= 0 || j.servo.fmax_Nm < 0 || j.servo.max_velocity_rad_s <= 0)
        c.fail(e, f, "gain_1_s and max_velocity_rad_s must be > 0, fmax_Nm >= 0");
    } else if (n == "drivetrain") {
      parseDrivetrain(c, e, m);
    } else if (n == "soft") {
      parseSoft(c, e, m);
    } else if (n == "mabel_leg") {
      parseMabelLeg(c, e, m);
    } else if (n == "compliant_ground") {
      parseCompliantGround(c, e, m);
    } else if (n == "param") {
      params.push_back(e);
    } else {
      c.fail(e, f,
             "unknown element <" + n +
                 "> in <gapsim> (source, initial_pose, solver, contact, ground, sensors, fall, divergence, "
                 "servo_defaults, servo, drivetrain, soft, mabel_leg, compliant_ground, param)");
    }
  }
  for (const XMLElement* p : params) {
    const std::string name = attrString(c, p, "name", "gapsim/param");
    setInputParameter(m, name, attrDouble(c, p, "value", "gapsim/param[" + name + "]"), c.file, p->GetLineNum());
  }
}

}  // namespace

RobotModel parseRobotXml(const std::string& xml_text, const std::string& path) {
  Ctx c;
  c.file = path;
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml_text.c_str(), xml_text.size()) != tinyxml2::XML_SUCCESS)
    throw InputError(path, doc.ErrorLineNum(), "xml", std::string("malformed XML: ") + doc.ErrorStr());
  const XMLElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Name()) != "robot")
    throw InputError(path, robot ? robot->GetLineNum() : 1, "robot", "the root element must be <robot>");
  RobotModel m;
  m.source_file = path;
  m.name = attrString(c, robot, "name", "robot");
  checkXacro(c, robot);

  // Materials, links (joints refer to them by name, in any order), joints, then <gapsim>.
  for (const XMLElement* e = robot->FirstChildElement("material"); e; e = e->NextSiblingElement("material")) {
    const std::string name = attrString(c, e, "name", "material");
    if (const XMLElement* col = e->FirstChildElement("color"))
      c.materials[name] = parseRgba(c, col, "material '" + name + "'/color");
  }
  for (const XMLElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link"))
    parseLink(c, e, m);
  std::vector<std::pair<int, std::string>> mimics;
  for (const XMLElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint"))
    parseJoint(c, e, m, mimics);
  for (auto& [ji, master] : mimics) {
    int mi = m.jointIndex(master);
    if (mi < 0 || mi == ji || !m.joints[mi].movable())
      throw InputError(path, m.joints[ji].line, "joint '" + m.joints[ji].name + "'/mimic@joint",
                       "mimic names '" + master + "', which is not another movable joint");
    if (m.joints[mi].mimic.master >= 0)
      throw InputError(path, m.joints[ji].line, "joint '" + m.joints[ji].name + "'/mimic@joint",
                       "chained mimic joints are not supported");
    m.joints[ji].mimic.master = mi;
  }
  applyRootJoints(c, m);
  checkTree(c, robot, m);
  checkMasses(c, m);

  // Defaults that depend on the joint's own limits.
  m.initial_q.assign(m.joints.size(), 0.0);
  m.has_ground_clearance = true;  // a robot file that says nothing is put on the ground
  m.ground_clearance_m = 0.0005;
  for (size_t i = 0; i < m.joints.size(); ++i) {
    Joint& j = m.joints[i];
    if (j.has_limits) m.initial_q[i] = std::clamp(0.0, j.lower, j.upper);
    if (j.effort > 0) j.servo.fmax_Nm = j.effort;
    if (j.velocity > 0) j.servo.max_velocity_rad_s = j.velocity;
  }

  bool have_gapsim = false;
  for (const XMLElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    std::string n = e->Name();
    if (n == "link" || n == "joint" || n == "material" || n.rfind("xacro:", 0) == 0) continue;  // xacro: checkXacro
    if (n == "gapsim") {
      if (have_gapsim) c.fail(e, "gapsim", "only one <gapsim> element is allowed");
      have_gapsim = true;
      parseGapsim(c, e, m);
    } else {
      c.ignore("<" + n + ">");
    }
  }
  // Mimic joints start where their master puts them.
  for (size_t i = 0; i < m.joints.size(); ++i)
    if (m.joints[i].mimic.master >= 0)
      m.initial_q[i] = m.joints[i].mimic.multiplier * m.initial_q[m.joints[i].mimic.master] + m.joints[i].mimic.offset;

  replaceMissingMeshes(c, m);
  auto list = [&](const std::vector<std::string>& names) {
    std::vector<std::string> still;  // joints a <gapsim> element has not given a drive or servo limit since
    for (const std::string& n : names) {
      const Joint& j = m.joints[m.jointIndex(n)];
      if (j.drive.kind == DriveKind::Ideal) still.push_back(n);
    }
    std::string s;
    for (const auto& n : still) s += (s.empty() ? "" : ", ") + n;
    return std::make_pair(still.size(), s);
  };
  if (auto [n, names] = list(c.zero_effort); n)
    c.warnings.push_back(std::to_string(n) + " joint(s) with effort 0 or none in <limit> (" + names +
                         "): their ideal servos use fmax " + sixDigits(ServoSettings{}.fmax_Nm) +
                         " N m; give the actuator's peak torque in <limit effort>, or <gapsim><servo_defaults fmax_Nm>");
  if (auto [n, names] = list(c.zero_velocity); n)
    c.warnings.push_back(std::to_string(n) + " joint(s) with velocity 0 or none in <limit> (" + names +
                         "): their ideal servos are limited to " + sixDigits(ServoSettings{}.max_velocity_rad_s) +
                         " rad/s; give the no-load speed in <limit velocity>");
  if (!c.unknown_materials.empty()) {
    std::string s;
    for (const auto& n : c.unknown_materials) s += (s.empty() ? "" : ", ") + n;
    c.warnings.push_back("visual materials named but never given a <color> at the top level of <robot> (" + s +
                         "): drawn in the default colours");
  }
  for (auto& [kind, count] : c.ignored)
    c.warnings.push_back("ignored " + std::to_string(count) + " " + kind + " element" + (count > 1 ? "s" : "") +
                         " (not used by gapsim)");
  if (!have_gapsim)
    c.warnings.push_back("no <gapsim> element: ideal position servos on every joint, default solver and contact");
  m.warnings = std::move(c.warnings);
  return m;
}

RobotModel loadRobotFile(const std::string& path) { return parseRobotXml(readTextFile(path), path); }

}  // namespace gapsim
