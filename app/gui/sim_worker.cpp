// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/sim_worker.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "sim/mabel_hop_run.h"

namespace gapsim::gui {

namespace {
using Clock = std::chrono::steady_clock;
double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
constexpr double kMaxLag_s = 0.2;                      // sim time behind schedule before giving up catching up
constexpr auto kChunk = std::chrono::milliseconds(8);  // longest run between flag checks

std::shared_ptr<const RobotModel> startModel(std::shared_ptr<const RobotModel> model,
                                             const std::optional<MabelHopController::Params>& hop) {
  if (!hop || hop->drop_m <= 0) return model;
  return hopStartModel(*model, hop->drop_m);  // std::invalid_argument without a boom
}

/// MABEL's probes (cable stretch, spring deflection, toe forces) are always recorded: they are what
/// the MABEL tab is about, and cheap next to the physics.
std::vector<std::string> probePatterns(const RobotModel& m) {
  if (m.mabel_legs.empty() && m.compliant_grounds.empty()) return {};
  std::vector<std::string> out;
  for (const MabelLegSpec& l : m.mabel_legs) out.push_back(l.name + "/*");
  for (const CompliantGroundSpec& g : m.compliant_grounds)
    for (const ToePoint& t : g.toes) out.push_back(t.name + "/*");
  return out;
}
}  // namespace

SimWorker::SimWorker(std::shared_ptr<const RobotModel> model, std::shared_ptr<const Motion> motion, double log_period_s,
                     const std::optional<MabelHopController::Params>& hop, const std::optional<BalanceParams>& balance)
    : model_(startModel(std::move(model), hop)),
      motion_(std::move(motion)),
      sim_(model_),
      recorder_(*model_, probePatterns(*model_)),
      log_period_s_(log_period_s) {
  columns_ = recorder_.columns();
  if (hop) {
    if (motion_) throw std::invalid_argument("the hopping controller replaces the motion: give one, not both");
    ctl_ = std::make_unique<MabelHopController>(sim_, *hop);  // throws for a robot that is not MABEL
    columns_ = hopLogColumns(*model_, probePatterns(*model_));
  }
  steps_per_sample_ = std::max(1L, std::lround(log_period_s_ / sim_.dt_s()));
  log_period_s_ = static_cast<double>(steps_per_sample_) * sim_.dt_s();
  sim_.setTargets(model_->initial_q);
  Controller* controller = &hold_;
  if (motion_) {
    controller = &player_.emplace(*model_, *motion_);  // InputError for a joint the robot lacks
    if (balance) controller = &balanced_.emplace(*model_, *balance, *player_);  // InputError without ankles
  } else if (ctl_) {
    controller = &hop_ctl_.emplace(*ctl_);
  }
  RunConfig cfg;
  cfg.duration_s = std::numeric_limits<double>::infinity();  // until the user stops it
  cfg.log_period_s = log_period_s_;
  cfg.throw_divergence = true;  // loop() turns it into the divergence event
  run_.emplace(sim_, *controller, observers_, cfg, nullptr);
  run_->start();
  queue_.push_back(snapshot());
  thread_ = std::thread([this] { loop(); });
}

SimWorker::~SimWorker() {
  {
    std::lock_guard lk(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SimWorker::setRunning(bool running) {
  {
    std::lock_guard lk(mutex_);
    running_ = running;
  }
  wake_.notify_all();
}

void SimWorker::setSpeed(double speed) {
  {
    std::lock_guard lk(mutex_);
    speed_ = std::clamp(speed, 1e-3, 1e3);
    speed_changed_ = true;
  }
  wake_.notify_all();
}

void SimWorker::requestSamples(int samples) {
  {
    std::lock_guard lk(mutex_);
    pending_samples_ += std::max(0, samples);
  }
  wake_.notify_all();
}

std::vector<Frame> SimWorker::takeFrames() {
  std::vector<Frame> out;
  std::lock_guard lk(mutex_);
  out.swap(queue_);
  return out;
}

std::vector<RunEvent> SimWorker::takeEvents() {
  std::vector<RunEvent> out;
  std::lock_guard lk(mutex_);
  out.swap(events_);
  return out;
}

std::string SimWorker::error() const {
  std::lock_guard lk(mutex_);
  return error_;
}

Frame SimWorker::snapshot() {
  Frame f;
  f.t_s = sim_.time_s();
  f.links.resize(model_->links.size());
  for (std::size_t i = 0; i < model_->links.size(); ++i) {
    const Eigen::Isometry3d pose = sim_.linkPose(static_cast<int>(i));
    const Eigen::Quaterniond q(pose.rotation());
    const Eigen::Vector3d p = pose.translation();
    f.links[i].p = {float(p.x()), float(p.y()), float(p.z())};
    f.links[i].q = {float(q.w()), float(q.x()), float(q.y()), float(q.z())};
  }
  const Eigen::Vector3d c = sim_.com_m();
  f.com_m = {float(c.x()), float(c.y()), float(c.z())};
  for (std::size_t k = 0; k < model_->foot_contacts.size(); ++k) {
    const FootContactReading r = sim_.footContact(static_cast<int>(k));
    f.feet.push_back({r.contact, float(r.force_N)});
  }
  recorder_.sample(sim_, f.row);
  if (ctl_) {  // the columns of hopLogColumns, in its order
    f.row.push_back(static_cast<double>(ctl_->phase()));
    f.row.push_back(ctl_->touchdowns());
    f.row.push_back(ctl_->hTor_rad());
  }
  return f;
}

RunEvent SimWorker::fallEvent() const {
  const int link = model_->imus.empty() ? model_->root_link : model_->imus.front().link;
  const std::string name = link >= 0 ? model_->links[static_cast<std::size_t>(link)].name : std::string("torso");
  char what[160];
  std::snprintf(what, sizeof what, "%s tilt %.2f deg > %.0f deg fall threshold", name.c_str(),
                sim_.imu().tilt_rad * 180.0 / std::numbers::pi, model_->fall_tilt_rad * 180.0 / std::numbers::pi);
  return {RunEvent::Kind::kFall, *sim_.fallTime_s(), what};
}

void SimWorker::FallNote::afterStep(const Simulation& sim) {
  if (w_.fall_noted_ || !sim.fallTime_s()) return;
  w_.fall_noted_ = true;
  w_.pending_fall_ = w_.fallEvent();
}

void SimWorker::advanceOneSample() {
  run_->advance(steps_per_sample_);
  Frame f = snapshot();
  std::lock_guard lk(mutex_);
  queue_.push_back(std::move(f));
  if (pending_fall_) events_.push_back(std::move(*pending_fall_));
  pending_fall_.reset();
}

void SimWorker::loop() {
  bool anchored = false;
  Clock::time_point wall0, rtf_wall0;
  double sim0 = 0, rtf_sim0 = 0;
  for (;;) {
    bool running;
    double speed;
    int samples;
    {
      std::unique_lock lk(mutex_);
      wake_.wait(lk, [&] { return stop_ || ((running_ || pending_samples_ > 0) && error_.empty()); });
      if (stop_) return;
      running = running_;
      speed = speed_;
      samples = pending_samples_;
      pending_samples_ = 0;
      if (speed_changed_ || !running) anchored = false;
      speed_changed_ = false;
    }
    try {
      for (int i = 0; i < samples; ++i) advanceOneSample();
      if (!running) {
        rtf_ = 0.0;
        continue;
      }
      const Clock::time_point now = Clock::now();
      if (!anchored) {
        wall0 = rtf_wall0 = now;
        sim0 = rtf_sim0 = sim_.time_s();
        anchored = true;
      }
      double target = sim0 + speed * seconds(now - wall0);
      if (target - sim_.time_s() > kMaxLag_s) {  // too slow for this speed: run flat out from here
        wall0 = now;
        sim0 = sim_.time_s();
        target = sim0 + log_period_s_;
      }
      bool stepped = false;
      const Clock::time_point chunk_end = now + kChunk;
      while (sim_.time_s() + log_period_s_ <= target + 1e-9 && Clock::now() < chunk_end) {
        advanceOneSample();
        stepped = true;
      }
      const Clock::time_point after = Clock::now();
      if (seconds(after - rtf_wall0) > 0.5) {
        rtf_ = (sim_.time_s() - rtf_sim0) / seconds(after - rtf_wall0);
        rtf_wall0 = after;
        rtf_sim0 = sim_.time_s();
      }
      if (!stepped) {  // ahead of schedule: sleep until the next sample is due (or a command)
        const double wait_s = std::clamp((sim_.time_s() + log_period_s_ - target) / speed, 0.0005, 0.02);
        std::unique_lock lk(mutex_);
        wake_.wait_for(lk, std::chrono::duration<double>(wait_s),
                       [&] { return stop_ || speed_changed_ || !running_ || pending_samples_ > 0; });
      }
    } catch (const DivergenceError& e) {
      // The banner says when and leaves the step and dt of "simulation diverged at t=... (step
      // ..., dt=...): body '...' ..." to the full message; ODE's own errors carry no time.
      std::string what = e.what();
      if (const auto colon = what.find("): "); colon != std::string::npos) what = what.substr(colon + 3);
      const RunEvent event{RunEvent::Kind::kDivergence, std::isfinite(e.time_s()) ? e.time_s() : sim_.time_s(), what};
      std::lock_guard lk(mutex_);
      if (pending_fall_) events_.push_back(std::move(*pending_fall_));  // a fall in the sample that blew up
      pending_fall_.reset();
      events_.push_back(event);
      error_ = e.what();
      running_ = false;
      pending_samples_ = 0;
      rtf_ = 0.0;
    }
  }
}

}  // namespace gapsim::gui
