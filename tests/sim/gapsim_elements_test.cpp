// SPDX-License-Identifier: BSD-3-Clause
// The table of <gapsim> elements (sim/gapsim_elements.h) and the parser that reads by it: every
// element has a handler, every listed number is read with its range, anything not listed is
// refused with file, line, field and the allowed names, and docs/robot-format.md carries the table.
#include "sim/gapsim_elements.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sim/input_error.h"
#include "sim/urdf_parser.h"
#include "tests/sim/expect_input_error.h"

namespace gapsim {
namespace {

using test::expectInputError;

/// A valid value of every attribute of the table, by field path ("gapsim/sensors/imu@rpy"); ""
/// leaves the attribute out. An attribute added to the table needs a value here.
const std::map<std::string, std::string> kValid = {
    {"gapsim@version", "1"},
    {"gapsim/initial_pose@xyz", "0 0 1"},
    {"gapsim/initial_pose@rpy", "0 0 0.1"},
    {"gapsim/initial_pose@ground_clearance_m", "0.001"},
    {"gapsim/initial_pose/joint@name", "j1"},
    {"gapsim/initial_pose/joint@value_rad", "0.1"},
    {"gapsim/initial_pose/joint@value_m", ""},  // value_rad or value_m, not both
    {"gapsim/solver@dt_s", "0.002"},
    {"gapsim/solver@stepper", "quick"},
    {"gapsim/solver@iterations", "25"},
    {"gapsim/solver@iterations_plain", "15"},
    {"gapsim/solver@min_inertia_kgm2", "0.001"},
    {"gapsim/solver@min_inertia_plain_kgm2", "0"},
    {"gapsim/solver@sor_w", "1.5"},
    {"gapsim/solver@sor_w_plain", "1.2"},
    {"gapsim/solver@weld_mass_ratio", "1e-4"},
    {"gapsim/solver@light_link_mass_ratio", "0.2"},
    {"gapsim/solver@erp", "0.2"},
    {"gapsim/solver@cfm", "1e-5"},
    {"gapsim/solver@gravity_m_s2", "0 0 -9.81"},
    {"gapsim/contact@mu", "0.8"},
    {"gapsim/contact@soft_erp", "0.2"},
    {"gapsim/contact@soft_cfm", "1e-5"},
    {"gapsim/contact@slip1", "0"},
    {"gapsim/contact@slip2", "0"},
    {"gapsim/contact@max_contacts", "6"},
    {"gapsim/contact@surface_layer_m", "0.001"},
    {"gapsim/contact@self_collision", "true"},
    {"gapsim/ground@type", "plane"},
    {"gapsim/sensors/imu@name", "torso"},
    {"gapsim/sensors/imu@link", "base"},
    {"gapsim/sensors/imu@rpy", "0 0 0"},
    {"gapsim/sensors/encoder@joint", "j1"},
    {"gapsim/sensors/encoder@resolution_rad", "0.001"},
    {"gapsim/sensors/foot_contact@name", "F"},
    {"gapsim/sensors/foot_contact@link", "l4"},
    {"gapsim/fall@tilt_deg", "50"},
    {"gapsim/divergence@max_linear_speed_m_s", "40"},
    {"gapsim/divergence@max_angular_speed_rad_s", "400"},
    {"gapsim/servo_defaults@gain_1_s", "20"},
    {"gapsim/servo_defaults@fmax_Nm", "5"},
    {"gapsim/servo@joint", "j1"},
    {"gapsim/servo@gain_1_s", "10"},
    {"gapsim/servo@fmax_Nm", "1"},
    {"gapsim/servo@max_velocity_rad_s", "4"},
    {"gapsim/drivetrain@name", "legs"},
    {"gapsim/drivetrain@type", "motoflex"},
    {"gapsim/drivetrain@preset", "typeA"},
    {"gapsim/drivetrain@joints", "j3 j4"},
    {"gapsim/drivetrain@dry_friction_Nm", "0.1"},
    {"gapsim/drivetrain/param@name", "gear/J_rotor"},
    {"gapsim/drivetrain/param@value", "1e-7"},
    {"gapsim/soft@name", "soft"},
    {"gapsim/soft@links", "l3"},
    {"gapsim/soft@segments", "3"},
    {"gapsim/soft@D_B_Nm_rad", "2000"},
    {"gapsim/soft@damping_Nms_rad", "0.1"},
    {"gapsim/soft@friction_Nm", "0"},
    {"gapsim/mabel_leg@name", "mabel/left"},
    {"gapsim/mabel_leg@preset", "right"},
    {"gapsim/mabel_leg@hip", "j1"},
    {"gapsim/mabel_leg@knee", "j2"},
    {"gapsim/mabel_leg@kp_mLA", "0.5"},
    {"gapsim/mabel_leg@kd_mLA", "0.02"},
    {"gapsim/mabel_leg@kp_mLS", "1"},
    {"gapsim/mabel_leg@kd_mLS", "0.03"},
    {"gapsim/mabel_leg/param@name", "spring/K_B"},
    {"gapsim/mabel_leg/param@value", "100"},
    {"gapsim/compliant_ground@name", "ground"},
    {"gapsim/compliant_ground/toe@name", "T"},
    {"gapsim/compliant_ground/toe@link", "l4"},
    {"gapsim/compliant_ground/toe@xyz", "0 0 -0.1"},
    {"gapsim/compliant_ground/param@name", "k"},
    {"gapsim/compliant_ground/param@value", "4e7"},
    {"gapsim/param@name", "link/base/com_x"},
    {"gapsim/param@value", "0.01"},
};

/// What to change in the full robot: `key` is a field path ("gapsim/solver@dt_s" sets that
/// attribute to `value`, "gapsim/solver/" + `value` adds that child element).
struct Change {
  std::string key, value;
};

/// `e` with every attribute and child the table lists, the change applied.
std::string element(const GapsimElement& e, const std::string& path, const Change& change) {
  std::string s = "<" + e.name;
  for (const GapsimAttribute& a : e.attributes) {
    const std::string key = path + "@" + a.name;
    const auto it = kValid.find(key);
    if (it == kValid.end()) ADD_FAILURE() << "kValid lacks a value of " << key;
    const std::string v = key == change.key ? change.value : it == kValid.end() ? "" : it->second;
    if (!v.empty()) s += " " + a.name + "=\"" + v + "\"";
  }
  if (change.key.rfind(path + "@", 0) == 0 && !e.attribute(change.key.substr(path.size() + 1)))
    s += " " + change.key.substr(path.size() + 1) + "=\"" + change.value + "\"";
  s += e.text ? ">where the numbers come from" : ">\n";
  for (const GapsimElement& c : e.children) {
    // <mabel_leg> drives torque-driven joints only.
    if (c.name == "mabel_leg") s += "<drivetrain name=\"mabel\" type=\"torque\" joints=\"j1 j2\"/>\n";
    s += element(c, path + "/" + c.name, change);
  }
  if (change.key == path + "/") s += change.value + "\n";
  return s + "</" + e.name + ">\n";
}

/// A chain base -j1- l1 -j2- l2 -j3- l3 -j4- l4 with a <gapsim> that holds everything the table lists.
std::string fullRobot(const Change& change = {}) {
  std::string s = "<robot name=\"all\">\n";
  for (const char* l : {"base", "l1", "l2", "l3", "l4"})
    s += std::string("<link name=\"") + l +
         "\"><inertial><mass value=\"0.5\"/><inertia ixx=\"0.001\" iyy=\"0.001\" izz=\"0.001\"/></inertial></link>\n";
  const char* chain[][3] = {{"j1", "base", "l1"}, {"j2", "l1", "l2"}, {"j3", "l2", "l3"}, {"j4", "l3", "l4"}};
  for (const auto& j : chain)
    s += std::string("<joint name=\"") + j[0] + "\" type=\"revolute\"><parent link=\"" + j[1] + "\"/><child link=\"" +
         j[2] + "\"/><origin xyz=\"0 0 -0.1\"/><axis xyz=\"0 1 0\"/>" +
         "<limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"5\"/></joint>\n";
  return s + element(gapsimSchema(), "gapsim", change) + "</robot>\n";
}

/// The 1-based line of the first occurrence of `text` in `xml`.
int lineOf(const std::string& xml, const std::string& text) {
  const std::size_t p = xml.find(text);
  EXPECT_NE(p, std::string::npos) << text;
  return 1 + static_cast<int>(std::count(xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(p), '\n'));
}

/// Calls f(element, path) for every element of the table, <gapsim> first.
template <class F>
void forEachElement(const GapsimElement& e, const std::string& path, const F& f) {
  f(e, path);
  for (const GapsimElement& c : e.children) forEachElement(c, path + "/" + c.name, f);
}

TEST(GapsimElements, EveryElementHasAHandlerAndEveryHandlerAnElement) {
  std::vector<std::string> table, handled = gapsimHandledElements();
  for (const GapsimElement& c : gapsimSchema().children) table.push_back(c.name);
  std::sort(table.begin(), table.end());
  std::sort(handled.begin(), handled.end());
  EXPECT_EQ(table, handled);
}

TEST(GapsimElements, ARobotWithEverythingTheTableListsLoads) {
  const RobotModel m = parseRobotXml(fullRobot(), "all.urdf");  // no handler asks for an unlisted attribute
  EXPECT_EQ(m.solver.iterations, 25);
  EXPECT_EQ(m.solver.plain_iterations, 15);
  EXPECT_EQ(m.contact.max_contacts, 6);
  EXPECT_TRUE(m.contact.self_collision);
  EXPECT_EQ(m.soft_links.size(), 1u);
  EXPECT_EQ(m.soft_links[0].segments, 3);
  ASSERT_EQ(m.mabel_legs.size(), 1u);
  EXPECT_DOUBLE_EQ(m.mabel_legs[0].params.spring.K_B_Nm_rad, 100.0);
  ASSERT_EQ(m.compliant_grounds.size(), 1u);
  EXPECT_DOUBLE_EQ(m.compliant_grounds[0].params.k, 4e7);
  EXPECT_DOUBLE_EQ(m.joints[0].servo.max_velocity_rad_s, 4.0);
  EXPECT_EQ(m.source_text, "where the numbers come from");
}

TEST(GapsimElements, EveryListedNumberIsReadWithItsRange) {
  forEachElement(gapsimSchema(), "gapsim", [](const GapsimElement& e, const std::string& path) {
    for (const GapsimAttribute& a : e.attributes) {
      const std::string key = path + "@" + a.name;
      if (a.kind == AttributeKind::Text || a.kind == AttributeKind::Flag || a.kind == AttributeKind::Choice) continue;
      if (kValid.count(key) && kValid.at(key).empty()) continue;  // left out of the full robot
      const std::string bad = gapsimValueText(10 * a.range.hi);   // above every range's upper end
      const std::string value = a.kind == AttributeKind::Vec3 ? bad + " 0 0" : bad;
      const std::string xml = fullRobot({key, value});
      try {
        parseRobotXml(xml, "all.urdf");
        ADD_FAILURE() << key << "=\"" << value << "\" was accepted";
      } catch (const InputError& err) {
        // The field may name the element's <param> or <joint>: gapsim/drivetrain/param[gear/J_rotor]@value.
        EXPECT_EQ(err.field().rfind(path, 0), 0u) << key << ": " << err.what();
        EXPECT_EQ(err.field().substr(err.field().size() - a.name.size() - 1), "@" + a.name) << err.what();
        EXPECT_EQ(err.line(), lineOf(xml, a.name + "=\"" + value + "\"")) << err.what();
        EXPECT_NE(std::string(err.what()).find(bad), std::string::npos) << err.what();
        // A component's <param> meets the range of its parameter's unit instead of the table's.
        if (path.size() < 6 || path.substr(path.size() - 6) != "/param") {
          EXPECT_NE(std::string(err.what()).find(plausible::describe(a.range)), std::string::npos) << err.what();
        }
      }
    }
  });
}

TEST(GapsimElements, AnUnknownAttributeOfAnyElementIsRefusedWithTheAllowedNames) {
  forEachElement(gapsimSchema(), "gapsim", [](const GapsimElement& e, const std::string& path) {
    const std::string xml = fullRobot({path + "@bogus", "1"});
    const std::string allowed = e.attributes.empty() ? "it takes none" : "allowed: " + e.attributeNames();
    expectInputError([&] { parseRobotXml(xml, "all.urdf"); }, lineOf(xml, "bogus=\"1\""), path + "@bogus", allowed);
  });
}

TEST(GapsimElements, AnUnknownChildOfAnyElementIsRefused) {
  forEachElement(gapsimSchema(), "gapsim", [](const GapsimElement& e, const std::string& path) {
    const std::string xml = fullRobot({path + "/", "<bogus/>"});
    const std::string what = "unknown element <bogus> in <" + e.name + ">";
    expectInputError(
        [&] { parseRobotXml(xml, "all.urdf"); }, lineOf(xml, "<bogus/>"), path + "/bogus",
        e.children.empty() ? what + ", which has no child elements" : what + "; allowed: " + e.childNames());
  });
}

/// The robot of tests/sim/plausible_test.cpp: <gapsim> on line 5.
std::string tiny(const std::string& gapsim) {
  return R"(<robot name="tiny">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="5"/></joint>
  <gapsim>)" +
         gapsim + R"(</gapsim>
</robot>
)";
}

