// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test support: interrupting a long run the hard way (SIGKILL, no clean-up) once it has reached a
// given point, to test that it resumes from its checkpoint as if it had never stopped.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>

namespace gapsim::test {

/// How a killWhen run ended: whether `reached` held before the polls ran out (and the run was
/// killed then), and the shell's wait status.
struct KilledRun {
  bool killed = false;
  int status = 0;
};

/// Runs `command` in `sh -c` (output discarded) as the leader of a process group of its own, asks
/// `reached` every `poll` up to `polls` times and SIGKILLs the whole group (the shell, the CLI and
/// its workers) the first time it holds; then reaps the shell.
inline KilledRun killWhen(const std::string& command, const std::function<bool()>& reached,
                          std::chrono::milliseconds poll, int polls) {
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", (command + " >/dev/null 2>&1").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  KilledRun r;
  for (int i = 0; i < polls && !r.killed; ++i) {
    std::this_thread::sleep_for(poll);
    if (reached()) {
      kill(-pid, SIGKILL);
      r.killed = true;
    }
  }
  waitpid(pid, &r.status, 0);
  return r;
}

}  // namespace gapsim::test
