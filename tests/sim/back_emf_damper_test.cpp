// SPDX-License-Identifier: BSD-3-Clause
// The MoToFlex back-EMF inside the ODE world. The simulator takes the back-EMF damping
// b = sigma^2 S K_t K_e / R out of the explicit chain and applies it implicitly, as a damper row
// (a motor row with target speed 0 and CFM = 1/b). Checked against the answers the motor
// equations give: a saturated step slews at the no-load speed U_bat / (K_e sigma) and approaches
// it with the time constant J / b; a link far too light for an explicit torque -b qd
// (b dt / J = 168; explicit Euler is stable only below 2) reaches that speed and no more.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "motorgear/dc_motor.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

/// The single type-A joint of drivetrain_sim_test with a true back-EMF (K_e = K_t, B_v = 0) and
/// the disc's inertia about the axis set to izz [kg m^2] (no rotor inertia).
std::shared_ptr<RobotModel> backEmfJoint(double izz_kgm2) {
  auto m =
      std::make_shared<RobotModel>(loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/single_joint_motoflex.urdf"));
  auto& p = m->joints[0].drive.motoflex;
  p.motor.B_v_Nm_s_rad = 0.0;
  p.motor.K_e_V_s_rad = p.motor.K_t_Nm_A;
  p.gear.J_rotor_kgm2 = 0.0;
  for (Link& l : m->links)
    if (l.has_inertial) l.inertial.inertia_kgm2(2, 2) = izz_kgm2;
  return m;
}

double backEmfDamping_Nms_rad(const RobotModel& m) {
  const auto& p = m.joints[0].drive.motoflex;
  return motorgear::DcMotor(p.motor).jointDamping_Nm_s_rad(p.gear.sigma);
}

double noLoadSpeed_rad_s(const RobotModel& m) {
  const auto& p = m.joints[0].drive.motoflex;
  return p.pid.U_bat_V / (p.motor.K_e_V_s_rad * p.gear.sigma);
}

TEST(BackEmfDamper, SaturatedStepSlewsAtTheNoLoadSpeed) {
  // 2.5 rad step: the PID saturates at U_bat; the joint accelerates with time constant J / b
  // (8 ms here) to w0 = G U_bat / b = U_bat / (K_e sigma) = 5.50 rad/s and slews there.
  auto m = backEmfJoint(0.01);
  const double w0 = noLoadSpeed_rad_s(*m), b = backEmfDamping_Nms_rad(*m);
  ASSERT_NEAR(w0, 21.6 / (0.0195 * 201.3), 1e-9);
  Simulation sim(m);
  sim.setTargets(std::vector<double>{2.5});
  double w_at_tau = NAN, w_slew = NAN;
  const double tau_s = 0.01 / b;
  while (sim.time_s() < 0.3) {
    sim.step();
    if (std::isnan(w_at_tau) && sim.time_s() >= tau_s - 1e-12) w_at_tau = sim.jointRate_rad_s(0);
    if (sim.jointAngle_rad(0) < 1.0) w_slew = sim.jointRate_rad_s(0);
  }
  std::printf("back-EMF slew: %.4f rad/s (U_bat / (K_e sigma) = %.4f), at t = J/b = %.4f s: %.4f (1 - 1/e: %.4f)\n",
              w_slew, w0, tau_s, w_at_tau, w0 * (1 - std::exp(-1.0)));
  EXPECT_NEAR(w_slew, w0, 0.005 * w0);
  // First-order rise. Implicit Euler at dt = tau / 6 gives 1 - 1.1667^-6 = 0.603 instead of
  // 1 - 1/e = 0.632 after tau, and the PID acts one step late: 0.596 w0, 3.6 % of w0 below.
  EXPECT_NEAR(w_at_tau, w0 * (1 - std::exp(-1.0)), 0.05 * w0);
}

TEST(BackEmfDamper, LightLinkFarBeyondTheExplicitLimitStaysStable) {
  // izz = 1e-5 kg m^2: b dt / J = 1.68e-3 / 1e-5 = 168. The explicit torque -b qd would multiply
  // the speed by (1 - 168) every step.
  // The implicit damper: the speed never exceeds the no-load speed, and the joint settles.
  auto m = backEmfJoint(1e-5);
  const double w0 = noLoadSpeed_rad_s(*m), b = backEmfDamping_Nms_rad(*m);
  ASSERT_GT(b * 1e-3 / 1e-5, 100.0);
  Simulation sim(m);
  sim.setTargets(std::vector<double>{1.0});
  double w_max = 0.0;
  while (sim.time_s() < 1.0) {
    sim.step();
    ASSERT_TRUE(std::isfinite(sim.jointRate_rad_s(0))) << "t = " << sim.time_s();
    w_max = std::max(w_max, std::abs(sim.jointRate_rad_s(0)));
  }
  std::printf("light link: max speed %.3f rad/s (no-load %.3f), final angle %.5f rad\n", w_max, w0,
              sim.jointAngle_rad(0));
  // One step of stall torque on the bare link adds G U_bat dt / J = 922 rad/s; with the damping
  // taken at the end of the step the speed is (922 + 0) / (1 + 168) = w0 at most.
  EXPECT_LT(w_max, 1.001 * w0);
  EXPECT_NEAR(sim.jointAngle_rad(0), 1.0, 0.01);
  EXPECT_LT(std::abs(sim.jointRate_rad_s(0)), 1e-3);
}

}  // namespace
}  // namespace gapsim
