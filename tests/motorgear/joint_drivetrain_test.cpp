// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/joint_drivetrain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tests/motorgear/round_trip_by_name.h"
#include "tests/throws_saying.h"

namespace gapsim::motorgear {
namespace {

using gapsim::test::expectRoundTripByName;
using gapsim::test::throwsSaying;

TEST(JointDrivetrain, DefaultsAreMoToFlexTypeAAndFactoryGivesTypeB) {
  const JointDrivetrain::Params a;
  EXPECT_EQ(a.gear.sigma, 201.3);
  EXPECT_EQ(a.motor.B_v_Nm_s_rad, 5.346e-2);
  EXPECT_EQ(a.gear.D_g_Nm_rad, 6.1308e6);
  EXPECT_EQ(a.pid.p_V_rad, 319.47);
  EXPECT_EQ(a.pid.U_bat_V, 21.6);
  const auto b = JointDrivetrain::Params::typeB();
  EXPECT_EQ(b.gear.sigma, 130.85);
  EXPECT_EQ(b.motor.B_v_Nm_s_rad, 3.883e-2);
  EXPECT_EQ(b.gear.m_g_kgm2, 1.1037e-3);
  EXPECT_EQ(b.gear.D_g_Nm_rad, 1.7995e7);
  EXPECT_EQ(b.gear.l_h_rad, 1.0509e-5);
  EXPECT_EQ(b.gear.B_g_Nm_s_rad, 0.10897);
  EXPECT_NO_THROW(b.validate());
}

// Motor and gear off: T_j = sigma (S K_t / R) U. First step, e = 0.01 rad: U = (p + i dt) e
// (no derivative on the first step) = 3.19484186 V; T_j = 201.3 * 0.7 * 0.0195 / 6.44 * U. One
// chain of products: 1e-12 N m.
TEST(JointDrivetrain, MotorAndGearOffPidOutputIsTorqueWithStaticGain) {
  JointDrivetrain::Params p;
  p.enable_motor = false;
  p.enable_gear = false;
  JointDrivetrain d(p);
  const double U = (319.47 + 14.186e-3) * 0.01;
  const double T = d.step(1e-3, 0.01, 0.0, 0.3);  // speed ignored without the motor model
  EXPECT_NEAR(T, 201.3 * 0.7 * 0.0195 / 6.44 * U, 1e-12);
  EXPECT_NEAR(d.probes().U_V, U, 1e-12);
  EXPECT_EQ(d.probes().joint_torque_Nm, T);
}

// Stall at a held joint with a large error: U = U_bat, T_j -> sigma S K_t U_bat / R = 9.2160 N m
// (type A) and 5.9909 N m (type B). After 50 ms the type-A gear transient (zeta 0.5) is gone; the
// type-B gear rings with time constant 20 ms, so it runs 0.5 s: exp(-25) residue. 1e-6 relative.
TEST(JointDrivetrain, StallTorqueAtHeldJoint) {
  for (auto p : {JointDrivetrain::Params::typeA(), JointDrivetrain::Params::typeB()}) {
    JointDrivetrain d(p);
    double T = 0;
    const int frames = p.gear.B_g_Nm_s_rad > 1 ? 50 : 500;
    for (int k = 0; k < frames; ++k) T = d.step(1e-3, 0.5, 0.0, 0.0);
    const double expected = p.gear.sigma * 0.7 * 0.0195 * 21.6 / 6.44;
    EXPECT_NEAR(d.jointStallTorque_Nm(), expected, 1e-12);
    EXPECT_NEAR(T, expected, 1e-6 * expected) << "sigma " << p.gear.sigma;
    EXPECT_TRUE(d.probes().pid_saturated);
    EXPECT_EQ(d.probes().U_V, 21.6);
    EXPECT_TRUE(d.probes().hull_contact);
  }
}

// PID off: the motor is unpowered and the joint only feels the speed friction, at steady state
// T_j = -sigma B_v qd (motoflex2011: B_v on the joint speed; coupled: sigma B_v on the gear mass,
// which follows the joint). qd = 0.5 rad/s, type A: -5.3813 N m. The coupled mass settles with
// relative time constant m_g / B_g ~ 1e-5 s, so after 50 ms 1e-6 relative holds in both.
TEST(JointDrivetrain, PidOffGivesSpeedFrictionOnly) {
  for (auto variant : {Gear::Variant::kMotoflex2011, Gear::Variant::kCoupled}) {
    JointDrivetrain::Params p;
    p.enable_pid = false;
    p.gear.variant = variant;
    JointDrivetrain d(p);
    const double qd = 0.5;
    double q = 0.1, T = 0;
    d.reset(q, qd);
    for (int k = 0; k < 50; ++k) {
      T = d.step(1e-3, 1.0, q, qd);
      q += qd * 1e-3;
    }
    EXPECT_EQ(d.probes().U_V, 0.0);
    EXPECT_NEAR(T, -201.3 * 5.346e-2 * qd, 1e-6 * 5.4) << "variant " << int(variant);
    EXPECT_NEAR(d.jointDamping_Nm_s_rad(), 201.3 * 5.346e-2, 1e-12);
  }
}

// Gear off: T_j = sigma T_M exactly, T_M from the motor (probe).
TEST(JointDrivetrain, GearOffPassesSigmaTimesMotorTorque) {
  JointDrivetrain::Params p;
  p.enable_gear = false;
  JointDrivetrain d(p);
  for (int k = 0; k < 5; ++k) {
    const double T = d.step(1e-3, 0.02, 0.0, 0.1);
    EXPECT_EQ(T, 201.3 * d.probes().motor_torque_Nm);
  }
}

// Battery clamp off: U = p e + i dt e on the first step without limit (e = 1 rad: 319.484186 V).
TEST(JointDrivetrain, BatteryClampSwitch) {
  JointDrivetrain::Params p;
  p.enable_battery_clamp = false;
  JointDrivetrain d(p);
  d.step(1e-3, 1.0, 0.0, 0.0);
  EXPECT_NEAR(d.probes().U_V, 319.47 + 14.186e-3, 1e-9);
  JointDrivetrain c{JointDrivetrain::Params{}};
  c.step(1e-3, 1.0, 0.0, 0.0);
  EXPECT_EQ(c.probes().U_V, 21.6);
}

// Closed loop on a joint of inertia J = 0.02 kg m^2 (link plus armature scale; the explicit
// speed term needs J > sigma B_v dt / 2 = 5.4e-3), integrated by semi-implicit Euler at 1 ms like
// the simulator, 0.1 rad step. Type B settles to < 1e-6 rad; type A hunts in a small limit cycle
// of +-1.1e-4 rad (integral action against the hull dead zone, a torque delay at each reversal).
// Bound: 1e-3 rad after 3 s, below the Nao encoder resolution (0.1 deg = 1.7e-3 rad); a lost
// loop (instability, wrong sign, missing integral against the speed friction) breaks it.
TEST(JointDrivetrain, ClosedLoopReachesTarget) {
  for (auto p : {JointDrivetrain::Params::typeA(), JointDrivetrain::Params::typeB()}) {
    JointDrivetrain d(p);
    const double J = 0.02, dt = 1e-3;
    double q = 0, qd = 0, peak = 0;
    for (int k = 0; k < 3000; ++k) {
      const double T = d.step(dt, 0.1, q, qd);
      qd += T / J * dt;
      q += qd * dt;
      peak = std::max(peak, q);
      ASSERT_TRUE(std::isfinite(q)) << k;
    }
    EXPECT_NEAR(q, 0.1, 1e-3) << "sigma " << p.gear.sigma;
    EXPECT_LT(peak, 0.2);
  }
}

TEST(JointDrivetrain, ProbesByName) {
  JointDrivetrain d{JointDrivetrain::Params{}};
  const double T = d.step(1e-3, 0.05, 0.0, 0.0);
  const auto& pr = d.probes();
  const auto names = JointDrivetrain::Probes::names();
  EXPECT_EQ(names.size(), 17u);
  EXPECT_EQ(pr.get("joint_torque_Nm"), T);
  EXPECT_EQ(pr.get("U_V"), pr.U_V);
  EXPECT_EQ(pr.get("current_A"), pr.current_A);
  EXPECT_EQ(pr.get("hull_contact"), pr.hull_contact ? 1.0 : 0.0);
  for (const auto& n : names) EXPECT_NO_THROW(pr.get(n)) << n;
  EXPECT_THROW(pr.get("torque"), std::invalid_argument);
}

TEST(JointDrivetrain, StateSnapshotRestoreReproduces) {
  JointDrivetrain d{JointDrivetrain::Params{}};
  for (int k = 0; k < 10; ++k) d.step(1e-3, 0.05, 0.001 * k, 0.01);
  const auto snap = d.state();
  const double a = d.step(1e-3, 0.05, 0.02, 0.03);
  d.setState(snap);
  EXPECT_EQ(d.step(1e-3, 0.05, 0.02, 0.03), a);
}

TEST(JointDrivetrain, ParamsByNameRoundTripAndUnknownThrows) {
  JointDrivetrain::Params p;
  const auto names = JointDrivetrain::Params::paramNames();
  EXPECT_EQ(names.size(), 6u + 6u + 12u + 4u);
  for (const char* n : {"pid/p", "motor/B_v", "gear/D_g", "gear/J_rotor", "enable/gear"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_EQ(p.get("motor/B_v"), 5.346e-2);
  EXPECT_EQ(p.get("gear/D_g"), 6.1308e6);
  EXPECT_EQ(p.get("enable/motor"), 1.0);
  expectRoundTripByName(p, [](const std::string& n) {
    const bool discrete =
        n.rfind("enable/", 0) == 0 || n == "gear/variant" || n == "gear/integrator" || n == "pid/anti_windup";
    return discrete ? 0.0 : (n == "gear/substeps" ? 250.0 : 0.125);
  });
  EXPECT_FALSE(p.enable_gear);
  EXPECT_THROW(p.get("gear/nope"), std::invalid_argument);
  EXPECT_THROW(p.set("gearbox/D_g", 1), std::invalid_argument);
  EXPECT_THROW(p.set("D_g", 1), std::invalid_argument);
  EXPECT_THROW(p.set("enable/gear", 2), std::invalid_argument);
}

TEST(JointDrivetrain, ValidateNamesTheStage) {
  JointDrivetrain::Params p;
  p.gear.substeps = 10;
  EXPECT_TRUE(
      throwsSaying<std::invalid_argument>([&] { JointDrivetrain d(p); }, {"JointDrivetrain/gear", "substeps >= 38"}));
}

}  // namespace
}  // namespace gapsim::motorgear

namespace gapsim::motorgear {
namespace {

// back_emf_external: the host applies sigma^2 S K_t K_e qd / R itself. The returned torque is the
// one without back-EMF (that of a held joint), while the probes show the true current
// (U - K_e sigma qd) / R. Gear off, so the joint torque is sigma T_M; 1 s at constant inputs, so
// the RL circuit has settled (L/R = 48 us).
TEST(JointDrivetrain, ExternalBackEmfLeavesTheTorqueButNotTheProbes) {
  JointDrivetrain::Params p;
  p.enable_gear = false;
  p.motor.B_v_Nm_s_rad = 0.0;
  p.motor.K_e_V_s_rad = p.motor.K_t_Nm_A;
  const double qd = 2.0, U = 10.0, sigma = p.gear.sigma;
  const double q_target = U / p.pid.p_V_rad;  // P only at rest error: U = p e
  p.pid.i_V_rad_s = 0.0;
  p.pid.d_V_rad = 0.0;
  JointDrivetrain inside(p);
  p.back_emf_external = true;
  JointDrivetrain external(p);
  double T_in = 0, T_ext = 0;
  for (int k = 0; k < 1000; ++k) {
    T_in = inside.step(1e-3, q_target, 0.0, qd);
    T_ext = external.step(1e-3, q_target, 0.0, qd);
  }
  const double G = sigma * p.motor.S * p.motor.K_t_Nm_A / p.motor.R_Ohm;  // N m/V at the joint
  const double b = sigma * sigma * p.motor.S * p.motor.K_t_Nm_A * p.motor.K_e_V_s_rad / p.motor.R_Ohm;
  EXPECT_NEAR(T_in, G * U - b * qd, 1e-9);
  EXPECT_NEAR(T_ext, G * U, 1e-9);
  EXPECT_NEAR(external.jointDamping_Nm_s_rad(), b, 1e-12);
  const double I_true = (U - p.motor.K_e_V_s_rad * sigma * qd) / p.motor.R_Ohm;
  EXPECT_NEAR(inside.probes().current_A, I_true, 1e-9);
  EXPECT_NEAR(external.probes().current_A, I_true, 1e-9);
}

TEST(JointDrivetrain, ExternalBackEmfNeedsTheMotoflexGear) {
  JointDrivetrain::Params p;
  p.back_emf_external = true;
  p.gear.variant = Gear::Variant::kCoupled;
  EXPECT_THROW(JointDrivetrain{p}, std::invalid_argument);
}

}  // namespace
}  // namespace gapsim::motorgear
