// SPDX-License-Identifier: BSD-3-Clause
#include "sim/urdf_parser.h"

#include <tinyxml2.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>

#include "sim/closest_name.h"
#include "sim/drive_kinds.h"
#include "sim/gapsim_elements.h"
#include "sim/input_error.h"
#include "sim/mesh.h"
#include "sim/parameters.h"
#include "sim/plausible.h"
#include "sim/text_file.h"

namespace gapsim {
namespace {

using tinyxml2::XMLElement;

/// Parse context: the file name for messages, and the warnings collected so far, counted per kind
/// so that a URDF with 40 <transmission> tags gives one line, not 40.
struct Ctx {
  std::string file;
  std::map<std::string, int> ignored;  // "<gazebo>" -> count
  std::vector<std::string> warnings;
  std::map<std::string, Eigen::Vector4d> materials;      // robot-level <material name><color rgba>
  std::set<std::string> missing_meshes;                  // URIs that resolve to no file
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
  std::vector<const XMLElement*> gapsim_params;  // <gapsim><param>, applied after the rest of <gapsim>

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
                  std::optional<double> fallback = std::nullopt,
                  const plausible::Range& range = plausible::kAnyNumber) {
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
  return (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
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
      l.inertial.mass_kg = attrDouble(c, mass, "value", f + "/inertial/mass", std::nullopt,
                                      plausible::Range{0, plausible::kMass_kg.hi, "kg"});
      if (l.inertial.mass_kg > 0)
        c.check(mass, f + "/inertial/mass@value", l.inertial.mass_kg, plausible::kMass_kg);
      else
        l.has_inertial = false;
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
        c.fail(in, fi,
               "inertia is not positive semi-definite (principal moments " + sixDigits(ev(0)) + ", " +
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
    c.warnings.push_back(std::to_string(c.missing_meshes.size()) + " mesh file" +
                         (c.missing_meshes.size() > 1 ? "s" : "") + " not found (" + names(c.missing_meshes) +
                         "): those links collide and draw as the box of equal inertia (" + std::to_string(replaced) +
                         " boxes, " + std::to_string(dropped) +
                         " meshes of massless links or repeated on a link dropped). package:// URIs are looked up in "
                         "ROS_PACKAGE_PATH, AMENT_PREFIX_PATH and the directories above the robot file");
  if (!c.unreadable_meshes.empty()) {
    std::vector<std::string> why;
    for (const auto& [uri, msg] : c.unreadable_meshes) why.push_back(msg);
    c.warnings.push_back(std::to_string(c.unreadable_meshes.size()) +
                         " mesh file(s) could not be read, replaced like missing ones: " + names(why));
  }
}

/// The joint's <limit>: effort and speed, and for revolute and prismatic joints the range (URDF
/// requires <limit> there); a joint without effort or speed is remembered for the warning.
void parseJointLimit(Ctx& c, const XMLElement* e, const std::string& f, const std::string& type, Joint& j) {
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
           "a " + type +
               " joint needs <limit lower=\"..\" upper=\"..\" effort=\"..\" velocity=\"..\"/> (URDF requires "
               "it)" +
               (type == "revolute" ? std::string("; a joint that turns without end is type=\"continuous\"") : ""));
  }
}

/// The joint's <dynamics> and <mimic> (the mimicked joint is resolved once all joints are read),
/// and the children a URDF joint may have that gapsim does not use.
void parseJointExtras(Ctx& c, const XMLElement* e, const std::string& f, int index, Joint& j,
                      std::vector<std::pair<int, std::string>>& mimics) {
  if (const XMLElement* d = e->FirstChildElement("dynamics")) {
    j.damping_Nms_rad = attrDouble(c, d, "damping", f + "/dynamics", 0.0);
    j.friction_Nm = attrDouble(c, d, "friction", f + "/dynamics", 0.0);
    if (j.damping_Nms_rad < 0 || j.friction_Nm < 0) c.fail(d, f + "/dynamics", "damping and friction must be >= 0");
  }
  if (const XMLElement* mi = e->FirstChildElement("mimic")) {
    mimics.emplace_back(index, attrString(c, mi, "joint", f + "/mimic"));
    j.mimic.multiplier = attrDouble(c, mi, "multiplier", f + "/mimic", 1.0, plausible::kMimicFactor);
    j.mimic.offset = attrDouble(c, mi, "offset", f + "/mimic", 0.0, plausible::kJointPosition);
  }
  for (const XMLElement* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
    std::string n = ch->Name();
    static const std::set<std::string> known = {
        "parent", "child", "origin", "axis", "limit", "dynamics", "mimic", "safety_controller", "calibration"};
    if (!known.count(n)) c.ignore("<joint>/<" + n + ">");
  }
}

void parseJoint(Ctx& c, const XMLElement* e, RobotModel& m, std::vector<std::pair<int, std::string>>& mimics) {
  Joint j;
  j.line = e->GetLineNum();
  j.name = attrString(c, e, "name", "joint");
  std::string f = "joint '" + j.name + "'";
  if (m.jointIndex(j.name) >= 0) c.fail(e, f + "@name", "duplicate joint name");
  std::string type = attrString(c, e, "type", f);
  if (const std::optional<JointType> t = parseJointType(type))
    j.type = *t;
  else if (type != "floating" && type != "planar")
    c.fail(e, f + "@type",
           "unknown joint type '" + type + "' (revolute, continuous, prismatic, fixed, floating, planar)");

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
  parseJointLimit(c, e, f, type, j);
  parseJointExtras(c, e, f, static_cast<int>(m.joints.size()), j, mimics);
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
    c.fail(robot, "robot",
           "expected exactly one root link, found " + std::to_string(roots.size()) +
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
    std::pair<double, bool> r{m.links[l].has_inertial ? m.links[l].inertial.mass_kg : 0.0,
                              !m.links[l].collisions.empty()};
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
                     "a " + r.type +
                         " joint must connect a massless root link without geometry (such as 'world') to "
                         "the robot and be its only joint; '" +
                         P.name +
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

// --- <gapsim> ---------------------------------------------------------------------------------
// What each element may hold, with units and ranges, is stated once in sim/gapsim_elements.cpp;
// a Reader reads one element against its row there, and each element has one small handler.

template <class T>
std::vector<std::string> namesOf(const std::vector<T>& items) {
  std::vector<std::string> out;
  for (const T& i : items) out.push_back(i.name);
  return out;
}

/// One element under <gapsim> read against its row of the table (sim/gapsim_elements.h): the
/// attributes it may carry with their ranges, and its children. Asking for an attribute the table
/// does not list is a bug of the parser (std::logic_error), not of the file.
class Reader {
 public:
  Reader(const Ctx& c, const XMLElement* e, const GapsimElement& spec, std::string field)
      : c_(&c), e_(e), spec_(&spec), field_(std::move(field)) {}

  const XMLElement* element() const { return e_; }
  const std::string& field() const { return field_; }
  [[noreturn]] void fail(const std::string& what) const { c_->fail(e_, field_, what); }
  [[noreturn]] void fail(const std::string& attribute, const std::string& what) const {
    c_->fail(e_, field_ + "@" + attribute, what);
  }

  bool has(const char* name) const {
    attribute(name);
    return e_->Attribute(name) != nullptr;
  }
  /// A non-empty text attribute; it must be present.
  std::string text(const char* name) const {
    const GapsimAttribute& a = attribute(name);
    const char* t = e_->Attribute(name);
    if (!t || !*t) missing(a);
    return t;
  }
  /// A number in the table's range (or `range`, for a parameter whose unit decides it).
  double number(const char* name, std::optional<double> fallback = std::nullopt,
                const plausible::Range* range = nullptr) const {
    const GapsimAttribute& a = attribute(name);
    const auto v = attrNumbers(*c_, e_, name, field_, 1, range ? *range : a.range);
    if (!v) {
      if (!fallback) missing(a);
      return *fallback;
    }
    if (a.non_negative && (*v)[0] < 0) fail(name, gapsimValueText((*v)[0]) + " is negative; accepted: " + a.accepted());
    return (*v)[0];
  }
  int whole(const char* name, std::optional<int> fallback = std::nullopt) const {
    const double v = number(name, fallback ? std::optional<double>(*fallback) : std::nullopt);
    if (v != std::floor(v))
      fail(name, gapsimValueText(v) + " is not a whole number; accepted: " + attribute(name).accepted());
    return static_cast<int>(v);
  }
  Eigen::Vector3d vec3(const char* name, std::optional<Eigen::Vector3d> fallback = std::nullopt) const {
    const GapsimAttribute& a = attribute(name);
    if (auto v = attrNumbers(*c_, e_, name, field_, 3, a.range)) return {(*v)[0], (*v)[1], (*v)[2]};
    if (!fallback) missing(a);
    return *fallback;
  }
  bool flag(const char* name, bool fallback) const {
    attribute(name);
    return attrBool(*c_, e_, name, field_, fallback);
  }
  std::string choice(const char* name, std::optional<std::string> fallback = std::nullopt) const {
    const GapsimAttribute& a = attribute(name);
    const char* t = e_->Attribute(name);
    if (!t) {
      if (!fallback) missing(a);
      return *fallback;
    }
    for (const std::string& ch : a.choices)
      if (ch == t) return ch;
    fail(name, "expected " + a.accepted() + ", got '" + t + "'");
  }

  /// The reader of child element `p`; an element the table does not list is refused.
  Reader child(const XMLElement* p) const {
    const std::string n = p->Name();
    if (const GapsimElement* s = spec_->child(n)) return Reader(*c_, p, *s, field_ + "/" + n);
    std::string what = "unknown element <" + n + "> in <" + spec_->name + ">";
    if (spec_->children.empty()) c_->fail(p, field_ + "/" + n, what + ", which has no child elements");
    if (const std::string s = closestName(n, namesOf(spec_->children)); !s.empty())
      what += " (did you mean <" + s + ">?)";
    c_->fail(p, field_ + "/" + n, what + "; allowed: " + spec_->childNames());
  }
  /// This element with "[key]" in its field: a <param> or <joint> named by its name attribute.
  Reader at(const std::string& key) const { return Reader(*c_, e_, *spec_, field_ + "[" + key + "]"); }

  /// Refuses the attributes the table does not list for this element.
  void checkAttributes() const {
    for (const tinyxml2::XMLAttribute* a = e_->FirstAttribute(); a; a = a->Next()) {
      if (spec_->attribute(a->Name())) continue;
      std::string what = "unknown attribute of <" + spec_->name + ">";
      if (const std::string s = closestName(a->Name(), namesOf(spec_->attributes)); !s.empty())
        what += " (did you mean '" + s + "'?)";
      what += spec_->attributes.empty() ? "; it takes none" : "; allowed: " + spec_->attributeNames();
      fail(a->Name(), what);
    }
  }
  /// Refuses attributes and child elements, at any depth, that the table does not list.
  void check() const {
    checkAttributes();
    for (const XMLElement* p = e_->FirstChildElement(); p; p = p->NextSiblingElement()) child(p).check();
  }

 private:
  const GapsimAttribute& attribute(const char* name) const {
    if (const GapsimAttribute* a = spec_->attribute(name)) return *a;
    throw std::logic_error("sim/gapsim_elements.cpp lists no attribute '" + std::string(name) + "' of <" + spec_->name +
                           ">");
  }
  [[noreturn]] void missing(const GapsimAttribute& a) const {
    fail(a.name, "missing attribute (" + a.doc + (a.kind == AttributeKind::Text ? "" : "; " + a.accepted()) + ")");
  }

  const Ctx* c_;
  const XMLElement* e_;
  const GapsimElement* spec_;
  std::string field_;
};

int requireLink(const Reader& r, const RobotModel& m) {
  const std::string name = r.text("link");
  const int idx = m.linkIndex(name);
  if (idx < 0) r.fail("link", "unknown link '" + name + "'");
  return idx;
}

int requireJoint(const Reader& r, const RobotModel& m) {
  const std::string name = r.text("joint");
  const int idx = m.jointIndex(name);
  if (idx < 0) r.fail("joint", "unknown joint '" + name + "'");
  if (!m.joints[idx].movable()) r.fail("joint", "joint '" + name + "' is fixed");
  return idx;
}

std::vector<std::string> splitNames(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string w; ss >> w;) out.push_back(w);
  return out;
}

void parseSource(Ctx&, const Reader& r, RobotModel& m) {
  m.source_text = r.element()->GetText() ? r.element()->GetText() : "";
}

/// <joint name value_rad|value_m> in <initial_pose>.
void parseInitialJoint(const Reader& r, RobotModel& m) {
  const std::string name = r.text("name");
  const int idx = m.jointIndex(name);
  if (idx < 0) r.fail("name", "unknown joint '" + name + "'");
  const Reader j = r.at(name);
  if (j.has("value_rad") && j.has("value_m")) j.fail("value_m", "give value_rad or value_m, not both");
  if (!j.has("value_rad") && !j.has("value_m"))
    j.fail("value_rad", "missing attribute (value_m for a prismatic joint)");
  const char* key = j.has("value_rad") ? "value_rad" : "value_m";
  const double v = j.number(key);
  const Joint& jt = m.joints[idx];
  if (jt.has_limits && (v < jt.lower - 1e-9 || v > jt.upper + 1e-9))
    j.fail(key, "initial value " + gapsimValueText(v) + " outside the joint limits [" + gapsimValueText(jt.lower) +
                    ", " + gapsimValueText(jt.upper) + "]");
  m.initial_q[idx] = v;
}

void parseInitialPose(Ctx&, const Reader& r, RobotModel& m) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translation() = r.vec3("xyz", Eigen::Vector3d::Zero());
  T.linear() = rotationFromRpy(r.vec3("rpy", Eigen::Vector3d::Zero()));
  m.initial_root_pose = T;
  // Without an explicit height the robot is put on the ground; with one it is taken as given.
  m.has_ground_clearance = !r.has("xyz");
  if (r.has("ground_clearance_m")) {
    m.has_ground_clearance = true;
    m.ground_clearance_m = r.number("ground_clearance_m");
  }
  for (const XMLElement* j = r.element()->FirstChildElement(); j; j = j->NextSiblingElement())
    parseInitialJoint(r.child(j), m);
}

void parseSolver(Ctx&, const Reader& r, RobotModel& m) {
  SolverSettings& s = m.solver;
  s.dt_s = r.number("dt_s", s.dt_s);
  if (r.has("stepper")) s.quickstep = r.choice("stepper") == "quick";
  s.iterations = r.whole("iterations", s.iterations);
  if (r.has("iterations_plain")) s.plain_iterations = r.whole("iterations_plain");
  s.min_inertia_kgm2 = r.number("min_inertia_kgm2", s.min_inertia_kgm2);
  if (r.has("min_inertia_plain_kgm2")) s.plain_min_inertia_kgm2 = r.number("min_inertia_plain_kgm2");
  s.sor_w = r.number("sor_w", s.sor_w);
  if (r.has("sor_w_plain")) s.plain_sor_w = r.number("sor_w_plain");
  s.weld_mass_ratio = r.number("weld_mass_ratio", s.weld_mass_ratio);
  s.light_link_mass_ratio = r.number("light_link_mass_ratio", s.light_link_mass_ratio);
  s.erp = r.number("erp", s.erp);
  s.cfm = r.number("cfm", s.cfm);
  s.gravity_m_s2 = r.vec3("gravity_m_s2", s.gravity_m_s2);
}

void parseContact(Ctx&, const Reader& r, RobotModel& m) {
  ContactSettings& s = m.contact;
  s.mu = r.number("mu", s.mu);
  s.soft_erp = r.number("soft_erp", s.soft_erp);
  s.soft_cfm = r.number("soft_cfm", s.soft_cfm);
  s.slip1 = r.number("slip1", s.slip1);
  s.slip2 = r.number("slip2", s.slip2);
  s.max_contacts = r.whole("max_contacts", s.max_contacts);
  s.surface_layer_m = r.number("surface_layer_m", s.surface_layer_m);
  s.self_collision = r.flag("self_collision", s.self_collision);
}

void parseGround(Ctx&, const Reader& r, RobotModel& m) { m.ground_plane = r.choice("type") == "plane"; }

void parseImu(const Reader& r, RobotModel& m) {
  ImuSpec imu{r.text("name"), requireLink(r, m)};
  imu.R_link_sensor = rotationFromRpy(r.vec3("rpy", Eigen::Vector3d::Zero()));
  m.imus.push_back(std::move(imu));
}

void parseFootContact(const Reader& r, RobotModel& m) {
  m.foot_contacts.push_back({r.text("name"), requireLink(r, m)});
  for (std::size_t k = 0; k + 1 < m.foot_contacts.size(); ++k)  // their log columns would clash
    if (m.foot_contacts[k].name == m.foot_contacts.back().name)
      r.fail("name", "'" + m.foot_contacts.back().name + "' listed twice");
}

void parseEncoder(const Reader& r, RobotModel& m) {
  const double resolution = r.number("resolution_rad");
  if (r.has("joint")) {
    m.joints[requireJoint(r, m)].encoder_resolution_rad = resolution;
  } else {
    for (Joint& j : m.joints) j.encoder_resolution_rad = resolution;
  }
}

void parseSensors(Ctx&, const Reader& r, RobotModel& m) {
  for (const XMLElement* p = r.element()->FirstChildElement(); p; p = p->NextSiblingElement()) {
    const Reader s = r.child(p);
    const std::string n = p->Name();
    if (n == "imu")
      parseImu(s, m);
    else if (n == "foot_contact")
      parseFootContact(s, m);
    else
      parseEncoder(s, m);  // the table allows no other child
  }
}

void parseFall(Ctx&, const Reader& r, RobotModel& m) {
  m.fall_tilt_rad = r.number("tilt_deg") * std::numbers::pi / 180.0;
}

void parseDivergence(Ctx&, const Reader& r, RobotModel& m) {
  m.max_linear_speed_m_s = r.number("max_linear_speed_m_s", m.max_linear_speed_m_s);
  m.max_angular_speed_rad_s = r.number("max_angular_speed_rad_s", m.max_angular_speed_rad_s);
}

void parseServoDefaults(Ctx&, const Reader& r, RobotModel& m) {
  const double gain = r.number("gain_1_s", motorgear::IdealServo::Params{}.gain_1_s);
  for (Joint& j : m.joints) j.servo.gain_1_s = gain;
  if (r.has("fmax_Nm")) {
    const double fm = r.number("fmax_Nm");
    for (Joint& j : m.joints)
      if (j.effort <= 0) j.servo.fmax_Nm = fm;
  }
}

void parseServo(Ctx&, const Reader& r, RobotModel& m) {
  Joint& j = m.joints[requireJoint(r, m)];
  j.servo.gain_1_s = r.number("gain_1_s", j.servo.gain_1_s);
  j.servo.fmax_Nm = r.number("fmax_Nm", j.servo.fmax_Nm);
  j.servo.max_velocity_rad_s = r.number("max_velocity_rad_s", j.servo.max_velocity_rad_s);
}

/// The drive law and its preset parameters, from @type and @preset.
Drivetrain drivetrainOfType(const Reader& r) {
  Drivetrain d;
  d.group = r.text("name");
  // @type is one of driveTypeNames() (the element table's choice), so it has a kind.
  d.kind = *driveKindOfType(r.choice("type"));
  if (!r.has("preset")) return d;
  try {
    applyDrivePreset(d, r.text("preset"));
  } catch (const std::invalid_argument& ex) {
    r.fail("preset", ex.what());
  }
  return d;
}

/// <drivetrain name type preset joints dry_friction_Nm> <param name value/> ... </drivetrain>
void parseDrivetrain(Ctx& c, const Reader& r, RobotModel& m) {
  Drivetrain d = drivetrainOfType(r);
  d.dry_friction_Nm = r.number("dry_friction_Nm", 0.0);
  std::vector<int> idx;
  for (const std::string& jn : splitNames(r.text("joints"))) {
    const int j = m.jointIndex(jn);
    if (j < 0) r.fail("joints", "unknown joint '" + jn + "'");
    if (!m.joints[j].movable()) r.fail("joints", "joint '" + jn + "' is fixed");
    if (m.joints[j].mimic.master >= 0)
      r.fail("joints", "joint '" + jn + "' is coupled to '" + m.joints[m.joints[j].mimic.master].name +
                           "' by <mimic>: its master's drivetrain drives it");
    idx.push_back(j);
  }
  for (int j : idx) {
    // Each joint keeps its own servo settings (used by --plain); the drivetrain replaces the rest.
    m.joints[j].drive = d;
  }
  for (const XMLElement* p = r.element()->FirstChildElement(); p; p = p->NextSiblingElement()) {
    const Reader pr = r.child(p);
    const std::string leaf = pr.text("name");
    setInputParameter(m, d.group + "/" + leaf, pr.at(leaf).number("value"), c.file, p->GetLineNum());
  }
  for (int j : idx) {
    try {
      validateDrive(m.joints[j].drive);
    } catch (const std::invalid_argument& ex) {
      r.fail(ex.what());
    }
  }
}

/// Whether link `l` can be split into segments: moved by a joint, with exactly one movable child
/// joint (its length), nothing with mass fixed to it, and not soft already.
void checkSoftLink(const Reader& r, const RobotModel& m, int l, const std::string& ln) {
  if (l < 0) r.fail("links", "unknown link '" + ln + "'");
  bool moved = false;
  int children = 0;
  for (const Joint& j : m.joints) {
    if (j.child == l && j.movable()) moved = true;
    children += j.parent == l && j.movable();
    if (j.parent == l && !j.movable() && m.links[j.child].has_inertial)
      r.fail("links", "link '" + ln + "' has links with mass fixed to it ('" + m.links[j.child].name +
                          "'); a soft link must be a single link");
  }
  if (!moved) r.fail("links", "link '" + ln + "' is not moved by a joint; only such links can be soft");
  if (children != 1)
    r.fail("links", "link '" + ln + "' needs exactly one movable child joint (it defines the link's length), has " +
                        std::to_string(children));
  if (!m.links[l].has_inertial) r.fail("links", "link '" + ln + "' has no mass");
  for (const SoftLink& o : m.soft_links)
    if (o.link == l) r.fail("links", "link '" + ln + "' is already soft");
}

/// <soft name links segments D_B_Nm_rad damping_Nms_rad friction_Nm/>
void parseSoft(Ctx&, const Reader& r, RobotModel& m) {
  SoftLink s;
  s.group = r.text("name");
  s.line = r.element()->GetLineNum();
  s.segments = r.whole("segments", 2);
  s.D_B_Nm_rad = r.number("D_B_Nm_rad", s.D_B_Nm_rad);
  s.damping_Nms_rad = r.number("damping_Nms_rad", s.damping_Nms_rad);
  s.friction_Nm = r.number("friction_Nm", s.friction_Nm);
  for (const std::string& ln : splitNames(r.text("links"))) {
    const int l = m.linkIndex(ln);
    checkSoftLink(r, m, l, ln);
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

/// A <param name value> child of a component whose Params has paramInfo() and set(leaf, value).
template <class Params>
void setLeafParam(const Reader& pr, Params& params) {
  const std::string leaf = pr.text("name");
  const Reader v = pr.at(leaf);
  const plausible::Range range = leafRange(Params::paramInfo(), leaf);
  const double value = v.number("value", std::nullopt, &range);
  try {
    params.set(leaf, value);
  } catch (const std::invalid_argument& ex) {
    v.fail(ex.what());
  }
}

/// <mabel_leg name preset hip knee kp_mLA kd_mLA kp_mLS kd_mLS> <param name value/> ... </mabel_leg>
void parseMabelLeg(Ctx&, const Reader& r, RobotModel& m) {
  MabelLegSpec s;
  s.line = r.element()->GetLineNum();
  s.name = r.text("name");
  s.params = r.choice("preset", "left") == "left" ? motorgear::MabelTransmission::Params::left()
                                                  : motorgear::MabelTransmission::Params::right();
  for (const char* key : {"hip", "knee"}) {
    const std::string jn = r.text(key);
    const int j = m.jointIndex(jn);
    if (j < 0) r.fail(key, "unknown joint '" + jn + "'");
    if (m.joints[j].type == JointType::Fixed || m.joints[j].type == JointType::Prismatic)
      r.fail(key, "joint '" + jn + "' must be a hinge");
    if (!driveKindInfo(m.joints[j].drive.kind).external_torque)
      r.fail(key, "joint '" + jn + "' must be torque-driven (<drivetrain type=\"torque\">) before <mabel_leg>");
    for (const MabelLegSpec& o : m.mabel_legs)
      if (o.hip == j || o.knee == j) r.fail(key, "joint '" + jn + "' is already driven by '" + o.name + "'");
    (std::string(key) == "hip" ? s.hip : s.knee) = j;
  }
  s.kp_mLA = r.number("kp_mLA", s.kp_mLA);
  s.kd_mLA = r.number("kd_mLA", s.kd_mLA);
  s.kp_mLS = r.number("kp_mLS", s.kp_mLS);
  s.kd_mLS = r.number("kd_mLS", s.kd_mLS);
  for (const XMLElement* p = r.element()->FirstChildElement(); p; p = p->NextSiblingElement())
    setLeafParam(r.child(p), s.params);
  try {
    s.params.validate();
  } catch (const std::invalid_argument& ex) {
    r.fail(ex.what());
  }
  m.mabel_legs.push_back(s);
}

/// <compliant_ground name> <toe name link xyz/> ... <param name value/> ... </compliant_ground>
void parseCompliantGround(Ctx&, const Reader& r, RobotModel& m) {
  if (!m.compliant_grounds.empty()) r.fail("only one <compliant_ground> per robot");
  CompliantGroundSpec g;
  g.line = r.element()->GetLineNum();
  g.name = r.text("name");
  for (const XMLElement* p = r.element()->FirstChildElement(); p; p = p->NextSiblingElement()) {
    const Reader pr = r.child(p);
    if (std::string(p->Name()) == "param") {
      setLeafParam(pr, g.params);
      continue;
    }
    ToePoint t;
    t.name = pr.text("name");
    t.link = requireLink(pr, m);
    t.point_in_link_m = pr.at(t.name).vec3("xyz", Eigen::Vector3d::Zero());
    g.toes.push_back(t);
  }
  if (g.toes.empty()) r.fail("needs at least one <toe>");
  try {
    g.params.validate();
  } catch (const std::invalid_argument& ex) {
    r.fail(ex.what());
  }
  m.compliant_grounds.push_back(g);
}

/// <param name value> applies after the rest of <gapsim>, whatever its place in the file.
void deferParam(Ctx& c, const Reader& r, RobotModel&) { c.gapsim_params.push_back(r.element()); }

void applyParam(const Reader& r, RobotModel& m, const std::string& file) {
  const std::string name = r.text("name");
  setInputParameter(m, name, r.at(name).number("value"), file, r.element()->GetLineNum());
}

using GapsimHandler = void (*)(Ctx&, const Reader&, RobotModel&);

/// One handler per child of <gapsim> in the table of sim/gapsim_elements.cpp (a test checks that
/// the two name the same elements).
constexpr std::pair<std::string_view, GapsimHandler> kGapsimHandlers[] = {
    {"source", parseSource},
    {"initial_pose", parseInitialPose},
    {"solver", parseSolver},
    {"contact", parseContact},
    {"ground", parseGround},
    {"sensors", parseSensors},
    {"fall", parseFall},
    {"divergence", parseDivergence},
    {"servo_defaults", parseServoDefaults},
    {"servo", parseServo},
    {"drivetrain", parseDrivetrain},
    {"soft", parseSoft},
    {"mabel_leg", parseMabelLeg},
    {"compliant_ground", parseCompliantGround},
    {"param", deferParam},
};

GapsimHandler handlerOf(std::string_view element) {
  for (const auto& [name, handler] : kGapsimHandlers)
    if (name == element) return handler;
  throw std::logic_error("sim/urdf_parser.cpp has no handler for <gapsim><" + std::string(element) + ">");
}

void parseGapsim(Ctx& c, const XMLElement* g, RobotModel& m) {
  const Reader root(c, g, gapsimSchema(), "gapsim");
  root.checkAttributes();
  for (const XMLElement* e = g->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const Reader r = root.child(e);  // refuses an element the table does not list
    r.check();
    handlerOf(e->Name())(c, r, m);
  }
  for (const XMLElement* p : c.gapsim_params) applyParam(root.child(p), m, c.file);
}

/// Points each mimic joint at its master; a master that is missing, itself, fixed or a mimic
/// joint is refused.
void resolveMimics(const Ctx& c, RobotModel& m, const std::vector<std::pair<int, std::string>>& mimics) {
  const std::string& path = c.file;
  for (const auto& [ji, master] : mimics) {
    int mi = m.jointIndex(master);
    if (mi < 0 || mi == ji || !m.joints[mi].movable())
      throw InputError(path, m.joints[ji].line, "joint '" + m.joints[ji].name + "'/mimic@joint",
                       "mimic names '" + master + "', which is not another movable joint");
    if (m.joints[mi].mimic.master >= 0)
      throw InputError(path, m.joints[ji].line, "joint '" + m.joints[ji].name + "'/mimic@joint",
                       "chained mimic joints are not supported");
    m.joints[ji].mimic.master = mi;
  }
}

/// The initial pose and servo limits that follow from each joint's own limits.
void applyJointDefaults(RobotModel& m) {
  m.initial_q.assign(m.joints.size(), 0.0);
  m.has_ground_clearance = true;  // a robot file that says nothing is put on the ground
  m.ground_clearance_m = 0.0005;
  for (size_t i = 0; i < m.joints.size(); ++i) {
    Joint& j = m.joints[i];
    if (j.has_limits) m.initial_q[i] = std::clamp(0.0, j.lower, j.upper);
    if (j.effort > 0) j.servo.fmax_Nm = j.effort;
    if (j.velocity > 0) j.servo.max_velocity_rad_s = j.velocity;
  }
}

/// The top-level elements beside links, joints and materials: the one <gapsim>, and a count of the
/// ignored ones. True if there was a <gapsim>.
bool parseExtensions(Ctx& c, const XMLElement* robot, RobotModel& m) {
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
  return have_gapsim;
}

/// The warnings the model carries: joints left with the ideal servo's default limits, colourless
/// materials, ignored elements, no <gapsim>.
void collectWarnings(Ctx& c, RobotModel& m, bool have_gapsim) {
  replaceMissingMeshes(c, m);
  // The joints a <gapsim> element has not given a drive or the servo limit in question since
  // (<servo>, <servo_defaults>); a passive joint (<servo fmax_Nm="0">) needs no speed limit.
  const motorgear::IdealServo::Params defaults;
  auto list = [&](const std::vector<std::string>& names, auto still_default) {
    std::vector<std::string> still;
    for (const std::string& n : names) {
      const Joint& j = m.joints[m.jointIndex(n)];
      if (driveKindInfo(j.drive.kind).ideal_servo && still_default(j.servo)) still.push_back(n);
    }
    std::string s;
    for (const auto& n : still) s += (s.empty() ? "" : ", ") + n;
    return std::make_pair(still.size(), s);
  };
  const auto effort_default = [&](const motorgear::IdealServo::Params& s) { return s.fmax_Nm == defaults.fmax_Nm; };
  const auto velocity_default = [&](const motorgear::IdealServo::Params& s) {
    return s.fmax_Nm != 0 && s.max_velocity_rad_s == defaults.max_velocity_rad_s;
  };
  if (auto [n, names] = list(c.zero_effort, effort_default); n)
    c.warnings.push_back(
        std::to_string(n) + " joint(s) with effort 0 or none in <limit> (" + names + "): their ideal servos use fmax " +
        sixDigits(defaults.fmax_Nm) +
        " N m; give the actuator's peak torque in <limit effort>, or <gapsim><servo_defaults fmax_Nm>");
  if (auto [n, names] = list(c.zero_velocity, velocity_default); n)
    c.warnings.push_back(std::to_string(n) + " joint(s) with velocity 0 or none in <limit> (" + names +
                         "): their ideal servos are limited to " + sixDigits(defaults.max_velocity_rad_s) +
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
}

}  // namespace

std::vector<std::string> gapsimHandledElements() {
  std::vector<std::string> out;
  for (const auto& h : kGapsimHandlers) out.emplace_back(h.first);
  return out;
}

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
  for (const XMLElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link")) parseLink(c, e, m);
  std::vector<std::pair<int, std::string>> mimics;
  for (const XMLElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint"))
    parseJoint(c, e, m, mimics);
  resolveMimics(c, m, mimics);
  applyRootJoints(c, m);
  checkTree(c, robot, m);
  checkMasses(c, m);

  applyJointDefaults(m);

  const bool have_gapsim = parseExtensions(c, robot, m);
  // Mimic joints start where their master puts them.
  for (size_t i = 0; i < m.joints.size(); ++i)
    if (m.joints[i].mimic.master >= 0)
      m.initial_q[i] = m.joints[i].mimic.multiplier * m.initial_q[m.joints[i].mimic.master] + m.joints[i].mimic.offset;

  collectWarnings(c, m, have_gapsim);
  m.warnings = std::move(c.warnings);
  return m;
}

RobotModel loadRobotFile(const std::string& path) { return parseRobotXml(readTextFile(path), path); }

}  // namespace gapsim
