// SPDX-License-Identifier: BSD-3-Clause
#include "calib/resync_objective.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/kinematics.h"
#include "sim/motion_player.h"
#include "sim/recorder.h"
#include "sim/run_loop.h"

namespace gapsim::calib {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A log's value at time t: the sample itself at a sample time (within 1e-9 s, so that a log
/// compared with itself gives exactly zero), else linear interpolation; NaN outside its span.
double valueAt(const Log& log, std::size_t tcol, std::size_t col, double t_s) {
  const std::size_t n = log.rows();
  if (n == 0) return kNaN;
  std::size_t lo = 0, hi = n;  // first row with time >= t - 1e-9
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (log.at(mid, tcol) < t_s - 1e-9)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == n) return kNaN;
  const double t1 = log.at(lo, tcol);
  if (std::abs(t1 - t_s) <= 1e-9) return log.at(lo, col);
  if (lo == 0) return kNaN;
  const double t0 = log.at(lo - 1, tcol), v0 = log.at(lo - 1, col), v1 = log.at(lo, col);
  return v0 + (t_s - t0) / (t1 - t0) * (v1 - v0);
}

/// ODE's dQtoR, so that the matrix a body gets is the one ODE would derive from its quaternion.
std::array<double, 12> odeRotation(const std::array<double, 4>& q) {
  const double qq1 = 2 * q[1] * q[1], qq2 = 2 * q[2] * q[2], qq3 = 2 * q[3] * q[3];
  return {1 - qq2 - qq3,
          2 * (q[1] * q[2] - q[0] * q[3]),
          2 * (q[1] * q[3] + q[0] * q[2]),
          0,
          2 * (q[1] * q[2] + q[0] * q[3]),
          1 - qq1 - qq3,
          2 * (q[2] * q[3] - q[0] * q[1]),
          0,
          2 * (q[1] * q[3] - q[0] * q[2]),
          2 * (q[2] * q[3] + q[0] * q[1]),
          1 - qq1 - qq2,
          0};
}

/// Calls the wrapped controller's start() only once: the motion player and the ankle balance
/// (whose start() adjusts its filters) run on across windows as in one continuous run.
class Continuing : public Controller {
 public:
  void reset(Controller* inner) {
    inner_ = inner;
    started_ = false;
  }
  void start(Simulation& sim) override {
    if (!started_) inner_->start(sim);
    started_ = true;
  }
  void update(Simulation& sim) override { inner_->update(sim); }

 private:
  Controller* inner_ = nullptr;
  bool started_ = false;
};

}  // namespace

