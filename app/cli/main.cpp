// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli: the headless front end. One subcommand per job; errors are printed as
// "error: file:line: field: what" and mapped to exit codes (2 bad input, 3 divergence).
#include <filesystem>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/subcommands.h"
#include "sim/input_error.h"
#include "sim/simulation.h"

namespace gapsim::cli {
namespace {

/// The commands of gapsim-cli, in the order --help lists them.
constexpr Subcommand kCommands[] = {
    {"info", "Print a robot's links, joints, drivetrains and total mass", addInfo},
    {"export", "Write a robot (with --params applied) as URDF or MuJoCo MJCF for other simulators", addExport},
    {"run", "Simulate a robot headless, optionally playing a motion, and write a log", addRun},
    {"bench", "Print real-time factors and where the time goes", addBench},
    {"demo", "The Nao stands, squats and rises; prints the summary and writes a log", addDemo},
    {"params", "List every drivetrain and soft-body parameter by name (and write a parameter file)", addParams},
    {"sweep", "Drivetrain stability sweep: random parameter sets within bounds, each simulated", addSweep},
    {"walk", "Generate an open-loop Nao walk (or the kick) and write it as a motion CSV", addWalk},
    {"experiment", "Reproduce a paper's experiment (motoflex-walk) and print its table", addExperiment},
    {"calibrate",
     "Calibrate model parameters against reference logs (--scenarios) or recorded trials (--recordings), "
     "CMA-ES or (mu,kappa,lambda)-ES",
     addCalibrate},
    {"twin", "Write the reference logs of a virtual robot with hidden parameters (twin experiments)", addTwin},
    {"identify",
     "Identify model parameters from a real-robot log (servo: Dynamixel gains; chirp, bias, transmission, "
     "spring: MABEL)",
     addIdentify},
    {"drive-curve", "Draw the torque-speed envelope and drive/backdrive diagram of a joint's drive (PNG + CSV)",
     addDriveCurve},
    {"excite", "Write an input signal for an identification experiment (chirp: MABEL)", addExcite},
    {"optimize-controller", "Optimise a BIOLOID rising controller (lean, sit, kneel) with CMA-ES (paper 001)",
     addOptimizeController},
    {"rise", "Play a keyframe controller on a BIOLOID rising task and write the log", addRise},
    {"record", "Write a simulation run as a recording set (recordings.json + CSV) that replay reads", addRecord},
    {"replay",
     "Replay recorded trials (a recording manifest, or the BIOLOID lean-to-stand package) and compare the measured "
     "signals",
     addReplay},
    {"calibrate-replay", "calibrate --recordings under another name (paper 002's E_cali on recorded trials)",
     addCalibrateReplay},
    {"loop",
     "The BIOLOID sim-to-reality loop: optimise, run on reality (twin or robot), calibrate, repeat (papers 001, 002)",
     addLoop},
};

}  // namespace
}  // namespace gapsim::cli

int main(int argc, char** argv) {
  using namespace gapsim::cli;
  CLI::App app{"gapsim-cli: headless simulation of small humanoid robots (Nao, BIOLOID GP, MABEL)"};
  const Action run = addSubcommands(app, kCommands);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }
  try {
    return run();
  } catch (const gapsim::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const gapsim::DivergenceError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitDivergence;
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the user gave that cannot be read or written (the commands check their outputs before
    // they start, app/cli/output_paths.h; this is the net under them): bad input, not a crash.
    std::cerr << "error: " << gapsim::printable(e.path1().string()) << ": " << e.code().message() << " ("
              << gapsim::printable(e.what()) << ")\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return 1;
  }
}
