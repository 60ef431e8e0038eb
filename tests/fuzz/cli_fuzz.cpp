// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli-fuzz: a mutation fuzzer that runs gapsim-cli as a user would, on mutated copies of
// the shipped inputs (robot files, CSV motions, joint tables, Webots motions, .mtn, parameter
// files, spaces, scenario sets, logs, recordings, keyframe controllers), and fails on
//   - a signal (an abort inside ODE, a segfault, a sanitizer report ending the process),
//   - a hang (more CPU seconds than --cpu-limit, or more wall seconds than --wall-limit),
//   - an exit code other than 0 (ran), 2 (bad input) or 3 (divergence),
//   - an exit 2 whose message does not name the mutated file and a line ("file:N:"), and
//   - a sanitizer report in the output of a process that still exited normally.
// Deterministic: the mutants are a function of --seed (SplitMix64, no std:: distributions).
//
//   gapsim-cli-fuzz --cli build/gapsim-cli --source . --seed 1 --runs 300          (the ctest)
//   gapsim-cli-fuzz --cli ... --source . --seed N --seconds 600 --keep DIR       (scripts/fuzz.sh)
//   gapsim-cli-fuzz --cli ... --source . --replay tests/fuzz/regressions          (kept crashers)
//
// Every mutant lives in a scratch directory that mirrors the seed's directory (the other files are
// symbolic links), so relative paths inside it (a scenario set's motions, a recording package's
// motions/) resolve as for the original. A failing mutant is copied to --keep DIR as
// <target>/<seed>-<n><ext> with a .txt of the command and the output; moved to
// tests/fuzz/regressions/<target>/ it is replayed by every test run (ctest cli_fuzz_regressions).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

/// One way a shipped input reaches the CLI. `root` is the directory mirrored into the scratch
/// directory, `rel` the seed file inside it; in `args`, {in} is the mutant, {root} the mirrored
/// root and {tmp} an empty directory for outputs. `weight`: how many of every 100 mutants it gets.
struct Target {
  const char* name;
  const char* root;
  const char* rel;
  const char* args;
  int weight;
  /// The command analyses the whole file after reading it (a fit): its verdict on the data as a
  /// whole ("the regressors are linearly dependent") names the file and the column, no line.
  bool whole_file_errors = false;
};

