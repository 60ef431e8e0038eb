// SPDX-License-Identifier: BSD-3-Clause
#include "sim/gapsim_elements.h"

#include <charconv>
#include <type_traits>

#include "sim/drive_kinds.h"
#include "sim/text.h"

namespace gapsim {
namespace {

using plausible::Range;

// Ranges of <gapsim> numbers that no other reader shares (the shared ones are in sim/plausible.h).
constexpr Range kIterations{1, 10000, ""};
constexpr Range kMaxContacts{1, 64, ""};  // ODE's contact buffer per geometry pair
constexpr Range kSoftSegments{1, 16, ""};
constexpr Range kInertiaFloor_kgm2{0, 1, "kg m^2"};  // a floor above 1 kg m^2 would rewrite whole robots
constexpr Range kTilt_deg{0, 180, "deg", true};
constexpr Range kEncoderResolution_rad{0, 1e3, "rad"};
constexpr Range kServoSpeed{0, 1e6, "rad/s (m/s for a prismatic joint)", true};
// A divergence bound of 0 or less would end every run in its first step.
constexpr Range kSpeedBound_m_s{0, 1e12, "m/s", true};
constexpr Range kSpeedBound_rad_s{0, 1e12, "rad/s", true};

/// The backstop range (0, or a magnitude neither overflowing nor subnormal) with a unit.
Range anyNumber(const char* unit) { return {plausible::kAnyNumber.lo, plausible::kAnyNumber.hi, unit, false, true}; }

/// The positive half of a component parameter's magnitude range: a spring constant.
Range positive(const Range& r) { return {r.lo, r.hi, r.unit}; }

GapsimAttribute text(const char* name, std::string doc) {
  return {name, AttributeKind::Text, {}, false, {}, std::move(doc)};
}
GapsimAttribute number(const char* name, const Range& r, const char* doc) {
  return {name, AttributeKind::Number, r, false, {}, doc};
}
/// A number of a magnitude range that must not be negative (dampers, frictions, gains).
GapsimAttribute nonNegative(const char* name, const Range& r, const char* doc) {
  return {name, AttributeKind::Number, r, true, {}, doc};
}
GapsimAttribute whole(const char* name, const Range& r, const char* doc) {
  return {name, AttributeKind::Whole, r, false, {}, doc};
}
GapsimAttribute vec3(const char* name, const Range& r, const char* doc) {
  return {name, AttributeKind::Vec3, r, false, {}, doc};
}
GapsimAttribute flag(const char* name, const char* doc) { return {name, AttributeKind::Flag, {}, false, {}, doc}; }
GapsimAttribute choice(const char* name, std::vector<std::string> choices, const char* doc) {
  return {name, AttributeKind::Choice, {}, false, std::move(choices), doc};
}

/// <param name value> under <drivetrain>, <mabel_leg> and <compliant_ground>.
GapsimElement leafParam(const char* owner, const char* example_leaf) {
  return {"param",
          std::string("overrides one parameter of the ") + owner + " by its leaf name",
          {text("name",
                (std::string("leaf name, e.g. ") + example_leaf + " (gapsim-cli params ROBOT lists the full names)")),
           number("value", plausible::kAnyNumber, "the value, in the parameter's unit and within its range")},
          {}};
}

/// The table itself, one literal: every element, attribute, unit and range of <gapsim>, stated
/// once (data, not logic).
GapsimElement makeSchema() {
  GapsimElement g{"gapsim", "gapsim's additions to the URDF; every child is optional", {}, {}};
  g.attributes = {text("version", "the format's version, 1 (not checked)")};
  g.children = {
      {"source", "free text: where the numbers come from", {}, {}, true},
      {"initial_pose",
       "the robot at t = 0",
       {vec3("xyz", plausible::kPosition_m,
             "position of the root link frame; without it the robot is put on the ground (ground_clearance_m)"),
        vec3("rpy", plausible::kAngle_rad, "orientation of the root link frame (fixed-axis roll, pitch, yaw)"),
        number("ground_clearance_m", plausible::kPosition_m,
               "the robot is raised or lowered, after the initial joint values are applied, until its lowest "
               "collision geometry is this far above the ground (default 0.0005 m when xyz is absent)")},
       {{"joint",
         "a movable joint's initial value",
         {text("name", "the joint"), number("value_rad", plausible::kJointPosition, "initial angle"),
          number("value_m", plausible::kJointPosition, "initial position of a prismatic joint")},
         {}}}},
      {"solver",
       "ODE's world step",
       {number("dt_s", plausible::kTimeStep_s, "physics time step"),
        choice("stepper", {"quick", "big"}, "quick: dWorldQuickStep (iterative, uses iterations); big: dWorldStep"),
        whole("iterations", kIterations, "QuickStep iterations"),
        whole("iterations_plain", kIterations, "QuickStep iterations of plain runs (default: iterations)"),
        number("min_inertia_kgm2", kInertiaFloor_kgm2, "floor on every body's principal moments (0 = none)"),
        number("min_inertia_plain_kgm2", kInertiaFloor_kgm2, "the floor of plain runs (default: min_inertia_kgm2)"),
        number("sor_w", plausible::kSorW, "QuickStep's over-relaxation factor (ODE's default 1.3)"),
        number("sor_w_plain", plausible::kSorW, "the over-relaxation of plain runs (default: sor_w)"),
        number("weld_mass_ratio", plausible::kFraction,
               "movable joints moving less than this fraction of the robot's mass are welded (0 = never)"),
        number("light_link_mass_ratio", plausible::kFraction,
               "a body lighter than this fraction of both bodies it joins gets the lighter one's smallest "
               "moment (QuickStep without min_inertia_kgm2; 0 = never)"),
        number("erp", plausible::kFraction,
               "error reduction parameter of joints: the fraction of a joint error corrected per step"),
        number("cfm", plausible::kCfm, "constraint force mixing of joints, m/N (rad/(N m) for angular rows)"),
        vec3("gravity_m_s2", plausible::kAcceleration_m_s2, "gravity in the world frame")},
       {}},
      {"contact",
       "contact between the robot and the ground or scene",
       {number("mu", plausible::kFriction, "Coulomb friction coefficient, non-dimensional"),
        number("soft_erp", plausible::kFraction,
               "error reduction parameter of contacts: the fraction of a penetration corrected per step"),
        number("soft_cfm", plausible::kCfm, "constraint force mixing of contacts, m/N"),
        number("slip1", plausible::kCfm, "force-dependent slip along the first friction direction, (m/s)/N"),
        number("slip2", plausible::kCfm, "force-dependent slip along the second friction direction, (m/s)/N"),
        whole("max_contacts", kMaxContacts, "contact points kept per pair of geometries"),
        number("surface_layer_m", plausible::kLength_m, "penetration depth left uncorrected"),
        flag("self_collision", "collide the robot's links with each other (default false)")},
       {}},
      {"ground",
       "the ground",
       {choice("type", {"plane", "none"}, "plane: a plane at z = 0 (default); none: no ground")},
       {}},
      {"sensors",
       "what the controller and the log read",
       {},
       {{"imu",
         "pitch, roll, tilt and angular velocity of a link",
         {text("name", "the log columns' prefix"), text("link", "the link it is fixed to"),
          vec3("rpy", plausible::kAngle_rad, "the sensor frame (x forward, y left, z up) in the link frame")},
         {}},
        {"encoder",
         "joint angle quantisation",
         {text("joint", "the joint (default: every joint)"),
          number("resolution_rad", kEncoderResolution_rad, "quantisation step (0 = exact)")},
         {}},
        {"foot_contact",
         "whether a link touches the ground",
         {text("name", "the log column's prefix, once per robot"), text("link", "the link")},
         {}}}},
      {"fall",
       "when the robot counts as fallen",
       {number("tilt_deg", kTilt_deg, "tilt of the IMU link's up axis from world up")},
       {}},
      {"divergence",
       "speeds that count as an explosion of the simulation",
       {number("max_linear_speed_m_s", kSpeedBound_m_s, "bound on every body's speed (default 50)"),
        number("max_angular_speed_rad_s", kSpeedBound_rad_s, "bound on every body's angular speed (default 500)")},
       {}},
      {"servo_defaults",
       "the ideal position servo of every joint",
       {number("gain_1_s", plausible::kGain_1_s, "joint velocity = gain (target - q) (default 20)"),
        number("fmax_Nm", plausible::kEffort, "torque limit of the joints without `<limit effort>`")},
       {}},
      {"servo",
       "one joint's ideal position servo",
       {text("joint", "the joint"), number("gain_1_s", plausible::kGain_1_s, "joint velocity = gain (target - q)"),
        number("fmax_Nm", plausible::kEffort, "torque limit (0: a passive joint)"),
        number("max_velocity_rad_s", kServoSpeed, "speed limit")},
       {}},
      {"drivetrain",
       "the drive of a group of joints (docs/drivetrain.md)",
       {text("name", "the group, the prefix of its parameters"), choice("type", driveTypeNames(), "the drive's law"),
        text("preset", "typeA or typeB (motoflex); AX-12, AX-18, MX-28, MX-64, MX-106 or XL-330 (dynamixel_voltage)"),
        text("joints", "the joints, separated by spaces"),
        number("dry_friction_Nm", plausible::kEffort, "dry friction, the ODE joint motor's force limit")},
       {leafParam("drivetrain", "gear/J_rotor")}},
      {"soft",
       "links split into segments joined by spring joints (MoToFlex 3.3)",
       {text("name", "the group, the prefix of its parameters"), text("links", "the links, separated by spaces"),
        whole("segments", kSoftSegments, "bodies per link (default 2)"),
        number("D_B_Nm_rad", positive(plausible::parameterRange("N m/rad")), "bending stiffness of each spring joint"),
        nonNegative("damping_Nms_rad", plausible::parameterRange("N m s/rad"), "damping of each spring joint"),
        nonNegative("friction_Nm", plausible::parameterRange("N m"), "dry friction of each spring joint")},
       {}},
      {"mabel_leg",
       "MABEL's cable-differential transmission driving a hip and a knee (docs/mabel.md)",
       {text("name", "the leg, the prefix of its parameters"),
        choice("preset", {"left", "right"}, "the published parameter set (default left)"),
        text("hip", "the hip joint, torque-driven"), text("knee", "the knee joint, torque-driven"),
        nonNegative("kp_mLA", anyNumber("N m/rad"), "built-in motor PD of mLA: stiffness per rad of motor"),
        nonNegative("kd_mLA", anyNumber("N m s/rad"), "built-in motor PD of mLA: damping"),
        nonNegative("kp_mLS", anyNumber("N m/rad"), "built-in motor PD of mLS: stiffness per rad of motor"),
        nonNegative("kd_mLS", anyNumber("N m s/rad"), "built-in motor PD of mLS: damping")},
       {leafParam("leg", "spring/K_B")}},
      {"compliant_ground",
       "a compliant ground (Marhefka-Orin, LuGre) under points of links; one per robot (docs/mabel.md)",
       {text("name", "the prefix of its parameters")},
       {{"toe",
         "a point that touches the ground",
         {text("name", "the point"), text("link", "the link it is fixed to"),
          vec3("xyz", plausible::kPosition_m, "the point in the link frame")},
         {}},
        leafParam("ground", "k")}},
      {"param",
       "any parameter by its full name, applied after everything else",
       {text("name", "the full name (gapsim-cli params ROBOT lists them)"),
        number("value", plausible::kAnyNumber, "the value, in the parameter's unit and within its range")},
       {}},
  };
  return g;
}

template <class T>
std::string joinNames(const std::vector<T>& items, const char* last_separator) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += i + 1 == items.size() ? last_separator : ", ";
    if constexpr (std::is_same_v<T, std::string>)
      s += items[i];
    else
      s += items[i].name;
  }
  return s;
}

