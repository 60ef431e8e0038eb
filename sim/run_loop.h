// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The run loop: a controller sets the simulation's inputs before every step, observers watch it
/// after every step, a recorder writes log rows at the log period, and the run ends at its
/// duration, at a fall (if asked) or when an observer asks. A divergence ends the run and is
/// reported in the summary, so the log up to that moment is kept (or, if asked, thrown).
///
///   start:  controller.start(sim); log row
///   step k: controller.update(sim); sim.step(); observers' afterStep; log row every log period;
///           stop on a fall (stop_on_fall) or an observer's stopRequested()
///
/// runMotion (sim/runner.h) plays a motion with it, runHop (sim/mabel_hop_run.h) hops MABEL, the
/// calibration workflows (calib/) run their experiments with it, and the GUI's worker advances a
/// RunLoop piece by piece as the wall clock allows (run() is a RunLoop advanced to its end).

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/ankle_balance.h"
#include "sim/log_writer.h"
#include "sim/recorder.h"
#include "sim/simulation.h"

namespace gapsim {

struct RunConfig {
  double duration_s = 10.0;
  double log_period_s = 0.01;  ///< sample period of the log (rounded to whole steps)
  bool stop_on_fall = false;
  std::vector<std::string> probe_patterns;  ///< extra log columns (Recorder)
  /// Gyro feedback on the stance ankles added to the motion's targets (sim/ankle_balance.h);
  /// none when empty. Only while a motion plays (runMotion).
  std::optional<BalanceParams> balance;
  /// Let a DivergenceError leave run() instead of ending the run with a summary: for workflows
  /// whose own contract is to throw it (an identification's residual, a recording).
  bool throw_divergence = false;
};

struct RunSummary {
  double sim_time_s = 0;
  long steps = 0;
  std::optional<double> fall_time_s;
  double max_tilt_deg = 0;
  double distance_m = 0;   ///< horizontal displacement of the IMU link (torso) from start to end
  double heading_deg = 0;  ///< change of the IMU link's yaw (about world z) from start to end, in (-180, 180]
  double wall_s = 0;
  double rtf = 0;  ///< simulated seconds per wall-clock second
  bool diverged = false;
  std::string divergence;  ///< the DivergenceError message
};

/// Sets the simulation's inputs (targets, motor commands): once before the run, then before
/// every step.
class Controller {
 public:
  virtual ~Controller() = default;
  virtual void start(Simulation& sim) {}
  virtual void update(Simulation& sim) = 0;
};

/// Holds the targets the simulation has: a run without a motion, a settle before a workflow's run.
class Hold : public Controller {
 public:
  void update(Simulation&) override {}
};

/// Watches the run after every step; may add values to each log row (after the recorder's
/// columns, in observer order) and ask the loop to stop.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void afterStep(const Simulation& sim) = 0;
  virtual void appendLogValues(std::vector<double>& row) const {}
  virtual bool stopRequested() const { return false; }
};

/// The loop of the file comment as an object: start() once, then advance() as often as the caller
/// likes; the steps are the same whether taken in one call or many. cfg.duration_s may be
/// infinite (an interactive run that ends when its user says so). The references must outlive it.
class RunLoop {
 public:
  RunLoop(Simulation& sim, Controller& controller, std::span<Observer* const> observers, const RunConfig& cfg,
          Log* log);
  /// controller.start(sim) and the first log row.
  void start();
  /// Up to `steps` more steps; false once the run is over (its duration, a fall with
  /// stop_on_fall, an observer's stop, or a divergence). A DivergenceError ends the run and is
  /// kept for summary(), or leaves advance() with cfg.throw_divergence.
  bool advance(long steps);
  bool finished() const { return finished_; }
  /// What the run did so far (wall time: spent inside advance()).
  RunSummary summary() const;

 private:
  void sample();
  double yaw_rad() const;

  Simulation& sim_;
  Controller& controller_;
  std::span<Observer* const> observers_;
  RunConfig cfg_;
  Log* log_;
  Recorder recorder_;
  std::vector<double> row_;
  long log_every_ = 1;
  long steps_left_ = 0;  // < 0: no end
  int imu_link_ = 0;
  Eigen::Vector3d start_;
  double start_yaw_rad_ = 0;
  double wall_s_ = 0;
  bool finished_ = false;
  bool diverged_ = false;
  std::string divergence_;
};

/// Runs `sim` for cfg.duration_s under `controller`, appending rows to `log` (may be null; the
/// Recorder's columns for cfg.probe_patterns, then the observers' values).
RunSummary run(Simulation& sim, Controller& controller, std::span<Observer* const> observers, const RunConfig& cfg,
               Log* log);

}  // namespace gapsim
