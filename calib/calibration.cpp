// SPDX-License-Identifier: BSD-3-Clause
#include "calib/calibration.h"

#include <fcntl.h>
#include <unistd.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "calib/cma_es.h"
#include "calib/json_fields.h"
#include "calib/mukappa_es.h"
#include "sim/input_error.h"
#include "sim/text.h"

namespace gapsim::calib {
namespace {

constexpr const char* kFormat = "gapsim-calibration-checkpoint";
constexpr int kVersion = 1;

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end(), [](double a, double b) {
    const double x = std::isnan(a) ? INFINITY : a, y = std::isnan(b) ? INFINITY : b;
    return x < y;
  });
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string hms(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  const long t = std::lround(s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
  return buf;
}

}  // namespace

namespace {

/// GAPSIM_KILL_AT_COMMIT=N or N:after (tests/app/kill_resume_test.sh): SIGKILL this process at
/// the N-th commit of writeFileAtomically, with the temporary file written and not yet renamed,
/// or just after the rename. A deterministic stand-in for a kill at any moment: between two
/// commits nothing changes on disk, so these are all the states a killed run can leave.
struct KillAtCommit {
  long n = 0;  ///< 0: never
  bool after = false;
};

KillAtCommit killAtCommitFromEnvironment() {
  const char* e = std::getenv("GAPSIM_KILL_AT_COMMIT");
  if (!e || !*e) return {};
  const std::string v = e;
  KillAtCommit k;
  const auto colon = v.find(':');
  const std::string n = v.substr(0, colon);
  auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), k.n);
  const bool ok = ec == std::errc() && p == n.data() + n.size() && k.n >= 1 &&
                  (colon == std::string::npos || v.substr(colon + 1) == "after");
  // A misspelt value must not let a kill test pass without killing anything.
  if (!ok) throw InputError("", 0, "GAPSIM_KILL_AT_COMMIT", "expected N or N:after (N >= 1), not '" + v + "'");
  k.after = colon != std::string::npos;
  return k;
}

std::atomic<long> g_commits{0};

std::string errnoText() { return std::strerror(errno); }

/// Writes `text` to `tmp` and fsyncs it before returning. Without the fsync a power loss (or an
/// operating-system crash) after the rename can leave `path` naming a file whose data never
/// reached the disk: a rename is often committed before the data blocks it points to, and the
/// file then comes back empty or truncated, which is the state the rename is meant to exclude.
void writeAndSync(const std::string& tmp, const std::string& text) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw InputError(tmp, 0, "", "cannot write: " + errnoText());
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const std::string why = w < 0 ? errnoText() : "nothing written";
      ::close(fd);
      throw InputError(tmp, 0, "", "writing failed: " + why);
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0) {
    const std::string why = errnoText();
    ::close(fd);
    throw InputError(tmp, 0, "", "fsync failed: " + why);
  }
  if (::close(fd) != 0) throw InputError(tmp, 0, "", "writing failed: " + errnoText());
}

/// fsyncs the directory holding `path` after a rename into it: the rename is a change of the
/// directory, and until the directory reaches the disk a power loss can bring back the old entry
/// (or none). Some file systems cannot fsync a directory (EINVAL); the rename is then as durable
/// as they make it, and that is no error of the caller's.
void syncDirectoryOf(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, 0, "", "cannot open its directory to sync it: " + errnoText());
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL && err != EROFS)
    throw InputError(path, 0, "", std::string("fsync of its directory failed: ") + std::strerror(err));
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& text) {
  static const KillAtCommit kill = killAtCommitFromEnvironment();
  auto killPoint = [](long n, bool after) {
    if (n == kill.n && after == kill.after) std::raise(SIGKILL);
  };
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    // A device or pipe (optimize-controller --out /dev/stdout): renaming a file over it would
    // replace the device node; written to as it is, there is nothing to keep whole.
    const long n = ++g_commits;
    killPoint(n, false);
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.flush();
    if (!out) throw InputError(path, 0, "", "writing failed");
    killPoint(n, true);
    return;
  }
  const std::string tmp = path + ".tmp";
  writeAndSync(tmp, text);
  const long n = ++g_commits;
  killPoint(n, false);
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw InputError(path, 0, "", "cannot rename " + tmp + ": " + ec.message());
  syncDirectoryOf(path);
  killPoint(n, true);
}