/// `s` fit for a cell of a markdown table: "0 or |v| in ..." must not end the cell.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

void appendRows(std::string& out, const GapsimElement& e, const std::string& path) {
  std::string holds = e.text ? "text" : "";
  if (!e.children.empty()) holds = "holds " + joinNames(e.children, ", ");
  out += "| `" + path + "` | | " + holds + " | " + cell(e.doc) + " |\n";
  for (const GapsimAttribute& a : e.attributes)
    out += "| `" + path + "` | `" + a.name + "` | " + cell(a.accepted()) + " | " + cell(a.doc) + " |\n";
  // <gapsim>'s children by their own name, deeper ones with their parents: <sensors><imu>.
  for (const GapsimElement& c : e.children) appendRows(out, c, (path == "<gapsim>" ? "" : path) + "<" + c.name + ">");
}

}  // namespace

std::string GapsimAttribute::accepted() const {
  switch (kind) {
    case AttributeKind::Text:
      return "text";
    case AttributeKind::Flag:
      return "true or false";
    case AttributeKind::Choice:
      return joinNames(choices, " or ");
    case AttributeKind::Whole:
      return "a whole number in " + plausible::describe(range);
    case AttributeKind::Vec3:
      return "three numbers, each in " + plausible::describe(range);
    case AttributeKind::Number:
      break;
  }
  // "-" marks a ratio in sim/plausible.h; in words it is no unit at all.
  const Range r{range.lo, range.hi, std::string_view(range.unit) == "-" ? "" : range.unit, range.lo_open, false};
  if (!range.magnitude) return "a number in " + plausible::describe(r);
  return non_negative ? "0 or a number in " + plausible::describe(r) : plausible::describe(range);
}

bool GapsimAttribute::accepts(double v) const { return plausible::accepts(range, v) && !(non_negative && v < 0); }

const GapsimAttribute* GapsimElement::attribute(std::string_view n) const {
  for (const GapsimAttribute& a : attributes)
    if (a.name == n) return &a;
  return nullptr;
}

const GapsimElement* GapsimElement::child(std::string_view n) const {
  for (const GapsimElement& c : children)
    if (c.name == n) return &c;
  return nullptr;
}

std::string GapsimElement::attributeNames() const { return joinNames(attributes, ", "); }
std::string GapsimElement::childNames() const { return joinNames(children, ", "); }

const GapsimElement& gapsimSchema() {
  static const GapsimElement schema = makeSchema();
  return schema;
}

std::string gapsimValueText(double v) { return shortestText(v); }

std::string gapsimReferenceMarkdown() {
  std::string out = "| element | attribute | accepted | meaning |\n|---|---|---|---|\n";
  appendRows(out, gapsimSchema(), "<gapsim>");
  return out;
}

}  // namespace gapsim
