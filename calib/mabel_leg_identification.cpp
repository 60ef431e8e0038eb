// SPDX-License-Identifier: BSD-3-Clause
#include "calib/mabel_leg_identification.h"

#include <ceres/ceres.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "calib/dense_fit.h"
#include "calib/jacobian_gram.h"
#include "calib/log_sampling.h"
#include "calib/rng.h"
#include "calib/servo_identification.h"
#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "sim/mabel_legs.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"

namespace gapsim::calib {

namespace {
constexpr double kBiasScale_Nm = 0.01;    // b is optimised in units of 10 mN m (well-scaled steps)
constexpr double kStartScale_rad = 1e-3;  // start offsets in mrad

bool isMu(LegParam p) { return p == LegParam::mu_mLA || p == LegParam::mu_mLS; }
bool onMLA(LegParam p) { return p == LegParam::mu_mLA || p == LegParam::b_mLA; }

// Optimisation variable <-> parameter.
double toX(LegParam p, double v) { return isMu(p) ? std::log(v) : v / kBiasScale_Nm; }
double fromX(LegParam p, double x) { return isMu(p) ? std::exp(x) : x * kBiasScale_Nm; }

/// The stand model with the experiment's locks and the leg's transmission, the other leg locked,
/// the leg's hip and knee at the pose of the motor angles (rigid cables, q_Bsp = 0).
std::shared_ptr<const RobotModel> prepareStand(const RobotModel& stand, const LegExperiment& e,
                                               const motorgear::MabelTransmission::Params& leg, double q0_mLA,
                                               double q0_mLS) {
  const int li = standLegIndex(stand, e.side);
  auto m = std::make_shared<RobotModel>(stand);
  for (std::size_t i = 0; i < m->mabel_legs.size(); ++i) {
    auto& p = m->mabel_legs[i].params;
    if (static_cast<int>(i) == li) {
      p = leg;
      p.lock_mLA = !e.actuated_mLA;
      p.lock_mLS = !e.actuated_mLS;
    } else {
      p.lock_mLA = p.lock_mLS = true;
    }
    p.lock_Bsp = true;  // Sec. V: "the position of the B_Spring pulley is fixed as well"
  }
  const MabelLegSpec& s = m->mabel_legs[static_cast<std::size_t>(li)];
  // Eqs. (5)-(6) with q_Bsp = 0, then q_Th = pi - hip, q_Sh = pi - hip - knee (robots/mabel/README.md).
  const double q_LA = q0_mLA / leg.mLA.gamma, q_LS = q0_mLS / leg.mLS.gamma;
  m->initial_q[static_cast<std::size_t>(s.knee)] = 2.0 * q_LS;
  m->initial_q[static_cast<std::size_t>(s.hip)] = std::numbers::pi - q_LA - q_LS;
  return m;
}

/// Residuals y_exp - y_sim of the actuated motors, k = 1..n-1, from the optimisation variables.
struct LegResiduals {
  const RobotModel* stand;
  LegExperiment e;
  motorgear::MabelTransmission::Params leg;
  const LegExperimentLog* log;
  std::vector<LegParam> params;
  LegPose pose;
  bool fit_start;  // x continues with the start offsets of the actuated motors (mLA first), in mrad
  std::atomic<int>* sims;

