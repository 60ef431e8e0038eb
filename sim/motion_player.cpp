// SPDX-License-Identifier: BSD-3-Clause
#include "sim/motion_player.h"

namespace gapsim {

MotionPlayer::MotionPlayer(const RobotModel& model, const Motion& motion) : motion_(motion), target_(model.initial_q) {
  std::vector<std::string> names;
  for (const Joint& j : model.joints) names.push_back(j.name);
  map_ = motion.mapJoints(names);
}

void MotionPlayer::play(Simulation& sim, double t_s) {
  motion_.sampleAll(t_s, values_, cursor_);
  for (size_t c = 0; c < map_.size(); ++c) target_[map_[c]] = values_[c];
  sim.setTargets(target_);
}

void Balanced::start(Simulation& sim) {
  inner_.start(sim);
  sim.setTargets(balance_.adjust(sim, sim.targets()));
}

void Balanced::update(Simulation& sim) {
  inner_.update(sim);
  sim.setTargets(balance_.adjust(sim, sim.targets()));
}

}  // namespace gapsim