void expectRefused(const std::string& gapsim, const std::string& field, const std::string& text) {
  expectInputError([&] { parseRobotXml(tiny(gapsim), "r.urdf"); }, 5, field, text);
}

TEST(GapsimElements, ATypoIsRefusedWithFileLineFieldTheLikelyNameAndTheAllowedOnes) {
  try {
    parseRobotXml(tiny(R"(<solver dt_s="0.001" iterattions="20"/>)"), "r.urdf");
    ADD_FAILURE() << "a misspelt attribute was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "r.urdf:5: gapsim/solver@iterattions: unknown attribute of <solver> (did you mean 'iterations'?); "
              "allowed: dt_s, stepper, iterations, iterations_plain, min_inertia_kgm2, min_inertia_plain_kgm2, "
              "sor_w, sor_w_plain, weld_mass_ratio, light_link_mass_ratio, erp, cfm, gravity_m_s2");
  }
  expectRefused(R"(<sensors><imu name="t" lnk="arm"/></sensors>)", "gapsim/sensors/imu@lnk",
                "(did you mean 'link'?); allowed: name, link, rpy");
  expectRefused(R"(<servo joint="j" fmax_nm="1"/>)", "gapsim/servo@fmax_nm", "(did you mean 'fmax_Nm'?)");
  expectRefused(R"(<initial_pose><joint name="j" value="0.1"/></initial_pose>)", "gapsim/initial_pose/joint@value",
                "allowed: name, value_rad, value_m");
  expectRefused(R"(<fal tilt_deg="45"/>)", "gapsim/fal", "unknown element <fal> in <gapsim> (did you mean <fall>?)");
  expectRefused(R"(<sensors><gyro name="g" link="arm"/></sensors>)", "gapsim/sensors/gyro",
                "unknown element <gyro> in <sensors>; allowed: imu, encoder, foot_contact");
  expectRefused(R"(<contact mu="1"><friction/></contact>)", "gapsim/contact/friction",
                "unknown element <friction> in <contact>, which has no child elements");
}

