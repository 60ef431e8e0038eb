// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Where a command writes, checked before its work starts: the one policy of every gapsim-cli
/// command that writes files, so that no output is lost.
///
/// - An output **file** that exists is not replaced unless `--force`; a device or pipe
///   (`/dev/null`, `/dev/stdout`) is written to as it is.
/// - An output **directory** may exist. The files the command names in it (`files`) are not
///   replaced unless `--force`; a command that cannot name them in advance (many per trial) asks
///   for a directory that is new or empty, as `calibrate --out` does.
/// - A path of the wrong kind (a directory given for a file, a regular file for a directory), a
///   parent that cannot be created or is not writable (probed by creating and removing a file:
///   permissions, read-only file systems and root alike), an empty name: exit 2 with the path, the
///   option and what to do, before anything is simulated, not "internal error: filesystem error"
///   at the end.
///
/// Each command calls claimOutputFile or claimOutputDir once, with its own --force flag (addForceOption).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gapsim::cli {

/// The name of the file that proves a directory writable (created and removed at once; followed
/// by the process id). A run killed in between leaves it, and nothing else, behind.
inline constexpr const char* kWriteProbePrefix = ".gapsim_write_probe_";

/// True when `dir` holds nothing but what a run killed before it committed its first state file
/// leaves: no `state_file` (checkpoint.json, loop.json), only temporary files (*.tmp, the write
/// probe). Such a directory is reused without --force by the command that left it.
bool onlyLeftoversOfAKilledStart(const std::string& dir, const std::string& state_file);

/// `path` made absolute and normal ("" stays ""): what a results directory records of its inputs,
/// so that a resume from another working directory finds them.
std::string absolutePath(const std::string& path);

/// The file name of `path` without its extension ("logs/ankle.csv" -> "ankle"): outputs named
/// after an input.
std::string stemOf(const std::string& path);

/// Registers `--force` ("replace existing output files") on `app`.
void addForceOption(CLI::App& app, bool& force);

/// Claims the output file `path` (nothing when empty): InputError(path, 0, option, ...) if it is
/// a directory, exists and `force` is false, or its directory cannot be created or written.
/// Creates the missing parent directories.
void claimOutputFile(const std::string& path, bool force, const std::string& option = "--out");

/// Claims the output directory `dir` (nothing when empty) for `files` (names inside it): refuses a
/// regular file or anything else that is not a directory, a directory that cannot be created or
/// written, and, unless `force`, any of `files` that exists, or, when `files` is empty, a
/// directory that is not empty. Creates the directory.
void claimOutputDir(const std::string& dir, const std::vector<std::string>& files, bool force,
                    const std::string& option = "--out");

}  // namespace gapsim::cli