// Bounded run lengths everywhere (--duration, --max-sim-time), so that a mutant that does not
// finish in the CPU limit is a hang of gapsim's, not a long run the command line asked for.
const Target kTargets[] = {
    {"urdf-bioloid", "robots/bioloid", "bioloid.urdf", "run --robot {in} --quiet --duration 0.05", 8},
    {"urdf-nao", "robots/nao", "nao.urdf", "run --robot {in} --quiet --duration 0.05", 8},
    {"urdf-mabel", "robots/mabel", "mabel.urdf", "run --robot {in} --quiet --duration 0.05", 6},
    {"urdf-pendulum", "tests/sim/data", "pendulum.urdf", "run --robot {in} --quiet --duration 0.2", 3},
    {"urdf-thirdparty", "tests/app/data", "thirdparty_arm_robot.urdf", "info {in}", 3},
    {"urdf-servo-rig", "robots/bioloid/identification", "ankle_r_foot.urdf", "run --robot {in} --quiet --duration 0.1",
     3},
    {"motion-csv-nao", "robots/nao/motions", "squat.csv", "run --robot nao --quiet --duration 0.1 --motion {in}", 8},
    {"motion-csv-walk", "robots/nao/motions", "walk_200mm_s_1s.csv",
     "run --robot nao --quiet --duration 0.05 --motion {in}", 4},
    {"motion-csv-bioloid", "robots/bioloid/motions", "wave.csv",
     "run --robot bioloid --quiet --duration 0.1 --motion {in}", 4},
    {"motion-joint-table", "tests/sim/data/timeseries", "walk_table.csv",
     "run --robot nao --quiet --duration 0.1 --frame-period 0.02 --motion {in}", 4},
    {"motion-webots", "robots/nao/motions", "squat.motion", "run --robot nao --quiet --duration 0.1 --motion {in}", 6},
    {"motion-mtn", "tests/sim/data/mtn", "sitPose.mtn",
     "run --robot bioloid --quiet --duration 0.1 --page sit-to-stand --motion {in}", 6},
    {"motion-log", "tests/sim/data/timeseries", "motion_log_replay.csv",
     "run --robot nao --quiet --duration 0.1 --motion {in}", 3},
    {"params-nao", "calib/examples/nao_twin", "hidden.params", "run --robot nao --quiet --duration 0.05 --params {in}",
     5},
    {"params-bioloid", "robots/bioloid/calibration", "twin_hidden.params",
     "run --robot bioloid --quiet --duration 0.05 --params {in}", 4},
    {"space", "calib/examples/nao_twin", "space.csv",
     "calibrate --robot nao --space {in} --scenarios @tests/fuzz/fixtures/short_scenarios.csv --lambda 2 --generations "
     "1 "
     "--backend serial --max-sim-time 5 --out {tmp}/cal",
     5},
    {"scenarios", "calib/examples/nao_twin", "scenarios.csv",
     "twin --robot nao --params @calib/examples/nao_twin/hidden.params --scenarios {in} --max-sim-time 5 --out "
     "{tmp}/twin",
     6},
    {"log-servo-step", "tests/calib/data", "ankle_r_foot_slope32.csv", "identify servo --log {in} --out {tmp}/id", 4,
     true},
    {"log-reference", "calib/examples/nao_twin", "reference/sway.csv",
     "calibrate --robot nao --space @calib/examples/nao_twin/space.csv --scenarios {root}/scenarios.csv --lambda 2 "
     "--generations 1 --backend serial --max-sim-time 5 --out {tmp}/cal",
     3},
    {"recording", "tests/calib/data/bioloid_lean", "rising/lean-to-stand/0.05-01.csv",
     "replay --recordings {root} --trials 0.05-01", 3},
    {"recording-motion", "tests/calib/data/bioloid_lean", "motions/lean-to-stand/0.05.csv",
     "replay --recordings {root} --trials 0.05-01", 2},
    {"controller", "robots/bioloid/controllers", "lean.csv", "rise --task lean --controller {in}", 3},
};

/// SplitMix64: the same numbers on every platform and standard library.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

/// Numbers a careless or hostile file holds: the ones that used to reach ODE or the run loop.
const char* const kNumbers[] = {"1e308",      "-1e308",      "1e-320", "-1e-320", "4294967296",
                                "2147483648", "-2147483649", "0",      "-0",      "-1",
                                "1e6",        "-1e6",        "1e300",  "nan",     "inf",
                                "-inf",       "1e-300",      "9e18",   "1e19",    "0x10",
                                "1.",         ".5",          "1e",     "--1",     "99999999999999999999",
                                "3.4e38",     "1e-9",        "65536"};
/// Bytes and words a mutant may gain.
const char* const kTokens[] = {",",        ";",      "\n",     "\r\n", "\"", "#", "<",    ">",      "/>",
                               "=",        " ",      "\t",     "e",    "-",  ".", "name", "time_s", "<link>",
                               "</robot>", "<joint", "xyz=\"", "PAGE", "]",  "[", "{",    "}"};

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeFile(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << s;
}

bool isNumberChar(char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'; }

/// Start and length of every number-like token (a digit with its sign, dot and exponent).
std::vector<std::pair<std::size_t, std::size_t>> numbers(const std::string& s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] >= '0' && s[i] <= '9') {
      std::size_t a = i, b = i;
      while (a > 0 && (s[a - 1] == '-' || s[a - 1] == '.' || (s[a - 1] >= '0' && s[a - 1] <= '9'))) --a;
      while (b < s.size() && isNumberChar(s[b])) ++b;
      out.emplace_back(a, b - a);
      i = b;
    } else {
      ++i;
    }
  }
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> lines(const std::string& s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t a = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '\n') {
      if (i > a || i < s.size()) out.emplace_back(a, i - a + (i < s.size() ? 1 : 0));
      a = i + 1;
    }
  return out;
}

