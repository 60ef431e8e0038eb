// SPDX-License-Identifier: BSD-3-Clause
// MABEL in the simulator: the compliant ground at a toe (analytic static penetration, restitution
// below 1), the <mabel_leg>/<compliant_ground> parser, the shipped robot standing in joint-position
// mode, and the hopping controller's phase machine and options.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "expect_input_error.h"
#include "sim/input_error.h"
#include "sim/mabel_hop_controller.h"
#include "sim/mabel_hop_run.h"
#include "sim/mabel_legs.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

/// A 10 kg block on a vertical slider with one toe at its origin, over the compliant ground only.
std::string sliderRobot(double start_m, double damping) {
  return R"(<robot name="toe">
  <link name="world"/>
  <link name="block"><inertial><mass value="10"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="lift" type="prismatic"><parent link="world"/><child link="block"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="0" velocity="10"/><dynamics damping=")" +
         std::to_string(damping) + R"("/></joint>
  <gapsim>
    <initial_pose><joint name="lift" value_m=")" +
         std::to_string(start_m) + R"("/></initial_pose>
    <solver dt_s="0.0005" stepper="big"/>
    <ground type="none"/>
    <servo joint="lift" fmax_Nm="0"/>
    <compliant_ground name="g"><toe name="toe" link="block" xyz="0 0 0"/></compliant_ground>
  </gapsim>
</robot>)";
}

std::shared_ptr<const RobotModel> parse(const std::string& xml) {
  return std::make_shared<RobotModel>(parseRobotXml(xml, "inline.urdf"));
}

TEST(MabelGround, StaticPenetrationIsTheAnalyticRoot) {
  Simulation sim(parse(sliderRobot(0.0, 300.0)));  // slider damping only speeds up the settling
  for (int k = 0; k < 8000; ++k) sim.step();
  const auto& p = sim.model().compliant_grounds[0].params;
  const double W = 10 * 9.81;
  const double z = std::pow(W / p.k, 1 / p.n);  // k z^n = W (Marhefka-Orin at rest)
  EXPECT_NEAR(-sim.toeHeight_m(0), z, 0.01 * z);
  EXPECT_NEAR(sim.toeContact(0).normal_N, W, 0.01 * W);
}

/// Drops the block from 5 cm and returns (impact speed, rebound speed).
std::pair<double, double> bounce(double dt_s) {
  SimOptions o;
  o.dt_s = dt_s;
  Simulation sim(parse(sliderRobot(0.05, 0.0)), o);
  double v_in = 0, v_out = 0;
  bool touched = false;
  for (long k = 0; k < static_cast<long>(2.0 / dt_s) && v_out == 0; ++k) {
    const double v = sim.jointRate_rad_s(0);
    sim.step();
    const bool on = sim.toeContact(0).contact;
    if (on && !touched) v_in = -v;
    if (touched && !on) v_out = sim.jointRate_rad_s(0);
    touched = touched || on;
  }
  return {v_in, v_out};
}

TEST(MabelGround, ABounceLosesEnergy) {
  // Marhefka & Orin: with lambda = 1.5 alpha k the coefficient of restitution is about
  // 1 - alpha v0 at low speed; here alpha = lambda_a / 1.5 k on the way in and lambda_b / 1.5 k
  // on the way out (0.046 and 0.068 s/m). The implicit contact row adds numerical damping at the
  // robot's 0.5 ms; at 20 us the bounce converges to the continuous model's.
  const auto model = parse(sliderRobot(0.05, 0.0));  // held: p refers into it
  const auto& p = model->compliant_grounds[0].params;
  const double a_in = p.lambda_a / (1.5 * p.k), a_out = p.lambda_b / (1.5 * p.k);
  const auto [v_in, v_out] = bounce(5e-4);
  ASSERT_GT(v_in, 0.9);
  ASSERT_GT(v_out, 0.0);
  EXPECT_LT(v_out / v_in, 1.0);
  const auto [f_in, f_out] = bounce(2e-5);
  const double e = f_out / f_in;
  EXPECT_LT(e, 1.0 - a_in * f_in);
  EXPECT_GT(e, 1.0 - 1.5 * a_out * f_in);
}