  motorgear::MabelTransmission::Params at(const double* x) const {
    motorgear::MabelTransmission::Params p = leg;
    for (std::size_t i = 0; i < params.size(); ++i) setLegParam(p, params[i], fromX(params[i], x[i]));
    return p;
  }
  LegPose startAt(const double* x) const {
    LegPose q = pose;
    if (!fit_start) return q;
    std::size_t i = params.size();
    if (e.actuated_mLA) q.q_mLA_rad += kStartScale_rad * x[i++];
    if (e.actuated_mLS) q.q_mLS_rad += kStartScale_rad * x[i++];
    return q;
  }
  LegResponse simulate(const double* x) const {
    ++*sims;
    const LegPose q = startAt(x);
    return simulateLegExperiment(*stand, e, at(x), q.q_mLA_rad, q.q_mLS_rad, log->u_mLA_Nm, log->u_mLS_Nm,
                                 log->sample_time_s);
  }
  /// Trial values outside the physical box are refused (Ceres then shrinks its step): mu in
  /// [1e-7, 10] N m s/rad, |b| <= 10 N m, start offsets within 50 mrad of the first sample (an
  /// encoder's noise, not another experiment). Cheaper than Ceres' bounds, which cost some 60 %
  /// more simulations per fit here.
  bool inBox(const double* x) const {
    for (std::size_t i = 0; i < params.size(); ++i) {
      const double v = fromX(params[i], x[i]);
      if (isMu(params[i]) ? !(v >= 1e-7 && v <= 10.0) : !(std::abs(v) <= 10.0)) return false;
    }
    const LegPose q = startAt(x);
    return std::abs(q.q_mLA_rad - pose.q_mLA_rad) <= 0.05 && std::abs(q.q_mLS_rad - pose.q_mLS_rad) <= 0.05;
  }
  bool operator()(double const* const* x, double* r) const {
    if (!inBox(x[0])) return false;
    LegResponse y;
    try {
      y = simulate(x[0]);
    } catch (const DivergenceError&) {
      return false;  // Ceres rejects the step
    } catch (const std::invalid_argument&) {
      return false;  // a trial value the transmission refuses
    }
    const std::size_t n = log->time_s.size();
    std::size_t j = 0;
    if (e.actuated_mLA)
      for (std::size_t k = 1; k < n; ++k) r[j++] = log->q_mLA_rad[k] - y.q_mLA_rad[k];
    if (e.actuated_mLS)
      for (std::size_t k = 1; k < n; ++k) r[j++] = log->q_mLS_rad[k] - y.q_mLS_rad[k];
    for (std::size_t i = 0; i < j; ++i)
      if (!std::isfinite(r[i])) return false;
    return true;
  }
};

double quantile(double confidence, std::size_t dof) {
  return studentTQuantile(0.5 + confidence / 2.0, static_cast<double>(std::max<std::size_t>(dof, 1)));
}

double sumSquares(const LegExperimentLog& log, const LegExperiment& e, const LegResponse& y) {
  double s = 0;
  for (std::size_t k = 1; k < log.time_s.size(); ++k) {
    if (e.actuated_mLA) s += std::pow(log.q_mLA_rad[k] - y.q_mLA_rad[k], 2);
    if (e.actuated_mLS) s += std::pow(log.q_mLS_rad[k] - y.q_mLS_rad[k], 2);
  }
  return s;
}

}  // namespace

namespace {

/// Each identified parameter: its name, the motor it belongs to and the field (units: N m s/rad
/// for mu, N m for b), in LegParam's order.
struct LegParamField {
  const char* name;
  motorgear::MabelTransmission::Motor motorgear::MabelTransmission::Params::*motor;
  double motorgear::MabelTransmission::Motor::*field;
};
using TP = motorgear::MabelTransmission::Params;
using TM = motorgear::MabelTransmission::Motor;
constexpr std::array<LegParamField, 4> kLegParams{{{"mu_mLA", &TP::mLA, &TM::mu_Nms_rad},
                                                   {"mu_mLS", &TP::mLS, &TM::mu_Nms_rad},
                                                   {"b_mLA", &TP::mLA, &TM::b_Nm},
                                                   {"b_mLS", &TP::mLS, &TM::b_Nm}}};

const LegParamField& fieldOf(LegParam q) { return kLegParams.at(static_cast<std::size_t>(q)); }

}  // namespace

const char* legParamName(LegParam p) { return fieldOf(p).name; }

double legParamValue(const motorgear::MabelTransmission::Params& p, LegParam q) {
  const LegParamField& f = fieldOf(q);
  return (p.*f.motor).*f.field;
}

void setLegParam(motorgear::MabelTransmission::Params& p, LegParam q, double v) {
  const LegParamField& f = fieldOf(q);
  (p.*f.motor).*f.field = v;
}

double tableIIIFriction_Nms(LegSide side, bool mLA) {
  // Table III, i = 3 (the whole path), divided by Table IV's K_T.
  if (side == LegSide::Left) return mLA ? 3.858e-3 / 1.332 : 7.142e-3 / 0.995;
  return mLA ? 4.703e-3 / 1.269 : 9.879e-3 / 1.287;
}

double tableVFriction_Nms(LegSide side, bool mLA) {
  if (side == LegSide::Left) return mLA ? 4.316e-3 : 9.844e-3;
  return mLA ? 4.615e-3 : 9.027e-3;
}

double tableVBias_Nm(LegSide side, bool mLA) {
  if (side == LegSide::Left) return mLA ? 2.597e-2 : -8.417e-3;
  return mLA ? -2.461e-3 : -1.446e-2;
}

LegExperimentLog LegExperimentLog::read(const std::string& path, const LegExperiment& e) {
  const CsvTable t = CsvTable::read(path);
  LegExperimentLog log;
  log.source = path;
  log.time_s = t.column("time_s");
  const std::size_t n = log.time_s.size();
  auto motor = [&](bool actuated, const char* u_name, const char* q_name, std::vector<double>& u,
                   std::vector<double>& q) {
    if (actuated) {
      u = t.column(u_name);  // InputError naming the file and column if absent
      q = t.column(q_name);
    } else {
      u.assign(n, 0.0);
      if (t.has(q_name)) q = t.column(q_name);
    }
  };
  motor(e.actuated_mLA, "u_mLA_Nm", "q_mLA_rad", log.u_mLA_Nm, log.q_mLA_rad);
  motor(e.actuated_mLS, "u_mLS_Nm", "q_mLS_rad", log.u_mLS_Nm, log.q_mLS_rad);
  if (n < 10) throw InputError(path, 0, "", "a leg experiment log needs at least 10 samples, got " + std::to_string(n));
  log.sample_time_s = uniformSampleTime_s(t, log.time_s, path, "the input is held over one sample time");
  return log;
}

void LegExperimentLog::write(const std::string& path, const std::string& comment) const {
  std::ofstream f(path);
  if (!f) throw InputError(path, 0, "", "cannot write");
  if (!comment.empty()) f << "# " << comment << "\n";
  f << "time_s,u_mLA_Nm,u_mLS_Nm,q_mLA_rad,q_mLS_rad\n" << std::setprecision(12);
  for (std::size_t k = 0; k < time_s.size(); ++k) {
    f << time_s[k] << ',' << u_mLA_Nm[k] << ',' << u_mLS_Nm[k] << ',' << (q_mLA_rad.empty() ? 0.0 : q_mLA_rad[k]) << ','
      << (q_mLS_rad.empty() ? 0.0 : q_mLS_rad[k]) << '\n';
  }
  f.close();
  if (!f) throw InputError(path, 0, "", "write failed");
}

int standLegIndex(const RobotModel& stand, LegSide side) {
  if (!stand.fixed_base)
    throw std::invalid_argument("leg stand '" + stand.source_file +
                                "': the torso must be fixed (root link 'world'), as on the paper's test stand");
  const std::string want = side == LegSide::Left ? "mabel/left" : "mabel/right";
  for (std::size_t i = 0; i < stand.mabel_legs.size(); ++i)
    if (stand.mabel_legs[i].name == want) return static_cast<int>(i);
  throw std::invalid_argument("leg stand '" + stand.source_file + "' has no <mabel_leg name=\"" + want + "\">");
}

LegPose standInitialPose(const RobotModel& stand, LegSide side) {
  const MabelLegSpec& s = stand.mabel_legs[static_cast<std::size_t>(standLegIndex(stand, side))];
  const double hip = stand.initial_q[static_cast<std::size_t>(s.hip)];
  const double knee = stand.initial_q[static_cast<std::size_t>(s.knee)];
  const double q_LA = std::numbers::pi - hip - 0.5 * knee, q_LS = 0.5 * knee;
  return {s.params.mLA.gamma * q_LA, s.params.mLS.gamma * q_LS};
}

LegPose logStartPose(const RobotModel& stand, const LegExperiment& e, const LegExperimentLog& log) {
  LegPose pose = standInitialPose(stand, e.side);
  // An actuated motor starts at its first sample; a locked motor stays at one angle, so the mean of
  // its column is the best reading of it (its first sample alone carries the encoder noise, and
  // through gravity's coupling of q_LA and q_LS that noise would offset the whole response).
  auto start = [&](bool actuated, const std::vector<double>& q, double& out) {
    if (q.empty()) return;
    if (actuated) {
      out = q[0];
      return;
    }
    double s = 0;
    for (double v : q) s += v;
    out = s / static_cast<double>(q.size());
  };
  start(e.actuated_mLA, log.q_mLA_rad, pose.q_mLA_rad);
  start(e.actuated_mLS, log.q_mLS_rad, pose.q_mLS_rad);
  return pose;
}

namespace {

/// The amplifier commands of the experiment: u[k] held from sample k to k + 1, that is for the
/// m physics steps that start at step k m.
class LegCommands : public Controller {
 public:
  LegCommands(int leg, std::span<const double> u_mLA_Nm, std::span<const double> u_mLS_Nm, long steps_per_sample)
      : leg_(leg), u_mLA_Nm_(u_mLA_Nm), u_mLS_Nm_(u_mLS_Nm), steps_per_sample_(steps_per_sample) {}
  void update(Simulation& sim) override {
    const auto k = static_cast<std::size_t>(sim.stepCount() / steps_per_sample_);
    mabelLeg(sim, leg_).setMotorCommands_Nm(u_mLA_Nm_[k], u_mLS_Nm_[k]);
  }

