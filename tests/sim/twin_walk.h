// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test helper: one walk of the walking twin experiment (calib/examples/nao_walk_twin) as the twin
// plays it: the Nao with the hidden parameter set, full pipeline, the robot file's solver.
#include <memory>
#include <optional>
#include <string>

#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim::test {

struct TwinWalk {
  RunSummary summary;
  Log log;
};

/// Plays `motion` (a file name under the example's motions/) for duration_s, with `balance` if given.
inline TwinWalk runTwinWalk(const std::string& motion, double duration_s,
                            const std::optional<BalanceParams>& balance = std::nullopt) {
  const std::string ex = std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_walk_twin";
  auto model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  loadParameterFile(*model, ex + "/hidden.params");
  const Motion walk = loadMotion(ex + "/motions/" + motion);
  Simulation sim(model);
  RunConfig rc;
  rc.duration_s = duration_s;
  rc.balance = balance;
  TwinWalk w{{}, Log(Recorder(*model).columns())};
  w.summary = runMotion(sim, &walk, rc, &w.log);
  return w;
}

}  // namespace gapsim::test
