// SPDX-License-Identifier: BSD-3-Clause
#include "sim/param_tree.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "motorgear/mabel_ground.h"
#include "motorgear/mabel_transmission.h"
#include "sim/closest_name.h"
#include "sim/drive_kinds.h"
#include "sim/input_error.h"
#include "sim/plausible.h"

namespace gapsim {
namespace {

using motorgear::Field;
using motorgear::ParamInfo;

void require(bool ok, const std::string& rule) {
  if (!ok) throw std::invalid_argument(rule);
}

// ---- field tables of the model's own structs ------------------------------------------------

/// The joint's own leaf beside its drive's and its ideal servo's (servo/...): the dry friction of
/// the ODE joint motor, for the kinds that use it (sim/drive_kinds.h).
constexpr Field<Joint> kJointFields[]{
    {"friction/dry", "N m", "dry joint friction (ODE joint motor FMax)",
     [](const Joint& j) { return j.drive.dry_friction_Nm; },
     [](Joint& j, double v) {
       require(v >= 0, "dry friction must be >= 0 N m");
       j.drive.dry_friction_Nm = v;
     }},
};

constexpr Field<SoftLink> kSoftFields[]{
    {"D_B", "N m/rad", "spring between segments, per axis (MoToFlex T_B = -D_B alpha)",
     [](const SoftLink& s) { return s.D_B_Nm_rad; },
     [](SoftLink& s, double v) {
       require(std::isfinite(v) && v > 0, "D_B must be > 0 N m/rad");
       s.D_B_Nm_rad = v;
     }},
    {"damping", "N m s/rad", "damping between segments, per axis", [](const SoftLink& s) { return s.damping_Nms_rad; },
     [](SoftLink& s, double v) {
       require(std::isfinite(v) && v >= 0, "damping must be finite and >= 0");
       s.damping_Nms_rad = v;
     }},
    {"friction", "N m", "dry friction between segments (0 = none)", [](const SoftLink& s) { return s.friction_Nm; },
     [](SoftLink& s, double v) {
       require(std::isfinite(v) && v >= 0, "friction must be finite and >= 0");
       s.friction_Nm = v;
     }},
    {"segments", "-", "number of rigid segments", [](const SoftLink& s) { return static_cast<double>(s.segments); },
     [](SoftLink& s, double v) { s.segments = motorgear::toInt(v, 1, 16, "segments"); }},
};

constexpr Field<Link> kLinkFields[]{
    {"mass", "kg", "link mass (the inertia tensor is scaled with it: same radius of gyration)",
     [](const Link& l) { return l.inertial.mass_kg; },
     [](Link& l, double v) {
       require(std::isfinite(v) && v > 0, "mass must be > 0 kg");
       // Scaling the tensor with the mass keeps the body's shape (radius of gyration): added
       // mass (cables, battery) spread like the body's own.
       l.inertial.inertia_kgm2 *= v / l.inertial.mass_kg;
       l.inertial.mass_kg = v;
     }},
    {"com_x", "m", "centre of mass x in the link frame",
     [](const Link& l) { return l.inertial.origin.translation().x(); },
     [](Link& l, double v) {
       require(std::isfinite(v), "com_x must be finite");
       l.inertial.origin.translation().x() = v;
     }},
    {"com_y", "m", "centre of mass y in the link frame",
     [](const Link& l) { return l.inertial.origin.translation().y(); },
     [](Link& l, double v) {
       require(std::isfinite(v), "com_y must be finite");
       l.inertial.origin.translation().y() = v;
     }},
    {"com_z", "m", "centre of mass z in the link frame",
     [](const Link& l) { return l.inertial.origin.translation().z(); },
     [](Link& l, double v) {
       require(std::isfinite(v), "com_z must be finite");
       l.inertial.origin.translation().z() = v;
     }},
};

constexpr Field<ContactSettings> kContactFields[]{
    {"mu", "-", "Coulomb friction coefficient of every contact (ground, scene boxes)",
     [](const ContactSettings& c) { return c.mu; },
     [](ContactSettings& c, double v) {
       require(std::isfinite(v) && v >= 0, "mu must be finite and >= 0");
       c.mu = v;
     }},
};

int wholeIterations(double v) {
  require(v >= 1 && v <= 10000 && v == std::floor(v), "iterations must be a whole number from 1 to 10000");
  return static_cast<int>(v);
}

double sorFactor(double v) {
  require(v >= plausible::kSorW.lo && v <= plausible::kSorW.hi,
          "the over-relaxation factor must be within 0.01..1.99 (SOR converges for 0 < w < 2)");
  return v;
}

double inertiaFloor(double v) {
  require(v >= 0 && v <= 1, "the inertia floor must be within 0..1 kg m^2");
  return v;
}

/// The solver's leaves. The two plain-run options are listed only when the file states them
/// (unset means "as the full pipeline"), so they come in two tables.
constexpr Field<SolverSettings> kSolverFields[]{
    {"iterations", "-", "QuickStep iterations per step",
     [](const SolverSettings& s) { return static_cast<double>(s.iterations); },
     [](SolverSettings& s, double v) { s.iterations = wholeIterations(v); }},
    {"min_inertia", "kg*m^2", "floor on every body's principal moments of inertia (docs/solver.md)",
     [](const SolverSettings& s) { return s.min_inertia_kgm2; },
     [](SolverSettings& s, double v) { s.min_inertia_kgm2 = inertiaFloor(v); }},
    {"sor_w", "-", "QuickStep's over-relaxation factor (docs/solver.md)",
     [](const SolverSettings& s) { return s.sor_w; }, [](SolverSettings& s, double v) { s.sor_w = sorFactor(v); }},
};
constexpr Field<SolverSettings> kSolverPlainFields[]{
    {"iterations_plain", "-", "QuickStep iterations per step of plain runs (--plain: ideal servos, rigid links)",
     [](const SolverSettings& s) { return static_cast<double>(s.plain_iterations.value_or(s.iterations)); },
     [](SolverSettings& s, double v) { s.plain_iterations = wholeIterations(v); }},
    {"min_inertia_plain", "kg*m^2",
     "the inertia floor of plain runs (--plain: ideal servos, rigid links; docs/solver.md)",
     [](const SolverSettings& s) { return s.plain_min_inertia_kgm2.value_or(s.min_inertia_kgm2); },
     [](SolverSettings& s, double v) { s.plain_min_inertia_kgm2 = inertiaFloor(v); }},
    {"sor_w_plain", "-", "QuickStep's over-relaxation factor of plain runs (--plain: ideal servos, rigid links)",
     [](const SolverSettings& s) { return s.plain_sor_w.value_or(s.sor_w); },
     [](SolverSettings& s, double v) { s.plain_sor_w = sorFactor(v); }},
};

constexpr Field<SceneBox> kSceneFields[]{
    {"x", "m", "centre of the static scene box (world)", [](const SceneBox& b) { return b.pose.translation().x(); },
     [](SceneBox& b, double v) {
       require(std::isfinite(v), "not a finite position");
       b.pose.translation().x() = v;
     }},
    {"y", "m", "centre of the static scene box (world)", [](const SceneBox& b) { return b.pose.translation().y(); },
     [](SceneBox& b, double v) {
       require(std::isfinite(v), "not a finite position");
       b.pose.translation().y() = v;
     }},
    {"z", "m", "centre of the static scene box (world)", [](const SceneBox& b) { return b.pose.translation().z(); },
     [](SceneBox& b, double v) {
       require(std::isfinite(v), "not a finite position");
       b.pose.translation().z() = v;
     }},
};

template <class P, std::size_t N>
std::vector<ParamInfo> infoOf(const Field<P> (&table)[N]) {
  return motorgear::fieldInfo<P>(table);
}

template <class P, std::size_t N>
const Field<P>* fieldOf(const Field<P> (&table)[N], const std::string& leaf) {
  for (const Field<P>& f : table)
    if (f.name == leaf) return &f;
  return nullptr;
}

// ---- joints ---------------------------------------------------------------------------------

/// The leaves a joint's drive offers, with units and meanings: the drive's own, then the
/// joint's settings its kind uses (sim/drive_kinds.h).
std::vector<ParamInfo> jointLeaves(const Joint& j) {
  std::vector<ParamInfo> out = driveLeaves(j.drive);
  const DriveKindInfo& kind = driveKindInfo(j.drive.kind);
  if (kind.dry_friction) out.push_back(infoOf(kJointFields)[0]);
  if (kind.ideal_servo) {
    const std::vector<ParamInfo> servo = servoLeaves(motorgear::IdealServo::Params::paramInfo());
    out.insert(out.end(), servo.begin(), servo.end());
  }
  return out;
}

bool hasLeaf(const std::vector<ParamInfo>& leaves, const std::string& leaf) {
  return std::any_of(leaves.begin(), leaves.end(), [&](const ParamInfo& i) { return i.name == leaf; });
}

/// The joint's ideal-servo leaves when its drive is another kind: not listed, but settable, since
/// the ideal servo is what a plain run (--plain, makePlain) drives the joint with, and the
/// settings are applied to the file's model before it is made plain.
std::vector<ParamInfo> unlistedJointLeaves(const Joint& j) {
  if (driveKindInfo(j.drive.kind).ideal_servo) return {};
  const std::vector<ParamInfo> drive = driveLeaves(j.drive);
  std::vector<ParamInfo> out;
  for (const ParamInfo& i : servoLeaves(motorgear::IdealServo::Params::paramInfo()))
    if (!hasLeaf(drive, i.name)) out.push_back(i);
  return out;
}

/// Every leaf of the joint that can be set: its listed and its unlisted ones.
std::vector<ParamInfo> settableJointLeaves(const Joint& j) {
  std::vector<ParamInfo> out = jointLeaves(j);
  for (ParamInfo& i : unlistedJointLeaves(j)) out.push_back(std::move(i));
  return out;
}

/// Whether `leaf` is one of the joint's ideal-servo leaves (not a servo law's of the drive).
bool idealServoLeaf(const Joint& j, const std::string& leaf) {
  return leaf.starts_with(kServoLeafPrefix) && !hasLeaf(driveLeaves(j.drive), leaf);
}

double getJoint(const Joint& j, const std::string& leaf) {
  if (const Field<Joint>* f = fieldOf(kJointFields, leaf)) return f->get(j);
  if (idealServoLeaf(j, leaf)) return j.servo.get(servoParamName(leaf));
  return driveLeaf(j.drive, leaf);
}

/// Sets and validates one joint's leaf; the joint is unchanged when the value is refused.
void setJoint(Joint& j, const std::string& leaf, double v) {
  Joint copy = j;
  if (const Field<Joint>* f = fieldOf(kJointFields, leaf)) {
    f->set(copy, v);
  } else if (idealServoLeaf(j, leaf)) {
    copy.servo.set(servoParamName(leaf), v);
    copy.servo.validate();
  } else {
    setDriveLeaf(copy.drive, leaf, v);
  }
  j = std::move(copy);
}

bool addressable(const Joint& j) { return j.movable() && j.mimic.master < 0; }

/// A subtree over the joints `members` with the leaves `listed` and `unlisted`: the leaf goes to
/// every member that has it, validated on copies first so that a refused value changes none.
ParamSubtree jointSubtree(std::string prefix, std::vector<int> members, std::vector<ParamInfo> listed,
                          std::vector<ParamInfo> unlisted) {
  ParamSubtree t;
  t.prefix = std::move(prefix);
  t.leaves = std::move(listed);
  t.unlisted = std::move(unlisted);
  t.get = [members](const RobotModel& m, const std::string& leaf) {
    for (int ji : members)
      if (hasLeaf(settableJointLeaves(m.joints[ji]), leaf)) return getJoint(m.joints[ji], leaf);
    throw std::invalid_argument("no joint of the subtree has " + leaf);
  };
  t.set = [members](RobotModel& m, const std::string& leaf, double v) {
    std::vector<Joint> changed;
    for (int ji : members)
      if (hasLeaf(settableJointLeaves(m.joints[ji]), leaf)) {
        changed.push_back(m.joints[ji]);
        setJoint(changed.back(), leaf, v);
      }
    std::size_t k = 0;
    for (int ji : members)
      if (hasLeaf(settableJointLeaves(m.joints[ji]), leaf)) m.joints[ji] = std::move(changed[k++]);
  };
  return t;
}

/// The subtree of one joint or one drivetrain group, listed as its first joint's leaves.
ParamSubtree jointSubtree(std::string prefix, std::vector<int> members, const Joint& first) {
  return jointSubtree(std::move(prefix), std::move(members), jointLeaves(first), unlistedJointLeaves(first));
}

/// Drivetrain groups in order of first appearance, each with its members.
std::vector<std::pair<std::string, std::vector<int>>> jointGroups(const RobotModel& m) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (int ji = 0; ji < static_cast<int>(m.joints.size()); ++ji) {
    const Joint& j = m.joints[ji];
    if (!addressable(j) || j.drive.group.empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == j.drive.group; });
    if (it == groups.end())
      groups.push_back({j.drive.group, {ji}});
    else
      it->second.push_back(ji);
  }
  return groups;
}

