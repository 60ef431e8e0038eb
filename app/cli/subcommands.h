// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A command made of subcommands (gapsim-cli itself, `identify servo`, `excite chirp`): a table
/// of them, registered on a CLI11 app, and the one action that runs whichever the user gave.

#include <CLI/CLI.hpp>
#include <span>

#include "app/cli/commands.h"

namespace gapsim::cli {

/// One subcommand: its name, its one-line help, and the function that adds its options and
/// returns what runs it.
struct Subcommand {
  const char* name;
  const char* help;
  Action (*add)(CLI::App&);
};

/// Adds `subcommands` to `app` (exactly one required) and returns the action that runs the one
/// parsed; kExitBadInput if the command line names none (CLI11 refuses that while parsing).
Action addSubcommands(CLI::App& app, std::span<const Subcommand> subcommands);

}  // namespace gapsim::cli
