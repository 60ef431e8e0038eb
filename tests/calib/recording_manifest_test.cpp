// SPDX-License-Identifier: BSD-3-Clause
// The recording manifest (calib/recording_manifest.h): a valid manifest reads into the structs
// with defaults inherited and units converted; every malformed one names file:line: field and
// the bad value; the lean-to-stand layout reads into the same structs.
#include "calib/recording_manifest.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "calib/recording_replay.h"
#include "sim/input_error.h"

namespace gapsim::calib {
namespace {

namespace fs = std::filesystem;

const std::string kData = GAPSIM_SOURCE_DIR "/tests/calib/data/bioloid_lean";

class Manifest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gapsim_manifest_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("rec.csv", "time_s,torso/tilt_deg,l_knee/q_rad\n0,1,0.1\n0.1,2,0.2\n");
    write("cmd.csv", "time_s,l_knee\n0,0.1\n1,0.2\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  RecordingManifest parse(const std::string& text) {
    write("recordings.json", text);
    return loadRecordings(dir_.string());
  }
  fs::path dir_;
};

// A minimal valid trial; the cases below break one thing each.
const std::string kTrial =
    R"({"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg", "unit": "deg"}]})";

TEST_F(Manifest, ReadsTrialsWithDefaultsAndUnits) {
  const RecordingManifest m = parse(R"({
  "format": "gapsim-recordings 1",
  "defaults": {"robot": "bioloid", "commands": {"hold": "rate", "rate_hz": 50, "sent_as": "dynamixel_ticks"},
               "initial_pose": {"settle_s": 0.25}, "role": "validate"},
  "trials": [
    )" + kTrial + R"(,
    {"name": "second", "recording": "rec.csv", "commands": {"file": "cmd.csv", "hold": "rows"}, "role": "test",
     "tags": ["squat", "sim"], "signals": [{"column": "*/q_rad", "weight": 2.5}],
     "scene": {"boxes": [{"name": "seat", "size_m": [0.1, 0.2, 0.05], "center_m": [0, 0, 0.025]}]}}
  ]
})");
  ASSERT_EQ(m.trials.size(), 2u);
  const ManifestTrial& a = m.trials[0];
  EXPECT_EQ(a.name, "rec");  // the recording's stem
  EXPECT_EQ(a.robot, "bioloid");
  EXPECT_EQ(a.hold, CommandHold::kRate);
  EXPECT_DOUBLE_EQ(a.rate_hz, 50);
  EXPECT_TRUE(a.whole_ticks);
  EXPECT_EQ(a.role, "validate");
  ASSERT_TRUE(a.settle_s.has_value());
  EXPECT_DOUBLE_EQ(*a.settle_s, 0.25);
  EXPECT_DOUBLE_EQ(a.measured[0].scale_to_si, M_PI / 180.0);  // deg -> rad
  EXPECT_EQ(fs::path(a.recording), dir_ / "rec.csv");         // relative to the manifest
  const ManifestTrial& b = m.trials[1];
  EXPECT_EQ(b.hold, CommandHold::kRows);  // the trial's key wins inside a merged object
  EXPECT_TRUE(b.whole_ticks);             // the default's other keys stay
  EXPECT_EQ(b.role, "test");
  EXPECT_EQ(b.tags, (std::vector<std::string>{"squat", "sim"}));
  EXPECT_DOUBLE_EQ(b.measured[0].weight, 2.5);
  ASSERT_EQ(b.scene_boxes.size(), 1u);
  EXPECT_DOUBLE_EQ(b.scene_boxes[0].size_m.y(), 0.2);
}

