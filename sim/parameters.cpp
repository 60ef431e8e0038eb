// SPDX-License-Identifier: BSD-3-Clause
#include "sim/parameters.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "sim/input_error.h"
#include "sim/plausible.h"

namespace gapsim {
namespace {

using motorgear::DynamixelServo;
using motorgear::JointDrivetrain;

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0 &&
         s[s.size() - suffix.size() - 1] == '/';
}

/// The leaves a joint's drivetrain offers, with units and meanings.
std::vector<motorgear::ParamInfo> jointLeaves(const Joint& j) {
  std::vector<motorgear::ParamInfo> out;
  switch (j.drive.kind) {
    case DriveKind::MoToFlex:
      out = JointDrivetrain::Params::paramInfo();
      out.push_back({"friction/dry", "N m", "dry joint friction (ODE joint motor FMax)"});
      break;
    case DriveKind::Dynamixel:
      for (auto i : DynamixelServo::Params::paramInfo()) {
        i.name = "servo/" + i.name;
        out.push_back(i);
      }
      break;
    case DriveKind::DynamixelVoltage:
      for (auto i : motorgear::DynamixelServoModel::paramInfo()) {
        i.name = "servo/" + i.name;
        out.push_back(i);
      }
      break;
    case DriveKind::Ideal:
      out.push_back({"servo/gain", "1/s", "ideal servo: commanded speed per position error"});
      out.push_back({"servo/fmax", "N m", "ideal servo: joint motor force limit"});
      out.push_back({"servo/max_velocity", "rad/s", "ideal servo: commanded speed limit"});
      break;
    case DriveKind::Torque:
      out.push_back({"friction/dry", "N m", "dry joint friction (ODE joint motor FMax)"});
      break;
  }
  return out;
}

double getJoint(const Joint& j, const std::string& leaf) {
  if (leaf == "friction/dry") return j.drive.dry_friction_Nm;
  if (leaf == "servo/gain") return j.servo.gain_1_s;
  if (leaf == "servo/fmax") return j.servo.fmax_Nm;
  if (leaf == "servo/max_velocity") return j.servo.max_velocity_rad_s;
  if (j.drive.kind == DriveKind::Dynamixel) return j.drive.dynamixel.get(leaf.substr(6));
  if (j.drive.kind == DriveKind::DynamixelVoltage) return j.drive.voltage_servo.get(leaf.substr(6));
  return j.drive.motoflex.get(leaf);
}

void setJoint(Joint& j, const std::string& leaf, double v) {
  if (leaf == "friction/dry") {
    if (!(v >= 0)) throw std::invalid_argument("dry friction must be >= 0 N m");
    j.drive.dry_friction_Nm = v;
  } else if (leaf == "servo/gain") {
    if (!(v > 0)) throw std::invalid_argument("gain must be > 0");
    j.servo.gain_1_s = v;
  } else if (leaf == "servo/fmax") {
    if (!(v >= 0)) throw std::invalid_argument("fmax must be >= 0");
    j.servo.fmax_Nm = v;
  } else if (leaf == "servo/max_velocity") {
    if (!(v > 0)) throw std::invalid_argument("max_velocity must be > 0");
    j.servo.max_velocity_rad_s = v;
  } else if (j.drive.kind == DriveKind::Dynamixel) {
    j.drive.dynamixel.set(leaf.substr(6), v);
    j.drive.dynamixel.validate();
  } else if (j.drive.kind == DriveKind::DynamixelVoltage) {
    j.drive.voltage_servo.set(leaf.substr(6), v);
    j.drive.voltage_servo.validate();
  } else {
    j.drive.motoflex.set(leaf, v);
    j.drive.motoflex.validate();
  }
}

const std::vector<motorgear::ParamInfo>& softLeaves() {
  static const std::vector<motorgear::ParamInfo> leaves = {
      {"D_B", "N m/rad", "spring between segments, per axis (MoToFlex T_B = -D_B alpha)"},
      {"damping", "N m s/rad", "damping between segments, per axis"},
      {"friction", "N m", "dry friction between segments (0 = none)"},
      {"segments", "-", "number of rigid segments"}};
  return leaves;
}

double getSoft(const SoftLink& s, const std::string& leaf) {
  if (leaf == "D_B") return s.D_B_Nm_rad;
  if (leaf == "damping") return s.damping_Nms_rad;
  if (leaf == "friction") return s.friction_Nm;
  return s.segments;
}

void setSoft(SoftLink& s, const std::string& leaf, double v) {
  if (leaf == "segments") {
    if (!(v >= 1 && v <= 16 && v == std::floor(v))) throw std::invalid_argument("segments must be an integer in 1..16");
    s.segments = static_cast<int>(v);
    return;
  }
  if (!(v >= 0) || !std::isfinite(v)) throw std::invalid_argument(leaf + " must be finite and >= 0");
  if (leaf == "D_B") {
    if (!(v > 0)) throw std::invalid_argument("D_B must be > 0 N m/rad");
    s.D_B_Nm_rad = v;
  } else if (leaf == "damping") {
    s.damping_Nms_rad = v;
  } else {
    s.friction_Nm = v;
  }
}

/// Rigid-body leaves of a link with an inertial: link/<name>/<leaf>.
const std::vector<motorgear::ParamInfo>& linkLeaves() {
  static const std::vector<motorgear::ParamInfo> leaves = {
      {"mass", "kg", "link mass (the inertia tensor is scaled with it: same radius of gyration)"},
      {"com_x", "m", "centre of mass x in the link frame"},
      {"com_y", "m", "centre of mass y in the link frame"},
      {"com_z", "m", "centre of mass z in the link frame"}};
  return leaves;
}

double getLink(const Link& l, const std::string& leaf) {
  if (leaf == "mass") return l.inertial.mass_kg;
  const Eigen::Vector3d c = l.inertial.origin.translation();
  return leaf == "com_x" ? c.x() : leaf == "com_y" ? c.y() : c.z();
}

void setLink(Link& l, const std::string& leaf, double v) {
  if (!std::isfinite(v)) throw std::invalid_argument(leaf + " must be finite");
  if (leaf == "mass") {
    if (!(v > 0)) throw std::invalid_argument("mass must be > 0 kg");
    // Scaling the tensor with the mass keeps the body's shape (radius of gyration): added mass
    // (cables, battery) spread like the body's own.
    l.inertial.inertia_kgm2 *= v / l.inertial.mass_kg;
    l.inertial.mass_kg = v;
    return;
  }
  const int axis = leaf == "com_x" ? 0 : leaf == "com_y" ? 1 : 2;
  l.inertial.origin.translation()[axis] = v;
}

/// link/<name>/<leaf> of a link with an inertial: true and applied, false if `name` is not of that
/// form (InputError for a link/ name that names no such link or leaf).
bool setLinkParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  if (name.rfind("link/", 0) != 0) return false;
  const std::size_t slash = name.rfind('/');
  const std::string link = name.substr(5, slash > 5 ? slash - 5 : 0), leaf = name.substr(slash + 1);
  bool leaf_ok = false;
  for (const auto& l : linkLeaves()) leaf_ok |= l.name == leaf;
  const int li = m.linkIndex(link);
  if (!leaf_ok || li < 0 || !m.links[static_cast<std::size_t>(li)].has_inertial)
    throw InputError(file, line, name,
                     "unknown parameter for robot '" + m.name +
                         "': link parameters are link/<link with an inertial>/{mass,com_x,com_y,com_z}");
  try {
    setLink(m.links[static_cast<std::size_t>(li)], leaf, value);
  } catch (const std::invalid_argument& e) {
    throw InputError(file, line, name, std::string("invalid value ") + std::to_string(value) + ": " + e.what());
  }
  return true;
}

