// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli run: simulate headless, play a motion, write a log, print one summary line.
#include <iostream>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/run_setup.h"
#include "sim/runner.h"

namespace gapsim::cli {

Action addRun(CLI::App& app) {
  auto o = std::make_shared<RunArgs>();
  addRunArgs(app, *o);
  return [o] {
    RunSetup s = prepareRun(*o);
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
