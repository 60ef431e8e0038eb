// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/calibration_job.h"

#include <cstdio>
#include <filesystem>

#include "app/cli/output_paths.h"
#include "calib/mpi_evaluator.h"
#include "sim/input_error.h"

namespace gapsim::cli {

namespace fs = std::filesystem;

void addJobOptions(CLI::App& app, std::string& backend, int& jobs, std::string& out, std::string& resume, bool& force) {
  app.add_option("--backend", backend, "serial, processes (fork, this machine) or mpi (run under mpirun)")
      ->check(CLI::IsMember({"serial", "processes", "mpi"}))
      ->capture_default_str();
  app.add_option("--jobs", jobs, "worker processes of the processes backend (default: all cores)");
  app.add_option("--out", out, "results directory (refused if not empty, unless --force)");
  app.add_option("--resume", resume, "continue the run whose checkpoint is in this directory");
  app.add_flag("--force", force, "write into a non-empty --out directory");
}

CLI::Option* addSearchOptions(CLI::App& app, calib::CalibrationSettings& s, const std::string& lambda_help) {
  CLI::Option* generations =
      app.add_option("--generations", s.generations, "generations in total (resuming: default the checkpoint's)")
          ->capture_default_str();
  app.add_option("--lambda", s.lambda, lambda_help)->capture_default_str();
  app.add_option("--sigma0", s.sigma0, "initial step size as a fraction of each parameter's range")
      ->capture_default_str();
  app.add_option("--seed", s.seed, "seed of the optimizer's random numbers")->capture_default_str();
  return generations;
}

std::unique_ptr<calib::BatchEvaluator> startMpiBackend(const std::string& backend, const calib::EvalFunction& fn,
                                                       bool* served) {
  *served = false;
  if (backend != "mpi") return nullptr;
  auto mpi = std::make_unique<calib::MpiEvaluator>(fn);
  if (!mpi->isMaster()) {
    mpi->serve();
    *served = true;
    return nullptr;
  }
  return mpi;
}

std::unique_ptr<calib::BatchEvaluator> localBackend(const std::string& backend, int jobs,
                                                    const calib::EvalFunction& fn) {
  if (backend == "serial") return std::make_unique<calib::SerialEvaluator>(fn);
  return std::make_unique<calib::ProcessPoolEvaluator>(fn, jobs);
}

std::unique_ptr<calib::Calibration> openCalibration(const calib::ParameterSpace& space,
                                                    const calib::CalibrationSettings& settings, const std::string& out,
                                                    const std::string& resume, bool force, const nlohmann::json& inputs,
                                                    const std::string& out_option) {
  if (!resume.empty())
    return std::make_unique<calib::Calibration>(
        calib::Calibration::fromCheckpoint(space, resume, settings.generations));
  if (fs::is_directory(out) && !fs::is_empty(out) && !force) {
    if (!onlyLeftoversOfAKilledStart(out, "checkpoint.json"))
      throw InputError(out, 0, out_option, "the results directory is not empty (use --force, or --resume it)");
    std::fprintf(stderr,
                 "note: %s holds no checkpoint, only the temporary files of a run stopped before its first "
                 "generation was saved: starting afresh in it\n",
                 out.c_str());
    for (const auto& e : fs::directory_iterator(out)) fs::remove(e.path());
  }
  claimOutputDir(out, {}, force, out_option);  // a file, an unwritable place: said now, before any evaluation
  return std::make_unique<calib::Calibration>(space, settings, out, inputs);
}

calib::CalibrationSettings resumeCheckpoint(const std::string& resume, int generations, nlohmann::json* inputs) {
  const nlohmann::json cp = calib::Calibration::readCheckpoint(resume);
  *inputs = cp.at("inputs");
  calib::CalibrationSettings settings = calib::CalibrationSettings::fromJson(cp.at("settings"));
  if (generations > 0) settings.generations = generations;
  return settings;
}

CalibrationJob startCalibrationJob(const std::string& backend, int jobs, const calib::EvalFunction& fn,
                                   const calib::ParameterSpace& space, const calib::CalibrationSettings& settings,
                                   const std::string& out, const std::string& resume, bool force,
                                   const nlohmann::json& inputs) {
  CalibrationJob job;
  job.ev = startMpiBackend(backend, fn, &job.served);
  if (job.served) return job;
  job.cal = openCalibration(space, settings, out, resume, force, inputs);
  if (!job.ev) job.ev = localBackend(backend, jobs, fn);
  return job;
}

void addSimTimeOption(CLI::App& app, double& max_sim_time_s) {
  app.add_option("--max-sim-time", max_sim_time_s,
                 "refuse a scenario set whose scenarios last longer than this in total (simulated s)")
      ->capture_default_str();
}

void checkSimulatedTime(const calib::ScenarioSet& set, double max_s, long evaluations, bool with_holdout) {
  if (!(max_s > 0)) throw InputError("", 0, "--max-sim-time", "must be > 0 (seconds of simulated time)");
  double sum = 0;
  int n = 0;
  const calib::Scenario* longest = nullptr;
  for (const auto& sc : set.scenarios) {
    if (sc.holdout && !with_holdout) continue;
    sum += sc.duration_s;
    ++n;
    if (!longest || sc.duration_s > longest->duration_s) longest = &sc;
  }
  if (sum > max_s)
    throw InputError(set.source, longest ? longest->line : 0, "duration_s",
                     "the scenarios last " + sixDigits(sum) + " s of simulated time in total (the longest, '" +
                         (longest ? longest->name : std::string()) + "', " +
                         sixDigits(longest ? longest->duration_s : 0) + " s), more than --max-sim-time " +
                         sixDigits(max_s) + " s: raise --max-sim-time to run it");
  std::printf("simulated time: %s s per evaluation (%d scenarios)", sixDigits(sum).c_str(), n);
  if (evaluations > 0)
    std::printf("; about %s s for %ld evaluations", sixDigits(sum * static_cast<double>(evaluations)).c_str(),
                evaluations);
  std::printf("\n");
  std::fflush(stdout);
}

std::string resumedNote(const std::string& resume, const calib::Calibration& cal) {
  return resume.empty() ? "" : " (resumed at generation " + std::to_string(cal.optimizer().generation()) + ")";
}

}  // namespace gapsim::cli
