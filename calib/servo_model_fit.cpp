// SPDX-License-Identifier: BSD-3-Clause
#include "calib/servo_model_fit.h"

#include <ceres/ceres.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <stdexcept>

#include "calib/cma_es.h"
#include "calib/dense_fit.h"

namespace gapsim::calib {
namespace {

using motorgear::FrictionModel;

/// Unit triangle wave: identity on [0, 1], reflected outside.
double tri(double u) {
  const double r = u - 2.0 * std::floor(u / 2.0);
  return r <= 1.0 ? r : 2.0 - r;
}

double fromU(const ServoFitParam& p, double u) {
  const double t = tri(u);
  if (p.log_scale) return std::exp(std::log(p.lo) + t * (std::log(p.hi) - std::log(p.lo)));
  return p.lo + t * (p.hi - p.lo);
}

double toU(const ServoFitParam& p, double v) {
  if (p.log_scale) return (std::log(v) - std::log(p.lo)) / (std::log(p.hi) - std::log(p.lo));
  return (v - p.lo) / (p.hi - p.lo);
}

/// Per-log residuals r_i = (q_sim - q) / sqrt(n_l |L|), so sum r^2 = J^2.
bool residuals(const ServoModelSpec& spec, const std::vector<const ServoTestLog*>& logs, const ServoSimOptions& o,
               double* r) {
  std::size_t j = 0;
  for (const ServoTestLog* l : logs) {
    const ServoSimulation s = simulateServoLog(spec, *l, o);
    if (!s.finite) return false;
    const double w = 1.0 / std::sqrt(static_cast<double>(s.q_rad.size()) * static_cast<double>(logs.size()));
    for (std::size_t i = 0; i < s.q_rad.size(); ++i) r[j++] = w * (s.q_sim_rad[i] - s.q_rad[i]);
  }
  return true;
}

std::size_t residualCount(const std::vector<const ServoTestLog*>& logs) {
  std::size_t n = 0;
  for (const ServoTestLog* l : logs) n += l->log.time_s.size();
  return n;
}

struct PolishFunctor {
  const ServoModelSpec* start;
  const std::vector<ServoFitParam>* free;
  const std::vector<const ServoTestLog*>* logs;
  ServoSimOptions sim;
  bool operator()(double const* const* x, double* r) const {
    ServoModelSpec s = *start;
    for (std::size_t i = 0; i < free->size(); ++i) setServoParam(s, (*free)[i].name, fromU((*free)[i], x[0][i]));
    try {
      return residuals(s, *logs, sim, r);
    } catch (const std::invalid_argument&) {
      return false;
    }
  }
};

}  // namespace

double ServoTestLog::slopeFromName(const std::string& path) {
  static const std::regex re("slope([0-9]+)");
  std::smatch m;
  if (std::regex_search(path, m, re)) return std::stod(m[1].str());
  return 0.0;
}

double getServoParam(const ServoModelSpec& s, const std::string& name) {
  const auto& d = s.servo.drive;
  const double N = d.gear_ratio, V = d.firmware.supply_V;
  if (name == "inertia") return s.rig.inertia_kgm2;
  if (name == "stall_torque") return motorgear::stallTorque_Nm(d.motor, N, V);
  if (name == "no_load_speed") return motorgear::noLoadSpeed_rad_s(d.motor, N, V);
  if (name == "delay") return d.delay_s;
  if (name == "punch") return d.firmware.punch;
  if (name == "margin") return d.firmware.ccw_margin;
  if (name == "gravity") return s.rig.gravity_Nm;
  if (name == "load") return s.rig.load_Nm;
  if (name.rfind("friction/", 0) == 0) return s.servo.friction.get(name.substr(9));
  throw std::invalid_argument(
      "servo model: unknown parameter '" + name +
      "' (known: inertia stall_torque no_load_speed delay punch margin gravity load friction/<name>)");
}

void setServoParam(ServoModelSpec& s, const std::string& name, double v) {
  auto& d = s.servo.drive;
  const double N = d.gear_ratio, V = d.firmware.supply_V;
  if (name == "inertia")
    s.rig.inertia_kgm2 = v;
  else if (name == "stall_torque")
    d.motor.K_t_Nm_A = v * d.motor.R_Ohm / (N * V);
  else if (name == "no_load_speed")
    d.motor.K_e_V_s_rad = V / (N * v);
  else if (name == "delay")
    d.delay_s = v;
  else if (name == "punch")
    d.firmware.punch = v;
  else if (name == "margin")
    d.firmware.ccw_margin = d.firmware.cw_margin = v;
  else if (name == "gravity")
    s.rig.gravity_Nm = v;
  else if (name == "load")
    s.rig.load_Nm = v;
  else if (name.rfind("friction/", 0) == 0)
    s.servo.friction.set(name.substr(9), v);
  else
    getServoParam(s, name);  // throws with the known names
}

ServoSimulation simulateServoLog(const ServoModelSpec& spec, const ServoTestLog& tl, const ServoSimOptions& o) {
  const ServoStepLog& log = tl.log;
  ServoSimulation out;
  const std::size_t n = log.time_s.size();
  if (n == 0) return out;
  ServoModelSpec s = spec;
  if (tl.slope > 0) s.servo.drive.firmware.cw_slope = s.servo.drive.firmware.ccw_slope = tl.slope;
  s.servo.drive.firmware.moving_speed_rad_s = tl.moving_speed_rad_s;
  const double dt = o.dt_s;
  const double t0 = log.time_s.front();
  auto simTime = [&](double t) { return (t - t0) * tl.time_scale; };
  const std::unique_ptr<motorgear::Drive> drive = motorgear::makeDynamixelServoDrive(s.servo, dt, log.q_target_rad[0]);
  motorgear::JointRig rig(s.rig, log.q_rad[0], 0.0);
  const double t_end = simTime(log.time_s.back()) + o.stamp_offset_s * tl.time_scale + 2 * dt;
  const auto steps = static_cast<std::size_t>(std::ceil(t_end / dt)) + 1;
  std::vector<double> q(steps + 1);
  q[0] = log.q_rad[0];
  std::size_t j = 0;  // the log sample whose goal is in force
  for (std::size_t k = 0; k < steps; ++k) {
    const double t = k * dt;
    while (j + 1 < n && simTime(log.time_s[j + 1]) <= t + 1e-9) ++j;
    rig.step(dt, *drive, log.q_target_rad[j]);
    q[k + 1] = rig.state().q_rad;
  }
  out.time_s = log.time_s;
  out.q_rad = log.q_rad;
  out.q_target_rad = log.q_target_rad;
  out.q_sim_rad.resize(n);
  double ss = 0.0, sa = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = simTime(log.time_s[i]) + o.stamp_offset_s * tl.time_scale;
    const double x = t / dt;
    const auto k = std::min(static_cast<std::size_t>(std::max(0.0, std::floor(x))), steps - 1);
    const double a = std::clamp(x - static_cast<double>(k), 0.0, 1.0);
    const double qs = (1 - a) * q[k] + a * q[k + 1];
    out.q_sim_rad[i] = qs;
    const double e = qs - log.q_rad[i];
    ss += e * e;
    sa += std::abs(e);
  }
  out.rms_rad = std::sqrt(ss / n);
  out.mae_rad = sa / n;
  out.finite = std::isfinite(ss);
  return out;
}

