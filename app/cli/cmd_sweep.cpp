// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli sweep: the drivetrain stability sweep. N parameter sets drawn within documented
// bounds (calib/stability_sweep.cpp), each simulated on the robot; prints the outcome counts and
// every set that did not stay upright, with the --set arguments that reproduce it.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/run_setup.h"
#include "calib/stability_sweep.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/plausible.h"

namespace gapsim::cli {

namespace {

struct SweepArgs {
  RunArgs run;
  int sets = 200;
  std::optional<double> duration_s;  ///< default: the motion's length + 1 s
  std::uint64_t seed = 1;
  int jobs = 0;
  std::string out;
  std::string space;  ///< calibration space whose bounds are swept; empty: naoDrivetrainRanges()
};

std::string formatCase(const calib::SweepCase& c) {
  std::ostringstream os;
  os.precision(17);
  os << c.index << ',' << c.outcome << ',' << c.fall_time_s << ',' << c.max_tilt_deg;
  for (const auto& [n, v] : c.values) os << ',' << v;
  std::string msg = c.message;
  for (char& ch : msg)
    if (ch == ',' || ch == '\n') ch = ';';
  os << ',' << msg;
  return os.str();
}

}  // namespace

namespace {

/// Worker w runs the sets i = w, w + jobs, ...; each writes its lines to its own file, and the
/// parent merges by index, so the result does not depend on the number of workers.
std::vector<std::string> sweepInWorkers(const RobotModel& model, const std::vector<calib::ParameterRange>& ranges,
                                        const calib::SweepConfig& cfg, int jobs) {
  const std::string dir = "/tmp/gapsim_sweep_" + std::to_string(getpid());
  std::vector<pid_t> kids;
  for (int w = 0; w < jobs; ++w) {
    const pid_t pid = fork();
    if (pid == 0) {
      std::ofstream f(dir + "_" + std::to_string(w));
      for (int i = w; i < cfg.sets; i += jobs) f << formatCase(calib::runCase(model, ranges, cfg, i)) << '\n';
      f.close();
      _exit(f ? 0 : 1);
    }
    kids.push_back(pid);
  }
  bool worker_failed = false;
  for (pid_t k : kids) {
    int st = 0;
    waitpid(k, &st, 0);
    worker_failed |= !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  std::vector<std::string> lines(static_cast<std::size_t>(cfg.sets));
  for (int w = 0; w < jobs; ++w) {
    std::ifstream f(dir + "_" + std::to_string(w));
    for (std::string l; std::getline(f, l);) lines[std::stoi(l.substr(0, l.find(',')))] = l;
    std::remove((dir + "_" + std::to_string(w)).c_str());
  }
  if (worker_failed) throw std::runtime_error("a sweep worker process failed");
  return lines;
}

/// The outcome column of a result line.
std::string outcomeOf(const std::string& line) {
  std::stringstream ss(line);
  std::string idx, outcome;
  std::getline(ss, idx, ',');
  std::getline(ss, outcome, ',');
  return outcome;
}

/// Every set that did not stay upright, with the command that reproduces it.
void reportFailures(const SweepArgs& a, const RobotModel& model, const std::vector<calib::ParameterRange>& ranges,
                    const calib::SweepConfig& cfg, const std::vector<std::string>& lines) {
  for (const auto& l : lines) {
    const std::string outcome = outcomeOf(l);
    if (outcome == "upright") continue;
    const std::string idx = l.substr(0, l.find(','));
    // The seed too: it seeds QuickStep's row order, and a marginal set's outcome can turn on it.
    std::printf("set %s: %s; reproduce with: gapsim-cli run --robot %s%s%s --duration %g --seed %llu", idx.c_str(),
                outcome.c_str(), a.run.robot.c_str(), a.run.motion.empty() ? "" : " --motion ", a.run.motion.c_str(),
                *a.duration_s, static_cast<unsigned long long>(cfg.seed));
    for (const auto& [n, v] : calib::drawSet(model, ranges, cfg.seed, std::stoi(idx)))
      std::printf(" --set %s=%.17g", n.c_str(), v);
    std::printf("\n");
  }
}

/// What `gapsim-cli sweep` does once its options are parsed.
int runSweep(const std::shared_ptr<SweepArgs>& a) {
  a->run.quiet = true;
  const auto model = loadConfiguredModel(a->run);
  if (a->run.motion.empty()) {  // the job users do: a walk, when the robot ships one
    const auto walk = std::filesystem::path(model->source_file).parent_path() / "motions" / "walk_200mm_s_1s.csv";
    if (std::filesystem::exists(walk)) a->run.motion = walk.string();
  }
  if (!a->duration_s) a->duration_s = a->run.motion.empty() ? 5.0 : loadMotion(a->run.motion).endTime_s() + 1.0;
  if (a->sets < 1 || !(*a->duration_s > 0)) throw InputError("", 0, "--sets/--duration", "must be positive");
  if (a->sets > 1000000) throw InputError("", 0, "--sets", "must be <= 1000000, got " + std::to_string(a->sets));
  plausible::check(*a->duration_s, plausible::kDuration_s, "", 0, "--duration");
  plausible::check(a->sets * *a->duration_s, plausible::kDuration_s, "", 0, "--sets x --duration", "simulated time");
  const auto ranges =
      a->space.empty() ? calib::naoDrivetrainRanges() : calib::rangesFromSpace(calib::ParameterSpace::load(a->space));
  calib::SweepConfig cfg{a->sets, *a->duration_s, a->seed, a->run.motion};
  calib::drawSet(*model, ranges, cfg.seed, 0);  // unknown names fail here, before forking
  const int jobs = std::max(1, a->jobs > 0 ? a->jobs : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  std::printf("sweep: %d parameter sets of %zu parameters, %.1f s each, %d worker processes, seed %llu\n", a->sets,
              ranges.size(), *a->duration_s, jobs, static_cast<unsigned long long>(a->seed));
  for (const auto& r : ranges)
    std::printf("  %-28s %s [%g, %g]%s\n", r.name.c_str(), r.relative ? "x" : "", r.lower, r.upper,
                r.logarithmic ? " log-uniform" : " uniform");
  const std::vector<std::string> lines = sweepInWorkers(*model, ranges, cfg, jobs);
  reportFailures(*a, *model, ranges, cfg, lines);
  if (!a->out.empty()) {
    std::ofstream f(a->out);
    f << "index,outcome,fall_time_s,max_tilt_deg";
    for (const auto& r : ranges) f << ',' << r.name;
    f << ",message\n";
    for (const auto& l : lines) f << l << '\n';
    if (!f) throw InputError(a->out, 0, "", "cannot write");
  }
  int upright = 0, fell = 0, diverged = 0, rejected = 0;
  for (const auto& l : lines) {
    const std::string outcome = outcomeOf(l);
    if (outcome == "upright")
      ++upright;
    else if (outcome == "fell")
      ++fell;
    else if (outcome == "diverged")
      ++diverged;
    else
      ++rejected;
  }
  std::printf("sweep result: %d upright, %d fell, %d diverged (clean reports), %d rejected by validation, of %d\n",
              upright, fell, diverged, rejected, a->sets);
  return kExitOk;
}

}  // namespace

Action addSweep(CLI::App& app) {
  auto a = std::make_shared<SweepArgs>();
  app.add_option("--robot", a->run.robot, "robot (its drivetrain parameters are swept)")->capture_default_str();
  app.add_option("--motion", a->run.motion,
                 "motion to play, with the controller it names (default: the robot's walk_200mm_s_1s.csv if it has "
                 "one, else stand)");
  app.add_option("--sets", a->sets, "number of parameter sets")->capture_default_str();
  app.add_option("--duration", a->duration_s,
                 "simulated seconds per set (default: the motion's length + 1 s, or 5 s standing)");
  app.add_option("--seed", a->seed, "seed of the draws")->capture_default_str();
  app.add_option("--jobs", a->jobs, "worker processes (default: all cores)");
  app.add_option("--space", a->space,
                 "sweep the free rows of this calibration space (CSV as `calibrate --space`) within their bounds, "
                 "instead of the default drivetrain ranges")
      ->check(CLI::ExistingFile);
  app.add_option("--out", a->out, "CSV of every set: index, outcome, fall time, max tilt, values, message");
  return [a] { return runSweep(a); };
}

}  // namespace gapsim::cli