// ---- soft links ----------------------------------------------------------------------------

ParamSubtree softSubtree(std::string prefix, std::vector<int> members, bool listed) {
  ParamSubtree t;
  t.prefix = std::move(prefix);
  (listed ? t.leaves : t.unlisted) = infoOf(kSoftFields);
  t.get = [members](const RobotModel& m, const std::string& leaf) {
    return fieldOf(kSoftFields, leaf)->get(m.soft_links[members.front()]);
  };
  t.set = [members](RobotModel& m, const std::string& leaf, double v) {
    const Field<SoftLink>* f = fieldOf(kSoftFields, leaf);
    std::vector<SoftLink> changed;
    for (int si : members) {
      changed.push_back(m.soft_links[si]);
      f->set(changed.back(), v);
    }
    for (std::size_t k = 0; k < members.size(); ++k) m.soft_links[members[k]] = changed[k];
  };
  return t;
}

std::vector<std::pair<std::string, std::vector<int>>> softGroups(const RobotModel& m) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (int si = 0; si < static_cast<int>(m.soft_links.size()); ++si) {
    const std::string& g = m.soft_links[si].group;
    if (g.empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == g; });
    if (it == groups.end())
      groups.push_back({g, {si}});
    else
      it->second.push_back(si);
  }
  return groups;
}

