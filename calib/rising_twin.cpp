// SPDX-License-Identifier: BSD-3-Clause
#include "calib/rising_twin.h"

#include <algorithm>
#include <cmath>

#include "calib/rising_pair.h"
#include "calib/rng.h"
#include "sim/input_error.h"
#include "sim/simulation.h"

namespace gapsim::calib {

RisingTwinRun runRisingTwin(const RisingTask& task, const Motion& command, const MotorMap& map, double duration_s,
                            const RisingTwinSettings& s) {
  if (!(s.frame_period_s > 0) || !(s.period_jitter_s >= 0) || s.period_jitter_s >= s.frame_period_s)
    throw InputError("", 0, "frame period", "need period > jitter >= 0");
  const RobotModel& m = *task.model;
  std::vector<std::string> names;
  for (const Joint& j : m.joints) names.push_back(j.name);
  const std::vector<int> to_joint = command.mapJoints(names);
  std::vector<const MotorMapEntry*> cmd_entry(to_joint.size(), nullptr);
  for (std::size_t c = 0; c < to_joint.size(); ++c)
    for (const auto& e : map.entries)
      if (e.joint == command.joints()[c]) cmd_entry[c] = &e;
  // Recorded joints: the real data's 16, each with its motor map entry (encoder ticks).
  std::vector<int> rec_joint;
  std::vector<const MotorMapEntry*> rec_entry;
  for (const auto& name : realDataJoints()) {
    const int j = m.jointIndex(name);
    if (j < 0) throw InputError(m.source_file, 0, name, "the robot lacks this BIOLOID joint");
    rec_joint.push_back(j);
    const MotorMapEntry* e = nullptr;
    for (const auto& me : map.entries)
      if (me.joint == name) e = &me;
    if (!e) throw InputError(map.source_file, 0, name, "no Dynamixel for this joint");
    rec_entry.push_back(e);
  }
  const int torso = m.linkIndex("torso");
  if (torso < 0) throw InputError(m.source_file, 0, "torso", "the robot has no link 'torso'");

  RisingTwinRun run;
  run.recording = Log(realRecordingColumns());
  Rng rng(s.noise_seed);
  SimOptions so;
  so.seed = s.sim_seed;
  Simulation sim(task.model, so);
  const double dt = sim.dt_s();
  std::vector<double> target = task.start_q, values, row;
  MotionCursor cursor;

  auto send = [&](double t) {  // the ctrl app: int(targetPose(t)) ticks
    command.sampleAll(t, values, cursor);
    for (std::size_t c = 0; c < to_joint.size(); ++c) {
      double q = values[c];
      if (cmd_entry[c]) q = MotorMap::tickToRad(*cmd_entry[c], std::trunc(MotorMap::radToTick(*cmd_entry[c], q) + 1e-3));
      target[static_cast<std::size_t>(to_joint[c])] = q;
    }
    sim.setTargets(target);
  };
  auto record = [&](double t) {
    row.assign(1, t);
    for (std::size_t i = 0; i < rec_joint.size(); ++i) {
      const double tick = std::round(MotorMap::radToTick(*rec_entry[i], sim.jointAngle_rad(rec_joint[i])));
      row.push_back(MotorMap::tickToRad(*rec_entry[i], tick));
    }
    const Eigen::Isometry3d pose = sim.linkPose(torso);
    const Eigen::Vector3d noise_rot(rng.normal(), rng.normal(), rng.normal());
    const Eigen::Vector3d nr = s.mocap_noise_rad * noise_rot;
    Eigen::Matrix3d R = pose.linear();
    if (nr.norm() > 0) R = R * Eigen::AngleAxisd(nr.norm(), nr.normalized()).toRotationMatrix();
    const Eigen::Vector3d up = R.col(2), left = R.col(0), world_up = Eigen::Vector3d::UnitZ();
    const double tilt = std::acos(std::clamp(R(2, 2), -1.0, 1.0));
    const double pitch_signed = std::asin(std::clamp(up.cross(world_up).dot(left), -1.0, 1.0));
    const Eigen::AngleAxisd aa(R);
    const Eigen::Vector3d rv = aa.angle() * aa.axis();
    const Eigen::Vector3d noise_pos(rng.normal(), rng.normal(), rng.normal());
    const Eigen::Vector3d p = pose.translation() + s.mocap_noise_m * noise_pos;
    for (double v : {tilt, pitch_signed, rv.x(), rv.y(), rv.z(), p.x(), p.y(), p.z()}) row.push_back(v);
    run.recording.appendRow(row);
  };

  try {
    sim.setTargets(task.start_q);
    const long settle_steps = std::lround(task.settle_s / dt);
    for (long k = 0; k < settle_steps; ++k) sim.step();
    double t_frame = 0.0;  // controller time of the next frame
    long k = 0;            // steps since the motion started
    while (true) {
      const double t = static_cast<double>(k) * dt;
      if (t >= t_frame - 1e-12) {
        record(t);
        if (t >= duration_s - 1e-12) break;
        send(t);
        t_frame += s.frame_period_s + s.period_jitter_s * (2.0 * rng.uniform() - 1.0);
        t_frame = std::min(t_frame, std::max(duration_s, t + dt));
      }
      sim.step();
      ++k;
    }
  } catch (const DivergenceError& e) {
    run.diverged = true;
    run.error = e.what();
  }
  return run;
}

}  // namespace gapsim::calib