double servoCost_rad(const ServoModelSpec& spec, const std::vector<const ServoTestLog*>& logs,
                     const ServoSimOptions& o) {
  double acc = 0.0;
  for (const ServoTestLog* l : logs) {
    const ServoSimulation s = simulateServoLog(spec, *l, o);
    if (!s.finite) return std::numeric_limits<double>::infinity();
    acc += s.rms_rad * s.rms_rad;
  }
  return std::sqrt(acc / logs.size());
}

namespace {

/// Levenberg-Marquardt refinement (Ceres' default, central differences) of the CMA-ES best `u` on the
/// stacked residuals of every training log; returns the point Ceres ends at.
Eigen::VectorXd polishWithCeres(const ServoModelSpec& base, const std::vector<ServoFitParam>& free,
                                const std::vector<const ServoTestLog*>& train, const ServoFitOptions& o,
                                const Eigen::VectorXd& u) {
  const int n = static_cast<int>(free.size());
  std::vector<double> x(u.data(), u.data() + n);
  auto* functor = new PolishFunctor{&base, &free, &train, o.sim};
  ceres::NumericDiffOptions nd;
  nd.relative_step_size = 1e-4;
  auto* cf =
      new ceres::DynamicNumericDiffCostFunction<PolishFunctor, ceres::CENTRAL>(functor, ceres::TAKE_OWNERSHIP, nd);
  cf->AddParameterBlock(n);
  cf->SetNumResiduals(static_cast<int>(residualCount(train)));
  ceres::Problem problem;
  problem.AddResidualBlock(cf, nullptr, x.data());
  solveDense(problem, o.polish_iterations, 1e-12, 1e-10);
  return Eigen::Map<Eigen::VectorXd>(x.data(), n);
}

}  // namespace

