// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/calib_results.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cmath>

#include "calib/calibration.h"
#include "calib/log_compare.h"
#include "calib/optimizer.h"
#include "calib/parameter_space.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::gui {

namespace {
bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

CalibrationResults readCalibrationResults(const QString& dir) {
  CalibrationResults r;
  r.dir = QDir(dir).absolutePath();
  const std::string cp_path = (r.dir + "/checkpoint.json").toStdString();
  nlohmann::json inputs;
  try {
    const nlohmann::json cp = calib::Calibration::readCheckpoint(r.dir.toStdString());
    inputs = cp.at("inputs");
    r.settings = calib::CalibrationSettings::fromJson(cp.at("settings"));
    r.robot = QString::fromStdString(inputs.at("robot").get<std::string>());
    r.params = QString::fromStdString(inputs.at("params").get<std::string>());
    r.space = QString::fromStdString(inputs.at("space").get<std::string>());
    r.objective.sim_seed = std::stoull(inputs.at("sim_seed").get<std::string>());
    if (inputs.value("kind", "") == "replay") {  // calibrate --recordings: E_cali on recorded trials
      r.recordings = QString::fromStdString(inputs.at("recordings").get<std::string>());
      r.objective.kind = calib::ObjectiveKind::ECali;
    } else {
      r.scenarios = QString::fromStdString(inputs.at("scenarios").get<std::string>());
      r.objective.kind = calib::parseObjectiveKind(inputs.at("objective").get<std::string>());
      r.objective.m = inputs.at("m").get<double>();
      r.objective.weight_F = inputs.at("w_F").get<double>();
      r.objective.weight_E = inputs.at("w_E").get<double>();
    }
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {  // json type or key errors
    throw InputError(cp_path, 0, "inputs", std::string("not a calibration checkpoint: ") + e.what());
  }
  r.history = readHistory(r.dir + "/history.csv");
  r.best_params = r.dir + "/best.params";
  if (!QFileInfo(r.best_params).isFile()) throw InputError(r.best_params.toStdString(), 0, "", "missing");
  if (r.recordings.isEmpty())
    for (const auto& s : calib::ScenarioSet::load(r.scenarios.toStdString()).scenarios) {
      r.scenario_names.push_back(s.name);
      r.scenario_holdout.push_back(s.holdout);
      r.scenario_motions.push_back(s.motion_path);
      r.scenario_references.push_back(s.reference_path);
    }
  if (QFileInfo(r.dir + "/validation.csv").isFile()) r.validation = readValidation(r.dir + "/validation.csv");
  if (QFileInfo(r.dir + "/parameters.json").isFile()) r.parameters = readParameterReport(r.dir + "/parameters.json");
  QFile w(r.dir + "/warnings.txt");
  if (w.open(QIODevice::ReadOnly)) r.warnings = QString::fromUtf8(w.readAll()).split('\n', Qt::SkipEmptyParts);
  return r;
}

ParameterReport readParameterReport(const QString& path) {
  const std::string file = path.toStdString();
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) throw InputError(file, 0, "", "cannot open the parameter report");
  const QByteArray text = f.readAll();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.constBegin(), text.constEnd());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file, 0, "", std::string("not JSON: ") + e.what());
  }
  // The report writes inf and nan as "inf" and "nan" (calib::toJson).
  auto number = [&](const nlohmann::json& o, const char* key) {
    const nlohmann::json& v = o.at(key);
    try {
      return calib::doubleFromJson(v);
    } catch (const std::exception&) {
      throw InputError(file, 0, key, "not a number: " + v.dump());
    }
  };
  ParameterReport rep;
  try {
    rep.condition_number = number(j, "condition_number");
    rep.result = j.at("result").get<std::string>();
    for (const nlohmann::json& row : j.at("parameters")) {
      ParameterDetermination d;
      d.dimension = row.at("dimension").get<std::string>();
      d.initial = number(row, "initial");
      d.result = number(row, "result");
      d.moved_relative = number(row, "moved_relative");
      d.moved_range_fraction = number(row, "moved_range_fraction");
      d.std_over_sigma0 = number(row, "std_over_sigma0");
      d.determined = row.at("determined").get<std::string>();
      if (row.contains("fd_determined")) {
        d.fd_rise_relative = number(row, "fd_rise_relative");
        d.fd_halfwidth_range_fraction = number(row, "fd_halfwidth_range_fraction");
        d.fd_determined = row.at("fd_determined").get<std::string>();
      }
      rep.rows.push_back(std::move(d));
    }
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {  // a missing key or a value of the wrong type
    throw InputError(file, 0, "parameters", std::string("not a parameter report: ") + e.what());
  }
  return rep;
}

