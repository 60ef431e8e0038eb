// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/bench_calibration.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/run_setup.h"
#include "calib/evaluator.h"
#include "calib/objective.h"
#include "calib/parameter_space.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"

namespace gapsim::cli {

namespace {

namespace fs = std::filesystem;

double loadAverage1() {
  double l[1] = {-1};
  return getloadavg(l, 1) == 1 ? l[0] : -1;
}

double childrenCpu_s() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

struct Round {
  double rate = 0;   ///< evaluations per wall-clock second
  double cpu_s = 0;  ///< the workers' CPU seconds
  std::vector<calib::EvalResult> results;
};

/// One batch on a fresh pool of `workers` processes; the fork is outside the timed part, the
/// pool's shutdown (which reaps the workers, so their CPU time is counted) inside the CPU part.
Round measure(const calib::EvalFunction& f, const std::vector<Eigen::VectorXd>& batch, int workers) {
  Round r;
  const double cpu0 = childrenCpu_s();
  {
    calib::ProcessPoolEvaluator pool(f, workers);
    const auto t0 = std::chrono::steady_clock::now();
    r.results = pool.evaluate(batch);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.rate = static_cast<double>(batch.size()) / wall;
  }
  r.cpu_s = childrenCpu_s() - cpu0;
  return r;
}

bool sameBits(const std::vector<calib::EvalResult>& a, const std::vector<calib::EvalResult>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].fitness != b[i].fitness || a[i].parts != b[i].parts || a[i].error != b[i].error) return false;
  return true;
}

}  // namespace

int runCalibrationBench(const CalibrationBenchArgs& a) {
  if (a.evaluations < 2) throw InputError("", 0, "--evals", "must be >= 2 (two workers need two evaluations)");
  if (a.rounds < 1) throw InputError("", 0, "--rounds", "must be >= 1");
  const std::string example = (fs::path(robotsDirectory()).parent_path() / "calib/examples/nao_twin").string();
  const std::string space_path = a.space.empty() ? example + "/space.csv" : a.space;
  const std::string set_path = a.scenarios.empty() ? example + "/scenarios.csv" : a.scenarios;
  RunArgs ra;
  ra.robot = a.robot;
  const auto model = loadConfiguredModel(ra);
  calib::ObjectiveSettings os;
  if (!a.stepper.empty()) os.quickstep = a.stepper == "quick";
  const auto space = calib::ParameterSpace::load(space_path);
  const auto set = calib::ScenarioSet::load(set_path);
  auto problem = std::make_shared<const calib::CalibrationProblem>(model, space, set, os);
  const calib::EvalFunction f = [problem](const Eigen::VectorXd& v) { return problem->evaluate(v); };

  // The batch: the initial values, then points spread over the middle half of each range, so
  // the evaluations cost what a calibration's do (a candidate that falls early costs less).
  std::vector<Eigen::VectorXd> batch;
  const Eigen::VectorXd y0 = space.initialY();
  for (int i = 0; i < a.evaluations; ++i) {
    Eigen::VectorXd y = y0;
    for (Eigen::Index d = 0; d < y.size(); ++d)
      y[d] += i == 0 ? 0.0 : 0.15 * std::sin(1.7 * static_cast<double>(i) + 2.3 * static_cast<double>(d));
    batch.push_back(space.valuesFromY(y));
  }
  double sim_s = 0;
  for (const auto& sc : set.scenarios)
    if (!sc.holdout) sim_s += sc.duration_s;
  const int cores = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  std::printf(
      "gapsim bench --calibration: %s, %s (%zu scenarios, %.2f simulated s per evaluation), %d free "
      "dimensions, %d evaluations per round, %d rounds, %d cores online\n",
      a.robot.c_str(), set_path.c_str(), set.scenarios.size(), sim_s, space.dimension(), a.evaluations, a.rounds,
      cores);
  std::printf("%-6s %-8s %9s %9s %12s %10s\n", "round", "workers", "load_1min", "evals/s", "cpu_s/eval", "ratio_2/1");
  std::fflush(stdout);
  std::vector<double> ratios, rate1, rate2, cpu_per_eval;
  bool identical = true;
  std::vector<calib::EvalResult> first;
  for (int r = 0; r < a.rounds; ++r) {
    // Alternate the order so that a drift of the machine's load favours neither case.
    const int order[2] = {r % 2 == 0 ? 1 : 2, r % 2 == 0 ? 2 : 1};
    double rates[3] = {0, 0, 0};
    for (int w : order) {
      const double load = loadAverage1();
      const Round m = measure(f, batch, w);
      rates[w] = m.rate;
      cpu_per_eval.push_back(m.cpu_s / static_cast<double>(batch.size()));
      if (first.empty())
        first = m.results;
      else
        identical = identical && sameBits(first, m.results);
      std::printf("%-6d %-8d %9.2f %9.3f %12.3f", r + 1, w, load, m.rate, m.cpu_s / static_cast<double>(batch.size()));
      if (w == order[1]) std::printf(" %10.3f", rates[2] / rates[1]);
      std::printf("\n");
      std::fflush(stdout);
    }
    ratios.push_back(rates[2] / rates[1]);
    rate1.push_back(rates[1]);
    rate2.push_back(rates[2]);
  }
  const double ratio = median(ratios);
  std::printf(
      "evaluations/s: 1 worker %.3f, 2 workers %.3f (medians); speed-up 2/1 %.3f (median of the per-round "
      "ratios, min %.3f, max %.3f); scaling efficiency %.1f%% (target >= 90%%)\n",
      median(rate1), median(rate2), ratio, *std::min_element(ratios.begin(), ratios.end()),
      *std::max_element(ratios.begin(), ratios.end()), 50.0 * ratio);
  std::printf(
      "CPU cost %.3f s per evaluation (median, %.2f simulated s: real-time factor %.2f per core); load "
      "average now %.2f on %d cores%s\n",
      median(cpu_per_eval), sim_s, sim_s / median(cpu_per_eval), loadAverage1(), cores,
      loadAverage1() > cores ? " (busy machine: the wall-clock rates are shares of the cores, not the "
                               "cores' speed)"
                             : "");
  std::printf("results with 1 and 2 workers: %s\n", identical ? "bit-identical" : "DIFFERENT (a bug)");
  return identical ? kExitOk : 1;
}

}  // namespace gapsim::cli
