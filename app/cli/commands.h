// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The subcommands of gapsim-cli. Each registers its options on a CLI11 app and returns the
/// function that runs it. Exit codes: 0 success, 2 bad input, 3 divergence, 4 loop waiting for a recording.

#include <CLI/CLI.hpp>
#include <functional>

namespace gapsim::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;  // the job ran but did not reach its goal (no convergence, a fall)
constexpr int kExitBadInput = 2;
constexpr int kExitDivergence = 3;
constexpr int kExitAwaitingRecording = 4;  // loop: the real robot's recording is not there yet (--resume later)

using Action = std::function<int()>;

Action addInfo(CLI::App& app);
Action addExport(CLI::App& app);
Action addRun(CLI::App& app);
Action addBench(CLI::App& app);
Action addDemo(CLI::App& app);
Action addParams(CLI::App& app);
Action addSweep(CLI::App& app);
Action addWalk(CLI::App& app);
Action addExperiment(CLI::App& app);
Action addCalibrate(CLI::App& app);
Action addTwin(CLI::App& app);
Action addIdentify(CLI::App& app);
Action addExcite(CLI::App& app);
Action addOptimizeController(CLI::App& app);
Action addRise(CLI::App& app);
Action addReplay(CLI::App& app);
Action addCalibrateReplay(CLI::App& app);
Action addLoop(CLI::App& app);
Action addRecord(CLI::App& app);
Action addDriveCurve(CLI::App& app);

}  // namespace gapsim::cli
