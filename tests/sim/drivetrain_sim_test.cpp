// SPDX-License-Identifier: BSD-3-Clause
// The MoToFlex drivetrain and the soft links inside the ODE world, against the answers their
// equations predict: step response of one joint, static sag of a soft beam, the Nao standing on
// the full pipeline, parameters by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

std::shared_ptr<RobotModel> data(const std::string& f) {
  return std::make_shared<RobotModel>(loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/" + f));
}

/// Time at which q first reaches `level` (linear interpolation between samples).
double crossing(const std::vector<double>& t, const std::vector<double>& q, double level) {
  for (size_t k = 1; k < q.size(); ++k)
    if (q[k - 1] < level && q[k] >= level) return t[k - 1] + (t[k] - t[k - 1]) * (level - q[k - 1]) / (q[k] - q[k - 1]);
  return NAN;
}

struct StepRun {
  std::vector<double> t, q;
};

StepRun stepResponse(std::shared_ptr<RobotModel> m, double target, double duration) {
  Simulation sim(m);
  sim.setTargets(std::vector<double>{target});
  StepRun r{{0.0}, {sim.jointAngle_rad(0)}};
  while (sim.time_s() < duration) {
    sim.step();
    r.t.push_back(sim.time_s());
    r.q.push_back(sim.jointAngle_rad(0));
  }
  return r;
}

/// The drivetrain's linear model seen from the joint (motor L/R = 48 us and the 12 kHz gear are
/// far faster than the mechanics and are neglected):
///   torque per volt G = sigma S K_t / R, stiffness K = G p, damping c = sigma B_v + G d dt,
///   inertia J = J_link + sigma^2 J_rotor;   J q'' + c q' + K q = K r.
struct LinearModel {
  double G, K, c, J;
  explicit LinearModel(const RobotModel& m) {
    const auto& p = m.joints[0].drive.motoflex;
    G = p.gear.sigma * p.motor.S * p.motor.K_t_Nm_A / p.motor.R_Ohm;
    K = G * p.pid.p_V_rad;
    c = p.gear.sigma * p.motor.B_v_Nm_s_rad + G * p.pid.d_V_rad * p.pid.dt_ref_s;
    J = 0.01 + p.gear.reflectedInertia_kgm2();
  }
};

TEST(DrivetrainSim, SmallStepRiseTimeMatchesTheLinearModel) {
  // 0.02 rad: the PID output (6.4 V) stays below the battery clamp, so the closed loop is the
  // linear 2nd-order system above. Overdamped: q(t) = r (1 + (s2 e^{s1 t} - s1 e^{s2 t}) / (s1 - s2)).
  auto m = data("single_joint_motoflex.urdf");
  const LinearModel lm(*m);
  const double disc = std::sqrt(lm.c * lm.c - 4 * lm.J * lm.K);
  ASSERT_GT(lm.c * lm.c, 4 * lm.J * lm.K) << "expected an overdamped joint";
  const double s1 = (-lm.c + disc) / (2 * lm.J), s2 = (-lm.c - disc) / (2 * lm.J);
  auto analytic = [&](double t) { return 1 + (s2 * std::exp(s1 * t) - s1 * std::exp(s2 * t)) / (s1 - s2); };
  std::vector<double> ta, qa;
  for (double t = 0; t < 1.0; t += 1e-5) {
    ta.push_back(t);
    qa.push_back(analytic(t));
  }
  const double rise_analytic = crossing(ta, qa, 0.9) - crossing(ta, qa, 0.1);
  const StepRun r = stepResponse(m, 0.02, 1.0);
  std::vector<double> qn;
  for (double q : r.q) qn.push_back(q / 0.02);
  const double rise = crossing(r.t, qn, 0.9) - crossing(r.t, qn, 0.1);
  // 3%: the 1 ms sampling of the PID (a one-step delay) and the neglected electrical and gear
  // dynamics shift the response by ~1 ms against a rise time of ~170 ms.
  std::printf("small step: rise time simulated %.4f s, linear model %.4f s\n", rise, rise_analytic);
  EXPECT_NEAR(rise, rise_analytic, 0.03 * rise_analytic)
      << "simulated " << rise << " s, model " << rise_analytic << " s";
  EXPECT_NEAR(r.q.back(), 0.02, 2e-4);  // P control with no load: no steady error
}

TEST(DrivetrainSim, LargeStepSlewsAtTheSpeedTheBatteryClampAllows) {
  // 0.5 rad: the PID output saturates at U_bat, the motor torque G U_bat is balanced by the speed
  // friction c_m = sigma B_v at the slew speed w0 = G U_bat / c_m (0.856 rad/s for type A; the
  // paper's B_v makes the Nao's joints slow). Saturation ends at the error e1 where the PID output
  // falls below U_bat (p e1 - Kd w0 = U_bat), then the error decays on the slow pole s1.
  auto m = data("single_joint_motoflex.urdf");
  const LinearModel lm(*m);
  const auto& p = m->joints[0].drive.motoflex;
  const double cm = p.gear.sigma * p.motor.B_v_Nm_s_rad;
  const double w0 = lm.G * p.pid.U_bat_V / cm;
  const double e1 = (p.pid.U_bat_V + p.pid.d_V_rad * p.pid.dt_ref_s * w0) / p.pid.p_V_rad;
  const double disc = std::sqrt(lm.c * lm.c - 4 * lm.J * lm.K);
  const double s1 = (-lm.c + disc) / (2 * lm.J);
  const double r = 0.5;
  const double t10 = 0.1 * r / w0 + lm.J / cm;  // acceleration lag J / c_m
  const double t_exit = (r - e1) / w0 + lm.J / cm;
  const double t90 = t_exit + std::log(e1 / (0.1 * r)) / -s1;
  const StepRun run = stepResponse(m, r, 1.5);
  std::vector<double> w;  // speed during the slew
  for (size_t k = 1; k < run.q.size(); ++k)
    if (run.q[k] > 0.2 && run.q[k] < 0.3) w.push_back((run.q[k] - run.q[k - 1]) / (run.t[k] - run.t[k - 1]));
  ASSERT_FALSE(w.empty());
  EXPECT_NEAR(w[w.size() / 2], w0, 0.01 * w0);
  const double rise = crossing(run.t, run.q, 0.9 * r) - crossing(run.t, run.q, 0.1 * r);
  std::printf("large step: slew %.4f rad/s (predicted %.4f), rise time %.4f s (predicted %.4f s)\n", w[w.size() / 2],
              w0, rise, t90 - t10);
  EXPECT_NEAR(rise, t90 - t10, 0.03 * (t90 - t10)) << "simulated " << rise << " s, predicted " << t90 - t10 << " s";
}

TEST(DrivetrainSim, SoftBeamSagsByTorqueOverDB) {
  // alpha = tau / D_B: tau = g (0.5 kg * 0.1 m + 0.5 kg * 0.2 m) about the soft joint (see the
  // robot file). Small-angle error of the lever arms ~ alpha^2 / 2 ~ 1e-4, tolerance 1%.
  auto m = data("soft_cantilever.urdf");
  RunConfig cfg;
  cfg.duration_s = 4.0;
  cfg.probe_patterns = {"*soft*"};
  Simulation sim(m);
  Log log(Recorder(*m, cfg.probe_patterns).columns());
  runMotion(sim, nullptr, cfg, &log);
  const double predicted = 9.81 * (0.5 * 0.1 + 0.5 * 0.2) / 100.0;
  const auto a1 = log.column("beam/soft1/alpha1_rad"), a2 = log.column("beam/soft1/alpha2_rad");
  const double sag = std::max(std::abs(a1.back()), std::abs(a2.back()));
  std::printf("soft beam: sag %.6f rad, predicted tau/D_B = %.6f rad\n", sag, predicted);
  EXPECT_NEAR(sag, predicted, 0.01 * predicted) << "alpha1 " << a1.back() << " alpha2 " << a2.back();
  // Doubling D_B halves the sag.
  setParameter(*m, "beam/soft/D_B", 200.0);
  Simulation sim2(m);
  Log log2(Recorder(*m, cfg.probe_patterns).columns());
  runMotion(sim2, nullptr, cfg, &log2);
  const double sag2 = std::max(std::abs(log2.column("beam/soft1/alpha1_rad").back()),
                               std::abs(log2.column("beam/soft1/alpha2_rad").back()));
  EXPECT_NEAR(sag2, predicted / 2, 0.01 * predicted / 2);
}

TEST(DrivetrainSim, NaoStandsTenSecondsOnTheFullPipeline) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  ASSERT_EQ(m->joints[m->jointIndex("LKneePitch")].drive.kind, DriveKind::MoToFlex);
  ASSERT_EQ(m->soft_links.size(), 4u);
  Simulation sim(m);
  RunConfig cfg;
  cfg.duration_s = 10.0;
  const RunSummary s = runMotion(sim, nullptr, cfg, nullptr);
  EXPECT_FALSE(s.diverged) << s.divergence;
  EXPECT_FALSE(s.fall_time_s);
  EXPECT_LT(s.max_tilt_deg, 3.0);
}