// ---- single objects: links, world settings, boxes, MABEL ------------------------------------

/// A subtree over one object of the model, reached by `object` (a generic lambda from the model,
/// const or not, to the object), with the leaves of `table`; each leaf's set checks its value.
template <class P, std::size_t N, class Object>
ParamSubtree tableSubtree(std::string prefix, const Field<P> (&table)[N], Object object, std::string family = "",
                          std::string family_form = "") {
  ParamSubtree t;
  t.prefix = std::move(prefix);
  t.leaves = infoOf(table);
  t.get = [&table, object](const RobotModel& m, const std::string& leaf) {
    return fieldOf(table, leaf)->get(object(m));
  };
  t.set = [&table, object](RobotModel& m, const std::string& leaf, double v) {
    P copy = object(m);  // a refused value leaves the object as it was
    fieldOf(table, leaf)->set(copy, v);
    object(m) = std::move(copy);
  };
  t.family = std::move(family);
  t.family_form = std::move(family_form);
  return t;
}

/// A subtree over a motorgear Params value of the model (a MABEL leg's transmission, a
/// compliant ground), through its own get/set/validate.
template <class Params, class Object>
ParamSubtree paramsSubtree(std::string prefix, Object object) {
  ParamSubtree t;
  t.prefix = std::move(prefix);
  t.leaves = Params::paramInfo();
  t.get = [object](const RobotModel& m, const std::string& leaf) { return object(m).get(leaf); };
  t.set = [object](RobotModel& m, const std::string& leaf, double v) {
    Params copy = object(m);
    copy.set(leaf, v);
    copy.validate();
    object(m) = std::move(copy);
  };
  return t;
}

