// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli demo: the headless first run of a new user. The Nao walks its shipped 200 mm/s walk
// at the defaults (with the ankle balance the walk names), and the run is summarised and logged.
#include <filesystem>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "sim/drive_kinds.h"
#include "sim/robot_library.h"

namespace gapsim::cli {

Action addDemo(CLI::App& app) {
  auto o = std::make_shared<RunArgs>();
  o->out = "gapsim_demo_nao.csv";
  app.add_option("--out", o->out, "where to write the log")->capture_default_str();
  addForceOption(app, o->force);
  return [o] {
    claimOutputFile(o->out, o->force);
    o->robot = "nao";
    o->motion = (std::filesystem::path(robotsDirectory()) / "nao" / "motions" / "walk_200mm_s_1s.csv").string();
    RunSetup s = prepareRun(*o);
    int motoflex = 0;
    for (const Joint& j : s.model->joints) motoflex += driveKindInfo(j.drive.kind).motoflex_chain;
    std::cout << "gapsim demo: Nao V3.3 (" << s.model->movableJoints().size() << " joints, " << s.model->totalMass_kg()
              << " kg) plays " << o->motion << " for " << s.config.duration_s
              << " s, headless, on the MoToFlex pipeline (" << motoflex << " motor+gear joints, "
              << s.model->soft_links.size() << " soft leg links; `gapsim-cli run --plain` for ideal servos)\n";
    RunSummary sum = runMotion(*s.sim, s.motion.get(), s.config, s.log.get());
    s.log->write(o->out);
    std::cout << "log: " << o->out << " (" << s.log->rows() << " rows x " << s.log->cols()
              << " columns; open it in PlotJuggler or any spreadsheet)\n";
    std::cout << formatSummary(sum) << std::endl;
    if (sum.fall_time_s) std::cout << "the Nao fell at " << *sum.fall_time_s << " s\n";
    return sum.diverged ? kExitDivergence : kExitOk;
  };
}

}  // namespace gapsim::cli
