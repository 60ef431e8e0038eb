// SPDX-License-Identifier: BSD-3-Clause
// No command overwrites an existing output without --force, and where a command writes is checked
// before its work starts (app/cli/output_paths.h): an existing file is refused with exit 2 and left
// as it was, --force replaces it; a directory given for a file, a file given for a directory and a
// directory that cannot be written are exit 2 with the path (they were "results directory is not
// empty" or exit 1 "internal error: filesystem error" after the work). `twin` never writes into the
// scenario set it reads. One test per command.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/app/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using gapsim::test::cli;
using gapsim::test::contains;
using gapsim::test::slurp;
using Result = gapsim::test::CliResult;

const std::string kSrc = GAPSIM_SOURCE_DIR;

/// An empty scratch directory of this test (and process).
fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("gapsim_no_overwrite_" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string keep(const fs::path& p) {
  std::ofstream(p) << "keep me\n";
  return p.string();
}

/// Exit 2, the message names `path` and says what to do; the file still holds "keep me".
void expectKept(const Result& r, const std::string& path) {
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "error: " + path)) << r.out;
  EXPECT_TRUE(contains(r.out, "exists; use --force")) << r.out;
  EXPECT_EQ(slurp(path), "keep me\n") << "overwritten: " << path;
}

TEST(NoOverwriteCli, Run) {
  const fs::path d = fresh("run");
  const std::string out = keep(d / "log.csv");
  const std::string cmd = "run --robot nao --quiet --duration 0.05 --out " + out;
  expectKept(cli(cmd), out);
  const Result r = cli(cmd + " --force");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(slurp(out).rfind("time_s,", 0), 0u);
  // a directory for the log, and a place that cannot be written: said before the run
  const Result dir = cli("run --robot nao --quiet --duration 0.05 --out " + d.string());
  EXPECT_EQ(dir.code, 2) << dir.out;
  EXPECT_TRUE(contains(dir.out, "is a directory")) << dir.out;
  const Result ro = cli("run --robot nao --quiet --duration 0.05 --out /proc/gapsim_log.csv");
  EXPECT_EQ(ro.code, 2) << ro.out;
  EXPECT_TRUE(contains(ro.out, "error: /proc/gapsim_log.csv: --out: cannot write into the directory '/proc'"))
      << ro.out;
  EXPECT_FALSE(contains(ro.out, "sim_time_s=")) << "the run started: " << ro.out;
  const Result under_file = cli("run --robot nao --quiet --duration 0.05 --out " + out + "/sub/log.csv");
  EXPECT_EQ(under_file.code, 2) << under_file.out;
  EXPECT_TRUE(contains(under_file.out, "cannot create the directory")) << under_file.out;
  EXPECT_TRUE(contains(under_file.out, "Not a directory")) << under_file.out;
}

TEST(NoOverwriteCli, ADeviceIsWrittenToWithoutForce) {
  // `--out /dev/null` (a log nobody keeps) replaces nothing: no --force needed.
  const Result r = cli("run --robot nao --quiet --duration 0.05 --out /dev/null");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "sim_time_s=")) << r.out;
}

TEST(NoOverwriteCli, Walk) {
  const fs::path d = fresh("walk");
  const std::string out = keep(d / "walk.csv");
  expectKept(cli("walk --steps 4 --out " + out), out);
  expectKept(cli("walk --kick --out " + out), out);
  ASSERT_EQ(cli("walk --kick --out " + out + " --force").code, 0);
  EXPECT_NE(slurp(out), "keep me\n");
}

TEST(NoOverwriteCli, Params) {
  const fs::path d = fresh("params");
  const std::string out = keep(d / "nao.params");
  expectKept(cli("params nao --out " + out), out);
  ASSERT_EQ(cli("params nao --out " + out + " --force").code, 0);
  EXPECT_TRUE(contains(slurp(out), "legs/typeB/motor/K_e"));
}

TEST(NoOverwriteCli, Rise) {
  const fs::path d = fresh("rise");
  const std::string out = keep(d / "rise.csv");
  const Result r = cli("rise --task lean --controller " + kSrc + "/robots/bioloid/controllers/lean.csv --out " + out);
  expectKept(r, out);
  EXPECT_FALSE(contains(r.out, "result")) << "the rise ran before the refusal: " << r.out;
}

TEST(NoOverwriteCli, ExciteChirpAndLeg) {
  const fs::path d = fresh("excite");
  const std::string chirp = keep(d / "chirp.csv");
  expectKept(cli("excite chirp --out " + chirp), chirp);
  ASSERT_EQ(cli("excite chirp --out " + chirp + " --force").code, 0);
  EXPECT_TRUE(contains(slurp(chirp), "time_s,u_Nm"));
  const std::string leg = keep(d / "leg.csv");
  expectKept(cli("excite leg --out " + leg + " --dof mLS"), leg);
  // a read-only place: exit 2 naming it (was exit 1 "internal error: filesystem error")
  const Result ro = cli("excite chirp --out /proc/gapsim_dir/chirp.csv");
  EXPECT_EQ(ro.code, 2) << ro.out;
  EXPECT_TRUE(contains(ro.out, "error: /proc/gapsim_dir/chirp.csv: --out: cannot create the directory")) << ro.out;
}