/// scene/<box>/{x,y,z}: the centre of a static scene box (world, m). True and applied, false if
/// `name` is not of that form (InputError for a scene/ name that names no box or leaf).
bool setSceneParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  if (name.rfind("scene/", 0) != 0) return false;
  const std::size_t slash = name.rfind('/');
  const std::string box = name.substr(6, slash > 6 ? slash - 6 : 0), leaf = name.substr(slash + 1);
  const int axis = leaf == "x" ? 0 : leaf == "y" ? 1 : leaf == "z" ? 2 : -1;
  for (SceneBox& b : m.scene_boxes)
    if (b.name == box && axis >= 0) {
      if (!std::isfinite(value)) throw InputError(file, line, name, "not a finite position");
      b.pose.translation()[axis] = value;
      return true;
    }
  throw InputError(file, line, name,
                   "unknown parameter for robot '" + m.name + "': scene parameters are scene/<box>/{x,y,z}");
}

/// contact/mu: the Coulomb friction coefficient of every contact (robot with ground and scene
/// boxes: feet on the floor, back on a wall). True and applied, false if `name` is not contact/...
bool setContactParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  if (name.rfind("contact/", 0) != 0) return false;
  if (name != "contact/mu")
    throw InputError(file, line, name, "unknown parameter for robot '" + m.name + "': contact parameters are contact/mu");
  if (!(value >= 0) || !std::isfinite(value))
    throw InputError(file, line, name, "invalid value " + std::to_string(value) + ": mu must be finite and >= 0");
  m.contact.mu = value;
  return true;
}