namespace {

/// The residual completed (a mimic joint follows its master's; a fixed or welded joint none),
/// the current angles q and the resynchronised ones qn. False when there is nothing to change.
bool completeResidual(const Simulation& sim, std::vector<double>& dq, std::vector<double>& dqd,
                      const std::optional<Eigen::Vector2d>& d_att, std::vector<double>& q, std::vector<double>& qn) {
  const RobotModel& m = sim.model();
  const CompiledModel& c = sim.compiled();
  const std::size_t nj = m.joints.size();
  for (std::size_t j = 0; j < nj; ++j) {
    const Mimic& mi = m.joints[j].mimic;
    if (mi.master < 0) continue;
    if (dq[j] == 0) dq[j] = mi.multiplier * dq[static_cast<std::size_t>(mi.master)];
    if (dqd[j] == 0) dqd[j] = mi.multiplier * dqd[static_cast<std::size_t>(mi.master)];
  }
  bool any = d_att && (d_att->x() != 0 || d_att->y() != 0);
  q.assign(nj, 0.0);
  qn.assign(nj, 0.0);
  for (std::size_t j = 0; j < nj; ++j) {
    q[j] = sim.jointAngle_rad(static_cast<int>(j));
    if (c.joints[j].row == CompiledModel::Joint::Row::None) dq[j] = dqd[j] = 0;  // fixed or welded
    qn[j] = q[j] + dq[j];
    any = any || dq[j] != 0 || dqd[j] != 0;
  }
  return any;
}

/// The lowest foot link in `P_old` (the root without feet): it stays where it is.
int anchorLink(const RobotModel& m, const std::vector<Eigen::Isometry3d>& P_old) {
  int anchor = m.root_link;
  double low = std::numeric_limits<double>::infinity();
  for (const FootContactSpec& f : m.foot_contacts) {
    const double z = P_old[static_cast<std::size_t>(f.link)].translation().z();
    if (z < low) {
      low = z;
      anchor = f.link;
    }
  }
  return anchor;
}

/// The root's pose for the angles qn: the anchor keeps its place, and its attitude or the IMU's
/// attitude corrected by d_att (pitch, roll; the yaw kept); the lowest collision point as high as
/// before, so that a foot in contact keeps its penetration.
Eigen::Isometry3d resyncedRootPose(const RobotModel& m, const std::vector<Eigen::Isometry3d>& P_old,
                                   const std::vector<double>& qn, std::size_t a,
                                   const std::optional<Eigen::Vector2d>& d_att) {
  const int root = m.root_link;
  Eigen::Isometry3d X = P_old[static_cast<std::size_t>(root)];
  if (m.fixed_base) return X;
  const std::vector<Eigen::Isometry3d> P0 = linkPoses(m, qn, Eigen::Isometry3d::Identity());
  Eigen::Matrix3d R;
  if (d_att) {
    const int imu_link = m.imus.empty() ? root : m.imus.front().link;
    const Eigen::Matrix3d Rs = m.imus.empty() ? Eigen::Matrix3d::Identity() : m.imus.front().R_link_sensor;
    const Eigen::Matrix3d S = P_old[static_cast<std::size_t>(imu_link)].linear() * Rs;  // sensor in world
    // ZYX Euler angles as Simulation::imu() reads them.
    const double yaw = std::atan2(S(1, 0), S(0, 0));
    const double pitch = std::asin(std::clamp(-S(2, 0), -1.0, 1.0)) + d_att->x();
    const double roll = std::atan2(S(2, 1), S(2, 2)) + d_att->y();
    const Eigen::Matrix3d S_new =
        (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
         Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
            .toRotationMatrix();
    R = S_new * Rs.transpose() * P0[static_cast<std::size_t>(imu_link)].linear().transpose();
  } else {
    R = P_old[a].linear() * P0[a].linear().transpose();  // the anchor foot keeps its attitude
  }
  X.linear() = R;
  X.translation() = P_old[a].translation() - R * P0[a].translation();
  const double z_old = lowestCollisionPoint_m(m, P_old), z_new = lowestCollisionPoint_m(m, linkPoses(m, qn, X));
  if (std::isfinite(z_old) && std::isfinite(z_new)) X.translation().z() += z_old - z_new;
  return X;
}

/// Moves every body of `s` with its link's rigid change M = Pn P_old^-1 (world frame): a rigid
/// group's links share it, and a soft link's segments keep their bending relative to each other.
/// With `rates`, adds the velocity of the change from Pm to Pp over 2 eps_s.
void moveBodies(const CompiledModel& c, const std::vector<Eigen::Isometry3d>& P_old,
                const std::vector<Eigen::Isometry3d>& Pn, const std::vector<Eigen::Isometry3d>& Pp,
                const std::vector<Eigen::Isometry3d>& Pm, bool rates, double eps_s, SimState& s) {
  std::vector<int> body_link(c.bodies.size(), -1);
  for (std::size_t l = c.link_body.size(); l-- > 0;)
    if (c.link_body[l] >= 0)
      for (int b = c.link_body[l]; b <= c.link_last_body[l]; ++b)
        body_link[static_cast<std::size_t>(b)] = static_cast<int>(l);
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    if (body_link[b] < 0) continue;
    const auto l = static_cast<std::size_t>(body_link[b]);
    SimState::Body& sb = s.bodies[b];
    Eigen::Isometry3d B_old = Eigen::Isometry3d::Identity();
    B_old.translation() = Eigen::Vector3d(sb.position_m[0], sb.position_m[1], sb.position_m[2]);
    B_old.linear() = Eigen::Quaterniond(sb.quaternion[0], sb.quaternion[1], sb.quaternion[2], sb.quaternion[3])
                         .normalized()
                         .toRotationMatrix();
    const Eigen::Isometry3d B = Pn[l] * P_old[l].inverse() * B_old;
    for (int i = 0; i < 3; ++i) sb.position_m[static_cast<std::size_t>(i)] = B.translation()[i];
    Eigen::Quaterniond qb(B.linear());
    qb.normalize();
    sb.quaternion = {qb.w(), qb.x(), qb.y(), qb.z()};
    sb.rotation = odeRotation(sb.quaternion);
    if (!rates) continue;
    const Eigen::Isometry3d Bp = Pp[l] * Pn[l].inverse() * B, Bm = Pm[l] * Pn[l].inverse() * B;
    const Eigen::Vector3d v = (Bp.translation() - Bm.translation()) / (2 * eps_s);
    const Eigen::AngleAxisd w(Bp.linear() * Bm.linear().transpose());
    const Eigen::Vector3d omega = w.axis() * (w.angle() / (2 * eps_s));
    for (int i = 0; i < 3; ++i) {
      sb.velocity_m_s[static_cast<std::size_t>(i)] += v[i];
      sb.angular_velocity_rad_s[static_cast<std::size_t>(i)] += omega[i];
    }
  }
}

}  // namespace

