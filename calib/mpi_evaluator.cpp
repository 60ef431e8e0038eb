// SPDX-License-Identifier: BSD-3-Clause
#include "calib/mpi_evaluator.h"

#ifdef GAPSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace gapsim::calib {

#ifdef GAPSIM_HAVE_MPI
namespace {
constexpr int kTagTask = 1, kTagStop = 2, kTagResult = 3;
}

bool MpiEvaluator::available() { return true; }

MpiEvaluator::MpiEvaluator(EvalFunction f) : f_(std::move(f)) {
  int init = 0;
  MPI_Initialized(&init);
  if (!init) MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiEvaluator::~MpiEvaluator() {
  if (rank_ == 0 && !stopped_)
    for (int r = 1; r < size_; ++r) MPI_Send(nullptr, 0, MPI_DOUBLE, r, kTagStop, MPI_COMM_WORLD);
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin) MPI_Finalize();
}

void MpiEvaluator::serve() {
  std::vector<double> buf;
  for (;;) {
    MPI_Status st;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    int count = 0;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    buf.resize(static_cast<std::size_t>(std::max(count, 1)));
    MPI_Recv(buf.data(), count, MPI_DOUBLE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == kTagStop) return;
    // Message: [index, x_0 .. x_n-1]; the index is a small integer, exact as a double.
    const int index = static_cast<int>(buf[0]);
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(buf.data() + 1, count - 1);
    EvalResult r;
    try {
      r = f_(x);
    } catch (const std::exception& e) {
      r.error = std::string("exception: ") + e.what();
    }
    const std::vector<char> msg = encodeResult(index, r);
    MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_BYTE, 0, kTagResult, MPI_COMM_WORLD);
  }
}

std::vector<EvalResult> MpiEvaluator::evaluate(const std::vector<Eigen::VectorXd>& c) {
  if (rank_ != 0) throw std::logic_error("MpiEvaluator::evaluate on a worker rank");
  if (size_ == 1) return SerialEvaluator(f_).evaluate(c);
  std::vector<EvalResult> out(c.size());
  std::size_t next = 0, done = 0;
  std::vector<double> buf;
  auto send = [&](int to) {
    buf.assign(1, static_cast<double>(next));
    buf.insert(buf.end(), c[next].data(), c[next].data() + c[next].size());
    MPI_Send(buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, to, kTagTask, MPI_COMM_WORLD);
    ++next;
  };
  for (int r = 1; r < size_ && next < c.size(); ++r) send(r);
  std::vector<char> msg;
  while (done < c.size()) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &st);
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    msg.resize(static_cast<std::size_t>(count));
    MPI_Recv(msg.data(), count, MPI_BYTE, st.MPI_SOURCE, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int idx = -1;
    EvalResult r = decodeResult(msg, &idx);
    out.at(static_cast<std::size_t>(idx)) = std::move(r);
    ++done;
    if (next < c.size()) send(st.MPI_SOURCE);
  }
  return out;
}

std::string MpiEvaluator::describe() const {
  return "mpi (" + std::to_string(size_) + " ranks, " + std::to_string(workers()) + " evaluating)";
}

#else

bool MpiEvaluator::available() { return false; }
MpiEvaluator::MpiEvaluator(EvalFunction f) : f_(std::move(f)) {
  throw std::runtime_error(
      "the mpi backend is not available: this gapsim was built without MPI (install libopenmpi-dev and "
      "openmpi-bin, e.g. scripts/setup.sh, and reconfigure)");
}
MpiEvaluator::~MpiEvaluator() = default;
void MpiEvaluator::serve() {}
std::vector<EvalResult> MpiEvaluator::evaluate(const std::vector<Eigen::VectorXd>&) { return {}; }
std::string MpiEvaluator::describe() const { return "mpi (unavailable)"; }

#endif

}  // namespace gapsim::calib
