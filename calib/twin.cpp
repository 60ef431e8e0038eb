// SPDX-License-Identifier: BSD-3-Clause
#include "calib/twin.h"

#include <filesystem>
#include <memory>

#include "calib/rng.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/reality.h"
#include "sim/recorder.h"
#include "sim/runner.h"
#include "sim/simulation.h"

namespace gapsim::calib {

std::vector<std::string> writeTwinLogs(const RobotModel& hidden, const ScenarioSet& set, const TwinSettings& s,
                                       const std::string& out_dir) {
  if (!(s.imu_noise_rad >= 0)) throw InputError("", 0, "--imu-noise", "must be >= 0");
  if (!(s.imu_delay_s >= 0)) throw InputError("", 0, "--imu-delay", "must be >= 0");
  s.reality.validate();
  set.checkAgainst(hidden);
  auto model = std::make_shared<const RobotModel>(hidden);
  Rng rng(s.noise_seed);
  std::vector<std::string> written;
  for (const Scenario& sc : set.scenarios) {
    const Motion motion = loadMotion(sc.motion_path);
    SimOptions so;
    so.seed = s.sim_seed;
    so.quickstep = s.quickstep;
    so.reality = s.reality;
    Simulation sim(model, so);
    RunConfig rc;
    rc.duration_s = sc.duration_s;
    rc.log_period_s = s.log_period_s;
    rc.balance = sc.balance;
    Log raw(Recorder(*model).columns());
    const RunSummary sum = runMotion(sim, &motion, rc, &raw);
    if (sum.diverged) throw InputError(sc.motion_path, 0, sc.name, "the twin diverged: " + sum.divergence);
    const Log log = applyRealityToLog(raw, s.reality, s.log_period_s);
    // IMU effects, column by column.
    std::vector<int> imu_cols;
    for (std::size_t c = 0; c < log.columns().size(); ++c)
      if (log.columns()[c].rfind("torso/", 0) == 0 && log.columns()[c].find("_m") == std::string::npos)
        imu_cols.push_back(static_cast<int>(c));
    const long delay = std::lround(s.imu_delay_s / s.log_period_s);
    Log out(log.columns());
    std::vector<double> row;
    for (std::size_t r = 0; r < log.rows(); ++r) {
      const auto src = log.row(r);
      row.assign(src.begin(), src.end());
      const std::size_t from = r >= static_cast<std::size_t>(delay) ? r - static_cast<std::size_t>(delay) : 0;
      for (int c : imu_cols) {
        row[static_cast<std::size_t>(c)] = log.at(from, static_cast<std::size_t>(c));
        if (s.imu_noise_rad > 0) row[static_cast<std::size_t>(c)] += s.imu_noise_rad * rng.normal();
      }
      out.appendRow(row);
    }
    const std::string path =
        out_dir.empty()
            ? sc.reference_path
            : (std::filesystem::path(out_dir) / std::filesystem::path(sc.reference_path).filename()).string();
    if (!std::filesystem::path(path).parent_path().empty())
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    out.write(path);
    written.push_back(path);
  }
  return written;
}

}  // namespace gapsim::calib