void CalibrationSettings::validate() const {
  if (optimizer != "cmaes" && optimizer != "es")
    throw InputError("", 0, "--optimizer", "expected cmaes or es, not '" + optimizer + "'");
  if (generations < 1) throw InputError("", 0, "--generations", "must be >= 1");
  if (lambda < 0 || (lambda > 0 && lambda < 2)) throw InputError("", 0, "--lambda", "must be >= 2 (0: default)");
  if (mu < 0) throw InputError("", 0, "--mu", "must be >= 1 (0: default)");
  if (kappa < 0) throw InputError("", 0, "--kappa", "must be >= 1 (0: infinite)");
  if (rho < 1) throw InputError("", 0, "--rho", "must be >= 1");
  if (!(sigma0 > 0) || !std::isfinite(sigma0)) throw InputError("", 0, "--sigma0", "must be > 0");
  if (ipop_restarts < 0) throw InputError("", 0, "--ipop", "must be >= 0");
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CalibrationSettings, optimizer, generations, lambda, mu, kappa, rho, sigma0, seed,
                                   ipop_restarts)

nlohmann::json CalibrationSettings::toJson() const { return toJsonWithSeeds(*this, {"seed"}); }

CalibrationSettings CalibrationSettings::fromJson(const nlohmann::json& j) {
  return fromJsonWithSeeds<CalibrationSettings>(j, {"seed"});
}

std::unique_ptr<Optimizer> makeOptimizer(const CalibrationSettings& s, const Eigen::VectorXd& y0) {
  s.validate();
  if (s.optimizer == "cmaes")
    return std::make_unique<CmaEs>(CmaEsSettings{.x0 = y0,
                                                 .sigma0 = s.sigma0,
                                                 .lambda = s.lambda,
                                                 .mu = s.mu,
                                                 .seed = s.seed,
                                                 .ipop_restarts = s.ipop_restarts});
  try {
    return std::make_unique<MuKappaLambdaEs>(EsSettings{.x0 = y0,
                                                        .sigma0 = s.sigma0,
                                                        .mu = s.mu > 0 ? s.mu : 10,
                                                        .lambda = s.lambda > 0 ? s.lambda : 800,
                                                        .kappa = s.kappa > 0 ? s.kappa : kKappaInfinite,
                                                        .rho = s.rho,
                                                        .seed = s.seed});
  } catch (const std::invalid_argument& x) {
    throw InputError("", 0, "--mu/--lambda", x.what());
  }
}

Calibration::Calibration(ParameterSpace space, CalibrationSettings settings, std::string out_dir, nlohmann::json inputs)
    : space_(std::move(space)),
      settings_(std::move(settings)),
      out_dir_(std::move(out_dir)),
      inputs_(std::move(inputs)) {
  opt_ = makeOptimizer(settings_, space_.initialY());
  std::error_code ec;
  std::filesystem::create_directories(out_dir_, ec);
  if (ec) throw InputError(out_dir_, 0, "--out", "cannot create the directory: " + ec.message());
}

nlohmann::json Calibration::readCheckpoint(const std::string& out_dir) {
  const std::string path = out_dir + "/checkpoint.json";
  std::ifstream in(path);
  if (!in)
    throw InputError(path, 0, "--resume",
                     std::filesystem::is_directory(out_dir)
                         ? "no checkpoint to resume from: the run was stopped before it saved its first generation; "
                           "start it again with the same command and --out " +
                               out_dir + " (its leftovers are replaced)"
                         : "no checkpoint to resume from: " + out_dir + " is not a results directory");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, "", std::string("unreadable checkpoint: ") + e.what());
  }
  if (j.value("format", "") != kFormat || j.value("version", 0) != kVersion)
    throw InputError(path, 0, "format", "not a gapsim calibration checkpoint of version " + std::to_string(kVersion));
  return j;
}