TEST(NoOverwriteCli, OptimizeController) {
  const fs::path d = fresh("optimize");
  const std::string out = keep(d / "lean.csv");
  const Result r = cli("optimize-controller --task lean --generations 1 --population 2 --workers 1 --out " + out);
  expectKept(r, out);
  EXPECT_FALSE(fs::exists(out + ".run")) << "the results directory was made before the refusal";
}

TEST(NoOverwriteCli, IdentifyServo) {
  const fs::path d = fresh("identify_servo");
  const std::string log = kSrc + "/tests/calib/data/ankle_r_foot_slope32.csv";
  const std::string csv = keep(d / "ankle_r_foot_slope32_servo_id.csv");
  const Result r = cli("identify servo --log " + log + " --out " + d.string());
  expectKept(r, csv);
  EXPECT_FALSE(contains(r.out, "kp =")) << "identified before the refusal: " << r.out;
  const Result ro = cli("identify servo --log " + log + " --out /proc");
  EXPECT_EQ(ro.code, 2) << ro.out;
  EXPECT_TRUE(contains(ro.out, "cannot write into the directory '/proc'")) << ro.out;
  const Result file = cli("identify servo --log " + log + " --out " + csv);
  EXPECT_EQ(file.code, 2) << file.out;
  EXPECT_TRUE(contains(file.out, "is a file, not a directory")) << file.out;
}

TEST(NoOverwriteCli, ReplayOut) {
  const fs::path d = fresh("replay");
  const std::string data = kSrc + "/tests/calib/data/bioloid_lean";
  const std::string prior = keep(d / "0.05-01_sim.csv");
  const Result r = cli("replay --recordings " + data + " --trials 0.05-01 --out " + d.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "the directory is not empty; use --force")) << r.out;
  EXPECT_EQ(slurp(prior), "keep me\n");
  const Result f = cli("replay --recordings " + data + " --trials 0.05-01 --out " + prior);
  EXPECT_EQ(f.code, 2) << f.out;
  EXPECT_TRUE(contains(f.out, "is a file, not a directory")) << f.out;
  const Result ro = cli("replay --recordings " + data + " --trials 0.05-01 --out /proc --force");
  EXPECT_EQ(ro.code, 2) << ro.out;
  EXPECT_TRUE(contains(ro.out, "cannot write into the directory '/proc'")) << ro.out;
  const Result ok = cli("replay --recordings " + data + " --trials 0.05-01 --out " + d.string() + " --force");
  ASSERT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(slurp(prior), "keep me\n");
}

TEST(NoOverwriteCli, TwinNeverWritesIntoItsSet) {
  // A copy of the twin example's set with the example's (shipped) reference logs beside it.
  const fs::path d = fresh("twin");
  const std::string ex = kSrc + "/calib/examples/nao_twin";
  fs::copy(ex + "/scenarios.csv", d / "scenarios.csv");
  fs::create_directory_symlink(ex + "/motions", d / "motions");
  fs::create_directory(d / "reference");
  const std::string ref = keep(d / "reference" / "squat_fast.csv");
  const std::string set = (d / "scenarios.csv").string(), hidden = " --params " + ex + "/hidden.params";
  // without --out it used to overwrite the set's reference logs
  const Result none = cli("twin --robot nao" + hidden + " --scenarios " + set);
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_TRUE(contains(none.out, "twin never writes into the scenario set it reads")) << none.out;
  EXPECT_EQ(slurp(ref), "keep me\n");
  expectKept(cli("twin --robot nao" + hidden + " --scenarios " + set + " --out " + (d / "reference").string()), ref);
  const Result file = cli("twin --robot nao" + hidden + " --scenarios " + set + " --out " + ref);
  EXPECT_EQ(file.code, 2) << file.out;
  EXPECT_TRUE(contains(file.out, "is a file, not a directory")) << file.out;
  const Result ok = cli("twin --robot nao" + hidden + " --scenarios " + set + " --out " + (d / "logs").string());
  ASSERT_EQ(ok.code, 0) << ok.out;
  EXPECT_TRUE(fs::exists(d / "logs" / "squat_slow.csv"));
  EXPECT_EQ(slurp(ref), "keep me\n");
}

TEST(NoOverwriteCli, CalibrateOutNamingAFileSaysSo) {
  const fs::path d = fresh("calibrate");
  const std::string file = keep(d / "results");
  const std::string ex = kSrc + "/calib/examples/nao_twin";
  const Result r = cli("calibrate --robot nao --space " + ex + "/space.csv --scenarios " + ex +
                       "/scenarios.csv --generations 1 --lambda 2 --backend serial --out " + file);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "is a file, not a directory")) << r.out;
  EXPECT_FALSE(contains(r.out, "not empty")) << r.out;
  EXPECT_EQ(slurp(file), "keep me\n");
}

TEST(NoOverwriteCli, ANulByteInAPathDoesNotCutTheMessage) {
  // A scenario set whose motion path holds a NUL byte: the message goes on after it.
  const fs::path d = fresh("nul");
  const std::string set = (d / "set.csv").string();
  {
    std::ofstream f(set, std::ios::binary);
    f << "name,motion,reference,duration_s\nx,moti";
    f.put('\0');
    f << "on_after_nul.csv,ref.csv,1\n";
  }
  const Result r = cli("twin --robot nao --scenarios " + set + " --out " + (d / "out").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "set.csv:2: motion")) << r.out;
  EXPECT_TRUE(contains(r.out, "moti\\0on_after_nul.csv")) << r.out;
}

}  // namespace