TEST(ManifestUnits, ColumnSuffixNamesTheUnit) {
  EXPECT_EQ(unitOfColumn("torso/tilt_deg"), "deg");
  EXPECT_EQ(unitOfColumn("l_knee/qd_deg_s"), "deg_s");
  EXPECT_EQ(unitOfColumn("l_foot/contact"), "");
  EXPECT_EQ(siColumnName("torso/tilt_deg"), "torso/tilt_rad");
  EXPECT_EQ(siColumnName("torso/z_mm"), "torso/z_m");
  EXPECT_EQ(siColumnName("com/z_m"), "com/z_m");
  EXPECT_DOUBLE_EQ(unitScaleToSi("mm"), 1e-3);
  EXPECT_TRUE(std::isnan(unitScaleToSi("furlong")));
}

struct BadCase {
  const char* what;
  std::string text;
  int line;
  std::string field;
  std::string value;  ///< quoted in the message
};

/// Long on purpose: a table of malformed manifests (data, a case per entry) and one loop that
/// checks each error names file, line, field and value.
TEST_F(Manifest, MalformedManifestsNameFileLineFieldAndValue) {
  const std::string head = "{\n  \"format\": \"gapsim-recordings 1\",\n  \"trials\": [\n";
  auto one = [&](const std::string& trial) { return head + trial + "\n  ]\n}\n"; };  // the trial is on line 4
  const std::vector<BadCase> cases = {
      {"syntax: missing comma", "{\n  \"format\": \"gapsim-recordings 1\"\n  \"trials\": []\n}", 3, "json", ""},
      {"not an object", "[1, 2]", 1, "manifest", "[1,2]"},
      {"format missing", "{\n  \"trials\": [" + kTrial + "]\n}", 1, "format", ""},
      {"format wrong", "{\n  \"format\": \"gapsim-recordings 2\",\n  \"trials\": [" + kTrial + "]\n}", 2, "format",
       "gapsim-recordings 2"},
      {"trials empty", head + "  ]\n}", 3, "trials", "[]"},
      {"unknown top field", "{\n  \"format\": \"gapsim-recordings 1\",\n  \"trails\": []\n}", 3, "trails", "trails"},
      {"trial not an object", one("    42"), 4, "trials[0]", "42"},
      {"recording missing", one(R"(    {"commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg"}]})"),
       4, "trials[0].recording", ""},
      {"recording absent",
       one(R"(    {"recording": "nope.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg"}]})"),
       4, "trials[0].recording", "nope.csv"},
      {"unknown trial field", one(R"(    {"recordng": "rec.csv"})"), 4, "trials[0].recordng", "recordng"},
      {"commands missing", one(R"(    {"recording": "rec.csv", "signals": [{"column": "torso/tilt_deg"}]})"), 4,
       "trials[0].commands", ""},
      {"hold unknown",
       one("    {\"recording\": \"rec.csv\",\n     \"commands\": {\"file\": \"cmd.csv\", \"hold\": \"bogus\"}, "
           "\"signals\": [{\"column\": \"torso/tilt_deg\"}]}"),
       5, "trials[0].commands.hold", "bogus"},
      {"rate without rate_hz",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv", "hold": "rate"}, "signals": [{"column": "torso/tilt_deg"}]})"),
       4, "trials[0].commands.rate_hz", ""},
      {"absurd rate",
       one("    {\"recording\": \"rec.csv\", \"commands\": {\"file\": \"cmd.csv\", \"hold\": \"rate\",\n      "
           "\"rate_hz\": 1e308}, \"signals\": [{\"column\": \"torso/tilt_deg\"}]}"),
       5, "trials[0].commands.rate_hz", "1e+308"},
      {"command units",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv", "units": "grad"}, "signals": [{"column": "torso/tilt_deg"}]})"),
       4, "trials[0].commands.units", "grad"},
      {"ticks sent continuously",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv", "hold": "continuous", "sent_as": "dynamixel_ticks"}, "signals": [{"column": "torso/tilt_deg"}]})"),
       4, "trials[0].commands.sent_as", "dynamixel_ticks"},
      {"unit against column name",
       one("    {\"recording\": \"rec.csv\", \"commands\": {\"file\": \"cmd.csv\"},\n     \"signals\": [\n       "
           "{\"column\": \"torso/tilt_deg\", \"unit\": \"rad\"}]}"),
       6, "trials[0].signals[0].unit", "rad"},
      {"unknown unit",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "x/len_furlong", "unit": "furlong"}]})"),
       4, "trials[0].signals[0].unit", "furlong"},
      {"negative weight",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg", "weight": -1}]})"),
       4, "trials[0].signals[0].weight", "-1"},
      {"no signals", one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": []})"), 4,
       "trials[0].signals", "[]"},
      {"role",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg"}], "role": "training"})"),
       4, "trials[0].role", "training"},
      {"absurd settle",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg"}], "initial_pose": {"settle_s": 1e9}})"),
       4, "trials[0].initial_pose.settle_s", "1000000000.0"},
      {"explicit without values",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg"}], "initial_pose": {"from": "explicit"}})"),
       4, "trials[0].initial_pose.from", "explicit"},
      {"box of negative size",
       one(R"(    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "signals": [{"column": "torso/tilt_deg"}], "scene": {"boxes": [{"size_m": [0.1, -1, 0.1], "center_m": [0, 0, 0]}]}})"),
       4, "trials[0].scene.boxes[0].size_m[1]", "-1"},
      {"duplicate name", head + "    " + kTrial + ",\n    " + kTrial + "\n  ]\n}\n", 5, "trials[1]", "rec"},
      {"bad default, located in defaults",
       "{\n  \"format\": \"gapsim-recordings 1\",\n  \"defaults\": {\n    \"commands\": {\"hold\": \"sometimes\"}\n  "
       "},\n  \"trials\": [" +
           kTrial + "]\n}",
       4, "defaults.commands.hold", "sometimes"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.what);
    try {
      parse(c.text);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(e.file(), (dir_ / "recordings.json").string()) << msg;
      EXPECT_EQ(e.line(), c.line) << msg;
      EXPECT_EQ(e.field().rfind(c.field, 0), 0u) << msg;  // the field (a duplicate names trials[1].name)
      if (!c.value.empty()) {
        EXPECT_NE(msg.find("'" + c.value + "'"), std::string::npos) << msg;
      }
      EXPECT_NE(msg.find(":" + std::to_string(c.line) + ": "), std::string::npos) << msg;
    }
  }
  EXPECT_GE(cases.size(), 20u);
}

