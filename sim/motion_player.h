// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Controllers of the run loop (sim/run_loop.h) that play a motion: MotionPlayer sets the joints
/// the motion names to its values at the simulation's time (the others hold the model's initial
/// pose); Balanced wraps any controller and adds the ankle balance's corrections
/// (sim/ankle_balance.h) to the targets it set.

#include <vector>

#include "sim/ankle_balance.h"
#include "sim/motion.h"
#include "sim/run_loop.h"

namespace gapsim {

class MotionPlayer : public Controller {
 public:
  /// `motion` must outlive the player; its columns are matched to the model's joints by name.
  MotionPlayer(const RobotModel& model, const Motion& motion);
  /// The motion's first frame (time 0, whatever the simulation's clock).
  void start(Simulation& sim) override { play(sim, 0.0); }
  /// The motion at the simulation's time.
  void update(Simulation& sim) override { play(sim, sim.time_s()); }

 private:
  void play(Simulation& sim, double t_s);

  const Motion& motion_;
  std::vector<int> map_;  ///< motion column -> model joint
  std::vector<double> target_, values_;
  MotionCursor cursor_;
};

/// The ankle balance as a decorator: after the wrapped controller set its targets, adds the
/// corrections (AnkleBalance::adjust) and sets the sum.
class Balanced : public Controller {
 public:
  Balanced(const RobotModel& model, const BalanceParams& p, Controller& inner) : balance_(model, p), inner_(inner) {}
  void start(Simulation& sim) override;
  void update(Simulation& sim) override;

 private:
  AnkleBalance balance_;
  Controller& inner_;
};

}  // namespace gapsim
