// SPDX-License-Identifier: BSD-3-Clause
#include "calib/evaluator.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>

namespace gapsim::calib {
namespace {

bool writeAll(int fd, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = send(fd, c, n, MSG_NOSIGNAL);  // a dead peer is an error, not SIGPIPE
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    c += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool readAll(int fd, void* p, std::size_t n) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t r = read(fd, c, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    c += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

template <class T>
void put(std::vector<char>& b, const T& v) {
  const char* p = reinterpret_cast<const char*>(&v);
  b.insert(b.end(), p, p + sizeof(T));
}

template <class T>
T get(const std::vector<char>& b, std::size_t& at) {
  if (at + sizeof(T) > b.size()) throw std::runtime_error("evaluation result: truncated message");
  T v;
  std::memcpy(&v, b.data() + at, sizeof(T));
  at += sizeof(T);
  return v;
}

std::string describeStatus(int status) {
  if (WIFSIGNALED(status))
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  return "stopped (status " + std::to_string(status) + ")";
}

[[noreturn]] void serve(int fd, const EvalFunction& f) {
  for (;;) {
    std::int32_t index = 0, n = 0;
    if (!readAll(fd, &index, sizeof index) || !readAll(fd, &n, sizeof n)) _exit(0);  // master closed: done
    Eigen::VectorXd x(n);
    if (!readAll(fd, x.data(), sizeof(double) * static_cast<std::size_t>(n))) _exit(0);
    EvalResult r;
    try {
      r = f(x);
    } catch (const std::exception& e) {
      r = EvalResult{};
      r.error = std::string("exception: ") + e.what();
    }
    const std::vector<char> msg = encodeResult(index, r);
    const std::uint64_t len = msg.size();
    if (!writeAll(fd, &len, sizeof len) || !writeAll(fd, msg.data(), msg.size())) _exit(1);
  }
}

}  // namespace

std::vector<char> encodeResult(int index, const EvalResult& r) {
  std::vector<char> b;
  put<std::int32_t>(b, index);
  put<double>(b, r.fitness);
  put<std::int32_t>(b, static_cast<std::int32_t>(r.parts.size()));
  for (double v : r.parts) put<double>(b, v);
  put<std::int32_t>(b, static_cast<std::int32_t>(r.error.size()));
  b.insert(b.end(), r.error.begin(), r.error.end());
  return b;
}

EvalResult decodeResult(const std::vector<char>& b, int* index) {
  std::size_t at = 0;
  EvalResult r;
  *index = get<std::int32_t>(b, at);
  r.fitness = get<double>(b, at);
  const auto np = get<std::int32_t>(b, at);
  for (int i = 0; i < np; ++i) r.parts.push_back(get<double>(b, at));
  const auto ne = get<std::int32_t>(b, at);
  if (ne < 0 || at + static_cast<std::size_t>(ne) > b.size())
    throw std::runtime_error("evaluation result: bad error text");
  r.error.assign(b.data() + at, static_cast<std::size_t>(ne));
  return r;
}

std::vector<EvalResult> SerialEvaluator::evaluate(const std::vector<Eigen::VectorXd>& c) {
  std::vector<EvalResult> out;
  out.reserve(c.size());
  for (const auto& x : c) {
    try {
      out.push_back(f_(x));
    } catch (const std::exception& e) {  // as a worker reports it
      EvalResult r;
      r.error = std::string("exception: ") + e.what();
      out.push_back(r);
    }
  }
  return out;
}

ProcessPoolEvaluator::ProcessPoolEvaluator(EvalFunction f, int workers) {
  if (workers <= 0) workers = std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  for (int w = 0; w < workers; ++w) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      shutdown();
      throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    }
    std::fflush(nullptr);  // no buffered output duplicated into the child
    const pid_t pid = fork();
    if (pid < 0) {
      close(sv[0]);
      close(sv[1]);
      shutdown();
      throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
      close(sv[0]);
      for (const Worker& o : workers_) close(o.fd);
      serve(sv[1], f);
    }
    close(sv[1]);
    workers_.push_back({pid, sv[0]});
  }
}

ProcessPoolEvaluator::~ProcessPoolEvaluator() { shutdown(); }

void ProcessPoolEvaluator::shutdown() {
  for (Worker& w : workers_) {
    if (w.fd >= 0) close(w.fd);  // the worker reads EOF and exits
    w.fd = -1;
  }
  for (Worker& w : workers_)
    if (w.pid > 0) {
      int st = 0;
      waitpid(w.pid, &st, 0);
      w.pid = -1;
    }
  workers_.clear();
}

std::string ProcessPoolEvaluator::describe() const {
  return "processes (" + std::to_string(workers_.size()) + " workers)";
}

std::vector<EvalResult> ProcessPoolEvaluator::evaluate(const std::vector<Eigen::VectorXd>& c) {
  if (workers_.empty()) throw std::logic_error("process pool already shut down");
  std::vector<EvalResult> out(c.size());
  std::vector<int> busy(workers_.size(), -1);  // candidate index per worker, -1 idle
  std::size_t next = 0, done = 0;
  auto crashed = [&](std::size_t w, const std::string& how) {
    int st = 0;
    std::string fate = how;
    if (waitpid(workers_[w].pid, &st, 0) == workers_[w].pid) fate = describeStatus(st);
    const pid_t pid = workers_[w].pid;
    workers_[w].pid = -1;
    const int cand = busy[w];
    shutdown();
    throw WorkerCrashed("worker process " + std::to_string(w) + " (pid " + std::to_string(pid) + ") " + fate +
                        (cand >= 0 ? " while evaluating candidate " + std::to_string(cand) : std::string()) +
                        "; the generation is not complete (resume from the last checkpoint)");
  };
  auto dispatch = [&](std::size_t w) {
    const std::int32_t idx = static_cast<std::int32_t>(next), n = static_cast<std::int32_t>(c[next].size());
    busy[w] = idx;
    ++next;
    if (!writeAll(workers_[w].fd, &idx, sizeof idx) || !writeAll(workers_[w].fd, &n, sizeof n) ||
        !writeAll(workers_[w].fd, c[idx].data(), sizeof(double) * static_cast<std::size_t>(n)))
      crashed(w, "stopped reading");
  };
  for (std::size_t w = 0; w < workers_.size() && next < c.size(); ++w) dispatch(w);
  std::vector<pollfd> fds(workers_.size());
  while (done < c.size()) {
    for (std::size_t w = 0; w < workers_.size(); ++w) fds[w] = {busy[w] >= 0 ? workers_[w].fd : -1, POLLIN, 0};
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      if (busy[w] < 0 || !(fds[w].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      std::uint64_t len = 0;
      if (!readAll(workers_[w].fd, &len, sizeof len) || len > (1u << 30)) crashed(w, "closed its pipe");
      std::vector<char> msg(len);
      if (!readAll(workers_[w].fd, msg.data(), len)) crashed(w, "closed its pipe");
      int idx = -1;
      EvalResult r = decodeResult(msg, &idx);
      if (idx != busy[w]) throw std::runtime_error("process pool: result for the wrong candidate");
      out[static_cast<std::size_t>(idx)] = std::move(r);
      busy[w] = -1;
      ++done;
      if (next < c.size()) dispatch(w);
    }
  }
  return out;
}

}  // namespace gapsim::calib
