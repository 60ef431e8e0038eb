// SPDX-License-Identifier: BSD-3-Clause
#include "calib/recording_writer.h"

#include <cmath>
#include <limits>
#include <memory>

#include "sim/input_error.h"
#include "sim/simulation.h"

namespace gapsim::calib {

void RecordSettings::validate() const {
  if (!(duration_s > 0 && duration_s <= 600))
    throw InputError("", 0, "--duration", "'" + sixDigits(duration_s) + "': expected a time in (0, 600] s");
  if (!(frame_rate_hz >= 1 && frame_rate_hz <= 2000))
    throw InputError("", 0, "--frame-rate", "'" + sixDigits(frame_rate_hz) + "': expected a rate in [1, 2000] Hz");
}

Log recordRun(const RobotModel& model, const Motion& motion, const RecordSettings& s) {
  s.validate();
  constexpr double kPi = 3.14159265358979323846;
  const double k = s.degrees ? 180.0 / kPi : 1.0;
  const std::string u = s.degrees ? "deg" : "rad";
  auto m = std::make_shared<const RobotModel>(model);
  SimOptions so;
  so.seed = s.sim_seed;
  Simulation sim(m, so);
  const std::string imu = m->imus.empty() ? m->links[m->root_link].name : m->imus.front().name;
  const std::string root = m->links[m->root_link].name;
  std::vector<std::string> cols = {"time_s"};
  const std::vector<int> joints = m->movableJoints();
  for (int j : joints) cols.push_back(m->joints[j].name + "/q_" + u);
  cols.push_back(imu + "/tilt_" + u);
  for (const char* c : {"/rotvec_x", "/rotvec_y", "/rotvec_z", "/x_m", "/y_m", "/z_m"}) cols.push_back(root + c);
  cols.push_back("com/z_m");
  for (const FootContactSpec& f : m->foot_contacts) cols.push_back(f.name + "/contact");
  Log log(cols);

  std::vector<std::string> names;
  for (const Joint& j : m->joints) names.push_back(j.name);
  const std::vector<int> to_joint = motion.mapJoints(names);
  std::vector<double> target = m->initial_q, values;
  MotionCursor cursor;
  std::vector<double> row(cols.size());
  auto frame = [&] {
    std::size_t c = 0;
    row[c++] = sim.time_s();
    for (int j : joints) row[c++] = sim.jointAngle_rad(j) * k;
    row[c++] = sim.imu().tilt_rad * k;
    const Eigen::Isometry3d pose = sim.linkPose(m->root_link);
    const Eigen::AngleAxisd aa(pose.linear());
    const Eigen::Vector3d rv = aa.axis() * aa.angle();
    for (double v : {rv.x(), rv.y(), rv.z(), pose.translation().x(), pose.translation().y(), pose.translation().z()})
      row[c++] = v;
    row[c++] = sim.com_m().z();
    for (std::size_t f = 0; f < m->foot_contacts.size(); ++f)
      row[c++] = sim.footContact(static_cast<int>(f)).contact ? 1.0 : 0.0;
    log.appendRow(row);
  };
  // Frame n at the first step at or after n / rate (whole steps: the replay samples between
  // steps, so a frame on a step compares the same state).
  const long steps = std::lround(s.duration_s / sim.dt_s());
  long next_frame = 0;
  auto due = [&](long step) { return static_cast<double>(step) * sim.dt_s() + 1e-12 >= static_cast<double>(next_frame) / s.frame_rate_hz; };
  frame();
  ++next_frame;
  for (long n = 1; n <= steps; ++n) {
    // The command as the replay's "continuous" stream samples it: the motion one ulp before the
    // current time (the earlier row at a jump, calib/recording_replay.cpp).
    motion.sampleAll(std::nextafter(sim.time_s(), -std::numeric_limits<double>::infinity()), values, cursor);
    for (std::size_t c = 0; c < to_joint.size(); ++c) target[static_cast<std::size_t>(to_joint[c])] = values[c];
    sim.setTargets(target);
    sim.step();
    if (due(n)) {
      frame();
      while (due(n)) ++next_frame;
    }
  }
  return log;
}

}  // namespace gapsim::calib
