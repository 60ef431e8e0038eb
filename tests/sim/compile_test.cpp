// SPDX-License-Identifier: BSD-3-Clause
// sim/compile.h: the compile step's decisions, written down before any ODE object exists, and a
// Simulation that only instantiates them.
#include "sim/compile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "sim/drive_kinds.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

SimOptions options(std::uint64_t seed, std::optional<double> dt_s = {}, std::optional<int> iterations = {}) {
  SimOptions o;
  o.seed = seed;
  o.dt_s = dt_s;
  o.iterations = iterations;
  return o;
}

std::shared_ptr<const RobotModel> shipped(const std::string& name) {
  return std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile(name)));
}

const CompiledModel::Change* change(const CompiledModel& c, const std::string& item) {
  const auto it = std::find_if(c.changes.begin(), c.changes.end(), [&](const auto& ch) { return ch.item == item; });
  return it == c.changes.end() ? nullptr : &*it;
}

TEST(Compile, IsDeterministicAndWhatTheSimulationRuns) {
  const auto nao = shipped("nao");
  const CompiledModel a = compile(*nao), b = compile(*nao);
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (size_t i = 0; i < a.bodies.size(); ++i) {
    EXPECT_EQ(a.bodies[i].inertia_kgm2, b.bodies[i].inertia_kgm2) << a.bodies[i].name;
    EXPECT_EQ(a.bodies[i].pose_initial.matrix(), b.bodies[i].pose_initial.matrix()) << a.bodies[i].name;
  }
  EXPECT_EQ(a.changes.size(), b.changes.size());
  const Simulation sim(nao);
  EXPECT_EQ(static_cast<size_t>(sim.bodyCount()), a.bodies.size());
  EXPECT_EQ(sim.compiled().changes.size(), a.changes.size());
}

// Many worlds from one compiled model run as worlds built each from the model.
TEST(Compile, ASharedCompiledModelRunsAsItsOwn) {
  const auto nao = shipped("nao");
  const auto compiled = std::make_shared<const CompiledModel>(compile(*nao, options(3)));
  Simulation shared1(nao, compiled), shared2(nao, compiled), own(nao, options(3));
  for (int k = 0; k < 200; ++k) {
    shared1.step();
    shared2.step();
    own.step();
  }
  EXPECT_EQ(shared1.state().hash(), own.state().hash());
  EXPECT_EQ(shared2.state().hash(), own.state().hash());
}

// Options that override the file are listed with both values.
TEST(Compile, OverriddenSolverSettingsAreListed) {
  const auto nao = shipped("nao");
  const CompiledModel c = compile(*nao, options(0, 0.0005, 40));
  const auto* it = change(c, "solver iterations");
  ASSERT_NE(it, nullptr);
  EXPECT_EQ(it->in_file, std::to_string(nao->solver.iterations));
  EXPECT_EQ(it->compiled, "40");
  ASSERT_NE(change(c, "solver dt"), nullptr);
  EXPECT_EQ(change(c, "solver dt")->compiled, "0.0005 s");
  EXPECT_EQ(change(compile(*nao), "solver iterations"), nullptr);
  EXPECT_THROW(compile(*nao, options(0, 0.0)), std::invalid_argument);
}

// The armature N^2 J_rotor is folded into the body the joint moves, about the joint axis, and said so.
TEST(Compile, ArmatureIsFoldedIntoTheChildBodyAndListed) {
  const auto nao = shipped("nao");
  const CompiledModel c = compile(*nao);
  const int knee = nao->jointIndex("LKneePitch");
  const double armature = driveArmature_kgm2(nao->joints[static_cast<size_t>(knee)].drive);
  ASSERT_GT(armature, 0);
  const auto* ch = change(c, "LKneePitch: armature");
  ASSERT_NE(ch, nullptr);
  EXPECT_NE(ch->in_file.find(sixDigits(armature)), std::string::npos) << ch->in_file;
  const CompiledModel::Joint& j = c.joints[static_cast<size_t>(knee)];
  EXPECT_EQ(c.bodies[static_cast<size_t>(j.child_body)].armature_kgm2, armature);
  // The MoToFlex knee: a hinge with its chain's back-EMF in a damper row.
  EXPECT_EQ(j.row, CompiledModel::Joint::Row::Hinge);
  EXPECT_GT(j.damper_Nm_s_rad, 0);
  EXPECT_NE(j.prototype, nullptr);
  EXPECT_EQ(j.damper_Nm_s_rad, j.prototype->damping_Nm_s_rad());
}

// The BIOLOID has no massless links and no floor. With paper 000's law it compiles to its file;
// the identified AX-18A (bioloid.urdf) has a reflected rotor inertia, which runs as body inertia:
// exactly one listed change per servo, each saying so.
TEST(Compile, BioloidRowsAndDrives) {
  const CompiledModel paper = compile(*std::make_shared<const RobotModel>(
      loadRobotFile(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/bioloid_paper_law.urdf")));
  EXPECT_TRUE(paper.changes.empty());
  const auto bioloid = shipped("bioloid");
  const CompiledModel c = compile(*bioloid);
  int hinges = 0;
  for (const auto& j : c.joints) hinges += j.row == CompiledModel::Joint::Row::Hinge ? 1 : 0;
  EXPECT_EQ(hinges, 18);
  ASSERT_EQ(c.changes.size(), 18u);
  for (const auto& ch : c.changes) EXPECT_NE(ch.item.find(": armature"), std::string::npos) << ch.item;
}

// MABEL: two coupled drives (its legs) on movable joints; its boom is links and joints, no planar base.
TEST(Compile, MabelCoupledDrives) {
  const CompiledModel c = compile(*shipped("mabel"));
  EXPECT_FALSE(c.planar.enabled);
  EXPECT_EQ(c.coupled_drives.size(), 2u);
  for (const auto& d : c.coupled_drives)
    for (int j : d.joints) EXPECT_NE(c.joints[static_cast<size_t>(j)].row, CompiledModel::Joint::Row::None);
}

// A planar joint from `world`: motor rows on the root body, listed (ODE has no planar joint).
TEST(Compile, PlanarBaseIsHeldByRowsAndListed) {
  const auto m = std::make_shared<const RobotModel>(
      loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/urdf_quirks/planar_root.urdf"));
  const CompiledModel c = compile(*m);
  ASSERT_TRUE(c.planar.enabled);
  EXPECT_EQ(c.planar.body, c.link_body[static_cast<size_t>(m->root_link)]);
  EXPECT_NEAR(c.planar.normal.norm(), 1.0, 1e-12);
  EXPECT_NE(change(c, "root " + m->links[m->root_link].name), nullptr);
}

}  // namespace
}  // namespace gapsim
