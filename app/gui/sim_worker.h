// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Runs one Simulation in its own std::thread, paced at `speed` times real time, and hands the
/// GUI a Frame per logged sample through a mutex-protected queue. The GUI only ever takes the
/// lock to copy flags or swap the queue out, never while physics runs, so it never waits on a
/// step. Commands (run, pause, speed, single steps) are flags read by the thread between steps.
///
/// Pacing: while running, the thread steps until sim time reaches
///   t_anchor_sim + speed * (now - t_anchor_wall)
/// and sleeps otherwise. If it falls more than 0.2 s of sim time behind (the machine is too slow
/// for that speed) the anchor is moved up, so it runs flat out without trying to catch up later;
/// realTimeFactor() then shows what it achieves.
///
/// With hop parameters (MABEL only) the worker runs MABEL's hopping controller instead of a motion,
/// as `gapsim-cli run --controller hop` does: the model starts from the drop of hopStartModel, the
/// controller writes the motor commands before every step, and the log gains the columns of
/// hopLogColumns (hop/phase, hop/touchdowns, hop/h_Tor_rad). MABEL's probes (transmission, toes)
/// are always logged so that cable stretch and spring deflection plot like any signal.
///
/// The steps are the run loop's (sim/run_loop.h), advanced one log sample at a time: the same
/// controller update, step and observers as `gapsim-cli run`, so the GUI shows what the CLI logs.
///
/// Events (run_event.h): the first fall is noted at the step that detects it (the run goes on),
/// a divergence when the step throws (the thread then stops stepping). Each is queued together
/// with the frames up to it, so takeFrames() before takeEvents() has the frame of its time.

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/frame.h"
#include "app/gui/run_event.h"
#include "sim/ankle_balance.h"
#include "sim/mabel_hop_controller.h"
#include "sim/motion.h"
#include "sim/motion_player.h"
#include "sim/recorder.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"

namespace gapsim::gui {

class SimWorker {
 public:
  /// Builds the simulation (may throw InputError / std::exception from the core) and publishes the
  /// frame at t = 0. motion may be null (hold the initial pose). Starts paused. With `hop` the
  /// motion must be null; std::invalid_argument for a robot the hopping controller cannot drive.
  /// With `balance` the motion plays with gyro feedback on the stance ankles, as `gapsim-cli run
  /// --balance` (sim/ankle_balance.h; InputError for a robot without ankles; ignored without a motion).
  SimWorker(std::shared_ptr<const RobotModel> model, std::shared_ptr<const Motion> motion, double log_period_s = 0.01,
            const std::optional<MabelHopController::Params>& hop = std::nullopt,
            const std::optional<BalanceParams>& balance = std::nullopt);
  ~SimWorker();  ///< stops and joins the thread (within one chunk of steps, a few ms)
  SimWorker(const SimWorker&) = delete;
  SimWorker& operator=(const SimWorker&) = delete;

  const std::vector<std::string>& columns() const { return columns_; }
  /// The model simulated (with the hop controller: the drop start's copy).
  const std::shared_ptr<const RobotModel>& model() const { return model_; }
  bool hopControllerOn() const { return ctl_ != nullptr; }
  bool balanceOn() const { return balanced_.has_value(); }
  double logPeriod_s() const { return log_period_s_; }

  void setRunning(bool running);
  void setSpeed(double speed);  ///< sim seconds per wall second, > 0
  /// Simulate `samples` more log periods even while paused (single step).
  void requestSamples(int samples);

  /// Everything published since the last call (oldest first).
  std::vector<Frame> takeFrames();
  /// Fall and divergence noted since the last call (at most one of each per run).
  std::vector<RunEvent> takeEvents();
  /// Sim seconds per wall second over the last ~0.5 s of running (0 when paused).
  double realTimeFactor() const { return rtf_.load(); }
  /// The divergence message once the physics has blown up (the thread then stops stepping).
  std::string error() const;

 private:
  void loop();
  void advanceOneSample();  // steps to the next log sample and publishes it
  Frame snapshot();
  RunEvent fallEvent() const;  // from the state right after the step that detected the fall

  /// Notes the first fall at the step that detects it (the run goes on).
  class FallNote : public Observer {
   public:
    explicit FallNote(SimWorker& w) : w_(w) {}
    void afterStep(const Simulation& sim) override;

   private:
    SimWorker& w_;
  };
  /// The hopping controller as the run loop's controller.
  class HopControl : public Controller {
   public:
    explicit HopControl(MabelHopController& c) : c_(c) {}
    void update(Simulation& sim) override { c_.update(sim); }

   private:
    MabelHopController& c_;
  };

  std::shared_ptr<const RobotModel> model_;
  std::shared_ptr<const Motion> motion_;
  Simulation sim_;
  Recorder recorder_;
  std::vector<std::string> columns_;
  std::unique_ptr<MabelHopController> ctl_;
  // The motion's controllers, as runMotion builds them (sim/motion_player.h): the player, wrapped
  // in the ankle balance when it is on.
  std::optional<MotionPlayer> player_;
  std::optional<Balanced> balanced_;
  std::optional<HopControl> hop_ctl_;
  Hold hold_;  // neither a motion nor the hop controller: hold the initial pose
  FallNote fall_note_{*this};
  Observer* observers_[1] = {&fall_note_};
  std::optional<RunLoop> run_;  // its controller: the motion's, the hop's or the hold
  double log_period_s_;
  long steps_per_sample_ = 10;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool running_ = false, stop_ = false, speed_changed_ = false;
  double speed_ = 1.0;
  int pending_samples_ = 0;
  std::vector<Frame> queue_;
  std::vector<RunEvent> events_;
  bool fall_noted_ = false;               // the worker thread's alone
  std::optional<RunEvent> pending_fall_;  // noted inside the sample being simulated
  std::string error_;
  std::atomic<double> rtf_{0.0};
  std::thread thread_;  // last: starts after everything above is built
};

}  // namespace gapsim::gui
