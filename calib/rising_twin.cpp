// SPDX-License-Identifier: BSD-3-Clause
#include "calib/rising_twin.h"

#include <algorithm>
#include <cmath>

#include "calib/rising_pair.h"
#include "calib/rng.h"
#include "sim/input_error.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"

namespace gapsim::calib {

namespace {

/// The `ctrl` app's loop on the simulation clock: at the first step at or after each frame time
/// (time since the motion started, k dt) the frame is recorded after the step before it, and the
/// command for that time is sent before the next; the frame at or after duration_s is the last.
/// The frame times carry the seeded jitter, so record and send share one random stream, in the
/// real loop's order: the frame's noise, then the next frame time.
class TwinLoop : public Controller, public Observer {
 public:
  TwinLoop(const RisingTask& task, const Motion& command, const MotorMap& map, double duration_s,
           const RisingTwinSettings& s, Log& recording);
  /// Steps taken before the motion starts (the settle).
  void setStartStep(long step) { start_step_ = step; }
  /// The frame at the motion's start, before its first step.
  void startFrame(const Simulation& sim) { afterStep(sim); }
  void update(Simulation& sim) override;
  void afterStep(const Simulation& sim) override;
  bool stopRequested() const override { return done_; }

 private:
  double motionTime_s(const Simulation& sim) const {
    return static_cast<double>(sim.stepCount() - start_step_) * sim.dt_s();
  }
  void send(Simulation& sim, double t);
  void record(const Simulation& sim, double t);