 private:
  int leg_;
  std::span<const double> u_mLA_Nm_, u_mLS_Nm_;
  long steps_per_sample_;
};

/// The motor encoders at the sample instants (every m physics steps).
class LegSampler : public Observer {
 public:
  LegSampler(int leg, long steps_per_sample, LegResponse& y) : leg_(leg), steps_per_sample_(steps_per_sample), y_(y) {}
  void record(const Simulation& sim, std::size_t k) {
    const auto& st = mabelLeg(sim, leg_).transmission().state();
    y_.q_mLA_rad[k] = st.q_mLA_rad;
    y_.q_mLS_rad[k] = st.q_mLS_rad;
  }
  void afterStep(const Simulation& sim) override {
    if (sim.stepCount() % steps_per_sample_ == 0)
      record(sim, static_cast<std::size_t>(sim.stepCount() / steps_per_sample_));
  }

 private:
  int leg_;
  long steps_per_sample_;
  LegResponse& y_;
};

}  // namespace

LegResponse simulateLegExperiment(const RobotModel& stand, const LegExperiment& e,
                                  const motorgear::MabelTransmission::Params& leg, double q0_mLA, double q0_mLS,
                                  std::span<const double> u_A, std::span<const double> u_S, double Ts) {
  if (u_A.size() != u_S.size())
    throw std::invalid_argument("leg experiment: u_mLA and u_mLS differ in length (" + std::to_string(u_A.size()) +
                                " vs " + std::to_string(u_S.size()) + ")");
  if (!e.actuated_mLA && !e.actuated_mLS) throw std::invalid_argument("leg experiment: no motor is actuated");
  const double dt = stand.solver.dt_s;
  const double ratio = Ts / dt;
  const long m = std::lround(ratio);
  if (!(m >= 1) || std::abs(ratio - static_cast<double>(m)) > 1e-6 * ratio)
    throw std::invalid_argument("leg experiment: sample time " + sixDigits(Ts) +
                                " s is not a whole number of the stand's dt " + sixDigits(dt) + " s");
  const int li = standLegIndex(stand, e.side);
  Simulation sim(prepareStand(stand, e, leg, q0_mLA, q0_mLS));
  LegResponse y;
  const std::size_t n = u_A.size();
  y.q_mLA_rad.resize(n);
  y.q_mLS_rad.resize(n);
  if (n == 0) return y;
  LegCommands commands(li, u_A, u_S, m);
  LegSampler sampler(li, m, y);
  sampler.record(sim, 0);
  Observer* observers[] = {&sampler};
  RunConfig cfg;
  cfg.duration_s = static_cast<double>((n - 1) * static_cast<std::size_t>(m)) * sim.dt_s();  // (n - 1) m steps
  cfg.throw_divergence = true;
  run(sim, commands, observers, cfg, nullptr);
  return y;
}

LegHold legHoldCommands(const RobotModel& stand, LegSide side, const motorgear::MabelTransmission::Params& leg,
                        const LegPose& pose) {
  LegExperiment locked;  // neither motor actuated: prepareStand locks both
  locked.side = side;
  locked.actuated_mLA = locked.actuated_mLS = false;
  Simulation sim(prepareStand(stand, locked, leg, pose.q_mLA_rad, pose.q_mLS_rad));
  const int li = standLegIndex(stand, side);
  Hold hold;  // both motors locked: nothing to command while the leg settles
  RunConfig cfg;
  cfg.duration_s = 2.0;
  cfg.throw_divergence = true;
  run(sim, hold, {}, cfg, nullptr);
  // At rest eq. (17) reads 0 = (u + b)/K_T - tau_cable.
  const auto& pr = mabelLeg(sim, li).transmission().probes();
  return {leg.mLA.K_T * pr.cable_torque_mLA_Nm - leg.mLA.b_Nm, leg.mLS.K_T * pr.cable_torque_mLS_Nm - leg.mLS.b_Nm};
}

LegHold staticBiasEstimate(const RobotModel& stand, const LegExperiment& e,
                           const motorgear::MabelTransmission::Params& leg, const LegExperimentLog& log) {
  // The leg's mean pose answers the mean input about as a static leg would (the chirp averages
  // out): b ~ u_hold(mean pose, b = 0) - mean(u).
  LegPose mean = logStartPose(stand, e, log);
  auto avg = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / static_cast<double>(v.size());
  };
  if (e.actuated_mLA) mean.q_mLA_rad = avg(log.q_mLA_rad);
  if (e.actuated_mLS) mean.q_mLS_rad = avg(log.q_mLS_rad);
  auto p = leg;
  p.mLA.b_Nm = p.mLS.b_Nm = 0.0;
  const LegHold h = legHoldCommands(stand, e.side, p, mean);
  return {e.actuated_mLA ? h.u_mLA_Nm - avg(log.u_mLA_Nm) : leg.mLA.b_Nm,
          e.actuated_mLS ? h.u_mLS_Nm - avg(log.u_mLS_Nm) : leg.mLS.b_Nm};
}

