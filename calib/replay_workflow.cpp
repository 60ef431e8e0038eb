// SPDX-License-Identifier: BSD-3-Clause
#include "calib/replay_workflow.h"

#include <algorithm>
#include <cmath>

#include "calib/json_fields.h"
#include "calib/replay_commands.h"
#include "sim/input_error.h"
#include "sim/log_writer.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {

namespace {

// JSON has no infinity or NaN: a score that does not exist (a failed trial, no trial at all) is
// stored as null and read back as the field's default.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
double numberOr(const nlohmann::json& j, const char* key, double absent) {
  return j.contains(key) && !j.at(key).is_null() ? j.at(key).get<double>() : absent;
}

/// The trial name as a file name: the lean-to-stand package has trials in subdirectories.
std::string fileStem(std::string name) {
  std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

}  // namespace

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RecordingReplayOptions, recordings, trials, robot, robot_for_all, params, sets,
                                   compare_params, no_wall, wall_face_x_m, continuous_commands, settle_s, sim_seed,
                                   out_dir)

nlohmann::json RecordingReplayOptions::toJson() const { return toJsonWithSeeds(*this, {"sim_seed"}); }

RecordingReplayOptions RecordingReplayOptions::fromJson(const nlohmann::json& j) {
  return fromJsonWithSeeds<RecordingReplayOptions>(j, {"sim_seed"});
}

void RecordingReplayOptions::validate() const { checkSettleTime(settle_s); }

void checkSettleTime(double settle_s) {
  if (!(settle_s >= 0 && settle_s <= 10))
    throw InputError("", 0, "--settle", "expected a time in [0, 10] s, got " + sixDigits(settle_s));
}

nlohmann::json RecordingReplayResult::toJson() const {
  nlohmann::json rs = nlohmann::json::array();
  for (const ReplayTrialRow& r : rows)
    rs.push_back({{"trial", r.trial},
                  {"step_duration_s", r.step_duration_s},
                  {"error", r.error},
                  {"rms", number(r.rms)},
                  {"E", number(r.E)},
                  {"max_real", r.max_real},
                  {"max_sim", r.max_sim},
                  {"compared", r.compared},
                  {"rms_compare", number(r.rms_compare)},
                  {"E_compare", number(r.E_compare)},
                  {"max_tilt_sim_compare_rad", r.max_tilt_sim_compare_rad}});
  return {{"trials", trials},
          {"model_name", model_name},
          {"model_mass_kg", model_mass_kg},
          {"wall", wall},
          {"hold_commands", hold_commands},
          {"headline", headline},
          {"rows", rs},
          {"failed", failed},
          {"mean_rms", number(mean_rms)},
          {"mean_E", number(mean_E)},
          {"mean_rms_compare", number(mean_rms_compare)},
          {"mean_E_compare", number(mean_E_compare)},
          {"rms_change_percent", number(rms_change_percent)}};
}

RecordingReplayResult RecordingReplayResult::fromJson(const nlohmann::json& j) {
  constexpr double kInf = std::numeric_limits<double>::infinity(), kNaN = std::numeric_limits<double>::quiet_NaN();
  RecordingReplayResult r;
  r.trials = j.at("trials");
  r.model_name = j.at("model_name");
  r.model_mass_kg = j.at("model_mass_kg");
  r.wall = j.at("wall");
  r.hold_commands = j.at("hold_commands");
  r.headline = j.at("headline");
  for (const nlohmann::json& x : j.at("rows")) {
    ReplayTrialRow row;
    row.trial = x.at("trial");
    row.step_duration_s = x.at("step_duration_s");
    row.error = x.at("error");
    row.rms = numberOr(x, "rms", kInf);
    row.E = numberOr(x, "E", kInf);
    row.max_real = x.at("max_real");
    row.max_sim = x.at("max_sim");
    row.compared = x.at("compared");
    row.rms_compare = numberOr(x, "rms_compare", kInf);
    row.E_compare = numberOr(x, "E_compare", kInf);
    row.max_tilt_sim_compare_rad = x.at("max_tilt_sim_compare_rad");
    r.rows.push_back(std::move(row));
  }
  r.failed = j.at("failed");
  r.mean_rms = numberOr(j, "mean_rms", kNaN);
  r.mean_E = numberOr(j, "mean_E", kNaN);
  r.mean_rms_compare = numberOr(j, "mean_rms_compare", kNaN);
  r.mean_E_compare = numberOr(j, "mean_E_compare", kNaN);
  r.rms_change_percent = numberOr(j, "rms_change_percent", kNaN);
  return r;
}