TEST(GapsimElements, NumbersOutOfRangeNameTheValueAndTheRange) {
  expectRefused(R"(<solver iterations="0.5"/>)", "gapsim/solver@iterations",
                "0.5 is outside the accepted range [1, 10000]");
  expectRefused(R"(<solver iterations="20.5"/>)", "gapsim/solver@iterations",
                "20.5 is not a whole number; accepted: a whole number in [1, 10000]");
  expectRefused(R"(<contact max_contacts="65"/>)", "gapsim/contact@max_contacts",
                "65 is outside the accepted range [1, 64]");
  expectRefused(R"(<fall tilt_deg="0"/>)", "gapsim/fall@tilt_deg", "0 is outside the accepted range (0, 180] deg");
  expectRefused(R"(<sensors><encoder resolution_rad="-0.001"/></sensors>)", "gapsim/sensors/encoder@resolution_rad",
                "-0.001 is outside the accepted range [0, 1000] rad");
  expectRefused(R"(<divergence max_linear_speed_m_s="0"/>)", "gapsim/divergence@max_linear_speed_m_s",
                "0 is outside the accepted range (0, 1e+12] m/s");
  expectRefused(R"(<servo joint="j" max_velocity_rad_s="0"/>)", "gapsim/servo@max_velocity_rad_s",
                "0 is outside the accepted range (0, 1e+06]");
  expectRefused(R"(<soft name="s" links="arm" damping_Nms_rad="-0.1"/>)", "gapsim/soft@damping_Nms_rad",
                "-0.1 is negative; accepted: 0 or a number in [1e-12, 1e+09] N m s/rad");
  expectRefused(R"(<soft name="s" links="arm" D_B_Nm_rad="0"/>)", "gapsim/soft@D_B_Nm_rad",
                "0 is outside the accepted range [1e-09, 1e+12] N m/rad");
  expectRefused(R"(<soft name="s" links="arm" segments="17"/>)", "gapsim/soft@segments",
                "17 is outside the accepted range [1, 16]");
  expectRefused(R"(<initial_pose><joint name="j" value_rad="0.1" value_m="0.1"/></initial_pose>)",
                "gapsim/initial_pose/joint[j]@value_m", "give value_rad or value_m, not both");
  expectRefused(R"(<initial_pose><joint name="j" value_m="2e3"/></initial_pose>)",
                "gapsim/initial_pose/joint[j]@value_m", "2000 is outside the accepted range [-1000, 1000]");
  expectRefused(R"(<initial_pose><joint name="j" value_rad="1.5"/></initial_pose>)",
                "gapsim/initial_pose/joint[j]@value_rad", "initial value 1.5 outside the joint limits [-1, 1]");
  expectRefused(R"(<solver/><ground/>)", "gapsim/ground@type", "missing attribute (plane: a plane at z = 0");
}

TEST(GapsimElements, TheRobotFormatPageCarriesTheTable) {
  std::ifstream in(std::string(GAPSIM_SOURCE_DIR) + "/docs/robot-format.md");
  ASSERT_TRUE(in) << "docs/robot-format.md";
  std::stringstream page;
  page << in.rdbuf();
  const std::string table = gapsimReferenceMarkdown();
  EXPECT_NE(page.str().find(table), std::string::npos)
      << "docs/robot-format.md lacks the reference table of sim/gapsim_elements.cpp; paste this in:\n"
      << table;
  // Each element and attribute by name, for a reader who searches the page.
  forEachElement(gapsimSchema(), "gapsim", [&](const GapsimElement& e, const std::string&) {
    EXPECT_NE(page.str().find("<" + e.name), std::string::npos) << e.name;
    for (const GapsimAttribute& a : e.attributes)
      EXPECT_NE(page.str().find("`" + a.name + "`"), std::string::npos) << e.name << "@" << a.name;
  });
}

}  // namespace
}  // namespace gapsim
