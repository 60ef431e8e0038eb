// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/sim_session.h"

#include <algorithm>

#include "sim/input_error.h"
#include "sim/motion.h"

namespace gapsim::gui {

SimSession::SimSession(SignalStore* store, QObject* parent) : QObject(parent), store_(store) {
  connect(&timer_, &QTimer::timeout, this, &SimSession::tick);
  timer_.start(16);
}

SimSession::~SimSession() = default;

void SimSession::load(std::shared_ptr<const RobotModel> model, std::shared_ptr<const Motion> motion) {
  // A new motion replaces the hopping controller (the same motion on a reset or apply does not).
  const bool new_motion = motion && motion != motion_;
  const bool hop = hop_ && !new_motion && !model->mabel_legs.empty();
  // A new motion plays with the controller it names (walks: the ankle balance; none: open loop);
  // Playback > Ankle Balance switches it for this motion, as `gapsim-cli run --open-loop` does.
  std::optional<BalanceParams> balance = new_motion ? motionController(*motion) : balance_;
  if (balance) {  // a robot without ankles switches the feedback off instead of failing to load
    try {
      AnkleBalance check(*model, *balance);
    } catch (const InputError&) {
      balance.reset();
    }
  }
  auto worker =
      hop ? std::make_unique<SimWorker>(model, nullptr, 0.01, hop_)
          : std::make_unique<SimWorker>(model, motion, 0.01, std::nullopt, balance);  // throws before anything changes
  worker->setSpeed(speed_);
  pause();
  worker_ = std::move(worker);
  balance_ = balance;
  if (new_motion) hop_.reset();
  model_ = std::move(model);
  motion_ = std::move(motion);
  columns_ = worker_->columns();
  history_.clear();
  current_ = 0;
  replaying_ = follow_step_ = error_reported_ = false;
  events_.clear();
  store_->resetSimulation(columns_);
  takeFromWorker();
  emit loaded();
  emit eventsChanged();
  show(0);
}

void SimSession::takeFromWorker() {
  for (Frame& f : worker_->takeFrames()) {
    store_->appendSimulationRow(f.row);
    f.row.clear();
    history_.push_back(std::move(f));
  }
  std::vector<RunEvent> fresh = worker_->takeEvents();  // after the frames: theirs are in the history
  if (fresh.empty()) return;
  for (RunEvent& e : fresh) events_.push_back(std::move(e));
  emit eventsChanged();
}

std::optional<double> SimSession::fallTime_s() const {
  for (const RunEvent& e : events_)
    if (e.kind == RunEvent::Kind::kFall) return e.t_s;
  return std::nullopt;
}

void SimSession::reset() {
  if (model_) load(model_, motion_);
}

template <class T>
void SimSession::setAndReload(std::optional<T>& setting, const std::optional<T>& value) {
  const auto before = setting;
  setting = value;
  if (!model_) return;
  try {
    load(model_, motion_);
  } catch (...) {
    setting = before;
    throw;
  }
}

void SimSession::setHopController(bool on, const MabelHopController::Params& p) {
  setAndReload(hop_, on ? std::optional<MabelHopController::Params>(p) : std::nullopt);
}

void SimSession::setBalance(const std::optional<BalanceParams>& p) {
  if (p && model_) AnkleBalance check(*model_, *p);  // InputError for a robot without ankles
  setAndReload(balance_, p);
}

double SimSession::endTime_s() const {
  if (hopControllerOn()) return std::numeric_limits<double>::infinity();
  return motion_ ? motion_->endTime_s() + 1.0 : std::numeric_limits<double>::infinity();
}

void SimSession::play() {
  if (playing_ || !worker_) return;
  playing_ = true;
  if (current_ + 1 < frameCount()) {  // inside the history: replay from memory first
    replaying_ = true;
    replay_t_s_ = currentTime_s();
    replay_clock_.start();
  } else if (currentTime_s() >= endTime_s() && loop_) {
    seekIndex(0);
    replaying_ = true;
    replay_t_s_ = 0;
    replay_clock_.start();
  }
  setWorkerRunning();
  emit playingChanged(true);
}

void SimSession::pause() {
  if (!playing_) return;
  playing_ = false;
  replaying_ = false;
  setWorkerRunning();
  emit playingChanged(false);
}

void SimSession::setWorkerRunning() {
  if (worker_) worker_->setRunning(playing_ && !replaying_);
}

void SimSession::stepForward() {
  pause();
  if (current_ + 1 < frameCount()) {
    show(current_ + 1);
  } else if (worker_) {
    follow_step_ = true;
    worker_->requestSamples(1);
  }
}

void SimSession::stepBackward() {
  pause();
  if (current_ > 0) show(current_ - 1);
}

void SimSession::seek(double t) {
  if (history_.empty()) return;
  auto it = std::upper_bound(history_.begin(), history_.end(), t, [](double x, const Frame& f) { return x < f.t_s; });
  seekIndex(std::max(0, static_cast<int>(it - history_.begin()) - 1));
}

void SimSession::seekIndex(int index) {
  if (history_.empty()) return;
  index = std::clamp(index, 0, frameCount() - 1);
  if (playing_ && index + 1 < frameCount()) {
    replaying_ = true;
    replay_t_s_ = history_[static_cast<std::size_t>(index)].t_s;
    replay_clock_.start();
    setWorkerRunning();
  }
  show(index);
}

void SimSession::setSpeed(double speed) {
  const double old = speed_;
  speed_ = std::clamp(speed, 0.01, 100.0);
  if (worker_) worker_->setSpeed(speed_);
  if (speed_ != old) emit speedChanged(speed_);
  if (replaying_) {
    replay_t_s_ = currentTime_s();
    replay_clock_.start();
  }
}

int SimSession::indexAtOrAfter(double t) const {
  auto it =
      std::lower_bound(history_.begin(), history_.end(), t - 1e-9, [](const Frame& f, double x) { return f.t_s < x; });
  return std::clamp(static_cast<int>(it - history_.begin()), 0, std::max(0, frameCount() - 1));
}

std::vector<double> SimSession::row(int index) const {
  std::vector<double> r;
  const SignalSource* s = store_->source(SignalStore::kSimulation);
  if (!s || index < 0 || static_cast<std::size_t>(index) >= s->time_s.size()) return r;
  r.push_back(s->time_s[static_cast<std::size_t>(index)]);
  for (const auto& col : s->values) r.push_back(col[static_cast<std::size_t>(index)]);
  return r;
}

void SimSession::show(int index) {
  current_ = index;
  emit frameShown(index);
}

void SimSession::tick() {
  if (!worker_) return;
  const int before = frameCount();
  takeFromWorker();
  const bool fresh = frameCount() > before;
  const std::string err = worker_->error();
  if (!err.empty() && !error_reported_) {
    error_reported_ = true;
    pause();
    emit simulationError(QString::fromStdString(err));
  }
  const int last = frameCount() - 1;
  if (follow_step_ && fresh) {
    follow_step_ = false;
    show(last);
    return;
  }
  if (!playing_) return;
  if (replaying_) {
    const double t = replay_t_s_ + speed_ * replay_clock_.nsecsElapsed() * 1e-9;
    auto it = std::upper_bound(history_.begin(), history_.end(), t, [](double x, const Frame& f) { return x < f.t_s; });
    const int idx = std::max(0, static_cast<int>(it - history_.begin()) - 1);
    if (idx >= last) {  // caught up with the simulation: it takes over
      replaying_ = false;
      setWorkerRunning();
    }
    if (idx != current_) show(std::min(idx, last));
  } else if (last != current_) {
    show(last);
  }
  if (currentTime_s() >= endTime_s() - 1e-9) {
    if (loop_) {
      replaying_ = true;
      replay_t_s_ = 0;
      replay_clock_.start();
      setWorkerRunning();
      show(0);
    } else {
      pause();
    }
  }
}

}  // namespace gapsim::gui
