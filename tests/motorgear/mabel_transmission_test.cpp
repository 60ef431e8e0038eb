// SPDX-License-Identifier: BSD-3-Clause
// MABEL's transmission, spring and ground against the paper's relations (MABEL report
// shared/papers/003_*): eqs. 1, 5, 6, 23, 24, 30, Tables III, IV, IX, VII.
#include "motorgear/mabel_transmission.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "calib/mabel_identification.h"
#include "motorgear/mabel_ground.h"
#include "motorgear/mabel_spring.h"
#include "tests/throws_saying.h"

namespace gapsim::motorgear {
namespace {

using gapsim::test::throwsSaying;

constexpr double kDeg = M_PI / 180;

/// Stiff cables: K_C 1e4 N m/rad on the motor side (3000x Table VII), small steps to match.
MabelTransmission::Params stiff(MabelTransmission::Params p) {
  p.mLA.K_C_Nm_rad = p.mLS.K_C_Nm_rad = 1e4;
  p.mLA.Kd_C_Nms_rad = p.mLS.Kd_C_Nms_rad = 5.0;
  p.max_step_s = 5e-5;
  return p;
}

/// Links held at (q_LA, q_LS): paper link coordinates from eq. (1) inverted.
MabelTransmission::LinkState held(double q_LA, double q_LS) { return {q_LA + q_LS, 0.0, q_LA - q_LS, 0.0}; }

TEST(MabelTransmission, LegAngleAndShapeAreEquationOne) {
  EXPECT_DOUBLE_EQ(MabelTransmission::legAngle_rad(3.5, 2.9), 3.2);
  EXPECT_DOUBLE_EQ(MabelTransmission::legShape_rad(3.5, 2.9), 0.3);
}

TEST(MabelTransmission, StiffCablesHoldEquationsFiveAndSix) {
  MabelTransmission t(stiff(MabelTransmission::Params::left()));
  const double q_LA = M_PI + 0.1, q_LS = 15 * kDeg;
  const auto link = held(q_LA, q_LS);
  t.reset(link);
  // u_mLS < -b: the cable pulls the leg straight, so the spring deflects (q_Bsp > 0, free branch).
  for (int k = 0; k < 3000; ++k) t.step(1e-3, 0.5, -1.0, link);
  const auto& s = t.state();
  const auto& p = t.params();
  EXPECT_GT(s.q_Bsp_rad, 0.0);
  // (5) q_LA = q_mLA / gamma_A, (6) q_LS = q_mLS / gamma_S + q_Bsp / gamma_B, to within the stretch
  // of the stiff cable (|tau_c| / K_C, < 1e-4 rad on the motor).
  EXPECT_NEAR(s.q_mLA_rad / p.mLA.gamma, q_LA, 1e-5);
  EXPECT_NEAR(s.q_mLS_rad / p.mLS.gamma + s.q_Bsp_rad / p.gamma_Bsp, q_LS, 1e-5);
  // Static torques: tau_c = (u + b)/K_T on each cable; the leg-shape torque is gamma_B times the
  // spring torque (eq. 23: C_Spring carries half of it, 2.59 tau_Bsp).
  const auto& o = t.probes();
  EXPECT_NEAR(o.cable_torque_mLA_Nm, (0.5 + p.mLA.b_Nm) / p.mLA.K_T, 1e-6);
  EXPECT_NEAR(o.cable_torque_mLS_Nm, (-1.0 + p.mLS.b_Nm) / p.mLS.K_T, 1e-6);
  EXPECT_NEAR(o.tau_LS_Nm, p.gamma_Bsp * o.spring_torque_Nm, 1e-6 * std::abs(o.tau_LS_Nm));
  EXPECT_NEAR(o.spring_torque_Nm, -p.spring.K_B_Nm_rad * s.q_Bsp_rad, 1e-6);
  // Virtual work through eq. (1): tau_Th = (tau_LA + tau_LS)/2, tau_Sh = (tau_LA - tau_LS)/2.
  EXPECT_NEAR(o.tau_Th_Nm, 0.5 * (o.tau_LA_Nm + o.tau_LS_Nm), 1e-9);
  EXPECT_NEAR(o.tau_Sh_Nm, 0.5 * (o.tau_LA_Nm - o.tau_LS_Nm), 1e-9);
  EXPECT_NEAR(o.tau_LA_Nm, p.mLA.gamma * o.cable_torque_mLA_Nm, 1e-9);
}

TEST(MabelTransmission, MotorInertiasAreTheLumpedPulleysOfTableNine) {
  const auto L = MabelTransmission::Params::left();
  // By hand from Table IX: motor pulley + (step-down, B_Thigh, B_Shin)/11.77^2 + (D_Thigh, D_Shin)/23.53^2.
  const double la =
      4.4928e-4 + (1.0950e-3 + 2.2181e-3 + 2.2181e-3) / (11.77 * 11.77) + (1.0826e-3 + 2.0542e-3) / (23.53 * 23.53);
  EXPECT_NEAR(L.mLA.J_pulley_kgm2, la, 1e-12);
  // motor pulley + (step-down, A_Spring)/9.647^2 + D_Spring/(2 * 9.647)^2 + (A_Thigh, A_Shin)/15.71^2
  // + (D_Thigh, D_Shin)/31.42^2.
  const double ls = 9.0144e-4 + (2.7117e-3 + 2.3464e-3) / (9.647 * 9.647) + 1.9313e-3 / (4 * 9.647 * 9.647) +
                    (1.6680e-3 + 1.6974e-3) / (15.71 * 15.71) + (1.0826e-3 + 2.0542e-3) / (31.42 * 31.42);
  EXPECT_NEAR(L.mLS.J_pulley_kgm2, ls, 1e-12);
  // Whole path = Table III's J_3^exp / K_T (Table IV), i.e. eq. (10) with alpha of Table IV.
  EXPECT_NEAR(L.mLA.inertia_kgm2(), 7.436e-4 / 1.332, 1e-12);
  EXPECT_NEAR(L.mLS.inertia_kgm2(), 1.112e-3 / 0.995, 1e-12);
  const auto R = MabelTransmission::Params::right();
  EXPECT_NEAR(R.mLA.inertia_kgm2(), 7.328e-4 / 1.269, 1e-12);
  EXPECT_NEAR(R.mLS.inertia_kgm2(), 1.431e-3 / 1.287, 1e-12);
  EXPECT_DOUBLE_EQ(R.mLA.alpha, 0.763);
  EXPECT_DOUBLE_EQ(R.spring.K_B_Nm_rad, 111.7);
}

TEST(MabelTransmission, ReflectedInertiaGovernsTheLinkAcceleration) {
  // A free link inertia J_L on q_LA driven through stiff cables by a constant motor torque: the
  // leg angle accelerates at gamma_A tau_m / (J_L + gamma_A^2 J_m) (rigid transmission).
  auto p = stiff(MabelTransmission::Params::left());
  p.mLA.mu_Nms_rad = 0;
  p.mLA.b_Nm = 0;
  MabelTransmission t(p);
  const double J_L = 0.4, u = 0.2, h = 1e-4;
  double q = M_PI, qd = 0;
  t.reset(held(q, 0.1));
  for (double time = 0; time < 0.3 - 1e-12; time += h) {
    const auto out = t.step(h, u, 0.0, {q + 0.1, qd, q - 0.1, qd});
    const double tau_LA = out.tau_Th_Nm + out.tau_Sh_Nm;  // dq_Th/dq_LA = dq_Sh/dq_LA = 1
    qd += h * tau_LA / J_L;
    q += h * qd;
  }
  const double a = p.mLA.gamma * (u / p.mLA.K_T) / (J_L + t.reflectedInertiaLA_kgm2());
  EXPECT_NEAR(t.reflectedInertiaLA_kgm2(), 23.53 * 23.53 * p.mLA.inertia_kgm2(), 1e-12);
  EXPECT_NEAR(q - M_PI, 0.5 * a * 0.3 * 0.3, 0.03 * std::abs(0.5 * a * 0.3 * 0.3));
}

TEST(MabelTransmission, SimulatedStaticTestIdentifiesTheSpringWithinOnePercent) {
  // Section VII-A: the toe blocked (links held), the robot's weight W on the leg: the leg-shape
  // torque W sin(q_LS) (thigh and shin 0.5 m) is held by the motor through the spring. Command
  // the motor torque that balances it, read q_Bsp at rest, fit K_B with eq. (24).
  const double W = 600.0;
  std::vector<calib::SpringTest> tests;
  for (double deg = 10; deg <= 30; deg += 5) {
    auto p = MabelTransmission::Params::left();
    MabelTransmission t(p);
    const double q_LS = deg * kDeg;
    const auto link = held(M_PI, q_LS);
    t.reset(link);
    const double u = -p.mLS.K_T * W * std::sin(q_LS) / p.mLS.gamma - p.mLS.b_Nm;
    for (int k = 0; k < 4000; ++k) t.step(1e-3, -p.mLA.b_Nm, u, link);
    EXPECT_NEAR(t.state().qd_Bsp_rad_s, 0.0, 1e-6);
    tests.push_back({q_LS, t.state().q_Bsp_rad});
  }
  const auto fit = calib::fitSpringStiffness(tests, W);
  EXPECT_NEAR(fit.K_B_Nm_rad, 115.1, 0.01 * 115.1);
}

TEST(MabelTransmission, HardStopStaysStableAtOneMillisecond) {
  // A strong push of the leg-shape motor drives the spring pulley into its hard stop (q_Bsp < 0),
  // whose damper K_vd1 h / J_B = 430 at 1 ms would blow up an explicit step. Implicitly it creeps
  // (time constant ~ K_vd1 / K_B = 8.7 s) without overshoot.
  MabelTransmission t(MabelTransmission::Params::left());
  const auto link = held(M_PI, 0.2);
  t.reset(link);
  double last = 1.0;
  for (int k = 0; k < 3000; ++k) {
    t.step(1e-3, 0.0, 8.0, link);
    const double q = t.state().q_Bsp_rad;
    ASSERT_TRUE(std::isfinite(q));
    if (k > 100) {
      EXPECT_LE(q, last + 1e-12) << "step " << k;  // monotonic creep, no ringing
    }
    last = q;
  }
  EXPECT_LT(last, 0.0);
  EXPECT_NE(t.probes().spring_branch, 0.0);
}

TEST(MabelTransmission, ValidateNamesTheFieldAndTheStabilityBound) {
  auto p = MabelTransmission::Params::left();
  p.mLS.K_T = 0;
  EXPECT_THROW(MabelTransmission{p}, std::invalid_argument);
  p = MabelTransmission::Params::left();
  p.max_step_s = 0.01;  // 0.01 sqrt(2.9565 31.42^2 / 0.1) = 1.7 > 1
  EXPECT_TRUE(throwsSaying<std::invalid_argument>([&] { MabelTransmission t(p); }, {"numerics/max_step"}));
  p = MabelTransmission::Params::left();
  p.set("spring/K_B", 100.0);
  EXPECT_DOUBLE_EQ(p.spring.K_B_Nm_rad, 100.0);
  EXPECT_DOUBLE_EQ(p.get("mLS/gamma"), 31.42);
  EXPECT_THROW(p.set("mLS/nonsense", 1.0), std::invalid_argument);
  MabelTransmission::Probes pr;
  pr.stretch_mLS_rad = 0.25;
  EXPECT_DOUBLE_EQ(pr.get("stretch_mLS_rad"), 0.25);
  EXPECT_THROW(pr.get("nope"), std::invalid_argument);
}

TEST(MabelSpring, EachBranchOfEquationThirty) {
  const MabelSpring::Params p;  // Table VII, K_B 115.1
  auto free = MabelSpring::torque(p, 0.1, 0.5);
  EXPECT_EQ(free.branch, MabelSpring::Branch::Free);
  EXPECT_DOUBLE_EQ(free.tau_Nm, -115.1 * 0.1 - 1.5 * 0.5);
  auto stop = MabelSpring::torque(p, -0.01, 0.2);
  EXPECT_EQ(stop.branch, MabelSpring::Branch::Stop);
  EXPECT_DOUBLE_EQ(stop.tau_Nm, -115.1 * -0.01 - 100 * -1e-6 - 1000 * 0.2);
  auto closing = MabelSpring::torque(p, -0.01, -0.04);
  EXPECT_EQ(closing.branch, MabelSpring::Branch::StopClosing);
  EXPECT_NEAR(closing.tau_Nm, -115.1 * -0.01 - 100 * -1e-6 - 1000 * -0.04 + 50 * 0.2, 1e-12);
  // q = 0 belongs to the hard stop.
  EXPECT_EQ(MabelSpring::torque(p, 0.0, 0.0).branch, MabelSpring::Branch::Stop);
  // Slopes: d tau / d qd of the sqrt term is -K_vd2 / (2 sqrt|qd|).
  EXPECT_NEAR(closing.dtau_dqd, -1000 - 50 / (2 * 0.2), 1e-9);
}

TEST(CompliantGround, StaticPenetrationIsTheMarhefkaOrinRoot) {
  const CompliantGround::Params p;  // Table VII
  const double W = 300.0;
  const double z = std::pow(W / p.k, 1 / p.n);
  EXPECT_NEAR(CompliantGround::normalForce_N(p, z, 0.0), W, 1e-9);
  // The secant spring-damper gives the same force at rest, and lambda z^n zd in motion.
  const auto sd = CompliantGround::normalSpringDamper(p, z, 0.1);
  EXPECT_NEAR(sd.kp_N_m * z, W, 1e-9);
  EXPECT_NEAR(sd.kd_Ns_m, 3.0e6 * std::pow(z, 1.5), 1e-9);
  EXPECT_NEAR(CompliantGround::normalSpringDamper(p, z, -0.1).kd_Ns_m, 4.5e6 * std::pow(z, 1.5), 1e-9);
  // No pull: a fast rebound at small depth clamps to zero.
  EXPECT_EQ(CompliantGround::normalForce_N(p, 1e-5, -10.0), 0.0);
  EXPECT_EQ(CompliantGround::normalForce_N(p, -1e-3, 1.0), 0.0);
}

TEST(CompliantGround, SlidingFrictionTendsToTheSlidingCoefficient) {
  // Steady sliding at v: the bristle settles at zt = g(v)/sigma_h0 sgn v, F_T = -F_N (g + alpha_h2 v).
  const CompliantGround::Params p;
  CompliantGround::State s;
  const double v = 0.2, h = 1e-3;
  CompliantGround::Output o;
  for (int k = 0; k < 2000; ++k) o = CompliantGround::step(p, s, h, -std::pow(400.0 / p.k, 1 / p.n), {v, 0, 0});
  EXPECT_NEAR(o.force_N.x() / o.normal_N, -(p.alpha_h3 + p.alpha_h2 * v), 1e-3);
  EXPECT_NEAR(o.force_N.y(), 0.0, 1e-12);
}

}  // namespace
}  // namespace gapsim::motorgear