Calibration Calibration::fromCheckpoint(ParameterSpace space, const std::string& out_dir, int generations) {
  const nlohmann::json j = readCheckpoint(out_dir);
  const std::string path = out_dir + "/checkpoint.json";
  CalibrationSettings s = CalibrationSettings::fromJson(j.at("settings"));
  if (generations > 0) s.generations = generations;
  Calibration c(std::move(space), s, out_dir, j.at("inputs"));
  std::vector<std::string> labels;
  for (const auto& d : c.space_.dimensions()) labels.push_back(d.label);
  if (labels != j.at("dimensions").get<std::vector<std::string>>())
    throw InputError(path, 0, "dimensions", "the parameter space differs from the checkpoint's");
  try {
    c.opt_->restore(j.at("optimizer"));
    c.best_values_ = vectorFromJson(j.at("best_values"));
    c.best_f_ = doubleFromJson(j.at("best_fitness"));
    c.initial_f_ = doubleFromJson(j.at("initial_fitness"));
    for (const auto& h : j.at("history"))
      c.history_.push_back({h.at("generation").get<int>(), h.at("evaluations").get<long>(),
                            doubleFromJson(h.at("best")), doubleFromJson(h.at("median")), doubleFromJson(h.at("sigma")),
                            vectorFromJson(h.at("best_values"))});
    if (j.contains("validation")) {  // absent without validation scenarios
      const auto& v = j.at("validation");
      c.best_val_values_ = vectorFromJson(v.at("best_values"));
      c.best_val_f_ = doubleFromJson(v.at("best_fitness"));
      c.best_val_generation_ = v.at("best_generation").get<int>();
      for (const auto& r : v.at("history"))
        c.validation_.push_back(
            {r.at("generation").get<int>(), doubleFromJson(r.at("train")), doubleFromJson(r.at("validation"))});
      for (const auto& w : v.at("warnings")) c.warnings_.push_back(w.get<std::string>());
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, "", std::string("incomplete checkpoint: ") + e.what());
  }
  return c;
}

nlohmann::json Calibration::checkpoint() const {
  nlohmann::json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["settings"] = settings_.toJson();
  j["inputs"] = inputs_;
  auto dims = nlohmann::json::array();
  for (const auto& d : space_.dimensions()) dims.push_back(d.label);
  j["dimensions"] = dims;
  j["optimizer"] = opt_->save();
  j["best_values"] = toJson(best_values_);
  j["best_fitness"] = toJson(best_f_);
  j["initial_fitness"] = toJson(initial_f_);
  auto h = nlohmann::json::array();
  for (const auto& r : history_)
    h.push_back({{"generation", r.generation},
                 {"evaluations", r.evaluations},
                 {"best", toJson(r.best)},
                 {"median", toJson(r.median)},
                 {"sigma", toJson(r.sigma)},
                 {"best_values", toJson(r.best_values)}});
  j["history"] = h;
  if (!validation_.empty()) {
    auto vh = nlohmann::json::array();
    for (const auto& r : validation_)
      vh.push_back({{"generation", r.generation}, {"train", toJson(r.train)}, {"validation", toJson(r.validation)}});
    j["validation"] = {{"best_values", toJson(best_val_values_)},
                       {"best_fitness", toJson(best_val_f_)},
                       {"best_generation", best_val_generation_},
                       {"history", vh},
                       {"warnings", warnings_}};
  }
  return j;
}

void Calibration::writeFiles() const {
  // The checkpoint first: a kill between the writes leaves results behind the checkpoint, never
  // ahead of it, and a resume rewrites them (run()).
  writeFileAtomically(out_dir_ + "/checkpoint.json", checkpoint().dump(1));
  writeResults();
}

