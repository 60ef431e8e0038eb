// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test support: the files a test writes and reads back, in scratch directories of its own.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gapsim::test {

/// The whole file as bytes ("" if it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A scratch directory of one test file: <tmp>/<name>, created if missing.
inline std::filesystem::path testDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::create_directories(dir);
  return dir;
}

/// An empty scratch directory <tmp>/<name>: what a run before left there is removed first.
inline std::filesystem::path freshDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// freshDir of <prefix><pid>_<name>: the process id keeps two runs of one suite (ctest -j, a
/// rerun while the last one still runs) out of each other's files.
inline std::string freshProcessDir(const std::string& prefix, const std::string& name) {
  return freshDir(prefix + std::to_string(getpid()) + "_" + name).string();
}

}  // namespace gapsim::test
