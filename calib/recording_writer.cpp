// SPDX-License-Identifier: BSD-3-Clause
#include "calib/recording_writer.h"

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include "calib/replay_workflow.h"
#include "sim/input_error.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"

namespace gapsim::calib {

void RecordSettings::validate() const {
  if (!(duration_s > 0 && duration_s <= 600))
    throw InputError("", 0, "--duration", "'" + sixDigits(duration_s) + "': expected a time in (0, 600] s");
  if (!(frame_rate_hz >= 1 && frame_rate_hz <= 2000))
    throw InputError("", 0, "--frame-rate", "'" + sixDigits(frame_rate_hz) + "': expected a rate in [1, 2000] Hz");
  checkSettleTime(settle_s);
}

namespace {

/// The commanded motion as the replay's "continuous" stream samples it: before every step, the
/// motion one ulp before the recording's time t0 + sim time (the earlier row at a jump,
/// calib/recorded_commands.cpp).
class ContinuousCommand : public Controller {
 public:
  ContinuousCommand(const RobotModel& m, const Motion& motion) : motion_(motion), target_(m.initial_q) {
    std::vector<std::string> names;
    for (const Joint& j : m.joints) names.push_back(j.name);
    to_joint_ = motion.mapJoints(names);
  }
  void update(Simulation& sim) override {
    motion_.sampleAll(std::nextafter(t0_s_ + sim.time_s(), -std::numeric_limits<double>::infinity()), values_, cursor_);
    for (std::size_t c = 0; c < to_joint_.size(); ++c) target_[static_cast<std::size_t>(to_joint_[c])] = values_[c];
    sim.setTargets(target_);
  }
  /// Recording time = t0 + simulation time (t0 < 0 after settling).
  void setClockOffset(double t0_s) { t0_s_ = t0_s; }

 private:
  const Motion& motion_;
  double t0_s_ = 0.0;
  std::vector<int> to_joint_;
  std::vector<double> target_, values_;
  MotionCursor cursor_;
};

/// The recording's frames: frame n at the first step at or after n / rate (whole steps: the
/// replay samples between steps, so a frame on a step compares the same state).
class FrameWriter : public Observer {
 public:
  FrameWriter(const RobotModel& m, const RecordSettings& s) : m_(m), rate_hz_(s.frame_rate_hz) {
    k_ = s.degrees ? 180.0 / std::numbers::pi : 1.0;
    const std::string u = s.degrees ? "deg" : "rad";
    const std::string imu = m.imus.empty() ? m.links[m.root_link].name : m.imus.front().name;
    const std::string root = m.links[m.root_link].name;
    std::vector<std::string> cols = {"time_s"};
    joints_ = m.movableJoints();
    for (int j : joints_) cols.push_back(m.joints[j].name + "/q_" + u);
    cols.push_back(imu + "/tilt_" + u);
    for (const char* c : {"/rotvec_x", "/rotvec_y", "/rotvec_z", "/x_m", "/y_m", "/z_m"}) cols.push_back(root + c);
    cols.push_back("com/z_m");
    for (const FootContactSpec& f : m.foot_contacts) cols.push_back(f.name + "/contact");
    row_.resize(cols.size());
    log_ = Log(cols);
  }
  /// The frame at recording time 0 = t0 + the simulation's time, before the next step.
  void start(const Simulation& sim, double t0_s) {
    t0_s_ = t0_s;
    start_step_ = sim.stepCount();
    frame(sim);
    ++next_frame_;
  }
  void afterStep(const Simulation& sim) override {
    if (!due(sim, sim.stepCount())) return;
    frame(sim);
    while (due(sim, sim.stepCount())) ++next_frame_;
  }
  Log take() { return std::move(log_); }

 private:
  bool due(const Simulation& sim, long step) const {
    return static_cast<double>(step - start_step_) * sim.dt_s() + 1e-12 >= static_cast<double>(next_frame_) / rate_hz_;
  }
  void frame(const Simulation& sim) {
    std::size_t c = 0;
    row_[c++] = t0_s_ + sim.time_s();
    for (int j : joints_) row_[c++] = sim.jointAngle_rad(j) * k_;
    row_[c++] = sim.imu().tilt_rad * k_;
    const Eigen::Isometry3d pose = sim.linkPose(m_.root_link);
    const Eigen::AngleAxisd aa(pose.linear());
    const Eigen::Vector3d rv = aa.axis() * aa.angle();
    for (double v : {rv.x(), rv.y(), rv.z(), pose.translation().x(), pose.translation().y(), pose.translation().z()})
      row_[c++] = v;
    row_[c++] = sim.com_m().z();
    for (std::size_t f = 0; f < m_.foot_contacts.size(); ++f)
      row_[c++] = sim.footContact(static_cast<int>(f)).contact ? 1.0 : 0.0;
    log_.appendRow(row_);
  }

  const RobotModel& m_;
  double rate_hz_, k_ = 1.0;
  std::vector<int> joints_;
  std::vector<double> row_;
  Log log_;
  long next_frame_ = 0, start_step_ = 0;
  double t0_s_ = 0.0;
};

}  // namespace

Log recordRun(const RobotModel& model, const Motion& motion, const RecordSettings& s) {
  s.validate();
  auto m = std::make_shared<const RobotModel>(model);
  SimOptions so;
  so.seed = s.sim_seed;
  Simulation sim(m, so);
  FrameWriter frames(*m, s);
  ContinuousCommand command(*m, motion);
  if (s.settle_s > 0) {
    // As replay settles (calib/recording_replay.cpp): the first command, held.
    command.update(sim);
    Hold hold;
    RunConfig settle;
    settle.duration_s = s.settle_s;
    settle.throw_divergence = true;
    run(sim, hold, {}, settle, nullptr);
  }
  const double t0 = 0.0 - sim.time_s();  // the expression replay uses: first frame time - sim time
  command.setClockOffset(t0);
  frames.start(sim, t0);
  Observer* observers[] = {&frames};
  RunConfig cfg;
  cfg.duration_s = s.duration_s;  // run() steps lround(duration / dt) times
  cfg.throw_divergence = true;
  run(sim, command, observers, cfg, nullptr);
  return frames.take();
}

}  // namespace gapsim::calib