RecordingReplay::RecordingReplay(RecordingReplayOptions options) : options_(std::move(options)) {
  options_.validate();
  set_ = ReplaySet::load(options_.recordings);
  if (!options_.trials.empty()) set_.select(options_.trials);
  replay_.sim_seed = options_.sim_seed;
  replay_.settle_s = options_.settle_s;
  replay_.wall = !options_.no_wall && set_.authors_wall;
  replay_.wall_face_x_m = options_.wall_face_x_m.value_or(set_.wall_face_x_m);
  replay_.hold_commands = !options_.continuous_commands;
  const Models& first = modelsOf(set_.trials.front());
  header_.trials = static_cast<int>(set_.trials.size());
  header_.model_name = first.model->name;
  header_.model_mass_kg = first.model->totalMass_kg();
  header_.wall = replay_.wall;
  header_.hold_commands = replay_.hold_commands;
  header_.headline = set_.trials.front().spec.measured.front().column;
}

std::string RecordingReplay::robotOf(const ReplayTrial& t) const {
  if (options_.robot_for_all || t.spec.robot.empty()) return options_.robot;
  return t.spec.robot;
}

RecordingReplay::Models& RecordingReplay::modelsOf(const ReplayTrial& t) {
  const auto key = std::make_pair(robotOf(t), t.spec.params);
  auto it = models_.find(key);
  if (it != models_.end()) return it->second;
  Models m;
  m.model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile(key.first)));
  if (replay_.wall) m.model->scene_boxes.push_back(authorsWall(replay_.wall_face_x_m));
  if (!t.spec.params.empty()) loadParameterFile(*m.model, t.spec.params);
  if (!options_.params.empty()) loadParameterFile(*m.model, options_.params);
  for (const auto& a : options_.sets) setParameterAssignment(*m.model, a);
  if (!options_.compare_params.empty()) {
    m.compare = std::make_shared<RobotModel>(*m.model);
    loadParameterFile(*m.compare, options_.compare_params);
  }
  m.map = motorMapFor(*m.model);
  for (const auto& u : set_.trials)
    if (robotOf(u) == key.first && u.spec.params == key.second)
      checkReplayable(*m.model, u, replay_);  // every bad signal before the first replay
  return models_.emplace(key, std::move(m)).first->second;
}

RecordingReplayResult RecordingReplay::run(const std::function<void(const ReplayTrialRow&)>& on_trial) {
  RecordingReplayResult res = header_;
  // Sums in trial order, as the means and the change are defined on them.
  double sum_E = 0, sum_E2 = 0, sum_rms = 0, sum_rms2 = 0;
  for (const ReplayTrial& t : set_.trials) {
    const Models& m = modelsOf(t);
    Log log;
    const ReplayResult r = replayTrial(*m.model, t, m.map, replay_, options_.out_dir.empty() ? nullptr : &log);
    ReplayTrialRow row;
    row.trial = t.name;
    row.step_duration_s = t.step_duration_s;
    row.error = r.error;
    if (r.error.empty()) {
      row.rms = r.rms_rad;
      row.E = r.E_rad2_s;
      for (double a : r.tilt_real_rad) row.max_real = std::max(row.max_real, a);
      row.max_sim = r.max_tilt_sim_rad;
      if (r.headline != "torso/tilt_rad") {  // the max of the headline signal itself
        row.max_sim = 0;
        for (double a : r.tilt_sim_rad) row.max_sim = std::max(row.max_sim, a);
      }
      sum_E += r.E_rad2_s;
      sum_rms += r.rms_rad;
      if (m.compare) {
        const ReplayResult r2 = replayTrial(*m.compare, t, m.map, replay_);
        row.compared = true;
        row.rms_compare = r2.rms_rad;
        row.E_compare = r2.E_rad2_s;
        row.max_tilt_sim_compare_rad = r2.max_tilt_sim_rad;
        sum_E2 += r2.E_rad2_s;
        sum_rms2 += r2.rms_rad;
      }
    } else {
      ++res.failed;
    }
    res.rows.push_back(row);
    if (on_trial) on_trial(row);
    if (!r.error.empty() || options_.out_dir.empty()) continue;
    log.write(options_.out_dir + "/" + fileStem(t.name) + "_sim.csv");
    writeHeadlineComparison(options_.out_dir, t.name, r);
  }
  const int n = res.replayed();
  if (n > 0) {
    res.mean_rms = sum_rms / n;
    res.mean_E = sum_E / n;
    if (!options_.compare_params.empty()) {
      res.mean_rms_compare = sum_rms2 / n;
      res.mean_E_compare = sum_E2 / n;
      res.rms_change_percent = 100.0 * (sum_rms2 - sum_rms) / sum_rms;
    }
  }
  return res;
}

void writeHeadlineComparison(const std::string& dir, const std::string& trial, const ReplayResult& r) {
  Log t({"time_s", "torso/tilt_real_rad", "torso/tilt_sim_rad"});
  for (std::size_t k = 0; k < r.time_s.size(); ++k)
    t.appendRow(std::vector<double>{r.time_s[k], r.tilt_real_rad[k], r.tilt_sim_rad[k]});
  t.write(dir + "/" + fileStem(trial) + "_tilt.csv");
}

}  // namespace gapsim::calib
