// SPDX-License-Identifier: BSD-3-Clause
// Reality effects (sim/reality.h) on the pendulum of tests/sim/data/pendulum.urdf (1 kg bob 0.5 m
// below a hinge about y, dt 0.5 ms, dWorldStep), each against its law:
//  - command delay d: from rest the response is the undelayed one shifted by d;
//  - backlash b: a lift against gravity rests on the flank, b/2 short of the undelayed lift;
//  - Stribeck friction: the coasting deceleration is (tau_c + (r - 1) tau_c exp(-|qd/v_s|^alpha)) / I
//    within 1 %, and a torque between tau_c and r tau_c does not break the joint loose;
//  - mass and COM offsets: the small-swing period 2 pi sqrt(I_p / (m g l)) of the changed bob;
//  - IMU and gyro bias, encoder resolution, sensor delay of a log; all off = bit-identical.
#include "sim/reality.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "expect_input_error.h"
#include "sim/parameters.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"
#include "swing_period.h"

using namespace gapsim;

namespace {

constexpr double kBobInertia = 1.0 * 0.5 * 0.5 + 1.6e-4;  // about the hinge

std::shared_ptr<RobotModel> pendulum(bool gravity) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/pendulum.urdf"));
  if (!gravity) m->solver.gravity_m_s2.setZero();
  return m;
}

/// The hinge torque-driven, without gravity, with dry friction tau_c = 0.2 N m (the friction
/// tests' rig: what moves it is the test's torque and what stops it the friction).
std::shared_ptr<RobotModel> frictionHinge() {
  auto m = pendulum(false);
  m->joints[0].drive.kind = DriveKind::Torque;
  m->joints[0].drive.dry_friction_Nm = 0.2;
  return m;
}

/// The hinge as an ideal position servo strong enough to lift the bob.
std::shared_ptr<RobotModel> servoPendulum(bool gravity) {
  auto m = pendulum(gravity);
  Joint& j = m->joints[0];
  j.drive.kind = DriveKind::Ideal;
  j.servo.gain_1_s = 20.0;
  j.servo.fmax_Nm = 20.0;
  j.servo.max_velocity_rad_s = 10.0;
  return m;
}

SimOptions with(const RealityEffects& r) {
  SimOptions o;
  o.reality = r;
  return o;
}

/// Steps until t_s and returns q at every step.
std::vector<double> response(Simulation& sim, double target_rad, double t_s) {
  sim.setTargets(std::vector<double>{target_rad});
  std::vector<double> q;
  while (sim.time_s() < t_s - 1e-12) {
    sim.step();
    q.push_back(sim.jointAngle_rad(0));
  }
  return q;
}

}  // namespace

TEST(Reality, CommandDelayShiftsTheResponseByTheDelay) {
  // No gravity: the bob rests at q0 until the command arrives, so q_d(t) = q(t - d) up to the
  // solver's drift at rest (ERP on a resting hinge: 1e-13 rad over the delay).
  auto m = servoPendulum(false);
  RealityEffects r;
  r.command_delay_s = 0.02;  // 40 steps of 0.5 ms
  Simulation plain(m), delayed(m, with(r));
  const std::vector<double> a = response(plain, 0.5, 0.3), b = response(delayed, 0.5, 0.3);
  const std::size_t n = 40;
  for (std::size_t k = 0; k < n; ++k) EXPECT_NEAR(b[k], 0.05, 1e-9) << "moved before the command arrived, step " << k;
  for (std::size_t k = n; k < b.size(); ++k) ASSERT_NEAR(b[k], a[k - n], 1e-9) << "step " << k;
  EXPECT_GT(a.back(), 0.45);  // the servo moved at all
}

