// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The MPI backend (Open MPI from Debian): `mpirun -np N gapsim-cli calibrate --backend mpi ...`.
/// Every rank parses the same command line and builds the same CalibrationProblem; rank 0 is the
/// master (optimizer, checkpoints, files), ranks 1..N-1 are workers. Dynamic dispatch: the master
/// sends one candidate to each worker, then the next candidate to whichever worker answers first.
/// Results travel as the bytes of encodeResult, so they are bit-identical to the other backends.
/// With one rank the master evaluates serially.
///
/// MPI is optional at build time; without it available() is false and the constructor throws
/// std::runtime_error saying so. As root, mpirun needs --allow-run-as-root; more ranks than cores
/// need --oversubscribe.

#include "calib/evaluator.h"

namespace gapsim::calib {

class MpiEvaluator final : public BatchEvaluator {
 public:
  /// True if this build has MPI.
  static bool available();
  /// Initialises MPI (once per process).
  explicit MpiEvaluator(EvalFunction f);
  /// Master: tells the workers to stop. Every rank: MPI_Finalize.
  ~MpiEvaluator() override;
  MpiEvaluator(const MpiEvaluator&) = delete;
  MpiEvaluator& operator=(const MpiEvaluator&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool isMaster() const { return rank_ == 0; }
  /// Worker ranks: evaluate what the master sends until it says stop.
  void serve();

  std::vector<EvalResult> evaluate(const std::vector<Eigen::VectorXd>& c) override;  // master only
  std::string describe() const override;
  int workers() const override { return size_ > 1 ? size_ - 1 : 1; }

 private:
  EvalFunction f_;
  int rank_ = 0, size_ = 1;
  bool stopped_ = false;
};

}  // namespace gapsim::calib
