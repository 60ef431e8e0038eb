// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Running gapsim-cli from a test as a user would: one shell command, stdout and stderr together,
// the exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/scratch_files.h"

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

/// Whether the command ended with `code` and printed every one of `parts`. A failure names what
/// is off and shows the whole output, so one EXPECT_TRUE(exitedWith(...)) stands for the exit-code
/// check and one contains() check per part.
inline ::testing::AssertionResult exitedWith(const CliResult& r, int code, const std::vector<std::string>& parts = {}) {
  std::string off;
  if (r.code != code) off += "exit code " + std::to_string(r.code) + ", expected " + std::to_string(code) + "\n";
  for (const auto& part : parts)
    if (!contains(r.out, part)) off += "no '" + part + "' in the output\n";
  if (off.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << off << r.out;
}

/// Runs `args` and checks it as exitedWith() does, for a command whose output is not needed after.
inline ::testing::AssertionResult cliExits(const std::string& args, int code,
                                           const std::vector<std::string>& parts = {}) {
  return exitedWith(cli(args), code, parts) << "(gapsim-cli " << args << ")";
}

/// The number printed as "key=<number>" in a command's output, NaN if absent.
inline double valueAfter(const std::string& out, const std::string& key) {
  const auto p = out.find(key + "=");
  if (p == std::string::npos) return NAN;
  return std::stod(out.substr(p + key.size() + 1));
}

}  // namespace gapsim::test
