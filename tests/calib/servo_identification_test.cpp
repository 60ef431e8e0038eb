// SPDX-License-Identifier: BSD-3-Clause
// Servo identification (paper 000): polynomial smoothing exact on a quartic, gains recovered from
// synthetic step tests of I qdd = -kp (q - qbar) - kd qd - kc sgn(qd), the exact linear scaling
// with I, the quantiles, the foot inertia of the model, and the real slope-32 log
// (tests/calib/data, jietan/bioGP, LGPL-3.0).
#include "calib/servo_identification.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "calib/poly_fit.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

struct Truth {
  double I = 0.0282, kp = 9.272, kd = 0.3069, kc = 0.03;  // paper gains, I for damping ratio ~0.3
};

/// The options the tests identify with: the rig's inertia given, one quartic per piece of 20 ms.
ServoIdOptions piecewise(double inertia_kgm2) {
  ServoIdOptions o;
  o.inertia_kgm2 = inertia_kgm2;
  o.piece_s = 0.02;
  return o;
}

/// Square wave +-A with half period `half_s`, sampled every `period_s`, the model integrated by
/// RK4 at h = 1e-5 s (the local error of a step across a sgn change is O(h) on qdd, i.e.
/// O(h^2) = 1e-10 rad on q, far below what the identification resolves).
ServoStepLog synthetic(const Truth& tr, double half_s, int halves, double period_s, double noise_rad = 0,
                       unsigned seed = 1) {
  ServoStepLog log;
  log.source = "synthetic";
  const double A = 1.0227, h = 1e-5;
  double q = 0, qd = 0, t = 0;
  auto acc = [&](double qq, double vv, double target) {
    const double s = vv > 0 ? 1.0 : (vv < 0 ? -1.0 : 0.0);
    return (-tr.kp * (qq - target) - tr.kd * vv - tr.kc * s) / tr.I;
  };
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, noise_rad);
  const long steps_per_sample = std::lround(period_s / h);
  const long samples = std::lround(halves * half_s / period_s);
  for (long k = 0; k < samples; ++k) {
    const double target = (static_cast<long>(t / half_s + 1e-9) % 2 == 0) ? A : -A;
    log.time_s.push_back(t);
    log.q_target_rad.push_back(target);
    log.q_rad.push_back(q + (noise_rad > 0 ? n(rng) : 0.0));
    for (long s = 0; s < steps_per_sample; ++s) {
      const double tg = (static_cast<long>((t + 1e-12) / half_s + 1e-9) % 2 == 0) ? A : -A;
      const double k1v = acc(q, qd, tg), k1q = qd;
      const double k2v = acc(q + 0.5 * h * k1q, qd + 0.5 * h * k1v, tg), k2q = qd + 0.5 * h * k1v;
      const double k3v = acc(q + 0.5 * h * k2q, qd + 0.5 * h * k2v, tg), k3q = qd + 0.5 * h * k2v;
      const double k4v = acc(q + h * k3q, qd + h * k3v, tg), k4q = qd + h * k3v;
      q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
      qd += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
      t = (k * steps_per_sample + s + 1) * h;
    }
  }
  return log;
}

}  // namespace

TEST(PolyFit, ExactOnAQuarticWithAnalyticDerivatives) {
  // p(t) = 0.3 t^4 - 2 t^3 + 0.5 t^2 - 4 t + 7 on t in [5, 5.7] (times far from 0, as in the logs):
  // the fit must return it to rounding, and p', p'' must be the analytic derivatives.
  auto p = [](double t) { return 0.3 * std::pow(t, 4) - 2 * std::pow(t, 3) + 0.5 * t * t - 4 * t + 7; };
  auto dp = [](double t) { return 1.2 * std::pow(t, 3) - 6 * t * t + t - 4; };
  auto ddp = [](double t) { return 3.6 * t * t - 12 * t + 1; };
  std::vector<double> t, y;
  for (int i = 0; i < 50; ++i) {
    t.push_back(5.0 + 0.7 * i / 49.0 + ((i % 3) == 0 ? 0.0 : 1e-4));
    y.push_back(p(t.back()));
  }
  const Polynomial f = fitPolynomial(t, y, 4);
  for (double tt : {5.0, 5.13, 5.35, 5.7}) {
    EXPECT_NEAR(f.value(tt), p(tt), 1e-9 * std::abs(p(tt)));
    EXPECT_NEAR(f.derivative(tt), dp(tt), 1e-8 * std::abs(dp(tt)));
    EXPECT_NEAR(f.second(tt), ddp(tt), 1e-7 * std::abs(ddp(tt)));
  }
  EXPECT_THROW(fitPolynomial(std::vector<double>{1, 1, 1, 1, 1}, std::vector<double>{1, 2, 3, 4, 5}, 4),
               std::invalid_argument);
}