/// One mutation of `s`; `what` says which (for the failure report). One switch on purpose: the
/// mutation kinds as one table, a case of a few lines each, so their odds are read together.
void mutateOnce(std::string& s, Rng& r, std::string& what) {
  const std::size_t kinds = 12;
  const std::size_t k = r.below(kinds);
  auto pos = [&] { return r.below(s.size() + 1); };
  switch (k) {
    case 0:
    case 1:
    case 2: {  // a number becomes an absurd one (three times as likely: what the readers must range-check)
      auto nums = numbers(s);
      if (nums.empty()) break;
      auto [a, n] = nums[r.below(nums.size())];
      const std::string v = kNumbers[r.below(std::size(kNumbers))];
      what += "number@" + std::to_string(a) + "=" + v + " ";
      s.replace(a, n, v);
      return;
    }
    case 3: {  // a number scaled by a power of ten
      auto nums = numbers(s);
      if (nums.empty()) break;
      auto [a, n] = nums[r.below(nums.size())];
      const std::string v = s.substr(a, n) + "e" + std::to_string(static_cast<int>(r.below(41)) - 20);
      what += "scale@" + std::to_string(a) + " ";
      s.replace(a, n, v);
      return;
    }
    case 4: {  // a random byte flipped
      if (s.empty()) break;
      const std::size_t a = r.below(s.size());
      s[a] = static_cast<char>(s[a] ^ (1u << r.below(8)));
      what += "flip@" + std::to_string(a) + " ";
      return;
    }
    case 5: {  // a token inserted
      const std::size_t a = pos();
      const std::string t = kTokens[r.below(std::size(kTokens))];
      s.insert(a, t);
      what += "insert@" + std::to_string(a) + " ";
      return;
    }
    case 6: {  // a chunk deleted
      if (s.empty()) break;
      const std::size_t a = r.below(s.size()), n = 1 + r.below(std::min<std::size_t>(64, s.size() - a));
      s.erase(a, n);
      what += "delete@" + std::to_string(a) + "+" + std::to_string(n) + " ";
      return;
    }
    case 7: {  // a line deleted or duplicated (many times)
      auto ls = lines(s);
      if (ls.empty()) break;
      auto [a, n] = ls[r.below(ls.size())];
      if (r.below(2)) {
        s.erase(a, n);
        what += "dropline@" + std::to_string(a) + " ";
      } else {
        const std::string line = s.substr(a, n);
        const std::size_t times = 1 + r.below(r.below(4) == 0 ? 200 : 3);
        for (std::size_t i = 0; i < times; ++i) s.insert(a, line);
        what += "dupline@" + std::to_string(a) + "x" + std::to_string(times) + " ";
      }
      return;
    }
    case 8: {  // two lines swapped
      auto ls = lines(s);
      if (ls.size() < 2) break;
      std::size_t i = r.below(ls.size()), j = r.below(ls.size());
      if (i == j) break;
      if (i > j) std::swap(i, j);
      const std::string li = s.substr(ls[i].first, ls[i].second), lj = s.substr(ls[j].first, ls[j].second);
      s.replace(ls[j].first, ls[j].second, li);
      s.replace(ls[i].first, ls[i].second, lj);
      what += "swaplines ";
      return;
    }
    case 9: {  // truncated
      const std::size_t a = pos();
      s.resize(a);
      what += "truncate@" + std::to_string(a) + " ";
      return;
    }
    case 10: {  // odd bytes: NUL, 0xff, a very long run
      const std::size_t a = pos();
      const std::size_t v = r.below(3);
      if (v == 0)
        s.insert(a, 1, '\0');
      else if (v == 1)
        s.insert(a, "\xff\xfe");
      else
        s.insert(a, std::string(1 + r.below(100000), static_cast<char>('0' + r.below(10))));
      what += "bytes@" + std::to_string(a) + " ";
      return;
    }
    case 11: {  // a chunk of the file copied elsewhere (splice)
      if (s.empty()) break;
      const std::size_t a = r.below(s.size()), n = 1 + r.below(std::min<std::size_t>(200, s.size() - a));
      const std::string chunk = s.substr(a, n);
      const std::size_t b = pos();
      s.insert(b, chunk);
      what += "splice@" + std::to_string(b) + " ";
      return;
    }
  }
  // the chosen mutation did not apply (no number, empty file): flip a byte or append one
  if (s.empty())
    s = "1";
  else
    s[r.below(s.size())] ^= 0x20;
  what += "fallback ";
}

std::string mutate(const std::string& seed, Rng& r, std::string& what) {
  std::string s = seed;
  const std::size_t n = 1 + r.below(3);
  for (std::size_t i = 0; i < n; ++i) mutateOnce(s, r, what);
  return s;
}

