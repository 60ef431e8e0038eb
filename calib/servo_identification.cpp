// SPDX-License-Identifier: BSD-3-Clause
#include "calib/servo_identification.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <stdexcept>

#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "sim/motion.h"
#include "sim/parameters.h"
#include "sim/robot_model.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"

namespace gapsim::calib {

namespace {

double sgn(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

}  // namespace

ServoStepLog ServoStepLog::read(const std::string& path) {
  CsvReadOptions opt;
  opt.time_order = TimeOrder::NonDecreasing;  // 1 ms stamps with repeats
  const CsvTable t = CsvTable::read(path, opt);
  ServoStepLog log;
  log.source = path;
  log.time_s = t.column("time_s");
  log.q_target_rad = t.column("q_target_rad");
  log.q_rad = t.column("q_rad");
  return log;
}

void ServoIdOptions::validate() const {
  if (!(inertia_kgm2 > 0) || !std::isfinite(inertia_kgm2))
    throw std::invalid_argument("servo identification: inertia must be finite and > 0 kg m^2, got " +
                                sixDigits(inertia_kgm2));
  if (poly_degree < 2 || poly_degree > 10)
    throw std::invalid_argument("servo identification: polynomial degree must be in 2..10 (qdd needs >= 2), got " +
                                std::to_string(poly_degree));
  if (!(piece_s >= 0) || !std::isfinite(piece_s))
    throw std::invalid_argument("servo identification: piece length must be >= 0 s, got " + sixDigits(piece_s));
  if (min_samples < poly_degree + 1)
    throw std::invalid_argument("servo identification: min_samples must be > the polynomial degree");
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("servo identification: confidence must be in (0, 1), got " + sixDigits(confidence));
}

std::vector<std::size_t> switchingInstants(std::span<const double> q_target_rad) {
  std::vector<std::size_t> s;
  for (std::size_t i = 1; i < q_target_rad.size(); ++i)
    if (q_target_rad[i] != q_target_rad[i - 1]) s.push_back(i);
  return s;
}

namespace {

using Pieces = std::vector<std::pair<std::size_t, std::size_t>>;

/// The samples cut into pieces [begin, end), each smoothed by one polynomial: one piece per step
/// (between switches), or, with piece_s > 0, equal pieces of about piece_s so that no short
/// remnant is left at a step's end.
Pieces stepPieces(const ServoStepLog& log, const std::vector<std::size_t>& switches, const ServoIdOptions& options) {
  const std::size_t n_all = log.time_s.size();
  Pieces pieces;
  for (std::size_t k = 0; k < switches.size(); ++k) {
    const std::size_t b = switches[k];
    const std::size_t e = k + 1 < switches.size() ? switches[k + 1] : n_all;
    if (options.piece_s <= 0) {
      pieces.emplace_back(b, e);
      continue;
    }
    // Equal pieces of about piece_s, so no short remnant is left at the end.
    const double len_s = log.time_s[e - 1] - log.time_s[b];
    const int count = std::max(1, static_cast<int>(std::lround(len_s / options.piece_s)));
    std::size_t start = b;
    for (int p = 1; p <= count; ++p) {
      const double t_end = log.time_s[b] + len_s * p / count;
      std::size_t stop = start;
      while (stop < e && (p == count || log.time_s[stop] < t_end)) ++stop;
      if (stop > start) pieces.emplace_back(start, stop);
      start = stop;
    }
  }

  return pieces;
}

/// Fits each piece's polynomial and appends its samples (smoothed angle, speed, acceleration and
/// the torque I qdd) to r.samples; piece_of gets each sample's piece. Returns the smoothing's
/// sum of squared residuals (rad^2).
double smoothPieces(const ServoStepLog& log, const Pieces& pieces, const ServoIdOptions& options, ServoIdResult& r,
                    std::vector<int>& piece_of) {
  double smooth_ss = 0.0;
  for (const auto& [b, e] : pieces) {
    if (static_cast<int>(e - b) < options.min_samples) continue;
    const std::span<const double> t(log.time_s.data() + b, e - b);
    const std::span<const double> q(log.q_rad.data() + b, e - b);
    Polynomial p;
    try {
      p = fitPolynomial(t, q, options.poly_degree);
    } catch (const std::invalid_argument&) {
      continue;  // too few distinct time stamps in this piece
    }
    ++r.pieces;
    for (std::size_t i = b; i < e; ++i) {
      ServoIdSample s{};
      s.time_s = log.time_s[i];
      s.q_target_rad = log.q_target_rad[i];
      s.q_rad = log.q_rad[i];
      s.q_smooth_rad = p.value(s.time_s);
      s.qd_rad_s = p.derivative(s.time_s);
      s.qdd_rad_s2 = p.second(s.time_s);
      s.tau_measured_Nm = options.inertia_kgm2 * s.qdd_rad_s2;
      smooth_ss += (s.q_rad - s.q_smooth_rad) * (s.q_rad - s.q_smooth_rad);
      r.samples.push_back(s);
      piece_of.push_back(r.pieces - 1);
    }
  }
  return smooth_ss;
}

/// Cluster-robust (sandwich) covariance with one cluster per polynomial piece: the residuals of a
/// piece share its coefficients and are strongly correlated, those of different pieces are not.
/// Cov = c (A^T A)^-1 [sum_g (A_g^T r_g)(A_g^T r_g)^T] (A^T A)^-1 with the usual small-sample
/// factor c = G/(G-1) (n-1)/(n-3).
Eigen::Matrix3d clusteredCovariance(const Eigen::MatrixXd& A, const Eigen::VectorXd& res,
                                    const std::vector<int>& piece_of, int piece_count, const Eigen::Matrix3d& AtA_inv) {
  const Eigen::Index n = A.rows();
  std::vector<Eigen::Vector3d> score(static_cast<std::size_t>(piece_count), Eigen::Vector3d::Zero());
  for (Eigen::Index i = 0; i < n; ++i)
    score[static_cast<std::size_t>(piece_of[static_cast<std::size_t>(i)])] += A.row(i).transpose() * res(i);
  Eigen::Matrix3d meat = Eigen::Matrix3d::Zero();
  for (const auto& sc : score) meat += sc * sc.transpose();
  const double G = piece_count;
  const double c = G / (G - 1) * (static_cast<double>(n) - 1) / (static_cast<double>(n) - 3);
  return c * AtA_inv * meat * AtA_inv;
}

}  // namespace

ServoIdResult identifyServo(const ServoStepLog& log, const ServoIdOptions& options) {
  options.validate();
  const std::size_t n_all = log.time_s.size();
  if (log.q_target_rad.size() != n_all || log.q_rad.size() != n_all)
    throw InputError(log.source, 0, "", "time_s, q_target_rad and q_rad differ in length");
  ServoIdResult r;
  r.inertia_kgm2 = options.inertia_kgm2;
  r.switches = switchingInstants(log.q_target_rad);
  if (r.switches.empty())
    throw InputError(log.source, 0, "q_target_rad", "q_target never changes: no step to identify from");

  const Pieces pieces = stepPieces(log, r.switches, options);

  std::vector<int> piece_of;  // per sample: index of its polynomial piece (the clusters)
  const double smooth_ss = smoothPieces(log, pieces, options, r, piece_of);
  const Eigen::Index n = static_cast<Eigen::Index>(r.samples.size());
  if (n < 10)
    throw InputError(log.source, 0, "q_rad", "only " + std::to_string(n) + " usable samples after the switches");

  Eigen::MatrixXd A(n, 3);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const ServoIdSample& s = r.samples[i];
    A(i, 0) = -(s.q_smooth_rad - s.q_target_rad);
    A(i, 1) = -s.qd_rad_s;
    A(i, 2) = -sgn(s.qd_rad_s);
    y(i) = s.tau_measured_Nm;
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(A);
  if (qr.rank() < 3)
    throw InputError(log.source, 0, "q_rad", "the regressors (q - q_target, qd, sgn qd) are linearly dependent");
  const Eigen::Vector3d theta = qr.solve(y);
  const Eigen::VectorXd pred = A * theta;
  const Eigen::VectorXd res = y - pred;
  const double rss = res.squaredNorm();
  r.dof = static_cast<int>(n) - 3;
  const double sigma2 = rss / r.dof;
  // (A^T A)^-1 from the QR: A P = Q R  =>  (A^T A)^-1 = P R^-1 R^-T P^T.
  const Eigen::Matrix3d R = qr.matrixR().topLeftCorner(3, 3).triangularView<Eigen::Upper>();
  const Eigen::Matrix3d Rinv = R.inverse();
  const Eigen::Matrix3d P = qr.colsPermutation();
  const Eigen::Matrix3d AtA_inv = P * Rinv * Rinv.transpose() * P.transpose();
  Eigen::Matrix3d cov = sigma2 * AtA_inv;
  int quantile_dof = r.dof;
  if (options.intervals == ServoIdOptions::Intervals::PieceClustered && r.pieces >= 4) {
    // The t quantile then has G - 1 degrees of freedom.
    cov = clusteredCovariance(A, res, piece_of, r.pieces, AtA_inv);
    quantile_dof = r.pieces - 1;
    r.clustered = true;
  }
  r.interval_dof = std::max(quantile_dof, 3);
  r.t_quantile = studentTQuantile(0.5 + 0.5 * options.confidence, std::max(quantile_dof, 3));
  GainEstimate* g[3] = {&r.kp_Nm_rad, &r.kd_Nm_s_rad, &r.kc_Nm};
  for (int j = 0; j < 3; ++j) {
    g[j]->value = theta(j);
    g[j]->std_error = std::sqrt(std::max(cov(j, j), 0.0));
    g[j]->half_width = r.t_quantile * g[j]->std_error;
  }
  for (Eigen::Index i = 0; i < n; ++i) r.samples[i].tau_predicted_Nm = pred(i);
  r.residual_rms_Nm = std::sqrt(rss / n);
  r.measured_rms_Nm = std::sqrt(y.squaredNorm() / n);
  const double tss = (y.array() - y.mean()).square().sum();
  r.r_squared = tss > 0 ? 1.0 - rss / tss : 0.0;
  for (int j = 0; j < 3; ++j) r.term_rms_Nm[j] = std::abs(theta(j)) * std::sqrt(A.col(j).squaredNorm() / n);
  r.smoothing_rms_rad = std::sqrt(smooth_ss / n);
  return r;
}

double normalQuantile(double p) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("normalQuantile: p must be in (0, 1)");
  // P. J. Acklam's rational approximation (relative error 1.15e-9) ...
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - 0.02425) {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  // ... refined by one Halley step on Phi(x) - p.
  const double e = 0.5 * std::erfc(-x / std::numbers::sqrt2) - p;
  const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

double studentTQuantile(double p, double dof) {
  if (!(dof >= 3)) throw std::invalid_argument("studentTQuantile: dof must be >= 3");
  const double z = normalQuantile(p);
  const double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
  const double g1 = (z3 + z) / 4;
  const double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
  const double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  const double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
  const double v = dof;
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

double inertiaBeyondJoint_kgm2(const RobotModel& model, const std::string& joint) {
  const int ji = model.jointIndex(joint);
  if (ji < 0) throw std::invalid_argument("inertiaBeyondJoint: no joint '" + joint + "'");
  const Joint& J = model.joints[ji];
  const Eigen::Vector3d axis = J.axis.normalized();
  double I = 0.0;
  // Depth-first over the subtree; pose = link frame in the joint frame (= child frame at q = 0).
  std::function<void(int, const Eigen::Isometry3d&)> visit = [&](int link, const Eigen::Isometry3d& pose) {
    const Link& L = model.links[link];
    if (L.has_inertial) {
      const Eigen::Isometry3d com = pose * L.inertial.origin;
      const Eigen::Matrix3d Ic = com.linear() * L.inertial.inertia_kgm2 * com.linear().transpose();
      const Eigen::Vector3d p = com.translation();
      const double d2 = p.squaredNorm() - std::pow(p.dot(axis), 2);  // squared distance to the axis
      I += axis.dot(Ic * axis) + L.inertial.mass_kg * d2;
    }
    for (const Joint& c : model.joints)
      if (c.parent == link) visit(c.child, pose * c.origin);
  };
  visit(J.child, Eigen::Isometry3d::Identity());
  return I;
}

namespace {

/// The step test's goal as the servo received it: before every step, the goal of the last log
/// sample at or before the simulated time.
class StepTestGoal : public Controller {
 public:
  StepTestGoal(const ServoStepLog& log, std::size_t i0, int joint, std::size_t joints)
      : log_(log), t0_s_(log.time_s[i0]), cmd_(i0), joint_(joint), targets_(joints, 0.0) {}
  void update(Simulation& sim) override {
    while (cmd_ + 1 < log_.time_s.size() && log_.time_s[cmd_ + 1] - t0_s_ <= sim.time_s()) ++cmd_;
    targets_[static_cast<std::size_t>(joint_)] = log_.q_target_rad[cmd_];
    sim.setTargets(targets_);
  }

 private:
  const ServoStepLog& log_;
  double t0_s_;
  std::size_t cmd_;
  int joint_;
  std::vector<double> targets_;
};

/// q_sim at every log sample from i0 on: a sample is taken at the first physics state at or
/// after its time, linearly interpolated from the state before it; the run stops after the last.
class StepTestSampler : public Observer {
 public:
  StepTestSampler(const ServoStepLog& log, std::size_t i0, int joint, const Simulation& sim, ServoReplay& out)
      : log_(log), t0_s_(log.time_s[i0]), next_(i0), joint_(joint), out_(out), q_prev_rad_(sim.jointAngle_rad(joint)) {}
  /// Samples every log time the state `sim` has reached (before the run: those at its start).
  void sample(const Simulation& sim) {
    for (; next_ < log_.time_s.size() && !(sim.time_s() < log_.time_s[next_] - t0_s_); ++next_) {
      const double t_rel = log_.time_s[next_] - t0_s_;
      double q_sim = sim.jointAngle_rad(joint_);
      if (sim.time_s() > t_prev_s_)
        q_sim = q_prev_rad_ + (t_rel - t_prev_s_) / (sim.time_s() - t_prev_s_) * (q_sim - q_prev_rad_);
      out_.time_s.push_back(log_.time_s[next_]);
      out_.q_rad.push_back(log_.q_rad[next_]);
      out_.q_sim_rad.push_back(q_sim);
    }
  }
  void afterStep(const Simulation& sim) override {
    sample(sim);
    q_prev_rad_ = sim.jointAngle_rad(joint_);
    t_prev_s_ = sim.time_s();
  }
  bool stopRequested() const override { return next_ == log_.time_s.size(); }

 private:
  const ServoStepLog& log_;
  double t0_s_;
  std::size_t next_;
  int joint_;
  ServoReplay& out_;
  double q_prev_rad_, t_prev_s_ = 0.0;  // the state before the latest step
};

}  // namespace

ServoReplay replayServoExperiment(const ServoStepLog& log, const RobotModel& one_joint_model, const std::string& joint,
                                  double model_inertia_kgm2, double gains_inertia_kgm2, double kp_Nm_rad,
                                  double kd_Nm_s_rad, double kc_Nm, double torque_limit_Nm) {
  ServoReplay out;
  const auto sw = switchingInstants(log.q_target_rad);
  if (sw.empty()) throw InputError(log.source, 0, "q_target_rad", "q_target never changes: nothing to replay");
  auto model = std::make_shared<RobotModel>(one_joint_model);
  const int ji = model->jointIndex(joint);
  if (ji < 0) throw InputError(model->source_file, 0, joint, "the replay robot has no joint '" + joint + "'");
  // (1) divided by I is what the data determine: scale the gains to the file's inertia.
  const double scale = model_inertia_kgm2 / gains_inertia_kgm2;
  double gains[3] = {kp_Nm_rad * scale, kd_Nm_s_rad * scale, kc_Nm * scale};
  const char* names[3] = {"kp", "kd", "kc"};
  for (int j = 0; j < 3; ++j)
    if (gains[j] < 0) {
      out.notes.push_back(std::string(names[j]) + " < 0 identified: replayed with " + names[j] + " = 0");
      gains[j] = 0;
    }
  // No clamp: a limit far above any torque of the experiment (ODE needs a finite FMax).
  const double limit = std::isfinite(torque_limit_Nm) ? torque_limit_Nm * scale : 1e9;
  setParameter(*model, joint + "/servo/tau_max", limit);
  setParameter(*model, joint + "/servo/tau_min", -limit);
  setParameter(*model, joint + "/servo/kp", gains[0]);
  setParameter(*model, joint + "/servo/kd", gains[1]);
  setParameter(*model, joint + "/servo/kc", gains[2]);
  const std::size_t i0 = sw.front();
  const double t0 = log.time_s[i0];
  model->initial_q[ji] = log.q_rad[i0];

  Simulation sim(model);
  StepTestGoal goal(log, i0, ji, model->joints.size());
  StepTestSampler sampler(log, i0, ji, sim, out);
  sampler.sample(sim);
  if (!sampler.stopRequested()) {
    Observer* observers[] = {&sampler};
    RunConfig cfg;
    // Long enough to reach the last sample (the sampler stops the run there).
    cfg.duration_s = log.time_s.back() - t0 + 2 * sim.dt_s();
    cfg.throw_divergence = true;
    run(sim, goal, observers, cfg, nullptr);
  }
  double ss = 0.0;
  for (std::size_t k = 0; k < out.q_rad.size(); ++k) ss += std::pow(out.q_sim_rad[k] - out.q_rad[k], 2);
  out.rms_rad = std::sqrt(ss / out.q_rad.size());
  return out;
}

}  // namespace gapsim::calib
