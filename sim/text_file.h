// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Reading a whole input file as text, for the parsers of robots, motions, logs and parameters,
/// and writing one (logs, generated motions).

#include <string>

namespace gapsim {

/// The file's bytes, without a leading UTF-8 byte-order mark. InputError(path, 0, "", ...) if
/// it cannot be opened or read.
std::string readTextFile(const std::string& path);

/// Writes `text` as the whole file (truncating it). InputError(path, 0, "", ...) if it cannot be
/// opened or the write fails (disk full).
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace gapsim
