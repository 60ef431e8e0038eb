// SPDX-License-Identifier: BSD-3-Clause
// Simulation::compileReport (gapsim-cli info --compiled): nothing the world builder changes is silent.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "motorgear/dc_motor.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

TEST(CompileReport, NaoListsItsBodiesAndEveryChangedValue) {
  auto nao = std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  const Simulation sim(nao);
  const CompileReport& r = sim.compileReport();
  EXPECT_EQ(static_cast<int>(r.bodies.size()), sim.bodyCount());
  double mass = 0;
  for (const auto& b : r.bodies) mass += b.mass_kg;
  EXPECT_NEAR(mass, nao->totalMass_kg(), 1e-9);  // every link's mass is in exactly one body
  // The knee's back-EMF leaves the explicit chain for a damper row b = sigma^2 S K_t K_e / R.
  const auto knee = std::find_if(r.changes.begin(), r.changes.end(),
                                 [](const auto& c) { return c.item == "LKneePitch: motor/B_v and back-EMF"; });
  ASSERT_NE(knee, r.changes.end());
  int j = -1;
  for (std::size_t k = 0; k < nao->joints.size(); ++k)
    if (nao->joints[k].name == "LKneePitch") j = static_cast<int>(k);
  const auto& p = nao->joints[static_cast<std::size_t>(j)].drive.motoflex;
  const double b = motorgear::DcMotor(p.motor).jointDamping_Nm_s_rad(p.gear.sigma);
  EXPECT_NE(knee->compiled.find(std::to_string(b).substr(0, 4)), std::string::npos) << knee->compiled << " b=" << b;
  // The inertia floor raises 30 of 31 bodies, each listed.
  EXPECT_EQ(
      std::count_if(r.changes.begin(), r.changes.end(), [](const auto& c) { return c.item.rfind("body ", 0) == 0; }),
      static_cast<long>(sim.inertiaFloorChanges().size()));
  EXPECT_NE(r.stepper.find("QuickStep, 15 iterations"), std::string::npos) << r.stepper;
}

// Paper 000's BIOLOID runs its file as written; the identified AX-18A (bioloid.urdf) reports its
// servos' armature, which ODE runs as body inertia.
TEST(CompileReport, BioloidRunsItsFileAsWritten) {
  const Simulation paper(std::make_shared<const RobotModel>(
      loadRobotFile(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/bioloid_paper_law.urdf")));
  EXPECT_TRUE(paper.compileReport().changes.empty());
  EXPECT_NE(paper.compileReport().stepper.find("dWorldStep"), std::string::npos);
  const Simulation sim(std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("bioloid"))));
  EXPECT_EQ(sim.compileReport().changes.size(), 18u);
  for (const auto& c : sim.compileReport().changes) EXPECT_NE(c.item.find(": armature"), std::string::npos) << c.item;
  EXPECT_NE(sim.compileReport().stepper.find("dWorldStep"), std::string::npos);
}

}  // namespace
}  // namespace gapsim
