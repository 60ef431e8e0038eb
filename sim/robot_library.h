// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Finds robot files: a shipped robot by name (`nao`, `bioloid`, `mabel`) or any path.

#include <string>
#include <vector>

namespace gapsim {

/// The directory of the shipped robots: $GAPSIM_ROBOTS_DIR if set, else the source tree's robots/.
std::string robotsDirectory();

/// Names of the shipped robots (subdirectories of robotsDirectory() holding <name>/<name>.urdf).
std::vector<std::string> shippedRobots();

/// `name_or_path` is a shipped robot's name or a path to a robot file. Throws InputError naming
/// the argument and the shipped robots when neither exists.
std::string resolveRobotFile(const std::string& name_or_path);

}  // namespace gapsim
