// SPDX-License-Identifier: BSD-3-Clause
// motorgear/friction.h: the budget of each BAM model M1..M6 against its equation, evaluated by
// hand for chosen torques (exact up to rounding: 1e-12), and the budget in the solver (a block
// held by Coulomb friction, sliding with the viscous row).
#include "motorgear/friction.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "motorgear/drives.h"
#include "motorgear/joint_rig.h"
#include "motorgear/servo_drive.h"
#include "tests/throws_saying.h"

namespace gapsim::motorgear {
namespace {

using gapsim::test::throwsSaying;

GearFriction::Params all(FrictionModel m) {
  GearFriction::Params p;
  p.model = m;
  p.tau_c_Nm = 0.03;
  p.tau_s_Nm = 0.02;
  p.v_s_rad_s = 0.5;
  p.alpha = 2.0;
  p.k_l = 0.1;
  p.k_ls = 0.05;
  p.k_m = 0.2;
  p.k_e = 0.3;
  p.k_ms = 0.07;
  p.k_es = 0.11;
  p.q_d_1_Nm = 0.4;
  p.q_b_1_Nm = 0.6;
  p.b_v_Nm_s_rad = 0.01;
  return p;
}

constexpr double kTol = 1e-12;

TEST(GearFriction, StribeckCoefficient) {
  const GearFriction::Params p = all(FrictionModel::M2);
  EXPECT_DOUBLE_EQ(GearFriction::stribeck(p, 0.0), 1.0);
  EXPECT_NEAR(GearFriction::stribeck(p, 0.5), std::exp(-1.0), kTol);   // |qd| = v_s
  EXPECT_NEAR(GearFriction::stribeck(p, -1.0), std::exp(-4.0), kTol);  // (2)^alpha, alpha = 2
}

TEST(GearFriction, EachModelsBudgetIsItsEquation) {
  const double tm = 0.4, te = -0.25, qd = 0.25;
  const double s = std::exp(-std::pow(0.25 / 0.5, 2.0));
  const double load = std::abs(te - tm);  // 0.65
  struct Case {
    FrictionModel m;
    double expected;
  } cases[] = {
      {FrictionModel::M1, 0.03},
      {FrictionModel::M2, 0.03 + s * 0.02},
      {FrictionModel::M3, 0.03 + 0.1 * load},
      {FrictionModel::M4, 0.03 + s * 0.02 + (0.1 + s * 0.05) * load},
      {FrictionModel::M5, 0.03 + s * 0.02 + std::abs(0.3 * te - 0.2 * tm) + s * std::abs(0.11 * te - 0.07 * tm)},
      // opposite signs, |te| < |tm|: the motor drives, q_d te^2
      {FrictionModel::M6,
       0.03 + s * 0.02 + std::abs(0.3 * te - 0.2 * tm) + s * std::abs(0.11 * te - 0.07 * tm) + s * 0.4 * te * te},
  };
  for (const Case& c : cases) {
    const GearFriction::Budget b = GearFriction::budget(all(c.m), tm, te, qd);
    EXPECT_NEAR(b.coulomb_Nm, c.expected, kTol) << frictionModelName(c.m);
    EXPECT_DOUBLE_EQ(b.viscous_Nm_s_rad, 0.01);
  }
}

TEST(GearFriction, M6QuadraticOnlyAgainstTheLoadAndByDirection) {
  const GearFriction::Params p6 = all(FrictionModel::M6);
  GearFriction::Params p5 = p6;
  p5.model = FrictionModel::M5;
  // Same signs: no quadratic term.
  EXPECT_NEAR(GearFriction::budget(p6, 0.4, 0.25, 0.0).coulomb_Nm, GearFriction::budget(p5, 0.4, 0.25, 0.0).coulomb_Nm,
              kTol);
  // Backdriven (|te| > |tm|, opposite signs): q_b tm^2, times s = 1 at rest.
  EXPECT_NEAR(GearFriction::budget(p6, 0.2, -0.5, 0.0).coulomb_Nm - GearFriction::budget(p5, 0.2, -0.5, 0.0).coulomb_Nm,
              0.6 * 0.04, kTol);
  // Driving: q_d te^2.
  EXPECT_NEAR(GearFriction::budget(p6, -0.5, 0.2, 0.0).coulomb_Nm - GearFriction::budget(p5, -0.5, 0.2, 0.0).coulomb_Nm,
              0.4 * 0.04, kTol);
}

// Driving and backdriving differ in M5 (the efficiency asymmetry): the same gearbox torque costs
// |k_e te - k_m tm| either way round.
TEST(GearFriction, M5DriveAndBackdriveDiffer) {
  GearFriction::Params p = all(FrictionModel::M5);
  p.k_ms = p.k_es = 0.0;
  p.tau_s_Nm = 0.0;
  const double drive = GearFriction::budget(p, 0.5, 0.0, 1.0).coulomb_Nm;      // motor lifts, no load
  const double backdrive = GearFriction::budget(p, 0.0, 0.5, 1.0).coulomb_Nm;  // the load turns the motor
  EXPECT_NEAR(drive, 0.03 + 0.2 * 0.5, kTol);
  EXPECT_NEAR(backdrive, 0.03 + 0.3 * 0.5, kTol);
}

TEST(GearFriction, SlidingTorqueOpposesMotionAndModelsParse) {
  GearFriction::Params p = all(FrictionModel::M1);
  p.b_2_Nm_s2_rad2 = 0.002;
  EXPECT_NEAR(GearFriction::slidingTorque_Nm(p, 0, 0, 2.0), -0.03 - 0.02 - 0.008, kTol);
  EXPECT_NEAR(GearFriction::slidingTorque_Nm(p, 0, 0, -2.0), 0.03 + 0.02 + 0.008, kTol);
  EXPECT_EQ(GearFriction::slidingTorque_Nm(p, 0, 0, 0.0), 0.0);
  EXPECT_EQ(parseFrictionModel("m4"), FrictionModel::M4);
  EXPECT_EQ(frictionModelName(FrictionModel::M6), "M6");
  EXPECT_THROW(parseFrictionModel("M7"), std::invalid_argument);
  EXPECT_EQ(GearFriction::Params::modelParamNames(FrictionModel::M1), (std::vector<std::string>{"tau_c", "b_v"}));
  EXPECT_EQ(GearFriction::Params::modelParamNames(FrictionModel::M6).size(), 11u);
}

TEST(GearFriction, ValidateThrowsWithTheNumber) {
  GearFriction::Params p;
  p.tau_c_Nm = -0.1;
  EXPECT_TRUE(throwsSaying<std::invalid_argument>([&] { GearFriction f(p); }, {"tau_c", "-0.1"}));
  p = GearFriction::Params{};
  p.v_s_rad_s = 0;
  EXPECT_THROW(GearFriction{p}, std::invalid_argument);
  EXPECT_THROW(p.set("model", 7), std::invalid_argument);
  p.set("model", 3);
  EXPECT_EQ(p.model, FrictionModel::M3);
}

// In the solver: a free link (J = 0.01) under a constant load below the Coulomb budget stays at
// rest; above it, it accelerates with (load - tau_c) / J exactly (no viscous term).
TEST(GearFriction, BudgetHoldsBelowAndSlidesAboveInTheSolver) {
  GearFriction::Params p;
  p.tau_c_Nm = 0.1;
  for (double load : {0.09, 0.3}) {
    JointRig::Params rp;
    rp.inertia_kgm2 = 0.01;
    rp.load_Nm = load;
    JointRig rig(rp);
    GearFrictionDrive d(std::make_unique<FrictionDrive>(0.0), p);
    for (int k = 0; k < 100; ++k) rig.step(0.001, d, 0.0);
    if (load < 0.1) {
      EXPECT_EQ(rig.state().qd_rad_s, 0.0);
      EXPECT_EQ(rig.state().q_rad, 0.0);
    } else {
      EXPECT_NEAR(rig.state().qd_rad_s, (load - 0.1) / 0.01 * 0.1, 1e-12);  // a t, t = 0.1 s
    }
  }
}

// The viscous part is the implicit damper row: a link spinning at w0 with b_v only decays as
// (1 + dt b/J)^-k (implicit Euler), stable even at dt b/J = 10 where explicit Euler diverges.
TEST(GearFriction, ViscousRowIsImplicitAndStable) {
  GearFriction::Params p;
  p.b_v_Nm_s_rad = 10.0;
  JointRig::Params rp;
  rp.inertia_kgm2 = 0.001;
  JointRig rig(rp, 0.0, 1.0);
  GearFrictionDrive d(std::make_unique<FrictionDrive>(0.0), p);
  for (int k = 0; k < 5; ++k) rig.step(0.001, d, 0.0);
  EXPECT_NEAR(rig.state().qd_rad_s, std::pow(1.0 / 11.0, 5), 1e-15);
}

}  // namespace
}  // namespace gapsim::motorgear
