// SPDX-License-Identifier: BSD-3-Clause
#include "sim/run_loop.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>

#include "sim/recorder.h"

namespace gapsim {

RunLoop::RunLoop(Simulation& sim, Controller& controller, std::span<Observer* const> observers, const RunConfig& cfg,
                 Log* log)
    : sim_(sim),
      controller_(controller),
      observers_(observers),
      cfg_(cfg),
      log_(log),
      recorder_(sim.model(), cfg.probe_patterns) {
  const RobotModel& m = sim.model();
  log_every_ = std::max(1L, std::lround(cfg.log_period_s / sim.dt_s()));
  steps_left_ = std::isfinite(cfg.duration_s) ? std::lround(cfg.duration_s / sim.dt_s()) : -1;
  imu_link_ = m.imus.empty() ? m.root_link : m.imus.front().link;
  start_ = sim.linkPose(imu_link_).translation();
  start_yaw_rad_ = yaw_rad();
}

double RunLoop::yaw_rad() const {
  const Eigen::Matrix3d R = sim_.linkPose(imu_link_).linear();
  return std::atan2(R(1, 0), R(0, 0));
}

void RunLoop::sample() {
  if (!log_) return;
  recorder_.sample(sim_, row_);
  for (const Observer* o : observers_) o->appendLogValues(row_);
  log_->appendRow(row_);
}

void RunLoop::start() {
  controller_.start(sim_);
  sample();
  finished_ = steps_left_ == 0;
}

bool RunLoop::advance(long steps) {
  const auto w0 = std::chrono::steady_clock::now();
  try {
    for (long k = 0; k < steps && !finished_; ++k) {
      controller_.update(sim_);
      sim_.step();
      bool stop = cfg_.stop_on_fall && sim_.fallTime_s();
      for (Observer* o : observers_) o->afterStep(sim_);
      if (sim_.stepCount() % log_every_ == 0) sample();
      for (const Observer* o : observers_) stop |= o->stopRequested();
      if (steps_left_ > 0) --steps_left_;
      finished_ = stop || steps_left_ == 0;
    }
  } catch (const DivergenceError& e) {
    finished_ = true;
    diverged_ = true;
    divergence_ = e.what();
    wall_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    if (cfg_.throw_divergence) throw;
    return false;
  }
  wall_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  return !finished_;
}

RunSummary RunLoop::summary() const {
  RunSummary s;
  s.diverged = diverged_;
  s.divergence = divergence_;
  s.wall_s = wall_s_;
  s.sim_time_s = sim_.time_s();
  s.steps = sim_.stepCount();
  s.fall_time_s = sim_.fallTime_s();
  s.max_tilt_deg = sim_.maxTilt_rad() * 180.0 / std::numbers::pi;
  if (!s.diverged) {
    const Eigen::Vector3d end = sim_.linkPose(imu_link_).translation();
    s.distance_m = std::hypot(end.x() - start_.x(), end.y() - start_.y());
    s.heading_deg = std::remainder(yaw_rad() - start_yaw_rad_, 2 * std::numbers::pi) * 180.0 / std::numbers::pi;
  }
  s.rtf = s.wall_s > 0 ? s.sim_time_s / s.wall_s : 0.0;
  return s;
}

RunSummary run(Simulation& sim, Controller& controller, std::span<Observer* const> observers, const RunConfig& cfg,
               Log* log) {
  RunLoop loop(sim, controller, observers, cfg, log);
  loop.start();
  loop.advance(std::numeric_limits<long>::max());
  return loop.summary();
}

}  // namespace gapsim