/// A copy of `root` in `dest` whose entries are symbolic links, except the directories on the path to
/// `rel`, which are real (so the mutant can replace the seed file).
void mirror(const fs::path& root, const fs::path& rel, const fs::path& dest) {
  fs::create_directories(dest);
  fs::path src = root, dst = dest;
  auto it = rel.begin();
  for (; it != rel.end(); ++it) {
    const fs::path part = *it;
    for (const auto& e : fs::directory_iterator(src))
      if (e.path().filename() != part) fs::create_symlink(fs::absolute(e.path()), dst / e.path().filename());
    src /= part;
    dst /= part;
    if (std::next(it) != rel.end()) fs::create_directory(dst);
  }
}

struct Outcome {
  std::string verdict;  // "" = pass
  int code = -1;
  int signal = 0;
  double seconds = 0;
  std::string output;
};

struct Limits {
  int cpu_s = 20;
  int wall_s = 120;
  long memory_mb = 4096;  // 0: none (sanitizer builds reserve terabytes of address space)
};

/// Runs argv with a CPU, wall and memory limit; stdout and stderr together (first 256 KiB).
Outcome runProcess(const std::vector<std::string>& argv, const fs::path& cwd, const Limits& lim) {
  Outcome o;
  int fds[2];
  if (pipe(fds) != 0) {
    o.verdict = "pipe failed";
    return o;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    if (chdir(cwd.c_str()) != 0) _exit(125);
    rlimit cpu{static_cast<rlim_t>(lim.cpu_s), static_cast<rlim_t>(lim.cpu_s + 1)};
    setrlimit(RLIMIT_CPU, &cpu);
    if (lim.memory_mb > 0) {
      rlimit as{static_cast<rlim_t>(lim.memory_mb) << 20, static_cast<rlim_t>(lim.memory_mb) << 20};
      setrlimit(RLIMIT_AS, &as);
    }
    rlimit core{0, 0};
    setrlimit(RLIMIT_CORE, &core);
    std::vector<char*> av;
    for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
    av.push_back(nullptr);
    execv(av[0], av.data());
    _exit(127);
  }
  close(fds[1]);
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  bool timed_out = false;
  char buf[8192];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    poll(&p, 1, 200);
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0)
      if (o.output.size() < (256u << 10)) o.output.append(buf, static_cast<std::size_t>(n));
    if (n == 0) break;  // EOF: the child (and whatever it forked) closed the pipe
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(lim.wall_s)) {
      timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  kill(-pid, SIGKILL);  // forked workers left behind
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (WIFEXITED(status)) o.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  if (timed_out)
    o.verdict = "hang (wall-clock limit " + std::to_string(lim.wall_s) + " s)";
  else if (o.signal == SIGXCPU)
    o.verdict = "hang (CPU limit " + std::to_string(lim.cpu_s) + " s)";
  else if (o.signal)
    o.verdict = std::string("signal ") + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
  return o;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
}

struct Options {
  std::string cli;
  fs::path source = ".";
  std::uint64_t seed = 1;
  long runs = 300;
  double seconds = 0;  // > 0: run until this much time has passed (instead of --runs)
  std::string only;    // run only targets whose name starts with this
  fs::path keep;       // where failing mutants are copied
  fs::path replay;     // replay the files under this directory (<target>/<file>)
  fs::path scratch;
  Limits limits;
  bool verbose = false;
};

/// The verdict on one finished run of `file` (the mutant's name as the CLI was given it).
std::string judge(Outcome& o, const std::string& file) {
  if (!o.verdict.empty()) return o.verdict;
  for (const char* s : {"AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:", "LeakSanitizer"})
    if (o.output.find(s) != std::string::npos) return std::string("sanitizer report (") + s + ")";
  if (o.code == 0 || o.code == 3) return "";
  if (o.code != 2) return "exit code " + std::to_string(o.code);
  // exit 2: "error: <file>:<line>: ..." naming the mutant (its file name) and a line
  const std::string name = fs::path(file).filename().string();
  std::size_t p = 0;
  while ((p = o.output.find(name + ":", p)) != std::string::npos) {
    p += name.size() + 1;
    if (p < o.output.size() && o.output[p] >= '1' && o.output[p] <= '9') return "";
  }
  return "exit 2 without '" + name + ":<line>' in the message";
}

