// SPDX-License-Identifier: BSD-3-Clause
#include "calib/objective.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "calib/csv_cells.h"
#include "calib/distribution_objective.h"
#include "calib/log_compare.h"
#include "calib/resync_objective.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/plausible.h"
#include "sim/recorder.h"
#include "sim/runner.h"
#include "sim/simulation.h"

namespace gapsim::calib {
namespace {

/// Every scenario role with its name in a set file's role column and in reports, once.
constexpr std::array<std::pair<ScenarioSubset, std::string_view>, 3> kSubsetNames{
    {{ScenarioSubset::Train, "train"}, {ScenarioSubset::Validate, "validate"}, {ScenarioSubset::Holdout, "holdout"}}};

}  // namespace

ScenarioSet ScenarioSet::load(const std::string& path, bool need_references) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open the scenario set file");
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(path).parent_path();
  ScenarioSet set;
  set.source = path;
  bool header = false;
  int n = 0;
  std::set<std::string> names;
  static const char* kCols[] = {"name", "motion", "reference", "duration_s", "weight", "role", "balance"};
  for (std::string raw; std::getline(in, raw);) {
    ++n;
    const std::string line = trimCell(raw);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> c = splitCells(line);
    if (!header) {
      if (c.size() < 4 || c.size() > 7)
        throw InputError(path, n, "header",
                         "expected the header name,motion,reference,duration_s[,weight[,role[,balance]]]");
      checkHeaderCells(c, kCols, path, n);
      header = true;
      continue;
    }
    if (c.size() < 4 || c.size() > 7)
      throw InputError(path, n, c.empty() ? "" : c[0], "expected 4 to 7 cells, got " + std::to_string(c.size()));
    Scenario s;
    s.line = n;
    s.name = c[0];
    if (s.name.empty() || !names.insert(s.name).second)
      throw InputError(path, n, "name", "empty or repeated scenario name '" + s.name + "'");
    auto resolve = [&](const std::string& p) { return fs::path(p).is_absolute() ? p : (dir / p).string(); };
    s.motion_path = resolve(c[1]);
    s.reference_path = resolve(c[2]);
    // exists() with an error code: a name the file system refuses (a component longer than
    // NAME_MAX, a directory without permission) is this line's error, not a filesystem_error.
    auto requireFile = [&](const std::string& p, const char* field) {
      std::error_code ec;
      const bool found = fs::exists(p, ec);
      if (ec) throw InputError(path, n, field, "cannot read " + p + ": " + ec.message());
      if (!found) throw InputError(path, n, field, "no such file: " + p);
    };
    requireFile(s.motion_path, "motion");
    if (need_references) requireFile(s.reference_path, "reference");
    s.duration_s = finiteCell(c[3], path, n, "duration_s");
    if (!(s.duration_s > 0)) throw InputError(path, n, "duration_s", "must be > 0");
    // 2147483648 s ran a calibration for ever.
    plausible::check(s.duration_s, plausible::kDuration_s, path, n, "duration_s", "duration");
    if (c.size() > 4 && !c[4].empty()) s.weight = finiteCell(c[4], path, n, "weight");
    if (!(s.weight >= 0)) throw InputError(path, n, "weight", "must be >= 0");
    if (c.size() > 5 && !c[5].empty()) {
      const auto role = std::find_if(kSubsetNames.begin(), kSubsetNames.end(),
                                     [&](const auto& named) { return named.second == c[5]; });
      if (role == kSubsetNames.end())
        throw InputError(path, n, "role", "expected train, validate or holdout, not '" + c[5] + "'");
      s.holdout = role->first != ScenarioSubset::Train;
      s.validate = role->first == ScenarioSubset::Validate;
    }
    if (c.size() > 6 && !c[6].empty()) {
      try {
        s.balance = parseBalanceParams(c[6], "balance");
      } catch (const InputError& e) {  // "balance: key: what" -> file:line: balance: key: what
        throw InputError(path, n, "balance", std::string(e.what()).substr(std::string("balance: ").size()));
      }
    }
    set.scenarios.push_back(std::move(s));
  }
  if (!header)
    throw InputError(path, 1, "header", "empty scenario set file: no header row (only blank or comment lines)");
  bool any_train = false;
  for (const auto& s : set.scenarios) any_train |= !s.holdout;
  if (!any_train) throw InputError(path, 0, "role", "no training scenario");
  return set;
}