LegExperimentLog synthesizeLegExperiment(const RobotModel& stand, const LegExperiment& e,
                                         const motorgear::MabelTransmission::Params& leg, const LegPose& start,
                                         const LegExcitation& x) {
  if (!(x.encoder_rad >= 0) || !std::isfinite(x.encoder_rad))
    throw std::invalid_argument("leg excitation: encoder step " + sixDigits(x.encoder_rad) + " rad must be >= 0");
  if (!(x.noise_rad >= 0) || !std::isfinite(x.noise_rad))
    throw std::invalid_argument("leg excitation: noise " + sixDigits(x.noise_rad) + " rad must be >= 0");
  if (!e.actuated_mLA && !e.actuated_mLS) throw std::invalid_argument("leg excitation: no motor is actuated");
  ChirpSignal cA, cS;
  double Ts = 0;
  if (e.actuated_mLA) {
    cA = chirpExcitation(x.mLA);
    Ts = x.mLA.sample_time_s;
  }
  if (e.actuated_mLS) {
    cS = chirpExcitation(x.mLS);
    if (e.actuated_mLA && x.mLS.sample_time_s != Ts)
      throw std::invalid_argument("leg excitation: both chirps need the same sample time");
    Ts = x.mLS.sample_time_s;
  }
  const std::size_t n = std::max(cA.u_Nm.size(), cS.u_Nm.size());
  LegExperimentLog log;
  log.source = "synthetic";
  log.sample_time_s = Ts;
  log.time_s.resize(n);
  for (std::size_t k = 0; k < n; ++k) log.time_s[k] = static_cast<double>(k) * Ts;
  auto input = [&](bool on, const ChirpSignal& c, double offset) {
    std::vector<double> u(n, on ? offset : 0.0);
    if (on) std::copy(c.u_Nm.begin(), c.u_Nm.end(), u.begin());
    return u;
  };
  log.u_mLA_Nm = input(e.actuated_mLA, cA, x.mLA.offset_Nm);
  log.u_mLS_Nm = input(e.actuated_mLS, cS, x.mLS.offset_Nm);
  const LegResponse y =
      simulateLegExperiment(stand, e, leg, start.q_mLA_rad, start.q_mLS_rad, log.u_mLA_Nm, log.u_mLS_Nm, Ts);
  Rng rng(x.seed);
  auto measure = [&](const std::vector<double>& q) {
    std::vector<double> m(q);
    for (double& v : m) {
      if (x.noise_rad > 0) v += x.noise_rad * rng.normal();
      if (x.encoder_rad > 0) v = x.encoder_rad * std::round(v / x.encoder_rad);
    }
    return m;
  };
  log.q_mLA_rad = measure(y.q_mLA_rad);
  log.q_mLS_rad = measure(y.q_mLS_rad);
  return log;
}

