// SPDX-License-Identifier: BSD-3-Clause
// A joint's own friction (URDF <dynamics damping friction>): implicit rows (sim/simulation_build.cpp,
// createDynamicsRows), checked against the analytic decay of a free rotor and a free slider,
// including a light link whose damping the explicit torque -b v could not integrate, and against
// the analytic motion of a rotor under dry friction (held below it, constant deceleration above).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

/// A link on the world by one joint, passive (servo fmax 0), no gravity, no ground, dWorldStep,
/// dt 1 ms: a rotor about z with moment `I` (COM on the axis), or a slider along z of mass `I`.
std::shared_ptr<const RobotModel> damped(bool hinge, double I, double b_Nms, double friction_Nm = 0) {
  const std::string lim = hinge ? "" : R"(<limit lower="-100" upper="100" effort="0" velocity="0"/>)";
  const std::string xml = R"(<robot name="damped">
  <link name="world"/>
  <link name="rotor"><inertial><mass value=")" +
                          std::to_string(hinge ? 1.0 : I) + R"("/>
    <inertia ixx=")" + std::to_string(I) +
                          R"(" iyy=")" + std::to_string(I) + R"(" izz=")" + std::to_string(I) + R"("/></inertial></link>
  <joint name="j" type=")" +
                          (hinge ? "continuous" : "prismatic") +
                          R"("><parent link="world"/><child link="rotor"/><axis xyz="0 0 1"/>)" + lim +
                          R"(<dynamics damping=")" + std::to_string(b_Nms) + R"(" friction=")" +
                          std::to_string(friction_Nm) + R"("/></joint>
  <gapsim>
    <solver dt_s="0.001" stepper="big" gravity_m_s2="0 0 0"/>
    <ground type="none"/>
    <servo joint="j" fmax_Nm="0"/>
  </gapsim>
</robot>)";
  return std::make_shared<const RobotModel>(parseRobotXml(xml, "damped.urdf"));
}

/// The joint rate after a one-step kick, and `n` steps later.
std::pair<double, double> decay(bool hinge, double I, double b_Nms, int n) {
  Simulation sim(damped(hinge, I, b_Nms));
  sim.addJointTorque_Nm(0, 1.0);
  sim.step();
  const double v0 = sim.jointRate_rad_s(0);
  for (int k = 0; k < n; ++k) sim.step();
  return {v0, sim.jointRate_rad_s(0)};
}

// b h / I = 5 (a 2 g m^2 rotor, b 10 N m s/rad): explicit Euler multiplies the rate by 1 - 5 = -4
// per step and diverges; the implicit row gives 1 / (1 + 5) per step. Tolerance 1e-9 relative:
// dWorldStep solves the rows exactly, the hinge rows carry no load (COM on the axis, no gravity).
TEST(JointDamping, StiffDampingOnALightLinkDecaysImplicitly) {
  for (bool hinge : {true, false}) {
    const double I = 0.002, b = 10.0, h = 0.001;
    const auto [v0, v1] = decay(hinge, I, b, 1);
    ASSERT_GT(v0, 0) << hinge;
    EXPECT_NEAR(v1 / v0, 1.0 / (1.0 + b * h / I), 1e-9) << hinge;
    const auto [w0, w20] = decay(hinge, I, b, 20);
    EXPECT_NEAR(w20 / w0, std::pow(1.0 + b * h / I, -20), 1e-12) << hinge;
  }
}

// b h / I = 1e-3 (I 0.01, b 0.01): over one time constant I / b = 1 s the rate falls to
// exp(-b t / I) = exp(-1). Implicit Euler gives (1 + b h / I)^-1000 = exp(-0.9995), 5e-4 above it:
// the tolerance is 1e-3 relative.
TEST(JointDamping, MildDampingFollowsTheAnalyticDecayRate) {
  for (bool hinge : {true, false}) {
    const auto [v0, v] = decay(hinge, 0.01, 0.01, 1000);
    EXPECT_NEAR(v / v0, std::exp(-1.0), 1e-3 * std::exp(-1.0)) << hinge;
  }
}

TEST(JointDamping, IsListedInTheCompiledJoint) {
  Simulation sim(damped(true, 0.01, 0.25, 0.05));
  EXPECT_DOUBLE_EQ(sim.compileReport().joints[0].viscous_Nm_s_rad, 0.25);
  EXPECT_DOUBLE_EQ(sim.compileReport().joints[0].coulomb_Nm, 0.05);
}

// Dry friction f = 0.05 N m on a free rotor (I 0.01 kg m^2, about z, no gravity): a torque of
// 0.04 N m leaves it at rest; 0.06 N m accelerates it at (0.06 - 0.05) / I = 1 rad/s^2; let go at
// rate w0 it slows at f / I = 5 rad/s^2 and stops at w0 I / f, then stays (friction, not a spring).
TEST(JointFriction, HoldsBelowItAndDeceleratesAtFOverIAbove) {
  for (bool hinge : {true, false}) {
    const double I = 0.01, f = 0.05, h = 0.001;
    Simulation held(damped(hinge, I, 0.0, f));
    for (int k = 0; k < 500; ++k) {
      held.addJointTorque_Nm(0, 0.04);
      held.step();
    }
    EXPECT_NEAR(held.jointRate_rad_s(0), 0.0, 1e-9) << hinge;
    Simulation pushed(damped(hinge, I, 0.0, f));
    for (int k = 0; k < 500; ++k) {
      pushed.addJointTorque_Nm(0, 0.06);
      pushed.step();
    }
    EXPECT_NEAR(pushed.jointRate_rad_s(0), (0.06 - f) / I * 500 * h, 1e-6) << hinge;
    // Coasting from 0.5 rad/s: 0.5 - 5 t, zero at 0.1 s.
    Simulation coast(damped(hinge, I, 0.0, f));
    coast.addJointTorque_Nm(0, 0.5 * I / h + f);  // one step to 0.5 rad/s against the friction
    coast.step();
    const double w0 = coast.jointRate_rad_s(0);
    EXPECT_NEAR(w0, 0.5, 1e-9) << hinge;
    for (int k = 0; k < 50; ++k) coast.step();
    EXPECT_NEAR(coast.jointRate_rad_s(0), w0 - f / I * 50 * h, 1e-9) << hinge;
    for (int k = 0; k < 100; ++k) coast.step();
    EXPECT_NEAR(coast.jointRate_rad_s(0), 0.0, 1e-9) << hinge;
  }
}

}  // namespace
}  // namespace gapsim