void Calibration::writeResults() const {
  std::ostringstream h;
  h << "generation,evaluations,best,median,sigma";
  for (const auto& d : space_.dimensions()) h << ',' << d.label;
  h << '\n';
  for (const auto& r : history_) {
    h << r.generation << ',' << r.evaluations << ',' << shortestText(r.best) << ',' << shortestText(r.median) << ','
      << shortestText(r.sigma);
    for (Eigen::Index i = 0; i < r.best_values.size(); ++i) h << ',' << shortestText(r.best_values[i]);
    h << '\n';
  }
  writeFileAtomically(out_dir_ + "/history.csv", h.str());
  const std::string after = " after " + std::to_string(history_.empty() ? 0 : history_.back().generation) +
                            " generations, " + std::to_string(opt_->evaluations()) + " evaluations (" +
                            settings_.optimizer + ", seed " + std::to_string(settings_.seed) + ")";
  auto writeParams = [&](const std::string& name, const Eigen::VectorXd& values, const std::string& what) {
    writeFileAtomically(out_dir_ + "/" + name,
                        space_.text(values, what + after + "\nload with: gapsim-cli run --params " + name));
  };
  const std::string train_what =
      "best fitness " + shortestText(best_f_) + " (initial " + shortestText(initial_f_) + ")";
  if (validation_.empty()) {
    writeParams("best.params", best_values_, "gapsim calibration result: " + train_what);
    writeParams("best_train.params", best_values_, "gapsim calibration result (training best): " + train_what);
    return;
  }
  writeParams("best.params", best_val_values_,
              "gapsim calibration result, early stopping: the best validation fitness " + shortestText(best_val_f_) +
                  " (initial " + shortestText(validation_.front().validation) + "), training best of generation " +
                  std::to_string(best_val_generation_));
  writeParams("best_train.params", best_values_, "gapsim calibration result (training best): " + train_what);
  std::ostringstream v;
  v << "generation,train_fitness,validation_fitness\n";
  for (const auto& r : validation_)
    v << r.generation << ',' << shortestText(r.train) << ',' << shortestText(r.validation) << '\n';
  writeFileAtomically(out_dir_ + "/validation.csv", v.str());
  std::string w;
  for (const auto& line : warnings_) w += line + "\n";
  writeFileAtomically(out_dir_ + "/warnings.txt", w);
}

void Calibration::validate(int generation, std::ostream* progress) {
  const EvalResult r = validate_fn_(best_values_);
  const double f = std::isfinite(r.fitness) ? r.fitness : std::numeric_limits<double>::infinity();
  if (!validation_.empty()) {
    const ValidationRecord& prev = validation_.back();
    if (f > prev.validation && best_f_ < prev.train) {
      char line[320];
      std::snprintf(line, sizeof line,
                    "warning: generation %d: validation fitness rose %.6g -> %.6g while training fell %.6g -> %.6g "
                    "(fitting what the model cannot represent; best.params keeps generation %d)",
                    generation, prev.validation, f, prev.train, best_f_,
                    f < best_val_f_ ? generation : best_val_generation_);
      warnings_.push_back(line);
      if (progress) *progress << line << std::endl;
    }
  }
  validation_.push_back({generation, best_f_, f});
  if (f < best_val_f_ || validation_.size() == 1) {
    best_val_f_ = f;
    best_val_values_ = best_values_;
    best_val_generation_ = generation;
  }
  if (progress && !r.error.empty()) *progress << "validation failed: " << r.error << std::endl;
}