namespace {

/// The fit's inputs: each parameter on an actuated motor, once, with a usable start; a sensible
/// confidence; a log sampled at whole steps of the stand.
void checkLegFitInputs(const RobotModel& stand, const LegExperiment& e, const LegExperimentLog& log,
                       std::span<const LegParam> params, std::span<const double> start, const LegFitOptions& o) {
  if (params.empty()) throw std::invalid_argument("leg fit: nothing to fit");
  if (params.size() != start.size()) throw std::invalid_argument("leg fit: one start value per parameter");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const LegParam p = params[i];
    if (onMLA(p) ? !e.actuated_mLA : !e.actuated_mLS)
      throw std::invalid_argument(std::string("leg fit: ") + legParamName(p) + " belongs to a locked motor");
    for (std::size_t j = 0; j < i; ++j)
      if (params[j] == p) throw std::invalid_argument(std::string("leg fit: ") + legParamName(p) + " given twice");
    if (isMu(p) ? !(start[i] > 0) || !std::isfinite(start[i]) : !std::isfinite(start[i]))
      throw std::invalid_argument(std::string("leg fit: start of ") + legParamName(p) + " = " + sixDigits(start[i]) +
                                  (isMu(p) ? " must be > 0" : " must be finite"));
  }
  if (!(o.confidence > 0.5 && o.confidence < 0.999))
    throw std::invalid_argument("leg fit: confidence must lie in (0.5, 0.999)");
  {
    const double ratio = log.sample_time_s / stand.solver.dt_s;
    if (std::abs(ratio - std::round(ratio)) > 1e-6 * ratio || std::round(ratio) < 1)
      throw InputError(log.source, 0, "time_s",
                       "sample time " + sixDigits(log.sample_time_s) + " s is not a whole number of the stand's dt " +
                           sixDigits(stand.solver.dt_s) + " s (" + stand.source_file + ")");
  }
}

