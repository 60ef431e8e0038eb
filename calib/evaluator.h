// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Batch evaluation behind one interface: a generation's candidates in, their results out, in the
/// same order. Backends:
///   serial     in this process, one after the other;
///   processes  a pool of forked worker processes (all cores by default). Each candidate is sent
///              over a socket pair (a bidirectional pipe) to the next idle worker (dynamic
///              dispatch) and its result comes back as raw bytes. The function evaluated is the
///              one inherited at fork time, and each evaluation seeds its own simulation
///              (SimOptions::seed), so the result does not depend on which worker ran it;
///   mpi        master/worker dispatch over MPI (mpi_evaluator.h).
/// The evaluation function must be a pure function of the candidate; then every backend and
/// every worker count gives bit-identical results (doubles travel as their 8 bytes).
/// A worker that dies (signal, exit) is reported with its pid, the way it died and the candidate
/// it was evaluating (WorkerCrashed); a result is never silently lost.

#include <sys/types.h>

#include <Eigen/Core>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "calib/objective.h"

namespace gapsim::calib {

using EvalFunction = std::function<EvalResult(const Eigen::VectorXd&)>;

class BatchEvaluator {
 public:
  virtual ~BatchEvaluator() = default;
  virtual std::vector<EvalResult> evaluate(const std::vector<Eigen::VectorXd>& candidates) = 0;
  virtual std::string describe() const = 0;  ///< e.g. "processes (2 workers)"
  virtual int workers() const = 0;
};

class WorkerCrashed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SerialEvaluator final : public BatchEvaluator {
 public:
  explicit SerialEvaluator(EvalFunction f) : f_(std::move(f)) {}
  std::vector<EvalResult> evaluate(const std::vector<Eigen::VectorXd>& c) override;
  std::string describe() const override { return "serial"; }
  int workers() const override { return 1; }

 private:
  EvalFunction f_;
};

class ProcessPoolEvaluator final : public BatchEvaluator {
 public:
  /// Forks `workers` processes (<= 0: one per online core) that serve until destruction.
  ProcessPoolEvaluator(EvalFunction f, int workers);
  ~ProcessPoolEvaluator() override;
  ProcessPoolEvaluator(const ProcessPoolEvaluator&) = delete;
  ProcessPoolEvaluator& operator=(const ProcessPoolEvaluator&) = delete;
  std::vector<EvalResult> evaluate(const std::vector<Eigen::VectorXd>& c) override;
  std::string describe() const override;
  int workers() const override { return static_cast<int>(workers_.size()); }

 private:
  struct Worker {
    pid_t pid = -1;
    int fd = -1;
  };
  void shutdown();
  std::vector<Worker> workers_;
};

// --- the byte format shared by the process pool and MPI ---
std::vector<char> encodeResult(int index, const EvalResult& r);
EvalResult decodeResult(const std::vector<char>& bytes, int* index);

}  // namespace gapsim::calib
