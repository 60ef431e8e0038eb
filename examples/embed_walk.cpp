// SPDX-License-Identifier: BSD-3-Clause
// Embedding gapsim: load the shipped Nao, play a walk with the controller it names, read sensors.
// Build: part of the CMake tree (target gapsim-example-embed); run: build/gapsim-example-embed
#include <cstdio>
#include <memory>

#include "sim/ankle_balance.h"
#include "sim/motion_readers.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/urdf_parser.h"

int main() {
  using namespace gapsim;
  auto nao = std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  const Motion walk = loadMotion(robotsDirectory() + "/nao/motions/walk_200mm_s_1s.csv");
  Simulation sim(nao);  // full MoToFlex pipeline, the file's solver
  RunConfig run;
  run.duration_s = walk.endTime_s() + 1.0;
  run.balance = motionController(walk);  // the ankle balance the walk names
  const RunSummary s = runMotion(sim, &walk, run, nullptr);
  std::printf("walked %.3f m in %.1f s, fell: %s, torso pitch now %.4f rad\n", s.distance_m, s.sim_time_s,
              s.fall_time_s ? "yes" : "no", sim.imu().pitch_rad);
  return s.fall_time_s || s.diverged ? 1 : 0;
}
