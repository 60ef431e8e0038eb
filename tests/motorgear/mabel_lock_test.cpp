// SPDX-License-Identifier: BSD-3-Clause
// MABEL transmission locks (test stand of paper 003, Sec. V: B_Spring fixed, the other motor of a
// SISO experiment locked): a locked coordinate does not move, its cable still acts with eq. (27),
// and a free motor against a locked spring settles where eq. (17) balances the cable.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "motorgear/mabel_transmission.h"

namespace gapsim::motorgear {
namespace {

/// Links at (q_LA, q_LS) moving at (qd_LA, qd_LS): eq. (1) inverted.
MabelTransmission::LinkState link(double q_LA, double q_LS, double qd_LA = 0, double qd_LS = 0) {
  return {q_LA + q_LS, qd_LA + qd_LS, q_LA - q_LS, qd_LA - qd_LS};
}

TEST(MabelLock, LockedCoordinatesStayAndTheirCablesFollowEquation27) {
  MabelTransmission::Params p = MabelTransmission::Params::left();
  p.lock_mLS = p.lock_Bsp = true;
  MabelTransmission t(p);
  t.reset(link(M_PI, 0.25));
  const double q_mLS0 = t.state().q_mLS_rad;
  EXPECT_DOUBLE_EQ(q_mLS0, 31.42 * 0.25);
  // The link moves away at 0.2 rad/s while the locked motor is commanded hard.
  double q_LS = 0.25;
  for (int k = 0; k < 500; ++k) {
    q_LS += 0.2 * 1e-3;
    t.step(1e-3, 0.0, 5.0, link(M_PI, q_LS, 0, 0.2));
    ASSERT_EQ(t.state().q_mLS_rad, q_mLS0);
    ASSERT_EQ(t.state().qd_mLS_rad_s, 0.0);
    ASSERT_EQ(t.state().q_Bsp_rad, 0.0);
    ASSERT_EQ(t.state().qd_Bsp_rad_s, 0.0);
  }
  // eq. (27) with the motor fixed: tau_c = K_C (q_mLS0 - gamma q_LS) + Kd_C (0 - gamma qd_LS), the
  // probes taken at the end of the frame (the link moved on by dt qd_LS).
  const double q_end = q_LS + 1e-3 * 0.2;
  const double expected = p.mLS.K_C_Nm_rad * (q_mLS0 - 31.42 * q_end) + p.mLS.Kd_C_Nms_rad * (-31.42 * 0.2);
  EXPECT_NEAR(t.probes().cable_torque_mLS_Nm, expected, 1e-9 * std::abs(expected));
}

TEST(MabelLock, FreeMotorAgainstHeldLinkSettlesOnEquation17) {
  // mLS and B_Spring locked, links held: mLA alone is J q'' = (u + b)/K_T - mu q' - K_C lambda,
  // at rest lambda = (u + b) / (K_T K_C).
  MabelTransmission::Params p = MabelTransmission::Params::right();
  p.lock_mLS = p.lock_Bsp = true;
  MabelTransmission t(p);
  const auto l = link(M_PI + 0.1, 0.2);
  t.reset(l);
  const double u = 0.3;
  for (int k = 0; k < 2000; ++k) t.step(1e-3, u, 0.0, l);
  EXPECT_NEAR(t.probes().stretch_mLA_rad, (u + p.mLA.b_Nm) / (p.mLA.K_T * p.mLA.K_C_Nm_rad), 1e-9);
  EXPECT_NEAR(t.state().qd_mLA_rad_s, 0.0, 1e-9);
  EXPECT_EQ(t.probes().stretch_mLS_rad, 0.0);
}

TEST(MabelLock, ParameterNamesTakeZeroOrOne) {
  MabelTransmission::Params p = MabelTransmission::Params::left();
  EXPECT_EQ(p.get("lock/Bsp"), 0.0);
  p.set("lock/Bsp", 1);
  EXPECT_TRUE(p.lock_Bsp);
  EXPECT_EQ(p.get("lock/Bsp"), 1.0);
  p.set("lock/mLA", 1);
  EXPECT_TRUE(p.lock_mLA);
  EXPECT_THROW(p.set("lock/mLS", 0.5), std::invalid_argument);
  EXPECT_FALSE(p.lock_mLS);
}

}  // namespace
}  // namespace gapsim::motorgear