TEST_F(Manifest, ASignalTheRecordingLacksIsNamedWithTheRecording) {
  const RecordingManifest m = parse(R"({"format": "gapsim-recordings 1", "trials": [
    {"recording": "rec.csv", "commands": {"file": "cmd.csv"}, "initial_pose": {"from": "robot"},
     "signals": [{"column": "torso/roll_rad"}]}]})");
  try {
    ReplaySet::fromManifest(m);
    ADD_FAILURE() << "accepted a signal the recording lacks";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), (dir_ / "rec.csv").string());
    EXPECT_EQ(e.field(), "torso/roll_rad");
  }
}

TEST(LegacyLayout, ReadsIntoTheSameManifest) {
  const RecordingManifest m = loadRecordings(kData);
  ASSERT_FALSE(m.trials.empty());
  EXPECT_TRUE(m.authors_wall);
  const ManifestTrial& t = m.trials.front();
  EXPECT_EQ(t.initial, InitialPoseSource::kFirstFrame);
  EXPECT_EQ(t.hold, CommandHold::kFrames);
  EXPECT_TRUE(t.whole_ticks);
  ASSERT_EQ(t.measured.size(), 2u);
  EXPECT_EQ(t.measured[0].column, "torso/tilt_rad");
  EXPECT_EQ(t.measured[1].column, "*/q_rad");
  EXPECT_DOUBLE_EQ(t.measured[1].weight, 0.0);
  EXPECT_NE(t.commands.find("0.05.csv"), std::string::npos);
  EXPECT_THROW(loadRecordings(kData + "/motions"), InputError);  // neither layout
}

}  // namespace
}  // namespace gapsim::calib