void ScenarioSet::checkAgainst(const RobotModel& m) const {
  for (const Scenario& s : scenarios) {
    if (!s.balance) continue;
    try {
      AnkleBalance check(m, *s.balance);
    } catch (const InputError& e) {
      throw InputError(source, s.line, "balance", s.name + ": " + e.what());
    }
  }
}

namespace {

/// Every objective with its name on the command line and in files, once.
constexpr std::array<std::pair<ObjectiveKind, std::string_view>, 5> kObjectiveNames{
    {{ObjectiveKind::F, "F"},
     {ObjectiveKind::ECali, "E_cali"},
     {ObjectiveKind::Sum, "sum"},
     {ObjectiveKind::Resync, "resync"},
     {ObjectiveKind::GaitW1, "gait_w1"}}};

/// The objective's fitness from F, E_cali and G (resync's or gait_w1's distance): of one scenario
/// (then weighted) and of a whole subset (F summed, E and G averaged) alike.
double fitnessOf(const ObjectiveSettings& o, double F, double E, double G) {
  switch (o.kind) {
    case ObjectiveKind::F:
      return F;
    case ObjectiveKind::ECali:
      return E;
    case ObjectiveKind::Sum:
      return o.weight_F * F + o.weight_E * E;
    case ObjectiveKind::Resync:
    case ObjectiveKind::GaitW1:
      return G;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace

ObjectiveKind parseObjectiveKind(const std::string& s) {
  std::string known;  // "F, E_cali, ... or gait_w1"
  for (std::size_t i = 0; i < kObjectiveNames.size(); ++i) {
    if (s == kObjectiveNames[i].second) return kObjectiveNames[i].first;
    known += (i == 0 ? "" : i + 1 < kObjectiveNames.size() ? ", " : " or ") + std::string(kObjectiveNames[i].second);
  }
  throw InputError("", 0, "--objective", "expected " + known + ", not '" + s + "'");
}

void validateObjectiveSettings(const ObjectiveSettings& s) {
  if (!std::isfinite(s.resync_horizon_s) || !(s.resync_horizon_s >= s.log_period_s) || !(s.resync_horizon_s <= 3600))
    throw InputError("", 0, "--resync-horizon",
                     "must be a finite time in [" + sixDigits(s.log_period_s) +
                         ", 3600] s (one log period to an hour), "
                         "not " +
                         sixDigits(s.resync_horizon_s));
  if (!std::isfinite(s.w1_settle_s) || !(s.w1_settle_s >= 0) || !(s.w1_settle_s <= 3600))
    throw InputError("", 0, "--w1-settle", "must be a finite time in [0, 3600] s, not " + sixDigits(s.w1_settle_s));
  if (!std::isfinite(s.fall_penalty_rad) || !(s.fall_penalty_rad > 0) || !(s.fall_penalty_rad <= 10))
    throw InputError("", 0, "fall_penalty_rad", "must be in (0, 10] rad, not " + sixDigits(s.fall_penalty_rad));
}

std::string toString(ObjectiveKind k) {
  for (const auto& [kind, name] : kObjectiveNames)
    if (kind == k) return std::string(name);
  return "?";
}

ScenarioScore compareLogs(const Log& sim, const Log& ref, double fall_time_s, double m, double log_period_s,
                          const std::vector<std::string>* f_joints) {
  ScenarioScore r;
  r.fall_time_s = fall_time_s;
  const std::vector<double> t = sim.column("time_s");
  const std::vector<double> rt = ref.column("time_s");
  const double ref_end = rt.back();
  // Frames of F: samples up to the fall (or the end) inside the reference's span.
  std::vector<double> grid_F, grid_E;
  std::vector<std::size_t> rows_F, rows_E;
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (t[k] < rt.front() - 1e-12 || t[k] > ref_end + 1e-12) continue;
    grid_E.push_back(t[k]);
    rows_E.push_back(k);
    if (fall_time_s < 0 || t[k] <= fall_time_s + 1e-12) {
      grid_F.push_back(t[k]);
      rows_F.push_back(k);
    }
  }
  r.frames = static_cast<int>(grid_F.size());
  double sse = 0;
  for (std::size_t c = 0; c < sim.columns().size(); ++c) {
    const std::string& name = sim.columns()[c];
    if (name.size() < 6 || name.compare(name.size() - 6, 6, "/q_rad") != 0 || !ref.has(name)) continue;
    if (f_joints && std::find(f_joints->begin(), f_joints->end(), name.substr(0, name.size() - 6)) == f_joints->end())
      continue;
    const std::vector<double> rv = ref.column(name);
    const std::vector<double> ri = resample({rt, rv}, grid_F);
    for (std::size_t k = 0; k < rows_F.size(); ++k) {
      const double d = ri[k] - sim.at(rows_F[k], c);
      sse += d * d;
    }
  }
  r.F = sse / std::pow(std::max(1, r.frames), m);
  if (sim.has("torso/tilt_rad") && ref.has("torso/tilt_rad")) {
    const int c = sim.columnIndex("torso/tilt_rad");
    const std::vector<double> rv = ref.column("torso/tilt_rad");
    const std::vector<double> ri = resample({rt, rv}, grid_E);
    double e = 0;
    for (std::size_t k = 0; k < rows_E.size(); ++k) {
      const double d = ri[k] - sim.at(rows_E[k], static_cast<std::size_t>(c));
      e += d * d;
    }
    r.E = e * log_period_s;
  }
  return r;
}

CalibrationProblem::CalibrationProblem(std::shared_ptr<const RobotModel> base, ParameterSpace space, ScenarioSet set,
                                       ObjectiveSettings settings)
    : base_(std::move(base)), space_(std::move(space)), set_(std::move(set)), settings_(settings) {
  if (!(settings_.m >= 0)) throw InputError("", 0, "--m", "the exponent m must be >= 0");
  if (!(settings_.log_period_s > 0)) throw InputError("", 0, "log_period_s", "must be > 0");
  if (!(settings_.prior_weight >= 0) || !(settings_.prior_weight <= 1e6))
    throw InputError("", 0, "--prior-weight", "must be in [0, 1e6], not " + sixDigits(settings_.prior_weight));
  validateObjectiveSettings(settings_);
  space_.checkAgainst(*base_);
  set_.checkAgainst(*base_);
  std::vector<std::string> names;
  for (const Joint& j : base_->joints) names.push_back(j.name);
  for (const Scenario& s : set_.scenarios) {
    auto motion = std::make_shared<Motion>(loadMotion(s.motion_path));
    motion->checkJoints(names);
    motions_.push_back(std::move(motion));
    Log ref = Log::read(s.reference_path);
    if (!ref.has("time_s")) throw InputError(s.reference_path, 1, "time_s", "the reference log has no time_s column");
    references_.push_back(std::move(ref));
  }
}

bool CalibrationProblem::hasHoldout() const {
  for (const auto& s : set_.scenarios)
    if (s.holdout && !s.validate) return true;
  return false;
}

bool CalibrationProblem::hasValidation() const {
  for (const auto& s : set_.scenarios)
    if (s.validate) return true;
  return false;
}

std::string toString(ScenarioSubset s) {
  for (const auto& [subset, name] : kSubsetNames)
    if (subset == s) return std::string(name);
  return "?";
}

ScenarioSubset subsetOf(const Scenario& sc) {
  return !sc.holdout ? ScenarioSubset::Train : sc.validate ? ScenarioSubset::Validate : ScenarioSubset::Holdout;
}

std::unique_ptr<Simulation> CalibrationProblem::simulationOf(const Eigen::VectorXd& values, std::string& error) const {
  auto model = std::make_shared<RobotModel>(*base_);
  try {
    space_.apply(*model, values);
  } catch (const std::exception& e) {  // InputError or a component's validate()
    error = std::string("refused: ") + e.what();
    return nullptr;
  }
  SimOptions so;
  so.seed = settings_.sim_seed;
  so.quickstep = settings_.quickstep;
  return std::make_unique<Simulation>(model, so);
}

ScenarioScore CalibrationProblem::runScenario(const Eigen::VectorXd& values, int k, Log* log_out) const {
  ScenarioScore r;
  const Scenario& sc = set_.scenarios[static_cast<std::size_t>(k)];
  const std::unique_ptr<Simulation> sim = simulationOf(values, r.error);
  if (!sim) return r;
  RunConfig rc;
  rc.duration_s = sc.duration_s;
  rc.log_period_s = settings_.log_period_s;
  rc.stop_on_fall = settings_.kind == ObjectiveKind::F;  // F stops counting at the fall anyway
  rc.balance = sc.balance;
  Log log(Recorder(sim->model()).columns());
  const RunSummary s = runMotion(*sim, motions_[static_cast<std::size_t>(k)].get(), rc, &log);
  const Motion& motion = *motions_[static_cast<std::size_t>(k)];
  const std::vector<std::string>* joints = settings_.f_motion_joints_only ? &motion.joints() : nullptr;
  if (s.diverged) {
    r.diverged = true;
    r.error = "diverged: " + s.divergence;
  } else {
    const Log& ref = references_[static_cast<std::size_t>(k)];
    r = compareLogs(log, ref, s.fall_time_s.value_or(-1.0), settings_.m, settings_.log_period_s, joints);
    if (settings_.kind == ObjectiveKind::GaitW1) {
      r.w1_rad = distributionDistance(log, ref, s.fall_time_s.value_or(-1.0), settings_.w1_settle_s,
                                      settings_.fall_penalty_rad, joints);
      if (!std::isfinite(r.w1_rad))
        r.error = "gait_w1: no joint angle column in both logs, or no sample after the settle time";
    }
  }
  if (settings_.kind == ObjectiveKind::Resync && r.error.empty()) {
    const ScenarioScore rs = runResyncScenario(values, k, nullptr);
    r.resync_rad = rs.resync_rad;
    r.error = rs.error;
  }
  if (log_out) *log_out = std::move(log);
  return r;
}

ScenarioScore CalibrationProblem::runResyncScenario(const Eigen::VectorXd& values, int k, Log* log_out) const {
  ScenarioScore r;
  const Scenario& sc = set_.scenarios[static_cast<std::size_t>(k)];
  const std::unique_ptr<Simulation> sim = simulationOf(values, r.error);
  if (!sim) return r;
  const Motion& motion = *motions_[static_cast<std::size_t>(k)];
  ResyncSettings rs;
  rs.horizon_s = settings_.resync_horizon_s;
  rs.log_period_s = settings_.log_period_s;
  rs.fall_penalty_rad = settings_.fall_penalty_rad;
  const ResyncScore s =
      runResynchronised(*sim, &motion, sc.balance, sc.duration_s, references_[static_cast<std::size_t>(k)], rs,
                        settings_.f_motion_joints_only ? &motion.joints() : nullptr, log_out);
  r.resync_rad = s.rms_rad;
  r.diverged = s.diverged == s.windows && s.windows > 0;
  if (!s.error.empty()) r.error = "resync: " + s.error;
  return r;
}

EvalResult CalibrationProblem::evaluate(const Eigen::VectorXd& values, ScenarioSubset subset) const {
  EvalResult res;
  double F = 0, E = 0, G = 0;  // G: resync's or gait_w1's weighted sum
  int n = 0;
  std::vector<double> per;
  for (std::size_t k = 0; k < set_.scenarios.size(); ++k) {
    const Scenario& sc = set_.scenarios[k];
    if (subsetOf(sc) != subset) continue;
    ++n;
    const ScenarioScore s = settings_.kind == ObjectiveKind::Resync
                                ? runResyncScenario(values, static_cast<int>(k), nullptr)
                                : runScenario(values, static_cast<int>(k), nullptr);
    if (!s.error.empty()) {
      res.error = sc.name + ": " + s.error;
      res.parts.clear();
      return res;  // fitness +inf
    }
    F += sc.weight * s.F;
    E += sc.weight * s.E;
    const double g = settings_.kind == ObjectiveKind::Resync ? s.resync_rad : s.w1_rad;
    G += sc.weight * g;
    per.push_back(sc.weight * fitnessOf(settings_, s.F, s.E, g));
  }
  if (n == 0) return res;
  E /= n;
  G /= n;
  res.fitness = fitnessOf(settings_, F, E, G);
  res.parts = {F, E};
  res.parts.insert(res.parts.end(), per.begin(), per.end());
  if (subset == ScenarioSubset::Train && settings_.prior_weight > 0)
    res.fitness += settings_.prior_weight * (space_.yFromValues(values) - space_.initialY()).squaredNorm();
  return res;
}

}  // namespace gapsim::calib
