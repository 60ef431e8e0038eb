// SPDX-License-Identifier: BSD-3-Clause
#include "calib/replay_calibration.h"

#include <cstdio>

#include "calib/json_fields.h"
#include "calib/replay_commands.h"
#include "calib/replay_workflow.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ReplayCalibrationInputs, robot, params, recordings, trials, holdout, space, wall,
                                   sim_seed, settle_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ReplayCalibrationRow, trial, holdout, rms_initial_rad, rms_best_rad,
                                   E_initial_rad2_s, E_best_rad2_s)

nlohmann::json ReplayCalibrationInputs::toJson() const {
  nlohmann::json j = toJsonWithSeeds(*this, {"sim_seed"});
  j["kind"] = "replay";
  return j;
}

ReplayCalibrationInputs ReplayCalibrationInputs::fromJson(const nlohmann::json& j) {
  // Checkpoints without a settle time did not settle.
  return fromJsonWithSeeds<ReplayCalibrationInputs>(j, {"sim_seed"}, {{"settle_s", 0.0}});
}

std::string recordingsRobot(const std::string& recordings) {
  const RecordingManifest m = loadRecordings(recordings);
  std::string named;
  for (const auto& t : m.trials) {
    if (t.robot.empty()) continue;
    if (!named.empty() && t.robot != named)
      throw InputError(m.source, t.line, "robot",
                       "'" + t.robot + "': the trials name different robots (" + named +
                           "); calibrate one robot at a time (--trials) or give --robot");
    named = t.robot;
  }
  return named;
}

std::shared_ptr<const ReplayProblem> makeReplayCalibrationProblem(const ReplayCalibrationInputs& in) {
  auto model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile(in.robot)));
  if (!in.params.empty()) loadParameterFile(*model, in.params);
  ParameterSpace space = ParameterSpace::load(in.space);
  ReplaySet set = ReplaySet::load(in.recordings);
  if (!in.trials.empty()) set.select(in.trials);
  if (!in.holdout.empty()) set.markHoldout(in.holdout);
  // Trials of role test are kept out of the calibration (train fits, validate is reported).
  std::erase_if(set.trials, [](const ReplayTrial& t) { return t.spec.role == "test"; });
  for (const auto& t : set.trials)
    if (!t.spec.params.empty() && in.params.empty())
      throw InputError(
          t.spec.recording, 0, "params",
          "'" + t.spec.params + "': give the trials' parameter file as --params (one model is calibrated)");
  if (set.count(false) == 0) throw InputError("", 0, "--holdout", "every trial is held out: nothing to train on");
  ReplayOptions opt;
  opt.wall = in.wall && set.authors_wall;
  opt.wall_face_x_m = set.wall_face_x_m;
  opt.sim_seed = in.sim_seed;
  opt.settle_s = in.settle_s;
  checkSettleTime(opt.settle_s);
  const MotorMap map = motorMapFor(*model);
  return std::make_shared<const ReplayProblem>(model, std::move(space), std::move(set), map, opt);
}

ReplayCalibrationSummary summariseReplayCalibration(const ReplayProblem& problem, const Eigen::VectorXd& best,
                                                    const std::function<void(const ReplayCalibrationRow&)>& on_row) {
  const Eigen::VectorXd init = problem.space().initialValues();
  ReplayCalibrationSummary s;
  double sum[2][2] = {{0, 0}, {0, 0}};  // [held out][before, after]: the means and changes are of these
  for (std::size_t k = 0; k < problem.set().trials.size(); ++k) {
    const ReplayTrial& t = problem.set().trials[k];
    const ReplayResult r0 = problem.runTrial(init, static_cast<int>(k));
    const ReplayResult r1 = problem.runTrial(best, static_cast<int>(k));
    s.rows.push_back({t.name, t.holdout, r0.rms_rad, r1.rms_rad, r0.E_rad2_s, r1.E_rad2_s});
    if (on_row) on_row(s.rows.back());
    sum[t.holdout][0] += r0.rms_rad;
    sum[t.holdout][1] += r1.rms_rad;
    ++s.trials[t.holdout];
  }
  for (int h = 0; h < 2; ++h) {
    if (s.trials[h] == 0) continue;
    s.mean_rms_initial_rad[h] = sum[h][0] / s.trials[h];
    s.mean_rms_best_rad[h] = sum[h][1] / s.trials[h];
    s.change_percent[h] = 100.0 * (sum[h][1] - sum[h][0]) / sum[h][0];
  }
  return s;
}

std::string ReplayCalibrationSummary::csv() const {
  std::string csv = "trial,role,rms_initial_rad,rms_best_rad,E_initial_rad2_s,E_best_rad2_s\n";
  for (const ReplayCalibrationRow& r : rows) {
    char line[256];
    std::snprintf(line, sizeof line, "%s,%s,%.6g,%.6g,%.6g,%.6g\n", r.trial.c_str(), r.holdout ? "holdout" : "train",
                  r.rms_initial_rad, r.rms_best_rad, r.E_initial_rad2_s, r.E_best_rad2_s);
    csv += line;
  }
  return csv;
}

nlohmann::json ReplayCalibrationSummary::toJson() const {
  nlohmann::json roles = nlohmann::json::array();
  for (int h = 0; h < 2; ++h)
    roles.push_back({{"trials", trials[h]},
                     {"mean_rms_initial_rad", mean_rms_initial_rad[h]},
                     {"mean_rms_best_rad", mean_rms_best_rad[h]},
                     {"change_percent", change_percent[h]}});
  return {{"rows", rows}, {"train", roles[0]}, {"holdout", roles[1]}};
}

ReplayCalibrationSummary ReplayCalibrationSummary::fromJson(const nlohmann::json& j) {
  ReplayCalibrationSummary s;
  s.rows = j.at("rows").get<std::vector<ReplayCalibrationRow>>();
  const char* keys[2] = {"train", "holdout"};
  for (int h = 0; h < 2; ++h) {
    const nlohmann::json& x = j.at(keys[h]);
    s.trials[h] = x.at("trials");
    s.mean_rms_initial_rad[h] = x.at("mean_rms_initial_rad");
    s.mean_rms_best_rad[h] = x.at("mean_rms_best_rad");
    s.change_percent[h] = x.at("change_percent");
  }
  return s;
}

}  // namespace gapsim::calib