TEST(Reality, BacklashStopsALiftHalfTheWidthShort) {
  // Gravity pulls the lifted bob back onto the flank: with the encoder on the drive side of the
  // play the drive holds the target, the joint hangs b/2 below it.
  auto m = servoPendulum(true);
  RealityEffects r;
  r.backlash_rad = 0.04;
  Simulation plain(m), play(m, with(r));
  const double q_plain = response(plain, 0.6, 3.0).back(), q_play = response(play, 0.6, 3.0).back();
  EXPECT_NEAR(q_plain - q_play, 0.5 * r.backlash_rad, 0.02 * r.backlash_rad) << q_plain << " vs " << q_play;
  // Lowering to the other side puts the bob on the other flank: b/2 beyond the target.
  const double q_minus = response(play, -0.6, 6.0).back();
  const double q_minus_plain = response(plain, -0.6, 6.0).back();
  EXPECT_NEAR(q_minus - q_minus_plain, 0.5 * r.backlash_rad, 0.02 * r.backlash_rad);
}

TEST(Reality, StribeckDecelerationMatchesTheLaw) {
  // A torque-driven hinge (dry friction tau_c only) spun up, then coasting without gravity:
  // I qdd = -tau_f(qd), tau_f = tau_c (1 + (r - 1) exp(-|qd / v_s|^alpha)). The friction row's
  // bound is taken at the step's start, so (qd_k - qd_k+1) I / dt = tau_f(qd_k) up to the rows'
  // CFM; 1 % is the brief's tolerance.
  auto m = frictionHinge();
  RealityEffects r;
  r.stribeck_static_ratio = 2.5;
  r.stribeck_velocity_rad_s = 1.0;
  r.stribeck_alpha = 2.0;
  Simulation sim(m, with(r));
  while (sim.time_s() < 1.0) {  // 3 N m against at most 0.5 N m: spin up to ~10 rad/s
    sim.addJointTorque_Nm(0, 3.0);
    sim.step();
  }
  const double dt = sim.dt_s();
  int checked = 0;
  double next_check = 3.0;  // rad/s: check at 3, 2, 1.5, 1, 0.5, 0.25
  while (sim.jointRate_rad_s(0) > 0.05 && sim.time_s() < 30) {
    const double w0 = sim.jointRate_rad_s(0);
    sim.step();
    const double w1 = sim.jointRate_rad_s(0);
    if (w0 <= next_check) {
      const double law = 0.2 * (1 + 1.5 * std::exp(-std::pow(w0 / 1.0, 2.0)));
      const double measured = (w0 - w1) * kBobInertia / dt;
      EXPECT_NEAR(measured, law, 0.01 * law) << "at " << w0 << " rad/s";
      ++checked;
      next_check = next_check > 1.0 ? next_check - 0.5 : next_check / 2;
    }
  }
  EXPECT_GE(checked, 6);
}

TEST(Reality, StribeckStaticFrictionHoldsWhatCoulombLetsGo) {
  // 0.35 N m at rest: above tau_c = 0.2 N m (Coulomb alone lets it go), below r tau_c = 0.5 N m.
  auto m = frictionHinge();
  RealityEffects r;
  r.stribeck_static_ratio = 2.5;
  Simulation coulomb(m), stribeck(m, with(r));
  for (int k = 0; k < 400; ++k) {
    coulomb.addJointTorque_Nm(0, 0.35);
    stribeck.addJointTorque_Nm(0, 0.35);
    coulomb.step();
    stribeck.step();
  }
  EXPECT_NEAR(stribeck.jointAngle_rad(0), 0.05, 1e-6);
  // Coulomb: qdd = (0.35 - 0.2) / I = 0.6 rad/s^2 for 0.2 s -> 0.012 rad.
  EXPECT_NEAR(coulomb.jointAngle_rad(0) - 0.05, 0.5 * 0.15 / kBobInertia * 0.2 * 0.2, 1e-3);
}

