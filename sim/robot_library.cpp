// SPDX-License-Identifier: BSD-3-Clause
#include "sim/robot_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "sim/input_error.h"

namespace gapsim {
namespace fs = std::filesystem;

std::string robotsDirectory() {
  if (const char* env = std::getenv("GAPSIM_ROBOTS_DIR"); env && *env) return env;
  return GAPSIM_DEFAULT_ROBOTS_DIR;
}

std::vector<std::string> shippedRobots() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(robotsDirectory(), ec)) {
    const std::string n = e.path().filename().string();
    if (e.is_directory() && fs::exists(e.path() / (n + ".urdf"))) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string resolveRobotFile(const std::string& name_or_path) {
  if (name_or_path.find('/') == std::string::npos && name_or_path.find('.') == std::string::npos) {
    const fs::path p = fs::path(robotsDirectory()) / name_or_path / (name_or_path + ".urdf");
    std::error_code ec;
    if (fs::exists(p, ec)) return p.string();
  }
  // With an error code: a name the file system refuses (too long) is no robot file either.
  std::error_code ec;
  const fs::file_status st = fs::status(name_or_path, ec);
  if (fs::exists(st) && !fs::is_directory(st)) return name_or_path;
  std::string known;
  for (const auto& n : shippedRobots()) known += (known.empty() ? "" : ", ") + n;
  throw InputError(name_or_path, 0, "robot", "no such robot file, and not a shipped robot (shipped: " + known + ")");
}

}  // namespace gapsim
