// SPDX-License-Identifier: BSD-3-Clause
#include "sim/mabel_hop_run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "sim/recorder.h"

namespace gapsim {

std::shared_ptr<RobotModel> hopStartModel(const RobotModel& model, double drop_m) {
  auto m = std::make_shared<RobotModel>(model);
  const int bp = m->jointIndex("boom_pitch"), tp = m->jointIndex("torso_pitch");
  if (bp < 0 || tp < 0) throw std::invalid_argument("a drop start needs the joints boom_pitch and torso_pitch");
  const double R = m->joints[tp].origin.translation().norm();  // pivot to hip: the boom radius
  m->initial_q[bp] = -std::asin(std::min(1.0, drop_m / R));  // boom_pitch + = hip down
  return m;
}

std::vector<std::string> hopLogColumns(const RobotModel& m, const std::vector<std::string>& probes) {
  std::vector<std::string> c = Recorder(m, probes).columns();
  for (const char* s : {"hop/phase", "hop/touchdowns", "hop/h_Tor_rad"}) c.push_back(s);
  return c;
}

HopSummary runHop(Simulation& sim, MabelHopController& ctl, const RunConfig& cfg, Log* log) {
  const RobotModel& m = sim.model();
  Recorder rec(m, cfg.probe_patterns);
  std::vector<double> row;
  const long log_every = std::max(1L, std::lround(cfg.log_period_s / sim.dt_s()));
  const long n_steps = std::lround(cfg.duration_s / sim.dt_s());
  const int torso = m.imus.empty() ? m.root_link : m.imus.front().link;
  const int boom_yaw = m.jointIndex("boom_yaw");
  const Eigen::Vector3d start = sim.linkPose(torso).translation();
  HopSummary h;
  h.stance_hip_m = start.z();
  auto sample = [&] {
    if (!log) return;
    rec.sample(sim, row);
    row.push_back(static_cast<double>(ctl.phase()));
    row.push_back(ctl.touchdowns());
    row.push_back(ctl.hTor_rad());
    log->appendRow(row);
  };
  sample();
  std::vector<double> td_time, apex_hip, apex_toe, td_yaw;
  double cur_apex_hip = -1, cur_apex_toe = -1;
  bool in_flight = false;
  const auto w0 = std::chrono::steady_clock::now();
  try {
    for (long k = 0; k < n_steps; ++k) {
      const int td_before = ctl.touchdowns();
      ctl.update(sim);
      if (ctl.touchdowns() != td_before) {
        td_time.push_back(sim.time_s());
        td_yaw.push_back(boom_yaw >= 0 ? sim.jointAngle_rad(boom_yaw) : 0.0);
        if (in_flight) {
          apex_hip.push_back(cur_apex_hip);
          apex_toe.push_back(cur_apex_toe);
        }
        in_flight = false;
      }
      sim.step();
      const double hip_z = sim.linkPose(torso).translation().z();
      const bool airborne = !sim.toeContact(0).contact && !sim.toeContact(1).contact;
      if (airborne) {
        if (!in_flight) cur_apex_hip = cur_apex_toe = -1e9;
        in_flight = true;
        cur_apex_hip = std::max(cur_apex_hip, hip_z);
        cur_apex_toe = std::max(cur_apex_toe, std::min(sim.toeHeight_m(0), sim.toeHeight_m(1)));
      }
      if (!h.fall_time_s) {
        std::string why;
        if (sim.fallTime_s()) why = "torso tilt";
        else if (hip_z < 0.6) why = "hip below 0.6 m";
        else
          for (int f = 0; f < static_cast<int>(m.foot_contacts.size()); ++f)
            if (sim.footContact(f).contact) why = "shin touches the ground";
        if (!why.empty()) {
          h.fall_time_s = sim.time_s();
          h.fall_reason = why;
        }
      }
      if (sim.stepCount() % log_every == 0) sample();
      if (cfg.stop_on_fall && h.fall_time_s) break;
    }
  } catch (const DivergenceError& e) {
    h.run.diverged = true;
    h.run.divergence = e.what();
  }
  RunSummary& s = h.run;
  s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  s.sim_time_s = sim.time_s();
  s.steps = sim.stepCount();
  s.fall_time_s = h.fall_time_s;
  s.max_tilt_deg = sim.maxTilt_rad() * 180.0 / M_PI;
  if (!s.diverged) {
    const Eigen::Vector3d end = sim.linkPose(torso).translation();
    s.distance_m = std::hypot(end.x() - start.x(), end.y() - start.y());
  }
  s.rtf = s.wall_s > 0 ? s.sim_time_s / s.wall_s : 0.0;
  h.touchdowns = ctl.touchdowns();
  h.hops = std::max(0, h.touchdowns - 1);
  const int n = static_cast<int>(td_time.size());
  if (n >= 2) {
    const int k0 = std::max(0, n - 11);
    h.period_s = (td_time[n - 1] - td_time[k0]) / (n - 1 - k0);
    // Boom radius: the hip's horizontal distance from the boom pivot at the start.
    double R = 0;
    if (boom_yaw >= 0) {
      const Joint& jy = m.joints[boom_yaw];
      const Eigen::Vector3d pivot = (sim.linkPose(jy.parent) * jy.origin).translation();
      R = std::hypot(start.x() - pivot.x(), start.y() - pivot.y());
    }
    h.speed_m_s = R * (td_yaw[n - 1] - td_yaw[k0]) / (td_time[n - 1] - td_time[k0]);
  }
  const int na = static_cast<int>(apex_hip.size());
  if (na > 0) {
    const int k0 = std::max(0, na - 10);
    for (int i = k0; i < na; ++i) {
      h.apex_hip_m += apex_hip[i] / (na - k0);
      h.apex_toe_m += apex_toe[i] / (na - k0);
    }
  }
  return h;
}

std::string formatHopSummary(const HopSummary& h) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                " hops=%d period_s=%.3f apex_hip_m=%.4f apex_toe_clearance_m=%.4f stance_hip_m=%.4f speed_m_s=%.3f%s%s",
                h.hops, h.period_s, h.apex_hip_m, h.apex_toe_m, h.stance_hip_m, h.speed_m_s,
                h.fall_time_s ? " fall_reason=" : "", h.fall_time_s ? ("'" + h.fall_reason + "'").c_str() : "");
  return formatSummary(h.run) + buf;
}

}  // namespace gapsim