TEST(Reality, MassAndComOffsetsGiveTheChangedPendulumsPeriod) {
  // Bob 1 kg + 1 kg, COM 0.1 m lower: m = 2 kg, l = 0.6 m, I_cm doubled (same radius of
  // gyration): T = 2 pi sqrt((I_cm + m l^2) / (m g l)) (1 + theta0^2 / 16), within 0.5 %.
  auto m = pendulum(true);
  RealityEffects r;
  r.mass_offset_kg["bob"] = 1.0;
  r.com_offset_m["bob"] = Eigen::Vector3d(0, 0, -0.1);
  Simulation sim(m, with(r));
  const double mass = 2.0, l = 0.6, g = 9.81, theta0 = 0.05;
  const double T = 2 * M_PI * std::sqrt((2 * 1.6e-4 + mass * l * l) / (mass * g * l)) * (1 + theta0 * theta0 / 16);
  EXPECT_NEAR(test::meanSwingPeriod_s(sim, 6 * T), T, 0.005 * T);
  // The model of the file is untouched.
  EXPECT_DOUBLE_EQ(m->links[1].inertial.mass_kg, 1.0);
}

TEST(Reality, MassJitterIsSeededAndBounded) {
  auto m = pendulum(true);
  RealityEffects r;
  r.mass_jitter = 0.1;
  r.mass_seed = 7;
  const double a = applyRealityToModel(*m, r).links[1].inertial.mass_kg;
  EXPECT_EQ(a, applyRealityToModel(*m, r).links[1].inertial.mass_kg);
  EXPECT_NE(a, 1.0);
  EXPECT_GE(a, 0.9);
  EXPECT_LT(a, 1.1);
  r.mass_seed = 8;
  EXPECT_NE(applyRealityToModel(*m, r).links[1].inertial.mass_kg, a);
  // Inertia scales with the mass.
  EXPECT_NEAR(applyRealityToModel(*m, r).links[1].inertial.inertia_kgm2(0, 0),
              1.6e-4 * applyRealityToModel(*m, r).links[1].inertial.mass_kg, 1e-15);
}

TEST(Reality, ImuAndGyroBiasesAddToTheReadings) {
  auto m = pendulum(false);
  RealityEffects r;
  r.imu_bias_rad = 0.01;
  r.gyro_bias_rad_s = -0.03;
  Simulation plain(m), biased(m, with(r));
  const ImuReading a = plain.imu(), b = biased.imu();
  EXPECT_DOUBLE_EQ(b.pitch_rad, a.pitch_rad + 0.01);
  EXPECT_DOUBLE_EQ(b.roll_rad, a.roll_rad + 0.01);
  EXPECT_NEAR(std::cos(b.tilt_rad), std::cos(b.pitch_rad) * std::cos(b.roll_rad), 1e-15);
  for (int k = 0; k < 3; ++k) EXPECT_DOUBLE_EQ(b.gyro_rad_s[k], a.gyro_rad_s[k] - 0.03);
}

TEST(Reality, EncoderResolutionRoundsTheReading) {
  auto m = pendulum(true);
  RealityEffects r;
  r.encoder_resolution_rad = 0.03;
  Simulation sim(m, with(r));
  for (int k = 0; k < 200; ++k) {
    sim.step();
    const double e = sim.jointEncoder_rad(0), q = sim.jointAngle_rad(0);
    EXPECT_NEAR(e / 0.03, std::round(e / 0.03), 1e-9);
    EXPECT_LE(std::abs(e - q), 0.015 + 1e-12);
  }
}

TEST(Reality, SensorDelayShiftsTheLoggedSensorsOnly) {
  Log log({"time_s", "hinge/q_rad", "hinge/tau_Nm", "torso/gyro_y_rad_s"});
  for (int k = 0; k < 10; ++k) log.appendRow(std::vector<double>{0.01 * k, 1.0 * k, 10.0 * k, 100.0 * k});
  RealityEffects r;
  r.sensor_delay_s = 0.03;
  const Log d = applyRealityToLog(log, r, 0.01);
  for (std::size_t k = 0; k < 10; ++k) {
    const double from = k >= 3 ? static_cast<double>(k - 3) : 0.0;
    EXPECT_EQ(d.at(k, 0), log.at(k, 0));
    EXPECT_EQ(d.at(k, 1), from);
    EXPECT_EQ(d.at(k, 2), log.at(k, 2));  // a torque is not a sensor reading
    EXPECT_EQ(d.at(k, 3), 100.0 * from);
  }
}