/// solver/iterations: QuickStep's iterations per step, a whole number from 1 to 10000;
/// solver/min_inertia: the inertia floor (kg m^2, SolverSettings::min_inertia_kgm2), 0..1;
/// solver/min_inertia_plain: the floor of plain runs (SolverSettings::plain_min_inertia_kgm2), 0..1;
/// solver/iterations_plain: QuickStep's iterations of plain runs (SolverSettings::plain_iterations).
/// True and applied, false if `name` is not solver/...
bool setSolverParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  if (name.rfind("solver/", 0) != 0) return false;
  if (name == "solver/min_inertia") {
    if (!(value >= 0 && value <= 1))
      throw InputError(file, line, name, "invalid value " + sixDigits(value) + ": the inertia floor must be within 0..1 kg m^2");
    m.solver.min_inertia_kgm2 = value;
    return true;
  }
  if (name == "solver/min_inertia_plain") {
    if (!(value >= 0 && value <= 1))
      throw InputError(file, line, name, "invalid value " + sixDigits(value) + ": the inertia floor must be within 0..1 kg m^2");
    m.solver.plain_min_inertia_kgm2 = value;
    return true;
  }
  if (name != "solver/iterations" && name != "solver/iterations_plain")
    throw InputError(file, line, name, "unknown parameter for robot '" + m.name +
                                           "': solver parameters are solver/iterations, solver/iterations_plain, "
                                           "solver/min_inertia, solver/min_inertia_plain");
  if (!(value >= 1 && value <= 10000) || value != std::floor(value))
    throw InputError(file, line, name, "invalid value " + sixDigits(value) + ": iterations must be a whole number from 1 to 10000");
  if (name == "solver/iterations") m.solver.iterations = static_cast<int>(value);
  else m.solver.plain_iterations = static_cast<int>(value);
  return true;
}

/// <mabel_leg name>/<MabelTransmission leaf> (e.g. mabel/left/spring/K_B) and <compliant_ground
/// name>/<CompliantGround leaf> (e.g. mabel/ground/k). True and applied, false if `name` names
/// no MABEL leg or ground; InputError for an unknown leaf or an invalid value (model unchanged).
bool setMabelParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  auto apply = [&](auto& params, const std::string& prefix) {
    if (name.size() <= prefix.size() + 1 || name.compare(0, prefix.size(), prefix) != 0 || name[prefix.size()] != '/')
      return false;
    auto copy = params;
    try {
      copy.set(name.substr(prefix.size() + 1), value);
      copy.validate();
    } catch (const std::invalid_argument& e) {
      throw InputError(file, line, name, std::string("invalid value ") + std::to_string(value) + ": " + e.what());
    }
    params = copy;
    return true;
  };
  for (MabelLegSpec& l : m.mabel_legs)
    if (apply(l.params, l.name)) return true;
  for (CompliantGroundSpec& g : m.compliant_grounds)
    if (apply(g.params, g.name)) return true;
  return false;
}

/// The unit of the parameter `name` addresses (the first match, as setParameter finds them), or
/// nothing for a name setParameter would not know.
std::optional<std::string> parameterUnit(const RobotModel& m, const std::string& name) {
  auto leafUnit = [](const std::vector<motorgear::ParamInfo>& info, const std::string& leaf) -> std::optional<std::string> {
    for (const auto& i : info)
      if (i.name == leaf) return i.unit;
    return std::nullopt;
  };
  if (name.rfind("link/", 0) == 0) return leafUnit(linkLeaves(), name.substr(name.rfind('/') + 1));
  if (name.rfind("scene/", 0) == 0) return std::string("m");
  if (name.rfind("contact/", 0) == 0 || name.rfind("solver/", 0) == 0) return std::string("-");
  auto under = [&](const std::string& prefix) {
    return name.size() > prefix.size() + 1 && name.compare(0, prefix.size(), prefix) == 0 && name[prefix.size()] == '/';
  };
  for (const MabelLegSpec& l : m.mabel_legs)
    if (under(l.name)) return leafUnit(motorgear::MabelTransmission::Params::paramInfo(), name.substr(l.name.size() + 1));
  for (const CompliantGroundSpec& g : m.compliant_grounds)
    if (under(g.name)) return leafUnit(motorgear::CompliantGround::Params::paramInfo(), name.substr(g.name.size() + 1));
  for (const Joint& j : m.joints) {
    if (!j.movable() || j.mimic.master >= 0) continue;
    for (const auto& leaf : jointLeaves(j)) {
      if (!endsWith(name, leaf.name)) continue;
      const std::string prefix = name.substr(0, name.size() - leaf.name.size() - 1);
      if (prefix == j.name || prefix == "*" || (!j.drive.group.empty() && prefix == j.drive.group)) return leaf.unit;
    }
  }
  for (const SoftLink& sl : m.soft_links)
    for (const auto& leaf : softLeaves()) {
      if (!endsWith(name, leaf.name)) continue;
      const std::string prefix = name.substr(0, name.size() - leaf.name.size() - 1);
      if (prefix == m.links[sl.link].name + "/soft" || prefix == "*/soft" || (!sl.group.empty() && prefix == sl.group))
        return leaf.unit;
    }
  return std::nullopt;
}

}  // namespace