/// Estimates with intervals from the covariance s^2 (G^T G)^-1 in x, G = d r / d x at the optimum
/// (Ceres' numeric Jacobian); infinite half widths where the data do not inform the parameters.
void addEstimates(ceres::Problem& problem, std::span<const LegParam> params, std::span<const double> start,
                  const std::vector<double>& x, std::size_t n_res, double ssr, const LegFitOptions& o,
                  LegFitResult& f) {
  const int p = static_cast<int>(x.size());
  const Eigen::MatrixXd GtG = jacobianGram(problem);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(GtG);
  const double lmax = eig.eigenvalues().maxCoeff(), lmin = eig.eigenvalues().minCoeff();
  const bool informative = lmax > 0 && lmin > 1e-12 * lmax;
  const Eigen::MatrixXd C = informative ? Eigen::MatrixXd(GtG.inverse()) : Eigen::MatrixXd::Zero(p, p);
  const std::size_t dof = n_res > static_cast<std::size_t>(p) ? n_res - static_cast<std::size_t>(p) : 1;
  const double s2 = ssr / static_cast<double>(dof);
  const double z = quantile(o.confidence, dof);
  for (std::size_t i = 0; i < params.size(); ++i) {
    LegFitEstimate est;
    est.param = params[i];
    est.start = start[i];
    est.value = fromX(params[i], x[i]);
    const double sd_x = std::sqrt(s2 * C(static_cast<int>(i), static_cast<int>(i)));
    // ln mu: delta method, mu (1 +- z sd); b: x is b / scale.
    est.half_width = informative ? (isMu(params[i]) ? z * est.value * sd_x : z * kBiasScale_Nm * sd_x)
                                 : std::numeric_limits<double>::infinity();
    f.estimates.push_back(est);
  }
}

}  // namespace