void applyResync(Simulation& sim, std::vector<double> dq, std::vector<double> dqd,
                 const std::optional<Eigen::Vector2d>& d_att) {
  const RobotModel& m = sim.model();
  std::vector<double> q, qn;
  if (!completeResidual(sim, dq, dqd, d_att, q, qn)) return;  // the state matches the log: leave it bit for bit
  const std::size_t nj = m.joints.size();
  const std::vector<Eigen::Isometry3d> P_old = linkPoses(m, q, sim.linkPose(m.root_link));
  const auto a = static_cast<std::size_t>(anchorLink(m, P_old));
  const Eigen::Isometry3d X = resyncedRootPose(m, P_old, qn, a, d_att);
  const std::vector<Eigen::Isometry3d> Pn = linkPoses(m, qn, X);

  // Velocity of the rate residual with the anchor at rest: central difference of the anchored
  // kinematics over +-eps seconds of the residual rates (eps small against the motion, large
  // against rounding: displacements of about 1e-4 rad per rad/s).
  const double eps_s = 1e-4;
  auto anchored = [&](double sign) {
    std::vector<double> qq(nj);
    for (std::size_t j = 0; j < nj; ++j) qq[j] = qn[j] + sign * eps_s * dqd[j];
    if (m.fixed_base) return linkPoses(m, qq, X);
    const std::vector<Eigen::Isometry3d> P0 = linkPoses(m, qq, Eigen::Isometry3d::Identity());
    return linkPoses(m, qq, Pn[a] * P0[a].inverse());
  };
  const bool rates = std::any_of(dqd.begin(), dqd.end(), [](double v) { return v != 0; });
  const std::vector<Eigen::Isometry3d> Pp = rates ? anchored(+1) : Pn, Pm = rates ? anchored(-1) : Pn;
  SimState s = sim.state();
  moveBodies(sim.compiled(), P_old, Pn, Pp, Pm, rates, eps_s, s);
  sim.setState(s);
}