void addJoints(const RobotModel& m, std::vector<ParamSubtree>& tree) {
  for (auto& [group, members] : jointGroups(m)) {
    const int first = members.front();
    tree.push_back(jointSubtree(group, std::move(members), m.joints[first]));
  }
  for (const auto& [group, members] : softGroups(m)) tree.push_back(softSubtree(group, members, true));
  for (int ji = 0; ji < static_cast<int>(m.joints.size()); ++ji)
    if (addressable(m.joints[ji])) tree.push_back(jointSubtree(m.joints[ji].name, {ji}, m.joints[ji]));
  for (int si = 0; si < static_cast<int>(m.soft_links.size()); ++si)
    tree.push_back(softSubtree(m.links[m.soft_links[si].link].name + "/soft", {si}, true));
}

void addLinksAndMabel(const RobotModel& m, std::vector<ParamSubtree>& tree) {
  const std::string link_form = "link/<link with an inertial>/{mass,com_x,com_y,com_z}";
  for (std::size_t li = 0; li < m.links.size(); ++li)
    if (m.links[li].has_inertial)
      tree.push_back(tableSubtree(
          "link/" + m.links[li].name, kLinkFields, [li](auto& r) -> auto& { return r.links[li]; }, "link", link_form));
  for (std::size_t i = 0; i < m.mabel_legs.size(); ++i)
    tree.push_back(paramsSubtree<motorgear::MabelTransmission::Params>(
        m.mabel_legs[i].name, [i](auto& r) -> auto& { return r.mabel_legs[i].params; }));
  for (std::size_t i = 0; i < m.compliant_grounds.size(); ++i)
    tree.push_back(paramsSubtree<motorgear::CompliantGround::Params>(
        m.compliant_grounds[i].name, [i](auto& r) -> auto& { return r.compliant_grounds[i].params; }));
}

