// SPDX-License-Identifier: BSD-3-Clause
#include "sim/runner.h"

#include <cstdio>
#include <optional>

#include "sim/motion_player.h"

namespace gapsim {

RunSummary runMotion(Simulation& sim, const Motion* motion, const RunConfig& cfg, Log* log) {
  Hold hold;
  std::optional<MotionPlayer> player;
  std::optional<Balanced> balanced;
  Controller* ctl = &hold;
  if (motion) {
    ctl = &player.emplace(sim.model(), *motion);
    if (cfg.balance) ctl = &balanced.emplace(sim.model(), *cfg.balance, *ctl);
  }
  return run(sim, *ctl, {}, cfg, log);
}

std::string formatSummary(const RunSummary& s) {
  char buf[256];
  char fell[32];
  if (s.fall_time_s)
    std::snprintf(fell, sizeof fell, "%.3f", *s.fall_time_s);
  else
    std::snprintf(fell, sizeof fell, "no");
  std::snprintf(buf, sizeof buf,
                "sim_time_s=%.3f steps=%ld fell=%s max_tilt_deg=%.2f distance_m=%.4f heading_deg=%.2f rtf=%.2f%s",
                s.sim_time_s, s.steps, fell, s.max_tilt_deg, s.distance_m, s.heading_deg, s.rtf,
                s.diverged ? " diverged=yes" : "");
  return buf;
}

}  // namespace gapsim
