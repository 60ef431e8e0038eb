// SPDX-License-Identifier: BSD-3-Clause
#include "sim/mabel_hop_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "sim/recorder.h"
#include "sim/run_loop.h"

namespace gapsim {

std::shared_ptr<RobotModel> hopStartModel(const RobotModel& model, double drop_m) {
  auto m = std::make_shared<RobotModel>(model);
  const int bp = m->jointIndex("boom_pitch"), tp = m->jointIndex("torso_pitch");
  if (bp < 0 || tp < 0) throw std::invalid_argument("a drop start needs the joints boom_pitch and torso_pitch");
  const double R = m->joints[tp].origin.translation().norm();  // pivot to hip: the boom radius
  m->initial_q[bp] = -std::asin(std::min(1.0, drop_m / R));    // boom_pitch + = hip down
  return m;
}

std::vector<std::string> hopLogColumns(const RobotModel& m, const std::vector<std::string>& probes) {
  std::vector<std::string> c = Recorder(m, probes).columns();
  for (const char* s : {"hop/phase", "hop/touchdowns", "hop/h_Tor_rad"}) c.push_back(s);
  return c;
}

namespace {

/// The hop controller in the run loop, and what the run measures of the hopping: touchdown
/// times and boom angles, each flight's apex, and a fall by the hop's own rule (header).
class HopTracker : public Controller, public Observer {
 public:
  HopTracker(const Simulation& sim, MabelHopController& ctl, bool stop_on_fall)
      : ctl_(ctl), stop_on_fall_(stop_on_fall), m_(sim.model()) {
    torso_ = m_.imus.empty() ? m_.root_link : m_.imus.front().link;
    boom_yaw_ = m_.jointIndex("boom_yaw");
  }

  void update(Simulation& sim) override {
    const int td_before = ctl_.touchdowns();
    ctl_.update(sim);
    if (ctl_.touchdowns() == td_before) return;
    td_time.push_back(sim.time_s());
    td_yaw.push_back(boom_yaw_ >= 0 ? sim.jointAngle_rad(boom_yaw_) : 0.0);
    if (in_flight_) {
      apex_hip.push_back(cur_apex_hip_);
      apex_toe.push_back(cur_apex_toe_);
    }
    in_flight_ = false;
  }

  void afterStep(const Simulation& sim) override {
    const double hip_z = sim.linkPose(torso_).translation().z();
    const bool airborne = !sim.toeContact(0).contact && !sim.toeContact(1).contact;
    if (airborne) {
      if (!in_flight_) cur_apex_hip_ = cur_apex_toe_ = -1e9;
      in_flight_ = true;
      cur_apex_hip_ = std::max(cur_apex_hip_, hip_z);
      cur_apex_toe_ = std::max(cur_apex_toe_, std::min(sim.toeHeight_m(0), sim.toeHeight_m(1)));
    }
    if (fall_time_s) return;
    std::string why;
    if (sim.fallTime_s())
      why = "torso tilt";
    else if (hip_z < 0.6)
      why = "hip below 0.6 m";
    else
      for (int f = 0; f < static_cast<int>(m_.foot_contacts.size()); ++f)
        if (sim.footContact(f).contact) why = "shin touches the ground";
    if (!why.empty()) {
      fall_time_s = sim.time_s();
      fall_reason = why;
    }
  }

  void appendLogValues(std::vector<double>& row) const override {
    row.push_back(static_cast<double>(ctl_.phase()));
    row.push_back(ctl_.touchdowns());
    row.push_back(ctl_.hTor_rad());
  }

  bool stopRequested() const override { return stop_on_fall_ && fall_time_s.has_value(); }

  std::vector<double> td_time, apex_hip, apex_toe, td_yaw;
  std::optional<double> fall_time_s;
  std::string fall_reason;

 private:
  MabelHopController& ctl_;
  bool stop_on_fall_;
  const RobotModel& m_;
  int torso_ = 0, boom_yaw_ = -1;
  double cur_apex_hip_ = -1, cur_apex_toe_ = -1;
  bool in_flight_ = false;
};

}  // namespace

HopSummary runHop(Simulation& sim, MabelHopController& ctl, const RunConfig& cfg, Log* log) {
  const RobotModel& m = sim.model();
  const int torso = m.imus.empty() ? m.root_link : m.imus.front().link;
  const int boom_yaw = m.jointIndex("boom_yaw");
  const Eigen::Vector3d start = sim.linkPose(torso).translation();
  HopTracker tracker(sim, ctl, cfg.stop_on_fall);
  Observer* const observers[] = {&tracker};
  HopSummary h;
  h.stance_hip_m = start.z();
  h.run = run(sim, tracker, observers, cfg, log);
  h.fall_time_s = tracker.fall_time_s;
  h.fall_reason = tracker.fall_reason;
  h.run.fall_time_s = h.fall_time_s;
  h.touchdowns = ctl.touchdowns();
  h.hops = std::max(0, h.touchdowns - 1);
  const auto& td_time = tracker.td_time;
  const auto& td_yaw = tracker.td_yaw;
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
  const int na = static_cast<int>(tracker.apex_hip.size());
  if (na > 0) {
    const int k0 = std::max(0, na - 10);
    for (int i = k0; i < na; ++i) {
      h.apex_hip_m += tracker.apex_hip[i] / (na - k0);
      h.apex_toe_m += tracker.apex_toe[i] / (na - k0);
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
