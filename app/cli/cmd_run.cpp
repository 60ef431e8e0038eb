// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli run: simulate headless, play a motion, write a log, print one summary line.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "sim/input_error.h"
#include "sim/mabel_hop_run.h"
#include "sim/runner.h"

namespace gapsim::cli {

namespace {

/// --controller hop: MABEL's hopping controller instead of a motion (sim/mabel_hop_run.h).
int runController(const RunArgs& o, RunSetup& s, bool profile = false) {
  if (s.motion) throw InputError("", 0, "--controller", "give --motion or --controller, not both");
  const MabelHopController::Params hp = parseHopParams(o.hop);
  if (hp.drop_m > 0) {
    // Start in the air: the boom tilted up so that the hip is drop_m higher (hop from a drop).
    std::shared_ptr<RobotModel> m;
    try {
      m = hopStartModel(*s.model, hp.drop_m);
    } catch (const std::invalid_argument& e) {
      throw InputError(s.model->source_file, 0, "--hop", e.what());
    }
    s.model = m;
    s.sim = std::make_unique<Simulation>(m, simOptions(o, profile));
  }
  std::unique_ptr<MabelHopController> ctl;
  try {
    ctl = std::make_unique<MabelHopController>(*s.sim, hp);
  } catch (const std::invalid_argument& e) {
    throw InputError(s.model->source_file, 0, "--controller", e.what());
  }
  std::unique_ptr<Log> log;
  if (!o.out.empty()) log = std::make_unique<Log>(hopLogColumns(*s.model, o.probes));
  const HopSummary h = runHop(*s.sim, *ctl, s.config, log.get());
  if (log) {
    log->write(o.out);
    std::cerr << "log: " << o.out << " (" << log->rows() << " rows, " << log->cols() << " columns)\n";
  }
  std::cout << formatHopSummary(h) << std::endl;
  if (h.run.diverged) {
    std::cerr << "error: " << h.run.divergence << "\n";
    return kExitDivergence;
  }
  return kExitOk;
}

}  // namespace

Action addRun(CLI::App& app) {
  auto o = std::make_shared<RunArgs>();
  addRunArgs(app, *o);
  addForceOption(app, o->force);
  return [o] {
    claimOutputFile(o->out, o->force);
    RunSetup s = prepareRun(*o);
    if (!o->controller.empty()) return runController(*o, s);
    RunSummary sum = runMotion(*s.sim, s.motion.get(), s.config, s.log.get());
    if (s.log && !o->out.empty()) {
      s.log->write(o->out);
      std::cerr << "log: " << o->out << " (" << s.log->rows() << " rows, " << s.log->cols() << " columns)\n";
    }
    std::cout << formatSummary(sum) << std::endl;
    if (sum.diverged) {
      std::cerr << "error: " << sum.divergence << "\n";
      return kExitDivergence;
    }
    return kExitOk;
  };
}

}  // namespace gapsim::cli