  const Motion& command_;
  const RisingTwinSettings& s_;
  double duration_s_;
  Log& recording_;
  Rng rng_;
  std::vector<int> to_joint_;
  std::vector<const MotorMapEntry*> cmd_entry_;
  std::vector<int> rec_joint_;  // the real data's 16 joints, each with its motor map entry (encoder ticks)
  std::vector<const MotorMapEntry*> rec_entry_;
  int torso_ = -1;
  std::vector<double> target_, values_, row_;
  MotionCursor cursor_;
  long start_step_ = 0;
  double t_frame_s_ = 0.0;  // controller time of the next frame
  bool send_due_ = false, done_ = false;
};

TwinLoop::TwinLoop(const RisingTask& task, const Motion& command, const MotorMap& map, double duration_s,
                   const RisingTwinSettings& s, Log& recording)
    : command_(command),
      s_(s),
      duration_s_(duration_s),
      recording_(recording),
      rng_(s.noise_seed),
      target_(task.start_q) {
  const RobotModel& m = *task.model;
  std::vector<std::string> names;
  for (const Joint& j : m.joints) names.push_back(j.name);
  to_joint_ = command.mapJoints(names);
  cmd_entry_.assign(to_joint_.size(), nullptr);
  for (std::size_t c = 0; c < to_joint_.size(); ++c)
    for (const auto& e : map.entries)
      if (e.joint == command.joints()[c]) cmd_entry_[c] = &e;
  for (const auto& name : realDataJoints()) {
    const int j = m.jointIndex(name);
    if (j < 0) throw InputError(m.source_file, 0, name, "the robot lacks this BIOLOID joint");
    rec_joint_.push_back(j);
    const MotorMapEntry* e = nullptr;
    for (const auto& me : map.entries)
      if (me.joint == name) e = &me;
    if (!e) throw InputError(map.source_file, 0, name, "no Dynamixel for this joint");
    rec_entry_.push_back(e);
  }
  torso_ = m.linkIndex("torso");
  if (torso_ < 0) throw InputError(m.source_file, 0, "torso", "the robot has no link 'torso'");
}

void TwinLoop::afterStep(const Simulation& sim) {
  const double t = motionTime_s(sim);
  if (!(t >= t_frame_s_ - 1e-12)) return;
  record(sim, t);
  done_ = t >= duration_s_ - 1e-12;
  send_due_ = !done_;
}

void TwinLoop::update(Simulation& sim) {
  if (!send_due_) return;
  send_due_ = false;
  const double t = motionTime_s(sim);
  send(sim, t);
  t_frame_s_ += s_.frame_period_s + s_.period_jitter_s * (2.0 * rng_.uniform() - 1.0);
  t_frame_s_ = std::min(t_frame_s_, std::max(duration_s_, t + sim.dt_s()));
}

void TwinLoop::send(Simulation& sim, double t) {  // the ctrl app: int(targetPose(t)) ticks
  command_.sampleAll(t, values_, cursor_);
  for (std::size_t c = 0; c < to_joint_.size(); ++c) {
    double q = values_[c];
    if (cmd_entry_[c])
      q = MotorMap::tickToRad(*cmd_entry_[c], std::trunc(MotorMap::radToTick(*cmd_entry_[c], q) + 1e-3));
    target_[static_cast<std::size_t>(to_joint_[c])] = q;
  }
  sim.setTargets(target_);
}

void TwinLoop::record(const Simulation& sim, double t) {
  row_.assign(1, t);
  for (std::size_t i = 0; i < rec_joint_.size(); ++i) {
    const double tick = std::round(MotorMap::radToTick(*rec_entry_[i], sim.jointAngle_rad(rec_joint_[i])));
    row_.push_back(MotorMap::tickToRad(*rec_entry_[i], tick));
  }
  const Eigen::Isometry3d pose = sim.linkPose(torso_);
  const Eigen::Vector3d noise_rot(rng_.normal(), rng_.normal(), rng_.normal());
  const Eigen::Vector3d nr = s_.mocap_noise_rad * noise_rot;
  Eigen::Matrix3d R = pose.linear();
  if (nr.norm() > 0) R = R * Eigen::AngleAxisd(nr.norm(), nr.normalized()).toRotationMatrix();
  const Eigen::Vector3d up = R.col(2), left = R.col(0), world_up = Eigen::Vector3d::UnitZ();
  const double tilt = std::acos(std::clamp(R(2, 2), -1.0, 1.0));
  const double pitch_signed = std::asin(std::clamp(up.cross(world_up).dot(left), -1.0, 1.0));
  const Eigen::AngleAxisd aa(R);
  const Eigen::Vector3d rv = aa.angle() * aa.axis();
  const Eigen::Vector3d noise_pos(rng_.normal(), rng_.normal(), rng_.normal());
  const Eigen::Vector3d p = pose.translation() + s_.mocap_noise_m * noise_pos;
  for (double v : {tilt, pitch_signed, rv.x(), rv.y(), rv.z(), p.x(), p.y(), p.z()}) row_.push_back(v);
  recording_.appendRow(row_);
}

}  // namespace

RisingTwinRun runRisingTwin(const RisingTask& task, const Motion& command, const MotorMap& map, double duration_s,
                            const RisingTwinSettings& s) {
  if (!(s.frame_period_s > 0) || !(s.period_jitter_s >= 0) || s.period_jitter_s >= s.frame_period_s)
    throw InputError("", 0, "frame period", "need period > jitter >= 0");
  RisingTwinRun out;
  TwinLoop loop(task, command, map, duration_s, s, out.recording);
  out.recording = Log(realRecordingColumns());
  SimOptions so;
  so.seed = s.sim_seed;
  Simulation sim(task.model, so);

  sim.setTargets(task.start_q);
  Hold hold;  // the robot rests holding the start pose
  RunConfig settle;
  settle.duration_s = task.settle_s;
  RunSummary r = run(sim, hold, {}, settle, nullptr);
  if (!r.diverged) {
    loop.setStartStep(sim.stepCount());
    loop.startFrame(sim);
    if (!loop.stopRequested()) {
      Observer* observers[] = {&loop};
      RunConfig play;
      play.duration_s = duration_s + 1.0;  // past the last frame: the loop ends the run there
      r = run(sim, loop, observers, play, nullptr);
    }
  }
  out.diverged = r.diverged;
  out.error = r.divergence;
  return out;
}

}  // namespace gapsim::calib
