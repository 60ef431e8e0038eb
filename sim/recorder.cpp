// SPDX-License-Identifier: BSD-3-Clause
#include "sim/recorder.h"

#include <fnmatch.h>

#include "sim/drive_kinds.h"
#include "sim/mabel_legs.h"

namespace gapsim {
namespace {

/// Probe field of JointDrivetrain::Probes -> column suffix (stage/name_unit).
const std::vector<std::pair<std::string, std::string>>& probeMap() {
  static const std::vector<std::pair<std::string, std::string>> map = {
      {"error_rad", "pid/error_rad"},
      {"U_unclamped_V", "pid/U_unclamped_V"},
      {"U_V", "pid/U_V"},
      {"pid_saturated", "pid/saturated"},
      {"U_R_V", "motor/U_R_V"},
      {"current_A", "motor/current_A"},
      {"motor_friction_Nm", "motor/friction_Nm"},
      {"motor_torque_Nm", "motor/torque_Nm"},
      {"gear_input_torque_Nm", "gear/input_torque_Nm"},
      {"gear_mass_position_rad", "gear/mass_position_rad"},
      {"gear_mass_speed_rad_s", "gear/mass_speed_rad_s"},
      {"gear_deflection_rad", "gear/deflection_rad"},
      {"spring_rad", "gear/spring_rad"},
      {"hull_contact", "gear/hull_contact"},
      {"spring_torque_Nm", "gear/spring_torque_Nm"},
      {"joint_torque_Nm", "gear/joint_torque_Nm"}};
  return map;
}

struct ProbeColumn {
  std::string name;
  int joint = -1, probe = -1, soft = -1, axis = 0, leg = -1, toe = -1;
};

std::vector<ProbeColumn> allProbes(const RobotModel& m) {
  std::vector<ProbeColumn> out;
  const auto names = motorgear::JointDrivetrain::Probes::names();
  for (size_t j = 0; j < m.joints.size(); ++j) {
    const Joint& jt = m.joints[j];
    if (!jt.movable() || jt.mimic.master >= 0 || !driveKindInfo(jt.drive.kind).motoflex_chain) continue;
    for (const auto& [field, column] : probeMap())
      for (size_t p = 0; p < names.size(); ++p)
        if (names[p] == field) out.push_back({jt.name + "/" + column, static_cast<int>(j), static_cast<int>(p), -1, 0});
  }
  int soft = 0;
  for (const SoftLink& s : m.soft_links)
    for (int k = 1; k < s.segments; ++k, ++soft)
      for (int axis : {1, 2})
        out.push_back({m.links[s.link].name + "/soft" + std::to_string(k) + "/alpha" + std::to_string(axis) + "_rad",
                       -1, -1, soft, axis});
  const auto leg_probes = motorgear::MabelTransmission::Probes::names();
  for (size_t l = 0; l < m.mabel_legs.size(); ++l)
    for (size_t p = 0; p < leg_probes.size(); ++p)
      out.push_back(
          {m.mabel_legs[l].name + "/" + leg_probes[p], -1, static_cast<int>(p), -1, 0, static_cast<int>(l), -1});
  int toe = 0;
  for (const CompliantGroundSpec& g : m.compliant_grounds)
    for (const ToePoint& t : g.toes) {
      out.push_back({t.name + "/normal_N", -1, 0, -1, 0, -1, toe});
      out.push_back({t.name + "/penetration_m", -1, 1, -1, 0, -1, toe++});
    }
  return out;
}

}  // namespace

std::vector<std::string> Recorder::probeColumns(const RobotModel& m) {
  std::vector<std::string> out;
  for (const auto& p : allProbes(m)) out.push_back(p.name);
  return out;
}

Recorder::Recorder(const RobotModel& m, const std::vector<std::string>& patterns) {
  joints_ = m.movableJoints();
  imu_ = m.imus.empty() ? m.links[m.root_link].name : m.imus.front().name;
  columns_.push_back("time_s");
  for (int j : joints_) {
    const std::string& n = m.joints[j].name;
    for (const char* s : {"/q_target_rad", "/q_rad", "/qd_rad_s", "/tau_Nm"}) columns_.push_back(n + s);
  }
  for (const char* s : {"/pitch_rad", "/roll_rad", "/tilt_rad", "/gyro_x_rad_s", "/gyro_y_rad_s", "/gyro_z_rad_s",
                        "/x_m", "/y_m", "/z_m"})
    columns_.push_back(imu_ + s);
  for (const char* s : {"com/x_m", "com/y_m", "com/z_m"}) columns_.push_back(s);
  for (const FootContactSpec& f : m.foot_contacts) {
    columns_.push_back(f.name + "/contact");
    columns_.push_back(f.name + "/force_N");
  }
  for (const auto& p : allProbes(m)) {
    bool want = false;
    for (const auto& pat : patterns) want = want || fnmatch(pat.c_str(), p.name.c_str(), 0) == 0;
    if (!want) continue;
    columns_.push_back(p.name);
    probes_.push_back({p.joint, p.probe, p.soft, p.axis, p.leg, p.toe});
  }
}

void Recorder::sample(const Simulation& sim, std::vector<double>& row) const {
  const RobotModel& m = sim.model();
  row.resize(columns_.size());
  size_t k = 0;
  row[k++] = sim.time_s();
  for (int j : joints_) {
    row[k++] = sim.targets()[j];
    row[k++] = sim.jointEncoder_rad(j);
    row[k++] = sim.jointRate_rad_s(j);
    row[k++] = sim.jointTorque_Nm(j);
  }
  const ImuReading r = sim.imu();
  const int imu_link = m.imus.empty() ? m.root_link : m.imus.front().link;
  const Eigen::Vector3d p = sim.linkPose(imu_link).translation();
  for (double v :
       {r.pitch_rad, r.roll_rad, r.tilt_rad, r.gyro_rad_s.x(), r.gyro_rad_s.y(), r.gyro_rad_s.z(), p.x(), p.y(), p.z()})
    row[k++] = v;
  const Eigen::Vector3d c = sim.com_m();
  row[k++] = c.x();
  row[k++] = c.y();
  row[k++] = c.z();
  for (size_t f = 0; f < m.foot_contacts.size(); ++f) {
    const FootContactReading fc = sim.footContact(static_cast<int>(f));
    row[k++] = fc.contact ? 1.0 : 0.0;
    row[k++] = fc.force_N;
  }
  for (const Probe& p : probes_) {
    if (p.leg >= 0) {
      static const auto leg_names = motorgear::MabelTransmission::Probes::names();
      row[k++] = mabelLeg(sim, p.leg).transmission().probes().get(leg_names[p.probe]);
    } else if (p.toe >= 0) {
      const auto& c = sim.toeContact(p.toe);
      row[k++] = p.probe == 0 ? c.normal_N : c.penetration_m;
    } else if (p.soft >= 0) {
      const auto a = sim.softJointAngles_rad(p.soft);
      row[k++] = p.axis == 1 ? a.first : a.second;
    } else {
      const motorgear::JointDrivetrain* d = sim.drivetrain(p.joint);
      static const auto names = motorgear::JointDrivetrain::Probes::names();
      row[k++] = d ? d->probes().get(names[p.probe]) : 0.0;
    }
  }
}

}  // namespace gapsim