struct Stats {
  long runs = 0, failures = 0;
  std::map<int, long> codes;
  std::map<std::string, long> per_target;
};

/// Runs one input of `t` (the bytes of the mutant) in a fresh scratch directory; returns the verdict.
std::string runOne(const Options& opt, const Target& t, const std::string& bytes, long n, Outcome& o) {
  const fs::path dir = opt.scratch / ("m" + std::to_string(n));
  fs::remove_all(dir);
  const fs::path root = dir / "root";
  mirror(opt.source / t.root, t.rel, root);
  const fs::path in = root / t.rel;
  writeFile(in, bytes);
  fs::create_directories(dir / "tmp");
  std::vector<std::string> argv{opt.cli};
  for (std::string a : split(t.args)) {
    replaceAll(a, "{in}", in.string());
    replaceAll(a, "{root}", root.string());
    replaceAll(a, "{tmp}", (dir / "tmp").string());
    if (!a.empty() && a[0] == '@') a = (opt.source / a.substr(1)).string();  // a file of the source tree
    argv.push_back(a);
  }
  o = runProcess(argv, dir, opt.limits);
  std::string v = judge(o, in.string());
  // a recording's errors name the recording package's files: accept any file:line of the package
  if (!v.empty() && o.code == 2 && std::string(t.name).rfind("recording", 0) == 0 &&
      o.output.find(root.string()) != std::string::npos && o.output.find(".csv:") != std::string::npos)
    v = "";
  if (!v.empty() && o.code == 2 && t.whole_file_errors &&
      o.output.find("error: " + in.string() + ": ") != std::string::npos)
    v = "";
  if (v.empty()) fs::remove_all(dir);
  return v;
}

std::string commandLine(const Target& t) { return std::string("gapsim-cli ") + t.args; }

void keepFailure(const Options& opt, const Target& t, const std::string& bytes, const std::string& stem,
                 const std::string& verdict, const std::string& what, const Outcome& o) {
  if (opt.keep.empty()) return;
  const fs::path d = opt.keep / t.name;
  fs::create_directories(d);
  const std::string ext = fs::path(t.rel).extension().string();
  writeFile(d / (stem + ext), bytes);
  std::ofstream info(d / (stem + ".txt"));
  info << "target: " << t.name << "\ncommand: " << commandLine(t) << "\nverdict: " << verdict << "\nmutations: " << what
       << "\nexit code: " << o.code << " signal: " << o.signal << " seconds: " << o.seconds << "\noutput:\n"
       << o.output.substr(0, 4000) << "\n";
}

void report(const Target& t, const std::string& label, const std::string& verdict, const std::string& what,
            const Outcome& o) {
  std::string out = o.output.substr(0, 600);
  std::printf("FAIL %s %s: %s%s%s (%.1f s)\n  command: %s\n  output: %s\n", t.name, label.c_str(), verdict.c_str(),
              what.empty() ? "" : "; mutations: ", what.c_str(), o.seconds, commandLine(t).c_str(), out.c_str());
}

