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
using namespace gapsim::test;  // cli_runner.h: the test-support helpers
using Result = CliResult;

const std::string kSrc = GAPSIM_SOURCE_DIR;

/// An empty scratch directory of this test (and process).
fs::path fresh(const std::string& name) {
  return freshDir("gapsim_no_overwrite_" + std::to_string(getpid()) + "/" + name);
}

std::string keep(const fs::path& p) {
  std::ofstream(p) << "keep me\n";
  return p.string();
}

/// Exit 2, the message names `path` and says what to do; the file still holds "keep me".
void expectKept(const Result& r, const std::string& path) {
  EXPECT_TRUE(exitedWith(r, 2, {"error: " + path, "exists; use --force"}));
  EXPECT_EQ(slurp(path), "keep me\n") << "overwritten: " << path;
}

/// `cmd` refuses to replace `path` (expectKept); with --force it does, and the new file holds
/// `part`.
void expectForceReplaces(const std::string& cmd, const std::string& path, const std::string& part = "") {
  expectKept(cli(cmd), path);
  ASSERT_EQ(cli(cmd + " --force").code, 0);
  const std::string text = slurp(path);
  EXPECT_NE(text, "keep me\n") << "not replaced: " << path;
  EXPECT_TRUE(contains(text, part)) << path << ":\n" << text;
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
  EXPECT_TRUE(cliExits("run --robot nao --quiet --duration 0.05 --out " + d.string(), 2, {"is a directory"}));
  const Result ro = cli("run --robot nao --quiet --duration 0.05 --out /proc/gapsim_log.csv");
  EXPECT_TRUE(exitedWith(ro, 2, {"error: /proc/gapsim_log.csv: --out: cannot write into the directory '/proc'"}));
  EXPECT_FALSE(contains(ro.out, "sim_time_s=")) << "the run started: " << ro.out;
  EXPECT_TRUE(cliExits("run --robot nao --quiet --duration 0.05 --out " + out + "/sub/log.csv", 2,
                       {"cannot create the directory", "Not a directory"}));
}

TEST(NoOverwriteCli, ADeviceIsWrittenToWithoutForce) {
  // `--out /dev/null` (a log nobody keeps) replaces nothing: no --force needed.
  EXPECT_TRUE(cliExits("run --robot nao --quiet --duration 0.05 --out /dev/null", 0, {"sim_time_s="}));
}

TEST(NoOverwriteCli, Walk) {
  const fs::path d = fresh("walk");
  const std::string out = keep(d / "walk.csv");
  expectKept(cli("walk --steps 4 --out " + out), out);
  expectForceReplaces("walk --kick --out " + out, out);
}

TEST(NoOverwriteCli, Params) {
  const fs::path d = fresh("params");
  const std::string out = keep(d / "nao.params");
  expectForceReplaces("params nao --out " + out, out, "legs/typeB/motor/K_e");
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
  expectForceReplaces("excite chirp --out " + chirp, chirp, "time_s,u_Nm");
  const std::string leg = keep(d / "leg.csv");
  expectKept(cli("excite leg --out " + leg + " --dof mLS"), leg);
  // a read-only place: exit 2 naming it (was exit 1 "internal error: filesystem error")
  EXPECT_TRUE(cliExits("excite chirp --out /proc/gapsim_dir/chirp.csv", 2,
                       {"error: /proc/gapsim_dir/chirp.csv: --out: cannot create the directory"}));
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
  EXPECT_TRUE(cliExits("identify servo --log " + log + " --out /proc", 2, {"cannot write into the directory '/proc'"}));
  EXPECT_TRUE(cliExits("identify servo --log " + log + " --out " + csv, 2, {"is a file, not a directory"}));
}

TEST(NoOverwriteCli, ReplayOut) {
  const fs::path d = fresh("replay");
  const std::string data = kSrc + "/tests/calib/data/bioloid_lean";
  const std::string prior = keep(d / "0.05-01_sim.csv");
  EXPECT_TRUE(cliExits("replay --recordings " + data + " --trials 0.05-01 --out " + d.string(), 2,
                       {"the directory is not empty; use --force"}));
  EXPECT_EQ(slurp(prior), "keep me\n");
  EXPECT_TRUE(
      cliExits("replay --recordings " + data + " --trials 0.05-01 --out " + prior, 2, {"is a file, not a directory"}));
  EXPECT_TRUE(cliExits("replay --recordings " + data + " --trials 0.05-01 --out /proc --force", 2,
                       {"cannot write into the directory '/proc'"}));
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
  EXPECT_TRUE(cliExits("twin --robot nao" + hidden + " --scenarios " + set, 2,
                       {"twin never writes into the scenario set it reads"}));
  EXPECT_EQ(slurp(ref), "keep me\n");
  expectKept(cli("twin --robot nao" + hidden + " --scenarios " + set + " --out " + (d / "reference").string()), ref);
  EXPECT_TRUE(cliExits("twin --robot nao" + hidden + " --scenarios " + set + " --out " + ref, 2,
                       {"is a file, not a directory"}));
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
  EXPECT_TRUE(exitedWith(r, 2, {"is a file, not a directory"}));
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
  EXPECT_TRUE(cliExits("twin --robot nao --scenarios " + set + " --out " + (d / "out").string(), 2,
                       {"set.csv:2: motion", "moti\\0on_after_nul.csv"}));
}

}  // namespace