BeforeAfter runBeforeAfter(const CalibrationResults& r, int k) {
  auto model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile(r.robot.toStdString())));
  if (!r.params.isEmpty()) loadParameterFile(*model, r.params.toStdString());
  calib::ParameterSpace space = calib::ParameterSpace::load(r.space.toStdString());
  // best.params is the space file's format with the best values: its initial values, read with
  // the same rows, are the best free values in the space's dimension order.
  const calib::ParameterSpace best = calib::ParameterSpace::load(r.best_params.toStdString());
  if (best.dimension() != space.dimension())
    throw InputError(r.best_params.toStdString(), 0, "",
                     "has " + std::to_string(best.dimension()) + " free dimensions, the space " +
                         std::to_string(space.dimension()) + " (was the space file changed?)");
  const Eigen::VectorXd initial = space.initialValues(), best_values = best.initialValues();
  calib::ScenarioSet set = calib::ScenarioSet::load(r.scenarios.toStdString());
  if (k < 0 || k >= static_cast<int>(set.scenarios.size()))
    throw InputError(r.scenarios.toStdString(), 0, "scenario", "no scenario number " + std::to_string(k));
  const std::string name = set.scenarios[static_cast<std::size_t>(k)].name;
  const std::string ref_path = set.scenarios[static_cast<std::size_t>(k)].reference_path;
  const calib::CalibrationProblem problem(model, std::move(space), std::move(set), r.objective);
  BeforeAfter ba;
  ba.scenario = name;
  ba.reference = Log::read(ref_path);
  ba.before_score = problem.runScenario(initial, k, &ba.before);
  ba.after_score = problem.runScenario(best_values, k, &ba.after);
  return ba;
}

std::vector<std::string> comparableColumns(const BeforeAfter& ba) {
  std::vector<std::string> tilt, joints;
  for (const std::string& c : ba.reference.columns()) {
    if (!ba.before.has(c) || !ba.after.has(c)) continue;
    if (endsWith(c, "/tilt_rad"))
      tilt.push_back(c);
    else if (endsWith(c, "/q_rad"))
      joints.push_back(c);
  }
  tilt.insert(tilt.end(), joints.begin(), joints.end());
  return tilt;
}

double rmsAgainstReference(const BeforeAfter& ba, const Log& log, const std::string& column) {
  if (!ba.reference.has(column) || !log.has(column) || !ba.reference.has("time_s") || !log.has("time_s"))
    return std::nan("");
  const std::vector<double> rt = ba.reference.column("time_s"), rv = ba.reference.column(column);
  const std::vector<double> st = log.column("time_s"), sv = log.column(column);
  // Over the simulated span: a run that fell and stopped early is compared where it ran.
  const RmsDifference d = rmsDifference(SampledSignal{st, sv}, SampledSignal{rt, rv});
  return d.samples ? d.rms : std::nan("");
}

std::string defaultComparisonColumn(const BeforeAfter& ba, calib::ObjectiveKind kind) {
  const auto cols = comparableColumns(ba);
  if (cols.empty()) return {};
  if (kind == calib::ObjectiveKind::ECali && endsWith(cols.front(), "/tilt_rad")) return cols.front();
  std::string pick;
  double worst = -1;
  for (const std::string& c : cols) {
    if (!endsWith(c, "/q_rad")) continue;
    const double e = rmsAgainstReference(ba, ba.before, c);
    if (std::isfinite(e) && e > worst) worst = e, pick = c;
  }
  return pick.empty() ? cols.front() : pick;
}

}  // namespace gapsim::gui