void addWorld(const RobotModel& m, std::vector<ParamSubtree>& tree) {
  tree.push_back(tableSubtree(
      "contact", kContactFields, [](auto& r) -> auto& { return r.contact; }, "contact", "contact/mu"));
  auto solver = [](auto& r) -> auto& { return r.solver; };
  ParamSubtree s = tableSubtree("solver", kSolverFields, solver, "solver",
                                "solver/{iterations,iterations_plain,min_inertia,min_inertia_plain,sor_w,sor_w_plain}");
  // The plain-run options are listed where the file states them, and settable everywhere.
  const std::vector<ParamInfo> plain = infoOf(kSolverPlainFields);
  s.leaves = {s.leaves[0]};
  (m.solver.plain_iterations ? s.leaves : s.unlisted).push_back(plain[0]);
  s.leaves.push_back(infoOf(kSolverFields)[1]);
  (m.solver.plain_min_inertia_kgm2 ? s.leaves : s.unlisted).push_back(plain[1]);
  s.leaves.push_back(infoOf(kSolverFields)[2]);
  (m.solver.plain_sor_w ? s.leaves : s.unlisted).push_back(plain[2]);
  s.get = [](const RobotModel& r, const std::string& leaf) {
    const Field<SolverSettings>* f = fieldOf(kSolverFields, leaf);
    return (f ? f : fieldOf(kSolverPlainFields, leaf))->get(r.solver);
  };
  s.set = [](RobotModel& r, const std::string& leaf, double v) {
    const Field<SolverSettings>* f = fieldOf(kSolverFields, leaf);
    SolverSettings copy = r.solver;
    (f ? f : fieldOf(kSolverPlainFields, leaf))->set(copy, v);
    r.solver = copy;
  };
  tree.push_back(std::move(s));
  for (std::size_t b = 0; b < m.scene_boxes.size(); ++b)
    tree.push_back(tableSubtree(
        "scene/" + m.scene_boxes[b].name, kSceneFields, [b](auto& r) -> auto& { return r.scene_boxes[b]; }, "scene",
        "scene/<box>/{x,y,z}"));
}