namespace {

/// Where the score reads the joints and the attitude: per model joint its q column in the
/// reference and in the simulated log (-1: none) and whether it counts; the reference's IMU
/// pitch and roll columns (-1: none).
struct ResyncColumns {
  std::vector<int> ref_q, sim_q;
  std::vector<bool> scored;
  int scored_joints = 0;
  std::size_t ref_t = 0;
  int ref_pitch = -1, ref_roll = -1;
};

ResyncColumns resyncColumns(const RobotModel& m, const Recorder& rec, const Log& ref,
                            const std::vector<std::string>* joints) {
  ResyncColumns k;
  const std::size_t nj = m.joints.size();
  k.ref_q.assign(nj, -1);
  k.sim_q.assign(nj, -1);
  k.scored.assign(nj, false);
  const Log probe(rec.columns());
  for (std::size_t j = 0; j < nj; ++j) {
    const std::string col = m.joints[j].name + "/q_rad";
    k.ref_q[j] = ref.columnIndex(col);
    k.sim_q[j] = probe.columnIndex(col);
    if (k.ref_q[j] < 0 || k.sim_q[j] < 0) continue;
    k.scored[j] = !joints || std::find(joints->begin(), joints->end(), m.joints[j].name) != joints->end();
    k.scored_joints += k.scored[j];
  }
  const std::string imu = m.imus.empty() ? m.links[static_cast<std::size_t>(m.root_link)].name : m.imus.front().name;
  k.ref_pitch = ref.columnIndex(imu + "/pitch_rad");
  k.ref_roll = ref.columnIndex(imu + "/roll_rad");
  return k;
}

/// At a window's start: the joints moved onto the reference's angles and rates (the rate from the
/// last log period of both, or the simulation's own rate after a divergence) and the attitude onto
/// its pitch and roll; a fall before it is forgotten (each window's fall is its own).
void resyncToReference(Simulation& sim, const Log& ref, const Log& full, const ResyncColumns& k, double p_s,
                       bool after_divergence) {
  const std::size_t nj = k.ref_q.size();
  const double t = sim.time_s();
  std::vector<double> dq(nj, 0.0), dqd(nj, 0.0);
  for (std::size_t j = 0; j < nj; ++j) {
    if (k.ref_q[j] < 0) continue;
    const auto rc = static_cast<std::size_t>(k.ref_q[j]);
    const double q_ref = valueAt(ref, k.ref_t, rc, t), q_sim = sim.jointEncoder_rad(static_cast<int>(j));
    if (!std::isfinite(q_ref)) continue;
    dq[j] = q_ref - q_sim;
    const double q_ref_prev = valueAt(ref, k.ref_t, rc, t - p_s);
    const double q_sim_prev = after_divergence ? q_sim - sim.jointRate_rad_s(static_cast<int>(j)) * p_s
                                               : valueAt(full, 0, static_cast<std::size_t>(k.sim_q[j]), t - p_s);
    if (std::isfinite(q_ref_prev) && std::isfinite(q_sim_prev))
      dqd[j] = ((q_ref - q_ref_prev) - (q_sim - q_sim_prev)) / p_s;
  }
  std::optional<Eigen::Vector2d> d_att;
  if (k.ref_pitch >= 0 && k.ref_roll >= 0) {
    const double pr = valueAt(ref, k.ref_t, static_cast<std::size_t>(k.ref_pitch), t);
    const double rr = valueAt(ref, k.ref_t, static_cast<std::size_t>(k.ref_roll), t);
    const ImuReading r = sim.imu();
    if (std::isfinite(pr) && std::isfinite(rr)) d_att = Eigen::Vector2d(pr - r.pitch_rad, rr - r.roll_rad);
  }
  applyResync(sim, std::move(dq), std::move(dqd), d_att);
  if (sim.fallTime_s()) {
    SimState s = sim.state();
    s.fall_time_s.reset();
    sim.setState(s);
  }
}

/// The window's mean squared joint error over the scored joints and its samples after the start
/// that lie inside the reference's span (0 when none does).
double windowError(const Log& w, const Log& ref, const ResyncColumns& k) {
  double sse = 0;
  long samples = 0;
  for (std::size_t r = 1; r < w.rows(); ++r) {
    const double t = w.at(r, 0);
    bool inside = true;
    double row = 0;
    for (std::size_t j = 0; j < k.scored.size() && inside; ++j) {
      if (!k.scored[j]) continue;
      const double q_ref = valueAt(ref, k.ref_t, static_cast<std::size_t>(k.ref_q[j]), t);
      if (!std::isfinite(q_ref)) inside = false;
      const double d = q_ref - w.at(r, static_cast<std::size_t>(k.sim_q[j]));
      row += d * d;
    }
    if (!inside) continue;
    sse += row;
    ++samples;
  }
  return samples > 0 ? sse / (static_cast<double>(k.scored_joints) * static_cast<double>(samples)) : 0.0;
}

}  // namespace