void checkParameterValue(const RobotModel& m, const std::string& name, double value, const std::string& file, int line,
                         const std::string& what) {
  if (const auto unit = parameterUnit(m, name)) plausible::check(value, plausible::parameterRange(*unit), file, line, name, what);
}

void setInputParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  checkParameterValue(m, name, value, file, line);
  setParameter(m, name, value, file, line);
}

std::vector<ParameterEntry> listParameters(const RobotModel& m) {
  std::vector<ParameterEntry> out;
  std::set<std::string> groups_done;
  for (const Joint& j : m.joints) {
    if (!j.movable() || j.mimic.master >= 0 || j.drive.group.empty() || groups_done.count(j.drive.group)) continue;
    groups_done.insert(j.drive.group);
    for (const auto& leaf : jointLeaves(j))
      out.push_back({j.drive.group + "/" + leaf.name, getJoint(j, leaf.name), leaf.unit, leaf.description});
  }
  for (const SoftLink& s : m.soft_links) {
    if (s.group.empty() || groups_done.count(s.group)) continue;
    groups_done.insert(s.group);
    for (const auto& leaf : softLeaves()) out.push_back({s.group + "/" + leaf.name, getSoft(s, leaf.name), leaf.unit, leaf.description});
  }
  for (const Joint& j : m.joints) {
    if (!j.movable() || j.mimic.master >= 0) continue;
    for (const auto& leaf : jointLeaves(j))
      out.push_back({j.name + "/" + leaf.name, getJoint(j, leaf.name), leaf.unit, leaf.description});
  }
  for (const SoftLink& s : m.soft_links)
    for (const auto& leaf : softLeaves())
      out.push_back({m.links[s.link].name + "/soft/" + leaf.name, getSoft(s, leaf.name), leaf.unit, leaf.description});
  for (const Link& l : m.links) {
    if (!l.has_inertial) continue;
    for (const auto& leaf : linkLeaves())
      out.push_back({"link/" + l.name + "/" + leaf.name, getLink(l, leaf.name), leaf.unit, leaf.description});
  }
  for (const MabelLegSpec& l : m.mabel_legs)
    for (const auto& leaf : motorgear::MabelTransmission::Params::paramInfo())
      out.push_back({l.name + "/" + leaf.name, l.params.get(leaf.name), leaf.unit, leaf.description});
  for (const CompliantGroundSpec& g : m.compliant_grounds)
    for (const auto& leaf : motorgear::CompliantGround::Params::paramInfo())
      out.push_back({g.name + "/" + leaf.name, g.params.get(leaf.name), leaf.unit, leaf.description});
  out.push_back({"contact/mu", m.contact.mu, "-", "Coulomb friction coefficient of every contact (ground, scene boxes)"});
  out.push_back({"solver/iterations", static_cast<double>(m.solver.iterations), "-",
                 "QuickStep iterations per step"});
  if (m.solver.plain_iterations)
    out.push_back({"solver/iterations_plain", static_cast<double>(*m.solver.plain_iterations), "-",
                   "QuickStep iterations per step of plain runs (--plain: ideal servos, rigid links)"});
  out.push_back({"solver/min_inertia", m.solver.min_inertia_kgm2, "kg*m^2",
                 "floor on every body's principal moments of inertia (docs/solver.md)"});
  if (m.solver.plain_min_inertia_kgm2)
    out.push_back({"solver/min_inertia_plain", *m.solver.plain_min_inertia_kgm2, "kg*m^2",
                   "the inertia floor of plain runs (--plain: ideal servos, rigid links; docs/solver.md)"});
  for (const SceneBox& b : m.scene_boxes)
    for (int a = 0; a < 3; ++a)
      out.push_back({"scene/" + b.name + "/" + "xyz"[a], b.pose.translation()[a], "m",
                     "centre of the static scene box (world)"});
  return out;
}

void setParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  if (setLinkParameter(m, name, value, file, line) || setSceneParameter(m, name, value, file, line) ||
      setContactParameter(m, name, value, file, line) || setSolverParameter(m, name, value, file, line) ||
      setMabelParameter(m, name, value, file, line))
    return;
  int hits = 0;
  // All or nothing: a value that fails validation on any joint leaves the model unchanged.
  const std::vector<Joint> joints_before = m.joints;
  const std::vector<SoftLink> soft_before = m.soft_links;
  try {
    for (Joint& j : m.joints) {
      if (!j.movable() || j.mimic.master >= 0) continue;
      for (const auto& leaf : jointLeaves(j)) {
        if (!endsWith(name, leaf.name)) continue;
        const std::string prefix = name.substr(0, name.size() - leaf.name.size() - 1);
        if (prefix == j.name || prefix == "*" || (!j.drive.group.empty() && prefix == j.drive.group)) {
          setJoint(j, leaf.name, value);
          ++hits;
        }
      }
    }
    for (SoftLink& s : m.soft_links) {
      for (const auto& leaf : softLeaves()) {
        if (!endsWith(name, leaf.name)) continue;
        const std::string prefix = name.substr(0, name.size() - leaf.name.size() - 1);
        if (prefix == m.links[s.link].name + "/soft" || prefix == "*/soft" || (!s.group.empty() && prefix == s.group)) {
          setSoft(s, leaf.name, value);
          ++hits;
        }
      }
    }
  } catch (const std::invalid_argument& e) {
    m.joints = joints_before;
    m.soft_links = soft_before;
    throw InputError(file, line, name, std::string("invalid value ") + std::to_string(value) + ": " + e.what());
  }
  if (hits == 0)
    throw InputError(file, line, name,
                     "unknown parameter for robot '" + m.name + "' (`gapsim-cli params " + m.name + "` lists them)");
}

void setParameterAssignment(RobotModel& m, const std::string& a) {
  const size_t eq = a.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError("", 0, "--set", "expected name=value, got '" + a + "'");
  const std::string name = a.substr(0, eq), text = a.substr(eq + 1);
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
    throw InputError("", 0, name, "not a finite number: '" + text + "'");
  setInputParameter(m, name, v);
}

void loadParameterFile(RobotModel& model, const std::string& path) {
  RobotModel m = model;  // all or nothing: a bad line leaves the model as it was
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open parameter file");
  std::string line;
  int n = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) {
      while (!c.empty() && c.front() == ' ') c.erase(c.begin());
      while (!c.empty() && c.back() == ' ') c.pop_back();
      cells.push_back(c);
    }
    if (!header) {
      if (cells.size() < 2 || cells[0] != "name" || cells[1] != "value")
        throw InputError(path, n, "header", "a parameter file starts with the header 'name,value'");
      header = true;
      continue;
    }
    if (cells.size() < 2) throw InputError(path, n, "value", "expected name,value");
    double v = 0;
    const std::string& t = cells[1];
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v))
      throw InputError(path, n, cells[0], "not a finite number: '" + t + "'");
    setInputParameter(m, cells[0], v, path, n);
  }
  if (!header)
    throw InputError(path, 1, "header", "empty parameter file: no header row name,value (only blank or comment lines)");
  model = std::move(m);
}

void writeParameterFile(const RobotModel& m, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError(path, 0, "", "cannot write parameter file");
  out << "name,value\n";
  char buf[64];
  for (const auto& e : listParameters(m)) {
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, e.value);
    out << e.name << ',' << std::string(buf, p) << '\n';
  }
  if (!out) throw InputError(path, 0, "", "writing the parameter file failed");
}

void makePlain(RobotModel& m) {
  for (Joint& j : m.joints) j.drive.kind = DriveKind::Ideal;
  m.soft_links.clear();
  if (m.solver.plain_min_inertia_kgm2) m.solver.min_inertia_kgm2 = *m.solver.plain_min_inertia_kgm2;
  if (m.solver.plain_iterations) m.solver.iterations = *m.solver.plain_iterations;
}

}  // namespace gapsim