ServoFitResult fitServoModel(const ServoModelSpec& start, const std::vector<ServoFitParam>& free,
                             const std::vector<const ServoTestLog*>& train, const ServoFitOptions& o) {
  if (train.empty()) throw std::invalid_argument("servo fit: no training log");
  if (free.empty()) throw std::invalid_argument("servo fit: no free parameter");
  ServoModelSpec base = start;
  for (const ServoFitParam& p : free) {
    getServoParam(base, p.name);  // the name exists
    if (!(p.lo < p.hi) || (p.log_scale && !(p.lo > 0)) || !(p.value >= p.lo && p.value <= p.hi))
      throw std::invalid_argument("servo fit: parameter '" + p.name +
                                  "' needs lo < hi (lo > 0 on a log scale) and a "
                                  "start inside, got [" +
                                  std::to_string(p.lo) + ", " + std::to_string(p.hi) + "] start " +
                                  std::to_string(p.value));
    setServoParam(base, p.name, p.value);
  }
  const int n = static_cast<int>(free.size());
  auto specAt = [&](const Eigen::VectorXd& u) {
    ServoModelSpec s = base;
    for (int i = 0; i < n; ++i) setServoParam(s, free[i].name, fromU(free[i], u[i]));
    return s;
  };
  auto cost = [&](const Eigen::VectorXd& u) {
    try {
      return servoCost_rad(specAt(u), train, o.sim);
    } catch (const std::invalid_argument&) {
      return std::numeric_limits<double>::infinity();
    }
  };

  ServoFitResult r;
  Eigen::VectorXd u0(n);
  for (int i = 0; i < n; ++i) u0[i] = toU(free[i], free[i].value);
  Eigen::VectorXd best = u0;
  double best_f = cost(u0);
  r.evaluations = 1;
  if (o.max_evaluations > 0) {
    CmaEsSettings cs;
    cs.x0 = u0;
    cs.sigma0 = o.sigma0;
    cs.seed = o.seed;
    cs.ipop_restarts = o.ipop_restarts;
    cs.tol_fun = 1e-9;
    cs.tol_x = 1e-7;
    CmaEs es(cs);
    while (r.evaluations < o.max_evaluations) {
      const std::vector<Eigen::VectorXd> xs = es.ask();
      std::vector<double> f(xs.size());
      for (std::size_t k = 0; k < xs.size(); ++k) f[k] = cost(xs[k]);
      r.evaluations += static_cast<long>(xs.size());
      es.tell(f);
      if (es.bestFitness() < best_f) {
        best_f = es.bestFitness();
        best = es.best();
      }
      if (es.converged() && es.restarts() >= o.ipop_restarts) break;
    }
  }
  r.cost_cma_rad = best_f;

  if (o.polish) {
    const Eigen::VectorXd u = polishWithCeres(base, free, train, o, best);
    const double f = cost(u);
    ++r.evaluations;
    if (f < best_f) {
      best_f = f;
      best = u;
      r.polished = true;
    }
  }
  r.spec = specAt(best);
  r.params = free;
  for (int i = 0; i < n; ++i) r.params[i].value = fromU(free[i], best[i]);
  r.cost_rad = best_f;
  return r;
}