ResyncScore runResynchronised(Simulation& sim, const Motion* motion, const std::optional<BalanceParams>& balance,
                              double duration_s, const Log& ref, const ResyncSettings& rs,
                              const std::vector<std::string>* joints, Log* log_out) {
  const RobotModel& m = sim.model();
  ResyncScore score;
  const Recorder rec(m);
  const int ref_t = ref.columnIndex("time_s");
  ResyncColumns k = resyncColumns(m, rec, ref, joints);
  if (k.scored_joints == 0 || ref_t < 0) {
    score.error = "no joint angle column in both logs";
    score.rms_rad = std::numeric_limits<double>::infinity();
    return score;
  }
  k.ref_t = static_cast<std::size_t>(ref_t);

  Hold hold;
  std::optional<MotionPlayer> player;
  std::optional<Balanced> balanced;
  Continuing ctl;
  auto freshController = [&] {
    Controller* top = &hold;
    if (motion) {
      top = &player.emplace(m, *motion);
      if (balance) top = &balanced.emplace(m, *balance, *top);
    }
    ctl.reset(top);
  };
  freshController();

  Log full(rec.columns());
  const double dt = sim.dt_s();
  const long total = std::lround(duration_s / dt), per = std::max(1L, std::lround(rs.horizon_s / dt));
  const long p_steps = std::max(1L, std::lround(rs.log_period_s / dt));
  const double p_s = static_cast<double>(p_steps) * dt;
  const double penalty = rs.fall_penalty_rad * rs.fall_penalty_rad;
  SimState good = sim.state();
  bool prev_diverged = false;
  double e_sum = 0;
  std::string divergence;
  for (long start = 0; start < total; start += per) {
    if (start > 0) {
      if (prev_diverged) {  // go on from the last window start's state, at this window's time
        SimState s = good;
        s.time_s = static_cast<double>(start) * dt;
        s.steps = start;
        sim.setState(s);
        freshController();  // its filters may hold the divergence's NaN
      }
      resyncToReference(sim, ref, full, k, p_s, prev_diverged);
    }
    good = sim.state();
    const long n = std::min(per, total - start);
    RunConfig rc;
    rc.duration_s = static_cast<double>(n) * dt;
    rc.log_period_s = rs.log_period_s;
    Log w(rec.columns());
    const RunSummary sum = run(sim, ctl, {}, rc, &w);
    double e = windowError(w, ref, k);
    if (sum.diverged) {
      ++score.diverged;
      divergence = sum.divergence;
    } else if (sum.fall_time_s) {
      ++score.fallen;
    }
    if (sum.diverged || sum.fall_time_s) e = std::max(e, penalty);
    e_sum += e;
    ++score.windows;
    prev_diverged = sum.diverged;
    for (std::size_t r = start > 0 ? 1 : 0; r < w.rows(); ++r) full.appendRow(w.row(r));
  }
  if (score.windows > 0 && score.diverged == score.windows) {
    score.error = "every window diverged: " + divergence;
    score.rms_rad = std::numeric_limits<double>::infinity();
  } else {
    score.rms_rad = std::sqrt(e_sum / std::max(1, score.windows));
  }
  if (log_out) *log_out = std::move(full);
  return score;
}

}  // namespace gapsim::calib
