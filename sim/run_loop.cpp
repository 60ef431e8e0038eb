// SPDX-License-Identifier: BSD-3-Clause
#include "sim/run_loop.h"

#include <chrono>
#include <cmath>

#include "sim/recorder.h"

namespace gapsim {

RunSummary run(Simulation& sim, Controller& controller, std::span<Observer* const> observers, const RunConfig& cfg,
               Log* log) {
  const RobotModel& m = sim.model();
  Recorder rec(m, cfg.probe_patterns);
  std::vector<double> row;
  const auto sample = [&] {
    if (!log) return;
    rec.sample(sim, row);
    for (const Observer* o : observers) o->appendLogValues(row);
    log->appendRow(row);
  };
  const long log_every = std::max(1L, std::lround(cfg.log_period_s / sim.dt_s()));
  const long n_steps = std::lround(cfg.duration_s / sim.dt_s());
  const int imu_link = m.imus.empty() ? m.root_link : m.imus.front().link;
  const Eigen::Vector3d start = sim.linkPose(imu_link).translation();
  const auto yaw_rad = [&] {
    const Eigen::Matrix3d R = sim.linkPose(imu_link).linear();
    return std::atan2(R(1, 0), R(0, 0));
  };
  const double start_yaw_rad = yaw_rad();

  RunSummary s;
  controller.start(sim);
  sample();
  const auto w0 = std::chrono::steady_clock::now();
  try {
    for (long k = 0; k < n_steps; ++k) {
      controller.update(sim);
      sim.step();
      bool stop = cfg.stop_on_fall && sim.fallTime_s();
      for (Observer* o : observers) o->afterStep(sim);
      if (sim.stepCount() % log_every == 0) sample();
      for (const Observer* o : observers) stop |= o->stopRequested();
      if (stop) break;
    }
  } catch (const DivergenceError& e) {
    if (cfg.throw_divergence) throw;
    s.diverged = true;
    s.divergence = e.what();
  }
  s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  s.sim_time_s = sim.time_s();
  s.steps = sim.stepCount();
  s.fall_time_s = sim.fallTime_s();
  s.max_tilt_deg = sim.maxTilt_rad() * 180.0 / M_PI;
  if (!s.diverged) {
    const Eigen::Vector3d end = sim.linkPose(imu_link).translation();
    s.distance_m = std::hypot(end.x() - start.x(), end.y() - start.y());
    s.heading_deg = std::remainder(yaw_rad() - start_yaw_rad, 2 * M_PI) * 180.0 / M_PI;
  }
  s.rtf = s.wall_s > 0 ? s.sim_time_s / s.wall_s : 0.0;
  return s;
}

}  // namespace gapsim