LegFitResult fitLegParameters(const RobotModel& stand, const LegExperiment& e,
                              const motorgear::MabelTransmission::Params& leg, const LegExperimentLog& log,
                              std::span<const LegParam> params, std::span<const double> start, const LegFitOptions& o) {
  checkLegFitInputs(stand, e, log, params, start, o);
  const LegPose pose = logStartPose(stand, e, log);

  const std::size_t n = log.time_s.size();
  const std::size_t n_res = (n - 1) * ((e.actuated_mLA ? 1 : 0) + (e.actuated_mLS ? 1 : 0));
  const int n_start = o.fit_start ? (e.actuated_mLA ? 1 : 0) + (e.actuated_mLS ? 1 : 0) : 0;
  const int p = static_cast<int>(params.size()) + n_start;
  std::atomic<int> sims{0};
  std::vector<double> x(static_cast<std::size_t>(p), 0.0);  // start offsets begin at 0
  for (std::size_t i = 0; i < params.size(); ++i) x[i] = toX(params[i], start[i]);

  auto* functor = new LegResiduals{&stand, e, leg, &log, {params.begin(), params.end()}, pose, o.fit_start, &sims};
  ceres::NumericDiffOptions nd;
  nd.relative_step_size = 1e-5;
  auto* cost =
      new ceres::DynamicNumericDiffCostFunction<LegResiduals, ceres::CENTRAL>(functor, ceres::TAKE_OWNERSHIP, nd);
  cost->AddParameterBlock(p);
  cost->SetNumResiduals(static_cast<int>(n_res));
  ceres::Problem problem;
  problem.AddResidualBlock(cost, nullptr, x.data());

  LegFitResult f;
  f.residuals = n_res;
  {
    const LegResponse y0 = functor->simulate(x.data());  // DivergenceError propagates: a bad start
    f.initial_cost_J_rad = std::sqrt(sumSquares(log, e, y0));
  }
  const ceres::Solver::Summary summary = solveDense(problem, o.max_iterations, 1e-10, 1e-9, 1e-14);
  f.iterations = static_cast<int>(summary.iterations.size());
  f.converged = summary.termination_type == ceres::CONVERGENCE;

  f.simulated = functor->simulate(x.data());
  const double ssr = sumSquares(log, e, f.simulated);
  f.cost_J_rad = std::sqrt(ssr);
  f.rms_rad = std::sqrt(ssr / static_cast<double>(n_res));

  addEstimates(problem, params, start, x, n_res, ssr, o, f);
  const LegPose q0 = functor->startAt(x.data());
  f.start_offset_mLA_rad = q0.q_mLA_rad - pose.q_mLA_rad;
  f.start_offset_mLS_rad = q0.q_mLS_rad - pose.q_mLS_rad;
  f.simulations = sims.load();
  return f;
}

}  // namespace gapsim::calib
