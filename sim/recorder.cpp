// SPDX-License-Identifier: BSD-3-Clause
#include "sim/recorder.h"

namespace gapsim {

Recorder::Recorder(const RobotModel& m) {
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
  for (double v : {r.pitch_rad, r.roll_rad, r.tilt_rad, r.gyro_rad_s.x(), r.gyro_rad_s.y(), r.gyro_rad_s.z(), p.x(),
                   p.y(), p.z()})
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
}

}  // namespace gapsim
