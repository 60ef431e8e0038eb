// SPDX-License-Identifier: BSD-3-Clause
#include "sim/runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "sim/recorder.h"

namespace gapsim {

RunSummary runMotion(Simulation& sim, const Motion* motion, const RunConfig& cfg, Log* log) {
  const RobotModel& m = sim.model();
  const std::vector<std::string> names = [&] {
    std::vector<std::string> n;
    for (const Joint& j : m.joints) n.push_back(j.name);
    return n;
  }();
  std::vector<int> map;  // motion column -> model joint
  if (motion) map = motion->mapJoints(names);
  std::vector<double> target = m.initial_q;
  std::vector<double> values;
  MotionCursor cursor;

  Recorder rec(m, cfg.probe_patterns);
  std::vector<double> row;
  const long log_every = std::max(1L, std::lround(cfg.log_period_s / sim.dt_s()));
  const long n_steps = std::lround(cfg.duration_s / sim.dt_s());
  const int imu_link = m.imus.empty() ? m.root_link : m.imus.front().link;
  const Eigen::Vector3d start = sim.linkPose(imu_link).translation();
  const auto yaw_rad = [&] {
    const Eigen::Matrix3d R = sim.linkPose(imu_link).linear();
    return std::atan2(R(1, 0), R(0, 0));
  };
  const double start_yaw_rad = yaw_rad();

  std::optional<AnkleBalance> balance;
  if (motion && cfg.balance) balance.emplace(m, *cfg.balance);

  RunSummary s;
  auto apply = [&](double t) {
    if (!motion) return;
    motion->sampleAll(t, values, cursor);
    for (size_t c = 0; c < map.size(); ++c) target[map[c]] = values[c];
    sim.setTargets(balance ? balance->adjust(sim, target) : target);
  };
  apply(0.0);
  if (log) {
    rec.sample(sim, row);
    log->appendRow(row);
  }
  const auto w0 = std::chrono::steady_clock::now();
  try {
    for (long k = 0; k < n_steps; ++k) {
      apply(sim.time_s());
      sim.step();
      if (log && sim.stepCount() % log_every == 0) {
        rec.sample(sim, row);
        log->appendRow(row);
      }
      if (cfg.stop_on_fall && sim.fallTime_s()) break;
    }
  } catch (const DivergenceError& e) {
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

std::string formatSummary(const RunSummary& s) {
  char buf[256];
  char fell[32];
  if (s.fall_time_s) std::snprintf(fell, sizeof fell, "%.3f", *s.fall_time_s);
  else std::snprintf(fell, sizeof fell, "no");
  std::snprintf(buf, sizeof buf,
                "sim_time_s=%.3f steps=%ld fell=%s max_tilt_deg=%.2f distance_m=%.4f heading_deg=%.2f rtf=%.2f%s",
                s.sim_time_s, s.steps, fell, s.max_tilt_deg, s.distance_m, s.heading_deg, s.rtf,
                s.diverged ? " diverged=yes" : "");
  return buf;
}

}  // namespace gapsim