void Calibration::run(BatchEvaluator& ev, std::ostream* progress, int stop_after) {
  if (!history_.empty()) writeResults();  // resumed: repair what a kill after the checkpoint left stale
  if (history_.empty()) {
    best_values_ = space_.initialValues();
    const EvalResult r0 = ev.evaluate({best_values_}).front();
    initial_f_ = best_f_ = std::isfinite(r0.fitness) ? r0.fitness : std::numeric_limits<double>::infinity();
    history_.push_back({0, 0, best_f_, best_f_, opt_->stepSize(), best_values_});
    if (validate_fn_) validate(0, nullptr);
    if (progress) {
      *progress << "gen 0 (initial parameters): fitness " << shortestText(initial_f_);
      if (!r0.error.empty()) *progress << " (" << r0.error << ")";
      if (validate_fn_) *progress << ", validation " << shortestText(validation_.back().validation);
      *progress << std::endl;
    }
    writeFiles();
  }
  const auto t0 = std::chrono::steady_clock::now();
  long evals_session = 0;
  int gens_session = 0;
  while (opt_->generation() < settings_.generations && !opt_->converged()) {
    if (stop_after >= 0 && gens_session >= stop_after) return;
    const std::vector<Eigen::VectorXd> ys = opt_->ask();
    std::vector<Eigen::VectorXd> values;
    values.reserve(ys.size());
    for (const auto& y : ys) values.push_back(space_.valuesFromY(y));
    const std::vector<EvalResult> rs = ev.evaluate(values);
    const double best_before = best_f_;
    std::vector<double> f(rs.size());
    int failed = 0;
    std::string first_error;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      f[i] = std::isfinite(rs[i].fitness) ? rs[i].fitness : std::numeric_limits<double>::infinity();
      if (!std::isfinite(rs[i].fitness)) {
        ++failed;
        if (first_error.empty()) first_error = rs[i].error;
      }
      if (f[i] < best_f_) {
        best_f_ = f[i];
        best_values_ = values[i];
      }
    }
    opt_->tell(f);
    evals_session += static_cast<long>(f.size());
    ++gens_session;
    history_.push_back({opt_->generation(), opt_->evaluations(), best_f_, median(f), opt_->stepSize(), best_values_});
    std::ostringstream warn;
    if (validate_fn_ && best_f_ < best_before) validate(opt_->generation(), &warn);
    writeFiles();
    if (progress) {
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double rate = wall > 0 ? evals_session / wall : 0;
      const double eta = wall / gens_session * (settings_.generations - opt_->generation());
      char line[256];
      std::snprintf(line, sizeof line, "gen %d/%d evals %ld best %.6g median %.6g sigma %.4g evals/s %.2f eta %s",
                    opt_->generation(), settings_.generations, opt_->evaluations(), best_f_, median(f),
                    opt_->stepSize(), rate, hms(eta).c_str());
      *progress << line;
      if (validate_fn_ && !validation_.empty()) {
        // Training and validation side by side; '*' marks the set best.params holds.
        const ValidationRecord& v = validation_.back();
        std::snprintf(line, sizeof line, " | train %.6g validation %.6g%s", v.train, v.validation,
                      best_val_generation_ == v.generation && v.generation == opt_->generation() ? " *" : "");
        *progress << line;
      }
      if (failed) *progress << " (" << failed << " failed, e.g. " << first_error << ")";
      *progress << std::endl << warn.str();
    }
  }
  if (progress && opt_->converged()) *progress << "optimizer stopped: " << opt_->stopReason() << std::endl;
}

Eigen::VectorXd Calibration::spreadFraction() const {
  // Optimiser units: 1 = the whole range (log range for log-scale dimensions); the transform is
  // the identity inside, so the spread of y is the spread of the normalised value.
  return opt_->spread();
}

double Calibration::conditionNumber() const {
  const Eigen::MatrixXd C = opt_->searchCovariance();
  if (C.size() == 0) return 1.0;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (C + C.transpose()));
  const double lo = es.eigenvalues().minCoeff(), hi = es.eigenvalues().maxCoeff();
  return lo > 0 ? hi / lo : std::numeric_limits<double>::infinity();
}

void Calibration::computeSensitivity(BatchEvaluator& ev, std::ostream* progress) {
  const Eigen::VectorXd y0 = space_.yFromValues(resultValues());
  std::vector<Eigen::VectorXd> values;
  for (const Eigen::VectorXd& y : sensitivityProbes(y0)) values.push_back(space_.valuesFromY(y));
  std::vector<double> f;
  for (const EvalResult& r : ev.evaluate(values))
    f.push_back(std::isfinite(r.fitness) ? r.fitness : std::numeric_limits<double>::infinity());
  sensitivity_ = sensitivityFromFitness(y0, f);
  if (progress) {
    int well = 0;
    for (const AxisSensitivity& a : sensitivity_) well += a.well;
    *progress << "sensitivity (training fitness at +-" << kSensitivityStep * 100 << " % of each range, "
              << values.size() << " evaluations): " << well << " of " << sensitivity_.size()
              << " parameters well determined" << std::endl;
  }
}

