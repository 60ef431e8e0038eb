// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Running gapsim-cli from a test as a user would: one shell command, stdout and stderr together,
// the exit code.
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gapsim::test {

struct CliResult {
  int code = -1;
  std::string out;  // stdout and stderr together
};

inline CliResult cli(const std::string& args) {
  const std::string cmd = std::string(GAPSIM_CLI_PATH) + " " + args + " 2>&1";
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The number printed as "key=<number>" in a command's output, NaN if absent.
inline double valueAfter(const std::string& out, const std::string& key) {
  const auto p = out.find(key + "=");
  if (p == std::string::npos) return NAN;
  return std::stod(out.substr(p + key.size() + 1));
}

/// A scratch directory of one test file: <tmp>/<name>, created if missing.
inline std::filesystem::path testDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace gapsim::test