TEST(MabelParser, ErrorsNameFileLineAndField) {
  const std::string base = R"(<robot name="r">
  <link name="world"/>
  <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="h" type="revolute"><parent link="world"/><child link="a"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="k" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <gapsim>
)";
  test::expectInputError(
      [&] { parseRobotXml(base + "<mabel_leg name=\"m/l\" hip=\"h\" knee=\"k\"/></gapsim></robot>", "x.urdf"); }, 8,
      "gapsim/mabel_leg@hip", "torque-driven");
  test::expectInputError(
      [&] {
        parseRobotXml(base +
                          "<drivetrain name=\"t\" type=\"torque\" joints=\"h k\"/>\n<mabel_leg name=\"m/l\" hip=\"h\" "
                          "knee=\"k\"><param name=\"spring/K_B\" value=\"-1\"/></mabel_leg></gapsim></robot>",
                      "x.urdf");
      },
      9, "gapsim/mabel_leg", "K_B");
  test::expectInputError([&] { parseRobotXml(base + "<compliant_ground name=\"g\"/></gapsim></robot>", "x.urdf"); }, 8,
                         "gapsim/compliant_ground", "at least one <toe>");
  const RobotModel ok = parseRobotXml(
      base +
          "<drivetrain name=\"t\" type=\"torque\" joints=\"h k\"/><mabel_leg name=\"m/r\" preset=\"right\" hip=\"h\" "
          "knee=\"k\"><param name=\"spring/K_B\" value=\"100\"/></mabel_leg></gapsim></robot>",
      "x.urdf");
  ASSERT_EQ(ok.mabel_legs.size(), 1u);
  EXPECT_DOUBLE_EQ(ok.mabel_legs[0].params.spring.K_B_Nm_rad, 100.0);
  EXPECT_DOUBLE_EQ(ok.mabel_legs[0].params.mLS.K_T, 1.287);  // right preset, Table IV
}

TEST(MabelRobot, StandsInJointPositionModeWithItsWeightOnTheToes) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("mabel")));
  ASSERT_EQ(m->mabel_legs.size(), 2u);
  Simulation sim(m);
  ASSERT_EQ(sim.toeCount(), 2);
  for (int k = 0; k < 4000; ++k) sim.step();  // 2 s
  EXPECT_FALSE(sim.fallTime_s());
  // The toes carry the robot without the boom (57.66 kg) plus part of the boom's 7.26 kg.
  const double fz = sim.toeContact(0).normal_N + sim.toeContact(1).normal_N;
  EXPECT_GT(fz, 57.66 * 9.81);
  EXPECT_LT(fz, 64.92 * 9.81);
  // The springs are loaded (deflected, q_Bsp > 0) and each leg's generalised force on q_LS is
  // gamma_B times its spring torque at rest (eq. 23).
  for (int l = 0; l < 2; ++l) {
    const auto& pr = mabelLeg(sim, l).transmission().probes();
    EXPECT_GT(pr.q_Bsp_rad, 0.0);
    EXPECT_NEAR(pr.tau_LS_Nm, 5.18 * pr.spring_torque_Nm, 0.05 * std::abs(pr.tau_LS_Nm));
  }
}

TEST(MabelHop, OptionsParseAndTheControllerLeavesFlight) {
  auto p = parseHopParams("torso_update=0,K_Tor=0.25,delta_LA_deg=20");
  EXPECT_FALSE(p.torso_update);
  EXPECT_DOUBLE_EQ(p.K_Tor, 0.25);
  EXPECT_NEAR(p.delta_LA_rad, 20 * M_PI / 180, 1e-15);
  EXPECT_THROW(parseHopParams("bogus=1"), InputError);
  EXPECT_THROW(parseHopParams("K_Tor=x"), InputError);
  EXPECT_THROW(parseHopParams("K_Tor=nan"), InputError);
  EXPECT_THROW(parseHopParams("u_max_mLA=0"), InputError);
  // Standing at t = 0 counts as a touchdown (I -> II); the kick-off follows once the boom's
  // vertical rate is small (II -> III).
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("mabel")));
  Simulation sim(m);
  MabelHopController ctl(sim, {});
  bool saw_III = false;
  for (int k = 0; k < 1000 && !saw_III; ++k) {
    ctl.update(sim);
    sim.step();
    saw_III = ctl.phase() == MabelHopController::Phase::III;
  }
  EXPECT_EQ(ctl.touchdowns(), 1);
  EXPECT_TRUE(saw_III);
}

TEST(MabelParameters, AddressableByName) {
  RobotModel m = loadRobotFile(resolveRobotFile("mabel"));
  bool listed = false;
  for (const auto& e : listParameters(m)) listed = listed || (e.name == "mabel/right/spring/K_B" && e.value == 111.7);
  EXPECT_TRUE(listed);
  setParameter(m, "mabel/left/spring/K_B", 120.0);
  EXPECT_DOUBLE_EQ(m.mabel_legs[0].params.spring.K_B_Nm_rad, 120.0);
  setParameter(m, "mabel/ground/k", 5e7);
  EXPECT_DOUBLE_EQ(m.compliant_grounds[0].params.k, 5e7);
  EXPECT_THROW(setParameter(m, "mabel/left/spring/K_B", -1.0), InputError);
  EXPECT_DOUBLE_EQ(m.mabel_legs[0].params.spring.K_B_Nm_rad, 120.0);  // unchanged
  EXPECT_THROW(setParameter(m, "mabel/left/nonsense", 1.0), InputError);
}

}  // namespace
}  // namespace gapsim