/// reality/<name>: the drive and IMU reality effects the model carries (sim/reality_effects.h),
/// listed where they differ from "off" and settable everywhere, within realityScalars()' ranges.
void addReality(const RobotModel& m, std::vector<ParamSubtree>& tree) {
  ParamSubtree t;
  t.prefix = "reality";
  t.family = "reality";
  const RealityEffects off;
  std::string names;
  for (const RealityScalar& r : realityScalars()) {
    if (!r.model_parameter) continue;
    names += std::string(names.empty() ? "" : ",") + r.name;
    (m.reality.*r.field != off.*r.field ? t.leaves : t.unlisted).push_back({r.name, r.unit, r.meaning});
  }
  t.family_form = "reality/{" + names + "}";
  auto scalar = [](const std::string& leaf) -> const RealityScalar& {
    for (const RealityScalar& r : realityScalars())
      if (leaf == r.name) return r;
    throw std::invalid_argument("no reality effect " + leaf);
  };
  t.get = [scalar](const RobotModel& r, const std::string& leaf) { return r.reality.*scalar(leaf).field; };
  t.set = [scalar](RobotModel& r, const std::string& leaf, double v) {
    const RealityScalar& s = scalar(leaf);
    require(v >= s.lo && v <= s.hi,
            std::string(s.name) + " must be within [" + sixDigits(s.lo) + ", " + sixDigits(s.hi) + "] " + s.unit);
    r.reality.*s.field = v;
  };
  tree.push_back(std::move(t));
}

/// `*` and `*/soft`: every joint (soft link) that has the leaf. Not listed: they repeat names.
void addWildcards(const RobotModel& m, std::vector<ParamSubtree>& tree) {
  std::vector<int> joints;
  std::vector<ParamInfo> leaves;
  for (int ji = 0; ji < static_cast<int>(m.joints.size()); ++ji) {
    if (!addressable(m.joints[ji])) continue;
    joints.push_back(ji);
    for (const ParamInfo& i : settableJointLeaves(m.joints[ji]))
      if (!hasLeaf(leaves, i.name)) leaves.push_back(i);
  }
  if (!joints.empty()) tree.push_back(jointSubtree("*", std::move(joints), {}, std::move(leaves)));
  std::vector<int> soft(m.soft_links.size());
  for (std::size_t si = 0; si < soft.size(); ++si) soft[si] = static_cast<int>(si);
  if (!soft.empty()) tree.push_back(softSubtree("*/soft", std::move(soft), false));
}

}  // namespace

std::vector<ParamSubtree> parameterTree(const RobotModel& m) {
  std::vector<ParamSubtree> tree;
  addJoints(m, tree);
  addLinksAndMabel(m, tree);
  addWorld(m, tree);
  addReality(m, tree);
  addWildcards(m, tree);
  return tree;
}

std::vector<ParamMatch> findParameter(const std::vector<ParamSubtree>& tree, const std::string& name) {
  std::vector<ParamMatch> out;
  for (const ParamSubtree& t : tree) {
    const std::string& p = t.prefix;
    if (name.size() <= p.size() + 1 || name.compare(0, p.size(), p) != 0 || name[p.size()] != '/') continue;
    const std::string leaf = name.substr(p.size() + 1);
    for (const auto* leaves : {&t.leaves, &t.unlisted})
      for (const ParamInfo& i : *leaves)
        if (i.name == leaf) out.push_back({&t, &i});
  }
  return out;
}

std::string unknownParameterMessage(const std::vector<ParamSubtree>& tree, const std::string& name,
                                    const RobotModel& model) {
  std::string msg = "unknown parameter for robot '" + model.name + "'";
  const std::string first = name.substr(0, name.find('/'));
  for (const ParamSubtree& t : tree)
    if (!t.family.empty() && t.family == first) {
      msg += ": " + t.family + " parameters are " + t.family_form;
      break;
    }
  std::vector<std::string> names;  // listed and settable-only alike: an option that is off is a name too
  for (const ParamSubtree& t : tree)
    for (const auto* leaves : {&t.leaves, &t.unlisted})
      for (const ParamInfo& i : *leaves) names.push_back(t.prefix + "/" + i.name);
  const std::string closest = closestName(name, names);
  if (!closest.empty()) msg += "; did you mean '" + closest + "'?";
  // The file is what the command accepts; a model built in memory has only its name.
  const std::string robot = model.source_file.empty() ? model.name : model.source_file;
  return msg + " (`gapsim-cli params " + robot + "` lists them)";
}

}  // namespace gapsim