TEST(ServoId, SwitchingInstants) {
  const std::vector<double> g = {1, 1, -1, -1, -1, 1, 1};
  EXPECT_EQ(switchingInstants(g), (std::vector<std::size_t>{2, 5}));
}

TEST(ServoId, RecoversKnownGainsWithinOnePercent) {
  // Noise-free synthetic test, 1 kHz samples, 0.33 s half periods (the motion still oscillates
  // at the switch, so qd changes sign and kc is identifiable). Pieces of 20 ms keep the quartic's
  // truncation error (~(omega T)^5 / 5! with omega = 18 rad/s) at 1e-5 relative.
  const Truth tr;
  const ServoStepLog log = synthetic(tr, 0.33, 8, 0.001);
  ServoIdOptions o = piecewise(tr.I);
  const ServoIdResult r = identifyServo(log, o);
  EXPECT_EQ(r.switches.size(), 7u);
  EXPECT_NEAR(r.kp_Nm_rad.value, tr.kp, 0.01 * tr.kp);
  EXPECT_NEAR(r.kd_Nm_s_rad.value, tr.kd, 0.01 * tr.kd);
  EXPECT_NEAR(r.kc_Nm.value, tr.kc, 0.01 * tr.kc);
  EXPECT_GT(r.r_squared, 0.9999);
}

TEST(ServoId, GainsScaleExactlyLinearlyWithInertia) {
  const Truth tr;
  const ServoStepLog log = synthetic(tr, 0.33, 4, 0.001);
  ServoIdOptions o = piecewise(tr.I);
  const ServoIdResult a = identifyServo(log, o);
  o.inertia_kgm2 = 2 * tr.I;
  const ServoIdResult b = identifyServo(log, o);
  EXPECT_NEAR(b.kp_Nm_rad.value, 2 * a.kp_Nm_rad.value, 1e-9 * a.kp_Nm_rad.value);
  EXPECT_NEAR(b.kd_Nm_s_rad.value, 2 * a.kd_Nm_s_rad.value, 1e-9 * a.kd_Nm_s_rad.value);
  EXPECT_NEAR(b.kc_Nm.value, 2 * a.kc_Nm.value, 1e-9 * std::abs(a.kc_Nm.value));
}

TEST(ServoId, Quantiles) {
  EXPECT_NEAR(normalQuantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normalQuantile(0.5), 0.0, 1e-15);
  // Tables: t(0.975; 10) = 2.2281, t(0.975; 30) = 2.0423, t(0.975; 1000) = 1.9623.
  EXPECT_NEAR(studentTQuantile(0.975, 10), 2.2281, 2e-4);
  EXPECT_NEAR(studentTQuantile(0.975, 30), 2.0423, 1e-4);
  EXPECT_NEAR(studentTQuantile(0.975, 1000), 1.9623, 1e-4);
}

