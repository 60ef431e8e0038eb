// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Playback of one robot and motion: owns the SimWorker (the physics thread), keeps every
/// published frame (body poses per logged sample; the rows go to the SignalStore) and decides which
/// frame is shown. The history makes the time scrubber work: seeking anywhere inside what has been
/// simulated shows the recorded frame, and playing from there replays from memory until the end of
/// the history, where the live simulation takes over again.
///
/// The run ends at the motion's end + 1 s (no motion: never). There, with loop on, playback
/// restarts from t = 0 out of the history; otherwise it pauses.
///
/// Events (run_event.h: the fall, a divergence) are kept with the history: events() holds those of
/// the current run, in time order, until the next load or reset; eventsChanged() tells both.

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/frame.h"
#include "app/gui/run_event.h"
#include "app/gui/signal_store.h"
#include "app/gui/sim_worker.h"

namespace gapsim::gui {

class SimSession : public QObject {
  Q_OBJECT
 public:
  explicit SimSession(SignalStore* store, QObject* parent = nullptr);
  ~SimSession() override;

  /// Replaces robot and motion and starts over (paused at t = 0). Throws (InputError, ...) on a
  /// motion that does not fit the robot; the previous session is kept in that case.
  void load(std::shared_ptr<const RobotModel> model, std::shared_ptr<const Motion> motion);
  /// Same robot and motion from t = 0.
  void reset();
  /// MABEL's hopping controller (sim_worker.h) on or off for this and later loads of a robot that
  /// has it; restarts the session at t = 0. While on, the motion is kept but not played; loading a
  /// new motion switches the controller off.
  /// Throws (std::invalid_argument) for a robot the controller cannot drive, leaving it off.
  void setHopController(bool on, const MabelHopController::Params& p = {});
  /// Gyro feedback on the stance ankles (sim/ankle_balance.h) on or off for this and later loads
  /// (it acts while a motion plays); restarts the session at t = 0. Throws (InputError) for a robot
  /// without ankles, leaving it off; loading such a robot later switches it off.
  void setBalance(const std::optional<BalanceParams>& p);
  bool balanceOn() const { return balance_.has_value(); }
  /// True while the running simulation is driven by the hopping controller.
  bool hopControllerOn() const { return worker_ && worker_->hopControllerOn(); }
  std::shared_ptr<const RobotModel> model() const { return model_; }
  std::shared_ptr<const Motion> motion() const { return motion_; }

  void play();
  void pause();
  void togglePlay() { playing_ ? pause() : play(); }
  bool playing() const { return playing_; }
  void stepForward();   ///< next logged sample (simulates one if at the end)
  void stepBackward();  ///< previous logged sample
  void seek(double t_s);
  void seekIndex(int index);
  void setSpeed(double speed);
  double speed() const { return speed_; }
  void setLoop(bool on) { loop_ = on; }
  bool loop() const { return loop_; }
  double endTime_s() const;

  int frameCount() const { return static_cast<int>(history_.size()); }
  int currentIndex() const { return current_; }
  const Frame& frame(int index) const { return history_[static_cast<std::size_t>(index)]; }
  const Frame& currentFrame() const { return frame(current_); }
  /// The first frame at or after t_s (the last frame if none).
  int indexAtOrAfter(double t_s) const;
  /// Log row (Recorder columns, time first) of a frame, from the signal store.
  std::vector<double> row(int index) const;
  double currentTime_s() const { return history_.empty() ? 0.0 : currentFrame().t_s; }
  double realTimeFactor() const { return worker_ ? worker_->realTimeFactor() : 0.0; }
  const std::vector<std::string>& columns() const { return columns_; }
  /// Fall and divergence of the current run so far (run_event.h), in time order.
  const std::vector<RunEvent>& events() const { return events_; }
  /// Time of the fall, if the robot has fallen in this run.
  std::optional<double> fallTime_s() const;

  /// Pulls new frames from the worker and advances playback; called by the internal 60 Hz timer
  /// (public so tests can drive it).
  void tick();

 signals:
  void loaded();
  void frameShown(int index);
  void playingChanged(bool playing);
  void speedChanged(double speed);
  void simulationError(const QString& message);
  /// events() changed: one was added, or a load or reset cleared them.
  void eventsChanged();

 private:
  void show(int index);
  /// Sets a controller option and restarts with it; restores the old value if the restart throws.
  template <class T>
  void setAndReload(std::optional<T>& setting, const std::optional<T>& value);
  void setWorkerRunning();
  /// Moves the worker's new frames into the history and its events into events_.
  void takeFromWorker();

  SignalStore* store_;
  std::shared_ptr<const RobotModel> model_;
  std::shared_ptr<const Motion> motion_;
  std::optional<MabelHopController::Params> hop_;  // requested; applies to robots with MABEL legs
  std::optional<BalanceParams> balance_;           // requested; applies while a motion plays
  std::unique_ptr<SimWorker> worker_;
  std::vector<std::string> columns_;
  std::vector<Frame> history_;
  std::vector<RunEvent> events_;
  int current_ = 0;
  bool playing_ = false, loop_ = false, replaying_ = false, follow_step_ = false, error_reported_ = false;
  double speed_ = 1.0;
  double replay_t_s_ = 0;  // playback time while replaying from memory
  QElapsedTimer replay_clock_;
  QTimer timer_;
};

}  // namespace gapsim::gui