TEST(DrivetrainSim, ParametersByNameReachEveryJointOfTheGroup) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  setParameter(*m, "legs/typeB/gear/D_g", 1.5e7);
  for (const char* j : {"LKneePitch", "RKneePitch", "LHipPitch", "RAnklePitch"})
    EXPECT_EQ(m->joints[m->jointIndex(j)].drive.motoflex.gear.D_g_Nm_rad, 1.5e7) << j;
  EXPECT_NE(m->joints[m->jointIndex("LHipRoll")].drive.motoflex.gear.D_g_Nm_rad, 1.5e7);
  setParameter(*m, "LKneePitch/motor/B_v", 0.01);
  EXPECT_EQ(m->joints[m->jointIndex("LKneePitch")].drive.motoflex.motor.B_v_Nm_s_rad, 0.01);
  EXPECT_NE(m->joints[m->jointIndex("RKneePitch")].drive.motoflex.motor.B_v_Nm_s_rad, 0.01);
  setParameter(*m, "*/enable/gear", 0);
  for (const Joint& j : m->joints)
    if (j.drive.kind == DriveKind::MoToFlex) {
      EXPECT_FALSE(j.drive.motoflex.enable_gear) << j.name;
    }
  setParameter(*m, "legs/soft/D_B", 3000);
  for (const SoftLink& s : m->soft_links) EXPECT_EQ(s.D_B_Nm_rad, 3000);
  // Unknown names and invalid values are bad input naming the parameter.
  try {
    setParameter(*m, "legs/typeB/gear/D_gx", 1);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "legs/typeB/gear/D_gx");
  }
  EXPECT_THROW(setParameter(*m, "legs/typeB/gear/substeps", 1), InputError);  // unstable: validate() says so
  // Round trip through a parameter file.
  const std::string f = ::testing::TempDir() + "/nao_params.csv";
  writeParameterFile(*m, f);
  auto m2 = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  loadParameterFile(*m2, f);
  const auto a = listParameters(*m), b = listParameters(*m2);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].value, b[i].value) << a[i].name;
}

TEST(DrivetrainSim, PlainIsIdealServosAndRigidLinks) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  makePlain(*m);
  for (const Joint& j : m->joints) EXPECT_EQ(j.drive.kind, DriveKind::Ideal);
  EXPECT_TRUE(m->soft_links.empty());
  Simulation sim(m);
  EXPECT_EQ(sim.drivetrain(m->jointIndex("LKneePitch")), nullptr);
}

}  // namespace
}  // namespace gapsim