int fuzz(const Options& opt) {
  std::vector<std::size_t> wheel;  // target indices, each as often as its weight
  for (std::size_t i = 0; i < std::size(kTargets); ++i)
    if (opt.only.empty() || std::string(kTargets[i].name).rfind(opt.only, 0) == 0)
      for (int w = 0; w < kTargets[i].weight; ++w) wheel.push_back(i);
  if (wheel.empty()) {
    std::fprintf(stderr, "gapsim-cli-fuzz: no target matches --only %s\n", opt.only.c_str());
    return 2;
  }
  std::map<std::size_t, std::string> seeds;
  Stats st;
  Rng rng{opt.seed};
  const auto t0 = std::chrono::steady_clock::now();
  for (long n = 0;; ++n) {
    if (opt.seconds > 0 ? std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= opt.seconds
                        : n >= opt.runs)
      break;
    const std::size_t ti = wheel[rng.below(wheel.size())];
    const Target& t = kTargets[ti];
    if (!seeds.count(ti)) seeds[ti] = readFile(opt.source / t.root / t.rel);
    std::string what;
    const std::string bytes = mutate(seeds[ti], rng, what);
    Outcome o;
    const std::string v = runOne(opt, t, bytes, n, o);
    ++st.runs;
    ++st.codes[o.signal ? 128 + o.signal : o.code];
    ++st.per_target[t.name];
    if (opt.verbose) std::printf("%ld %s exit %d %.2f s %s\n", n, t.name, o.code, o.seconds, v.c_str());
    if (!v.empty()) {
      ++st.failures;
      report(t, "mutant " + std::to_string(n), v, what, o);
      keepFailure(opt, t, bytes, std::to_string(opt.seed) + "-" + std::to_string(n), v, what, o);
    }
    std::fflush(stdout);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("gapsim-cli-fuzz: seed %llu, %ld mutants in %.0f s over %zu targets; exit codes:",
              static_cast<unsigned long long>(opt.seed), st.runs, s, st.per_target.size());
  for (auto [c, k] : st.codes) std::printf(" %s%d: %ld", c >= 128 ? "signal " : "", c >= 128 ? c - 128 : c, k);
  std::printf("\n%ld passed, %ld failed\n", st.runs - st.failures, st.failures);
  return st.failures ? 1 : 0;
}

int replay(const Options& opt) {
  long runs = 0, failures = 0, n = 0;
  for (const Target& t : kTargets) {
    const fs::path d = opt.replay / t.name;
    if (!fs::is_directory(d)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(d))
      if (e.path().extension() != ".txt" && e.path().extension() != ".md") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      Outcome o;
      const std::string v = runOne(opt, t, readFile(f), n++, o);
      ++runs;
      if (opt.verbose)
        std::printf("%s %s exit %d %.2f s %s\n", t.name, f.filename().c_str(), o.code, o.seconds, v.c_str());
      if (!v.empty()) {
        ++failures;
        report(t, f.filename().string(), v, "", o);
      }
    }
  }
  std::printf("gapsim-cli-fuzz: replayed %ld kept inputs of %s\n%ld passed, %ld failed\n", runs, opt.replay.c_str(),
              runs - failures, failures);
  return failures ? 1 : 0;
}

void usage() {
  std::fprintf(
      stderr,
      "usage: gapsim-cli-fuzz --cli PATH [--source DIR] [--seed N] [--runs N | --seconds S] [--only PREFIX]\n"
      "                       [--keep DIR] [--replay DIR] [--cpu-limit S] [--wall-limit S] [--memory-limit MB]\n"
      "                       [--scratch DIR] [--list] [--verbose]\n");
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--cli")
      opt.cli = value();
    else if (a == "--source")
      opt.source = value();
    else if (a == "--seed")
      opt.seed = std::stoull(value());
    else if (a == "--runs")
      opt.runs = std::stol(value());
    else if (a == "--seconds")
      opt.seconds = std::stod(value());
    else if (a == "--only")
      opt.only = value();
    else if (a == "--keep")
      opt.keep = value();
    else if (a == "--replay")
      opt.replay = value();
    else if (a == "--scratch")
      opt.scratch = value();
    else if (a == "--cpu-limit")
      opt.limits.cpu_s = std::stoi(value());
    else if (a == "--wall-limit")
      opt.limits.wall_s = std::stoi(value());
    else if (a == "--memory-limit")
      opt.limits.memory_mb = std::stol(value());
    else if (a == "--list")
      list = true;
    else if (a == "--verbose")
      opt.verbose = true;
    else {
      usage();
      return 2;
    }
  }
  if (list) {
    for (const Target& t : kTargets) std::printf("%-20s %s/%s: gapsim-cli %s\n", t.name, t.root, t.rel, t.args);
    return 0;
  }
  if (opt.cli.empty()) {
    usage();
    return 2;
  }
  opt.cli = fs::absolute(opt.cli).string();
  opt.source = fs::absolute(opt.source);
  if (opt.scratch.empty()) opt.scratch = fs::temp_directory_path() / ("gapsim_cli_fuzz_" + std::to_string(getpid()));
  fs::create_directories(opt.scratch);
  if (!opt.keep.empty()) opt.keep = fs::absolute(opt.keep);
  signal(SIGPIPE, SIG_IGN);
  const int rc = opt.replay.empty() ? fuzz(opt) : replay(opt);
  std::error_code ec;
  fs::remove_all(opt.scratch, ec);
  return rc;
}