void Calibration::writeParameters() const {
  const Eigen::MatrixXd C = opt_->searchCovariance();
  const Eigen::VectorXd result = resultValues();
  const Eigen::VectorXd y0 = space_.initialY(), y1 = space_.yFromValues(result);
  const double cond = conditionNumber();
  std::ostringstream o;
  o << "dimension,initial,result,training_best,moved_relative,moved_range_fraction,std_range_fraction,std_over_sigma0,"
       "determined,fd_rise_relative,fd_halfwidth_range_fraction,fd_determined\n";
  auto rows = nlohmann::json::array();
  for (int i = 0; i < space_.dimension(); ++i) {
    const Dimension& d = space_.dimensions()[static_cast<std::size_t>(i)];
    const double moved_rel = d.value != 0 ? (result[i] - d.value) / std::abs(d.value) : result[i] - d.value;
    const double moved_y = y1[i] - y0[i];
    const double sd = std::sqrt(std::max(0.0, C(i, i)));
    const double shrink = sd / settings_.sigma0;
    // The search narrowed to half its initial width or less on this axis: the data pin it down.
    const char* det = shrink <= 0.5 ? "well" : "weak";
    // Without computeSensitivity the curvature columns say so ("-"), the JSON omits them.
    const AxisSensitivity* fd = sensitivity_.empty() ? nullptr : &sensitivity_[static_cast<std::size_t>(i)];
    const char* fd_det = !fd ? "-" : fd->well ? "well" : "weak";
    o << d.label << ',' << shortestText(d.value) << ',' << shortestText(result[i]) << ','
      << shortestText(best_values_[i]) << ',' << shortestText(moved_rel) << ',' << shortestText(moved_y) << ','
      << shortestText(sd) << ',' << shortestText(shrink) << ',' << det << ','
      << (fd ? shortestText(fd->rise_relative) : "nan") << ',' << (fd ? shortestText(fd->halfwidth) : "nan") << ','
      << fd_det << '\n';
    rows.push_back({{"dimension", d.label},
                    {"initial", toJson(d.value)},
                    {"result", toJson(result[i])},
                    {"training_best", toJson(best_values_[i])},
                    {"moved_relative", toJson(moved_rel)},
                    {"moved_range_fraction", toJson(moved_y)},
                    {"std_range_fraction", toJson(sd)},
                    {"std_over_sigma0", toJson(shrink)},
                    {"determined", det}});
    if (fd) {
      rows.back()["fd_rise_relative"] = toJson(fd->rise_relative);
      rows.back()["fd_halfwidth_range_fraction"] = toJson(fd->halfwidth);
      rows.back()["fd_determined"] = fd_det;
    }
  }
  writeFileAtomically(out_dir_ + "/parameters.csv", o.str());
  nlohmann::json j = {{"parameters", rows},
                      {"condition_number", toJson(cond)},
                      {"result", validation_.empty() ? "training best" : "validation best (early stopping)"},
                      {"training_best_fitness", toJson(best_f_)},
                      {"initial_fitness", toJson(initial_f_)}};
  if (!validation_.empty()) {
    j["validation_best_fitness"] = toJson(best_val_f_);
    j["validation_initial_fitness"] = toJson(validation_.front().validation);
    j["validation_best_generation"] = best_val_generation_;
    j["warnings"] = warnings_;
  }
  writeFileAtomically(out_dir_ + "/parameters.json", j.dump(1));
}

void Calibration::writeSpread() const {
  const Eigen::VectorXd s = spreadFraction();
  std::vector<double> v(s.data(), s.data() + s.size());
  const double med = median(v);
  std::ostringstream o;
  o << "dimension,best,spread_fraction_of_range,determined\n";
  for (int i = 0; i < space_.dimension(); ++i)
    o << space_.dimensions()[i].label << ',' << shortestText(best_values_[i]) << ',' << shortestText(s[i]) << ','
      << (s[i] > 3 * med ? "weak" : "yes") << '\n';
  writeFileAtomically(out_dir_ + "/spread.csv", o.str());
  writeParameters();
}

}  // namespace gapsim::calib