TEST(ServoId, FootInertiaOfTheModel) {
  // r_foot is a leaf: I = ixx + m (y_c^2 + z_c^2) with the URDF's r_foot inertial (axis x).
  const RobotModel m = loadRobotFile(resolveRobotFile("bioloid"));
  const double m_kg = 0.0176137023181, y = 0.0275947483063, z = 0.00415898272684;
  EXPECT_NEAR(inertiaBeyondJoint_kgm2(m, "r_foot"), 6.44133401559e-06 + m_kg * (y * y + z * z), 1e-12);
  const RobotModel rig = loadRobotFile(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/identification/ankle_r_foot.urdf");
  EXPECT_NEAR(inertiaBeyondJoint_kgm2(rig, "r_foot"), inertiaBeyondJoint_kgm2(m, "r_foot"), 1e-15);
}

TEST(ServoId, ReplayOfSyntheticDataMatches) {
  // The one-joint rig with the true gains reproduces the synthetic log. Not exactly: ODE at 1 ms
  // with implicit damping, and the servo law reads the encoder quantised to 0.0051 rad, which
  // perturbs this lightly damped (zeta 0.3) oscillation; measured 0.020 rad rms on 2 rad steps.
  // Tolerance 0.05 rad (2.5 % of the step); the real-data replays differ by 0.05 .. 0.7 rad.
  const Truth tr;
  const ServoStepLog log = synthetic(tr, 0.33, 4, 0.001);
  const RobotModel rig = loadRobotFile(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/identification/ankle_r_foot.urdf");
  const double rig_I = inertiaBeyondJoint_kgm2(rig, "r_foot");
  const ServoReplay rep = replayServoExperiment(log, rig, "r_foot", rig_I, tr.I, tr.kp, tr.kd, tr.kc);
  EXPECT_LT(rep.rms_rad, 0.05) << rep.rms_rad;
}

TEST(ServoId, RealSlope32Log) {
  // The real ankle log. With the model's foot inertia (2.0e-5 kg m^2) the absolute gains are far
  // below the paper's (the paper's I is unknown and its rig may differ), so what is compared is
  // the I-free ratio kp/kd, the servo's time constant: the paper's 9.272/0.3069 = 30.2 1/s. The
  // quartic per 0.65 s segment cannot follow the real response (a 10 rad/s speed-limited ramp,
  // then a stop), which biases the ratio low; the tolerance is one order of magnitude
  // (3 .. 300 1/s), and kp, kd must come out positive.
  const ServoStepLog log = ServoStepLog::read(std::string(GAPSIM_TEST_DATA_DIR) + "/ankle_r_foot_slope32.csv");
  ServoIdOptions o;
  o.inertia_kgm2 = 2.0158e-5;
  const ServoIdResult r = identifyServo(log, o);
  EXPECT_EQ(r.switches.size(), 5u);
  EXPECT_GT(r.kp_Nm_rad.value, 0);
  EXPECT_GT(r.kd_Nm_s_rad.value, 0);
  const double ratio = r.kp_Nm_rad.value / r.kd_Nm_s_rad.value;
  EXPECT_GT(ratio, 30.2 / 10) << ratio;
  EXPECT_LT(ratio, 30.2 * 10) << ratio;
}

TEST(ServoId, BadInput) {
  ServoStepLog flat;
  flat.source = "flat.csv";
  flat.time_s = {0, 1, 2};
  flat.q_target_rad = {1, 1, 1};
  flat.q_rad = {0, 0, 0};
  ServoIdOptions o;
  o.inertia_kgm2 = 1;
  EXPECT_THROW(identifyServo(flat, o), InputError);
  o.inertia_kgm2 = -1;
  EXPECT_THROW(identifyServo(flat, o), std::invalid_argument);
  // An absurd value is quoted so that a reader can take it in: six digits, not 309.
  o.inertia_kgm2 = 1;
  o.piece_s = -1e308;
  try {
    o.validate();
    FAIL() << "a piece length of -1e308 s was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("got -1e+308"), std::string::npos) << e.what();
    EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
  }
}

TEST(ServoId, NoiseFreeWithinTwoPercentOnTheOneJointRigSimulation) {
  // Acceptance: synthetic data from a SIMULATED single joint with known gains. The rig
  // (robots/bioloid/identification/ankle_r_foot.urdf, the model's foot on the r_foot axis) is run
  // by replayServoExperiment with the paper's gains scaled to the rig's inertia (kp/I, kd/I, kc/I
  // as in the RK4 truth), its q(t) is identified, and kp, kd must come back within 2 %.
  RobotModel rig = loadRobotFile(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/identification/ankle_r_foot.urdf");
  // An exact encoder: the 0.0051 rad quantisation inside the servo law is not part of (1).
  for (Joint& j : rig.joints) j.encoder_resolution_rad = 0.0;
  const double I = inertiaBeyondJoint_kgm2(rig, "r_foot");
  const Truth tr;
  const double s = I / tr.I;  // same dynamics (kp/I, kd/I, kc/I) as the RK4 truth
  const ServoStepLog drive = synthetic(tr, 0.33, 6, 0.001);
  const ServoReplay rep = replayServoExperiment(drive, rig, "r_foot", I, I, tr.kp * s, tr.kd * s, tr.kc * s);
  ASSERT_GT(rep.q_sim_rad.size(), 100u);
  ServoStepLog sim;
  sim.source = "simulated rig";
  const std::size_t i0 = switchingInstants(drive.q_target_rad).front();  // the replay starts there
  for (std::size_t k = 0; k < rep.q_sim_rad.size(); ++k) {
    sim.time_s.push_back(rep.time_s[k]);
    sim.q_target_rad.push_back(drive.q_target_rad[i0 + k]);
    sim.q_rad.push_back(rep.q_sim_rad[k]);
  }
  ServoIdOptions o = piecewise(I);
  const ServoIdResult r = identifyServo(sim, o);
  EXPECT_NEAR(r.kp_Nm_rad.value, tr.kp * s, 0.02 * tr.kp * s);
  EXPECT_NEAR(r.kd_Nm_s_rad.value, tr.kd * s, 0.02 * tr.kd * s);
  // kc: 7 % low (measured 0.931 of the truth). Not the identification: the simulated joint's
  // Coulomb term is ODE's joint-motor friction (FMax = kc, target speed 0), which also holds the
  // joint at rest (static friction) and acts implicitly at the end of the step, whereas (1) has
  // sgn(0) = 0. The kc term is 0.3 % of the kp term here, so that difference shows in kc only.
  // Tolerance 10 %; kc within 2 % is met by the RK4 truth (RecoversKnownGainsWithinOnePercent).
  EXPECT_NEAR(r.kc_Nm.value, tr.kc * s, 0.10 * tr.kc * s);
}

TEST(ServoId, NinetyFivePercentIntervalsCoverTheTruthInNinetyOfHundredNoisySeeds) {
  // Acceptance: 100 noisy synthetic step tests (the RK4 joint with the paper's gains,
  // Gaussian noise 0.002 rad on q, 1 kHz, quartic pieces of 20 ms); the 95 % interval of each
  // gain must contain the true value in at least 90 of them. Binomial(100, 0.95) puts >= 90
  // at 98.9 %, so a correct interval passes; the piece-clustered intervals account for the
  // residuals of one piece being correlated (they share one polynomial).
  const Truth tr;
  int cover[3] = {0, 0, 0};
  for (unsigned seed = 1; seed <= 100; ++seed) {
    const ServoStepLog log = synthetic(tr, 0.33, 4, 0.001, 0.002, seed);
    ServoIdOptions o = piecewise(tr.I);
    const ServoIdResult r = identifyServo(log, o);
    const GainEstimate* g[3] = {&r.kp_Nm_rad, &r.kd_Nm_s_rad, &r.kc_Nm};
    const double truth[3] = {tr.kp, tr.kd, tr.kc};
    for (int j = 0; j < 3; ++j) cover[j] += std::abs(g[j]->value - truth[j]) <= g[j]->half_width;
  }
  EXPECT_GE(cover[0], 90) << "kp";
  EXPECT_GE(cover[1], 90) << "kd";
  EXPECT_GE(cover[2], 90) << "kc";
  std::printf("coverage of the 95 %% intervals in 100 seeds: kp %d, kd %d, kc %d\n", cover[0], cover[1], cover[2]);
}
