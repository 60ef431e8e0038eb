// SPDX-License-Identifier: BSD-3-Clause
// The parameter registry (sim/param_tree.h) and the controllers' field tables: every name it
// lists can be read and set, a set is all or nothing, units are known to the plausibility check,
// and a name that names nothing gets a useful message.
#include "sim/param_tree.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "expect_input_error.h"
#include "sim/ankle_balance.h"
#include "sim/input_error.h"
#include "sim/key_values.h"
#include "sim/mabel_hop_controller.h"
#include "sim/parameters.h"
#include "sim/plausible.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "sim/walk_generator.h"

namespace gapsim {
namespace {

class ShippedRobot : public ::testing::TestWithParam<const char*> {};

// Setting every listed parameter to the value it lists changes no listed value: get and set
// address the same field, and no name writes into another's. A derived view (a servo's stall
// torque, computed from K_t) is set through the field it names, which is listed too: setting the
// view to its rounded listed value would move that field by an ulp.
TEST_P(ShippedRobot, EveryListedNameSetsWhatItLists) {
  RobotModel m = loadRobotFile(resolveRobotFile(GetParam()));
  const std::vector<ParameterEntry> before = listParameters(m);
  ASSERT_GT(before.size(), 10u);
  std::set<std::string> names;
  for (const ParameterEntry& e : before) names.insert(e.name);
  for (const ParameterEntry& e : before) {
    SCOPED_TRACE(e.name);
    if (!e.sets.empty()) {
      EXPECT_TRUE(names.count(e.sets)) << e.name << " sets " << e.sets << ", which is not listed";
      continue;
    }
    setParameter(m, e.name, e.value);
  }
  const std::vector<ParameterEntry> after = listParameters(m);
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(after[i].name, before[i].name);
    EXPECT_EQ(after[i].value, before[i].value) << before[i].name;
  }
}

// A changed value reads back, and only its own name (or the group's members) change.
TEST_P(ShippedRobot, ASetChangesItsNameAlone) {
  const RobotModel original = loadRobotFile(resolveRobotFile(GetParam()));
  const std::vector<ParameterEntry> before = listParameters(original);
  int checked = 0;
  for (std::size_t i = 0; i < before.size(); i += 7) {
    const ParameterEntry& e = before[i];
    if (e.name.find("segments") != std::string::npos || e.unit == "-") continue;  // whole numbers, switches
    RobotModel m = original;
    const double v = e.value == 0 ? 0.5 : e.value * 1.25;
    try {
      setParameter(m, e.name, v);
    } catch (const InputError&) {
      continue;  // a value its struct refuses (e.g. above a limit another field sets)
    }
    const std::vector<ParameterEntry> after = listParameters(m);
    if (e.sets.empty())
      EXPECT_EQ(after[i].value, v) << e.name;
    else  // computed back from the field it set
      EXPECT_NEAR(after[i].value, v, 1e-12 * std::abs(v)) << e.name;
    for (std::size_t k = 0; k < after.size(); ++k) {
      if (after[k].value == before[k].value) continue;
      // A group name moves its members; a member moves its group's listed value (first member).
      // A derived view moves the field it sets; a view, computed from several fields, may move
      // with any of them.
      const std::string leaf_e = e.name.substr(e.name.rfind('/')),
                        leaf_k = after[k].name.substr(after[k].name.rfind('/'));
      auto leafOf = [](const std::string& n) { return n.empty() ? n : n.substr(n.rfind('/')); };
      if (leafOf(e.sets) == leaf_k || !after[k].sets.empty()) continue;
      EXPECT_EQ(leaf_e, leaf_k) << e.name << " changed " << after[k].name;
    }
    ++checked;
  }
  EXPECT_GT(checked, 3);
}

// Every unit the registry states is one the plausibility check has a range for, so no value a
// user writes bypasses it through a unit spelled differently.
TEST_P(ShippedRobot, EveryUnitHasAPlausibleRange) {
  const RobotModel m = loadRobotFile(resolveRobotFile(GetParam()));
  for (const ParameterEntry& e : listParameters(m)) {
    const plausible::Range r = plausible::parameterRange(e.unit);
    const bool fallback = r.lo == plausible::kAnyNumber.lo && r.hi == plausible::kAnyNumber.hi;
    EXPECT_FALSE(fallback) << e.name << " [" << e.unit << "] has no range of its own";
  }
}

INSTANTIATE_TEST_SUITE_P(Robots, ShippedRobot, ::testing::Values("nao", "bioloid", "mabel"));

TEST(ParamTree, GroupsComeFirstAndWildcardsAreNotListed) {
  const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  const std::vector<ParameterEntry> list = listParameters(m);
  ASSERT_FALSE(list.empty());
  bool group_first = false;  // the first name is a drivetrain group's, not a joint's
  for (const Joint& j : m.joints)
    group_first |= !j.drive.group.empty() && list.front().name.rfind(j.drive.group + "/", 0) == 0;
  EXPECT_TRUE(group_first) << list.front().name;
  for (const ParameterEntry& e : list) EXPECT_NE(e.name.front(), '*') << e.name;
  const std::vector<ParamSubtree> tree = parameterTree(m);
  EXPECT_EQ(findParameter(tree, "*/friction/dry").size(), 1u);
  EXPECT_EQ(findParameter(tree, "*/soft/D_B").size(), 1u);
  EXPECT_TRUE(findParameter(tree, "solver/iterations_plain").size() == 1u);
}

TEST(ParamTree, AWildcardSetsEveryJointThatHasTheLeaf) {
  RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  setParameter(m, "*/friction/dry", 0.125);
  int motoflex = 0;
  for (const Joint& j : m.joints)
    if (j.movable() && j.mimic.master < 0 && j.drive.kind == DriveKind::MoToFlex) {
      EXPECT_EQ(j.drive.dry_friction_Nm, 0.125) << j.name;
      ++motoflex;
    }
  EXPECT_GT(motoflex, 10);
}

// A value one member refuses leaves every member as it was.
TEST(ParamTree, AGroupSetIsAllOrNothing) {
  RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  const std::vector<ParameterEntry> before = listParameters(m);
  test::expectInputError([&] { setParameter(m, "legs/typeA/friction/dry", -1.0, "f.csv", 9); }, 9,
                         "legs/typeA/friction/dry", "dry friction must be >= 0");
  test::expectInputError([&] { setParameter(m, "*/soft/segments", 2.5, "f.csv", 10); }, 10, "*/soft/segments",
                         "integer");
  const std::vector<ParameterEntry> after = listParameters(m);
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(after[i].value, before[i].value) << before[i].name;
}

TEST(ParamTree, AnUnknownNameSaysWhatIsNear) {
  RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  test::expectInputError([&] { setParameter(m, "legs/typeB/motor/B_vv", 1.0, "f.csv", 3); }, 3, "legs/typeB/motor/B_vv",
                         "did you mean 'legs/typeB/motor/B_v'");
  test::expectInputError([&] { setParameter(m, "solver/iteration", 20, "f.csv", 4); }, 4, "solver/iteration",
                         "solver parameters are solver/{");
  test::expectInputError([&] { setParameter(m, "completely/unrelated/name/of/some/length", 1.0); }, 0,
                         "completely/unrelated/name/of/some/length", "gapsim-cli params " + m.source_file);
}

// A joint driven by the MoToFlex chain still has its ideal servo, which plain runs drive it with:
// its leaves are not listed (they do nothing in the full pipeline) but --set reaches them, since
// settings apply before --plain, and a plain model lists them (docs/solver.md, plain runs).
TEST(ParamTree, PlainServoLeavesAreSettableOnTheFullModel) {
  RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  for (const ParameterEntry& e : listParameters(m)) EXPECT_EQ(e.name.find("/servo/"), std::string::npos) << e.name;
  setParameter(m, "legs/typeA/servo/fmax", 3.5);
  setParameter(m, "*/servo/gain", 30.0);
  test::expectInputError([&] { setParameter(m, "legs/typeA/servo/max_velocity", 0.0, "f.csv", 2); }, 2,
                         "legs/typeA/servo/max_velocity", "max_velocity > 0");
  makePlain(m);
  bool seen = false;
  for (const ParameterEntry& e : listParameters(m))
    if (e.name == "legs/typeA/servo/fmax") {
      EXPECT_EQ(e.value, 3.5);
      seen = true;
    }
  EXPECT_TRUE(seen);
  for (const Joint& j : m.joints) {
    if (j.movable() && j.mimic.master < 0) {
      EXPECT_EQ(j.servo.gain_1_s, 30.0) << j.name;
    }
  }
}

// The plain-run solver options are listed only where the file states them, settable everywhere.
TEST(ParamTree, PlainSolverOptionsAreListedWhereStated) {
  RobotModel m = loadRobotFile(resolveRobotFile("bioloid"));
  auto listed = [&](const std::string& name) {
    for (const ParameterEntry& e : listParameters(m))
      if (e.name == name) return true;
    return false;
  };
  const bool had = listed("solver/iterations_plain");
  EXPECT_EQ(had, m.solver.plain_iterations.has_value());
  setParameter(m, "solver/iterations_plain", 33);
  EXPECT_EQ(m.solver.plain_iterations, 33);
  EXPECT_TRUE(listed("solver/iterations_plain"));
}

// The controllers' tables: every field reads back what it was set to, parse errors name the key,
// and the keys in the messages are the table's.
template <class P>
void expectFieldsRoundTrip(std::span<const motorgear::Field<P>> table) {
  for (const auto& f : table) {
    P p{};
    const double v = f.get(p) == 0 ? 1.0 : f.get(p);
    f.set(p, v);
    EXPECT_NEAR(f.get(p), v, 1e-12 * std::abs(v)) << f.name;
    EXPECT_FALSE(f.unit.empty()) << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
  }
}

TEST(ControllerFields, EveryFieldRoundTrips) {
  expectFieldsRoundTrip(walkParamFields());
  expectFieldsRoundTrip(balanceParamFields());
  expectFieldsRoundTrip(hopParamFields());
}

TEST(ControllerFields, SpecsGoThroughTheTables) {
  const WalkParams w = parseWalkParams("step_height=0.04, speed=0.1");
  EXPECT_EQ(w.step_height_m, 0.04);
  EXPECT_EQ(w.forward_speed_m_s, 0.1);
  test::expectInputError([] { parseWalkParams("step_hieght=0.04"); }, 0, "step_hieght", "step_height");
  test::expectInputError([] { parseWalkParams("steps=2.5"); }, 0, "steps", "integer");
  const BalanceParams b = parseBalanceParams("roll_rate=0.2;min_load=3");
  EXPECT_EQ(b.roll_rate_gain_s, 0.2);
  EXPECT_EQ(b.min_load_N, 3.0);
  test::expectInputError([] { parseBalanceParams("yaw_rate=1"); }, 0, "yaw_rate", "roll_rate, pitch_rate");
  const MabelHopController::Params h = parseHopParams("delta_LA_deg=20,mirror=1");
  EXPECT_NEAR(h.delta_LA_rad, 20 * M_PI / 180, 1e-15);
  EXPECT_TRUE(h.mirror);
  test::expectInputError([] { parseHopParams("torso_update=2"); }, 0, "torso_update", "integer");
  test::expectInputError([] { parseHopParams("Kp_LA=-1"); }, 0, "Kp_LA", ">= 0");
  EXPECT_EQ(walkParamKeys(), fieldKeys(walkParamFields()));
}

// Every default the tables print is one their validate() accepts.
TEST(ControllerFields, DefaultsAreValid) {
  EXPECT_NO_THROW(WalkParams{}.validate());
  EXPECT_NO_THROW(BalanceParams{}.validate());
  EXPECT_NO_THROW(MabelHopController::Params{}.validate());
}

}  // namespace
}  // namespace gapsim