TEST(Reality, AllOffIsBitIdentical) {
  auto m = servoPendulum(true);
  Simulation a(m), b(m, with(RealityEffects{}));
  const std::vector<double> qa = response(a, 0.4, 0.5), qb = response(b, 0.4, 0.5);
  EXPECT_EQ(qa, qb);
}

TEST(Reality, AbsurdValuesAndUnknownLinksAreRefused) {
  auto m = pendulum(true);
  RealityEffects r;
  r.command_delay_s = std::nan("");
  test::expectInputError([&] { r.validate(); }, 0, "--command-delay", "outside the accepted range");
  r = {};
  r.backlash_rad = 1e308;
  test::expectInputError([&] { r.validate(); }, 0, "--backlash", "outside the accepted range");
  r = {};
  r.mass_offset_kg["tail"] = 0.1;
  test::expectInputError([&] { applyRealityToModel(*m, r); }, 0, "--mass-offset", "no link 'tail'");
  r = {};
  r.mass_offset_kg["bob"] = -1.0;
  test::expectInputError([&] { applyRealityToModel(*m, r); }, 0, "--mass-offset", "must stay > 0");
  test::expectInputError([&] { parseLinkVectors("bob=0:0", "--com-offset"); }, 0, "--com-offset", "x:y:z");
  test::expectInputError([&] { parseLinkValues("bob", "--mass-offset"); }, 0, "--mass-offset", "link=value");
  EXPECT_EQ(parseLinkVectors("bob=0:0:-0.1;torso=0.01:0:0", "--com-offset").at("bob").z(), -0.1);
}

// The drive and IMU effects as model parameters (reality/<name>, sim/param_tree.h) run exactly
// as the same effects given as SimOptions, and the two add.
TEST(Reality, ModelParametersActAsTheOptionsDo) {
  auto base = servoPendulum(true);
  auto with_params = std::make_shared<RobotModel>(*base);
  setParameter(*with_params, "reality/command_delay_s", 0.02);
  setParameter(*with_params, "reality/backlash_rad", 0.01);
  setParameter(*with_params, "reality/imu_bias_rad", 0.005);
  RealityEffects r;
  r.command_delay_s = 0.02;
  r.backlash_rad = 0.01;
  r.imu_bias_rad = 0.005;
  Simulation by_options(base, with(r)), by_model(with_params);
  EXPECT_EQ(by_model.imu().pitch_rad, by_options.imu().pitch_rad);
  EXPECT_EQ(response(by_model, 0.4, 0.5), response(by_options, 0.4, 0.5));

  // Model and options add: 0.01 s in each is the 0.02 s delay.
  auto half = std::make_shared<RobotModel>(*base);
  setParameter(*half, "reality/command_delay_s", 0.01);
  RealityEffects rest;
  rest.command_delay_s = 0.01;
  RealityEffects all;
  all.command_delay_s = 0.02;
  Simulation split(half, with(rest)), whole(base, with(all));
  EXPECT_EQ(response(split, 0.4, 0.3), response(whole, 0.4, 0.3));
}

TEST(Reality, ModelParametersAreListedWhenOnAndRangeChecked) {
  RobotModel m = *pendulum(true);
  auto listed = [&](const std::string& name) {
    for (const ParameterEntry& e : listParameters(m))
      if (e.name == name) return true;
    return false;
  };
  EXPECT_FALSE(listed("reality/command_delay_s"));
  setParameter(m, "reality/command_delay_s", 0.01);
  EXPECT_TRUE(listed("reality/command_delay_s"));
  test::expectInputError([&] { setParameter(m, "reality/command_delay_s", 2.0, "f.csv", 3); }, 3,
                         "reality/command_delay_s", "within [0, 1] s");
  test::expectInputError([&] { setParameter(m, "reality/sensor_delay_s", 0.01, "f.csv", 4); }, 4,
                         "reality/sensor_delay_s", "reality parameters are reality/{");
  test::expectInputError([&] { setParameter(m, "reality/command_delay", 0.01, "f.csv", 5); }, 5,
                         "reality/command_delay", "did you mean 'reality/command_delay_s'");
  EXPECT_EQ(m.reality.command_delay_s, 0.01);
}
