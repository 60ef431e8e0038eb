// SPDX-License-Identifier: BSD-3-Clause
// The compile step's light-link rule (sim/compile_light_links.cpp, SolverSettings::
// light_link_mass_ratio): which bodies it raises and with which numbers, when it stays off, and
// what it buys on the OP3-like package, whose 12 g servo brackets sit between the 1.35 kg body
// and the 0.18 kg arms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

std::shared_ptr<RobotModel> op3() {
  return std::make_shared<RobotModel>(
      loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/op3_like/urdf/op3_like.urdf"));
}

const CompileReport::Change* change(const CompileReport& r, const std::string& item) {
  for (const auto& c : r.changes)
    if (c.item == item) return &c;
  return nullptr;
}

struct Hold {
  double shoulder_error_rad = 0;  ///< max |q - q_cmd| of the four shoulder joints
  double max_rate_rad_s = 0;      ///< max |qd| of any movable joint
};

/// Holds the zero pose 5 s with the ideal servos of the file's defaults.
Hold hold(const std::shared_ptr<const RobotModel>& m) {
  Simulation sim(m);
  Hold h;
  while (sim.time_s() < 5.0 - 1e-9) {
    sim.step();
    for (int j : m->movableJoints()) {
      const std::string& name = m->joints[static_cast<size_t>(j)].name;
      h.max_rate_rad_s = std::max(h.max_rate_rad_s, std::abs(sim.jointRate_rad_s(j)));
      if (name.find("sho_") != std::string::npos)
        h.shoulder_error_rad =
            std::max(h.shoulder_error_rad, std::abs(sim.jointAngle_rad(j) - m->initial_q[static_cast<size_t>(j)]));
    }
  }
  return h;
}

TEST(LightLink, RaisesTheBracketsBetweenHeavierLinksWithTheNumbers) {
  Simulation sim(op3());
  const CompileReport& r = sim.compileReport();
  // The five 12 g brackets (hip yaw, shoulder pitch, neck pan) between the body and 0.14-0.18 kg links.
  for (const char* b : {"l_hip_yaw_link", "r_hip_yaw_link", "l_sho_pitch_link", "r_sho_pitch_link", "head_pan_link"})
    EXPECT_NE(change(r, std::string("body ") + b + ": principal moments"), nullptr) << b;
  const auto* c = change(r, "body l_sho_pitch_link: principal moments");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->in_file.find("0.0117594 kg between body_link (1.34928 kg) and l_sho_roll_link (0.177576 kg)"),
            std::string::npos)
      << c->in_file;
  // The shoulder-roll link's smallest principal moment (its ixx 3.042e-05 and the small products).
  EXPECT_NE(c->compiled.find("at least 3.04183e-05 (the smallest moment of l_sho_roll_link)"), std::string::npos)
      << c->compiled;
  for (const auto& b : r.bodies) {
    if (b.name == "l_sho_pitch_link") {
      EXPECT_NEAR(b.principal_kgm2[0], 3.04183e-05, 1e-10);
    }
  }
  // The 40 g knee between the 115 g thigh and the 179 g ankle is 0.35 of its lighter neighbour: kept.
  EXPECT_EQ(change(r, "body l_knee_link: principal moments"), nullptr);
  // End links (the elbows, the feet) join one body only: kept. Mass is never touched.
  EXPECT_EQ(change(r, "body l_el_link: principal moments"), nullptr);
  double mass = 0;
  for (const auto& b : r.bodies) mass += b.mass_kg;
  EXPECT_NEAR(mass, op3()->totalMass_kg(), 1e-12);
}

TEST(LightLink, StaysOffOnTheDirectSolverWithAFloorOrAtRatioZero) {
  auto count = [](const std::shared_ptr<RobotModel>& m) {
    Simulation sim(m);
    return std::count_if(
        sim.compileReport().changes.begin(), sim.compileReport().changes.end(),
        [](const CompileReport::Change& c) { return c.why.find("light_link_mass_ratio") != std::string::npos; });
  };
  EXPECT_EQ(count(op3()), 5);
  auto big = op3();
  big->solver.quickstep = false;
  EXPECT_EQ(count(big), 0);
  auto floor = op3();
  floor->solver.min_inertia_kgm2 = 1e-6;
  EXPECT_EQ(count(floor), 0);
  auto off = op3();
  off->solver.light_link_mass_ratio = 0;
  EXPECT_EQ(count(off), 0);
}

// The shoulders of the OP3-like package at the defaults (QuickStep, 20 iterations, ideal servos
// holding 0 for 5 s). Without the rule they sag 0.16 rad and the joints ring at 9.7 rad/s; with it
// 0.0085 rad and 0.83 rad/s; dWorldStep holds them to 1e-5 rad. Bounds: a third of the sag and
// half the rate without the rule, over three times the figures with it.
TEST(LightLink, Op3ShouldersHoldAtTheDefaults) {
  const Hold with = hold(op3());
  EXPECT_LT(with.shoulder_error_rad, 0.03);
  EXPECT_LT(with.max_rate_rad_s, 2.0);
  auto off = op3();
  off->solver.light_link_mass_ratio = 0;
  const Hold without = hold(off);
  EXPECT_GT(without.shoulder_error_rad, 0.05);  // the failure the rule removes
  EXPECT_GT(without.max_rate_rad_s, 5.0);
}

}  // namespace
}  // namespace gapsim
