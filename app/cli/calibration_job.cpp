// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/calibration_job.h"

#include <filesystem>

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

std::unique_ptr<calib::BatchEvaluator> localBackend(const std::string& backend, int jobs, const calib::EvalFunction& fn) {
  if (backend == "serial") return std::make_unique<calib::SerialEvaluator>(fn);
  return std::make_unique<calib::ProcessPoolEvaluator>(fn, jobs);
}

std::unique_ptr<calib::Calibration> openCalibration(const calib::ParameterSpace& space,
                                                    const calib::CalibrationSettings& settings, const std::string& out,
                                                    const std::string& resume, bool force, const nlohmann::json& inputs,
                                                    const std::string& out_option) {
  if (!resume.empty())
    return std::make_unique<calib::Calibration>(calib::Calibration::fromCheckpoint(space, resume, settings.generations));
  if (fs::exists(out) && !fs::is_empty(out) && !force)
    throw InputError(out, 0, out_option, "the results directory is not empty (use --force, or --resume it)");
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

std::string resumedNote(const std::string& resume, const calib::Calibration& cal) {
  return resume.empty() ? "" : " (resumed at generation " + std::to_string(cal.optimizer().generation()) + ")";
}

}  // namespace gapsim::cli