ServoModelSpec ax18StepTestSpec(FrictionModel m) {
  ServoModelSpec s;
  s.servo = motorgear::DynamixelServoModel::fromPreset(motorgear::dynamixelPreset("AX-18"));
  motorgear::GearFriction::Params& f = s.servo.friction;
  f.model = m;
  f.tau_c_Nm = 0.03;
  f.tau_s_Nm = 0.02;
  f.v_s_rad_s = 0.3;
  f.alpha = 1.35;
  f.k_l = f.k_ls = 0.05;
  f.k_m = f.k_e = f.k_ms = f.k_es = 0.05;
  f.q_d_1_Nm = f.q_b_1_Nm = 0.05;
  f.b_v_Nm_s_rad = 0.005;
  s.rig.inertia_kgm2 = 2e-3;
  return s;
}

std::vector<ServoFitParam> defaultServoFitParams(FrictionModel m, const ServoModelSpec& start) {
  // stall_torque and punch stay at the datasheet / register values: see the header.
  std::vector<ServoFitParam> p{
      {"inertia", 0, 1e-4, 3e-2, true},
      {"no_load_speed", 0, 4.0, 25.0, true},
      {"delay", 0, 0.0, 0.03, false},
  };
  for (const std::string& n : motorgear::GearFriction::Params::modelParamNames(m)) {
    if (n == "b_v") continue;  // one viscous term with the back-EMF: see the header
    if (n == "tau_c" || n == "tau_s")
      p.push_back({"friction/" + n, 0, 0.0, 0.5, false});
    else if (n == "v_s")
      p.push_back({"friction/" + n, 0, 0.02, 5.0, true});
    else if (n == "alpha")
      p.push_back({"friction/" + n, 0, 0.5, 5.0, false});
    else if (n == "b_v")
      p.push_back({"friction/" + n, 0, 0.0, 0.3, false});
    else
      p.push_back({"friction/" + n, 0, 0.0, 1.0, false});
  }
  for (ServoFitParam& q : p) q.value = std::clamp(getServoParam(start, q.name), q.lo, q.hi);
  return p;
}

ServoModelSpec nestedStart(const ServoModelSpec& spec, FrictionModel m) {
  ServoModelSpec s = spec;
  motorgear::GearFriction::Params& f = s.servo.friction;
  const auto had = motorgear::GearFriction::Params::modelParamNames(f.model);
  f.model = m;
  for (const std::string& n : motorgear::GearFriction::Params::modelParamNames(m))
    if (n != "v_s" && n != "alpha" && std::find(had.begin(), had.end(), n) == had.end()) f.set(n, 0.0);
  return s;
}

std::vector<HeldOutResult> heldOutValidation(FrictionModel m, const std::vector<ServoTestLog>& logs,
                                             const ServoFitOptions& o_in, const std::vector<ServoModelSpec>* warm,
                                             int evaluations_per_param) {
  std::vector<HeldOutResult> out;
  if (warm && warm->size() != logs.size())
    throw std::invalid_argument("held-out validation: " + std::to_string(warm->size()) + " warm starts for " +
                                std::to_string(logs.size()) + " logs");
  for (std::size_t k = 0; k < logs.size(); ++k) {
    const ServoModelSpec start = warm ? nestedStart((*warm)[k], m) : ax18StepTestSpec(m);
    const std::vector<ServoFitParam> free = defaultServoFitParams(m, start);
    ServoFitOptions o = o_in;
    if (o.max_evaluations == 0) o.max_evaluations = evaluations_per_param * static_cast<int>(free.size());
    HeldOutResult h;
    h.model = m;
    h.test_log = logs[k].name;
    std::vector<const ServoTestLog*> train;
    for (std::size_t i = 0; i < logs.size(); ++i)
      if (i != k) {
        train.push_back(&logs[i]);
        h.train_logs.push_back(logs[i].name);
      }
    if (train.empty()) train.push_back(&logs[k]);
    h.fit = fitServoModel(start, free, train, o);
    double ss = 0, sa = 0;
    for (const ServoTestLog* l : train) {
      const ServoSimulation s = simulateServoLog(h.fit.spec, *l, o.sim);
      ss += s.rms_rad * s.rms_rad;
      sa += s.mae_rad;
    }
    h.train_rms_rad = std::sqrt(ss / train.size());
    h.train_mae_rad = sa / train.size();
    const ServoSimulation t = simulateServoLog(h.fit.spec, logs[k], o.sim);
    h.test_rms_rad = t.rms_rad;
    h.test_mae_rad = t.mae_rad;
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace gapsim::calib
