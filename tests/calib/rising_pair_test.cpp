// SPDX-License-Identifier: BSD-3-Clause
// Rising-task (commanded motion, recording) pairs of the sim-to-reality loop and the twin that
// records them: the commanded motion CSV is the keyframe controller exactly, the twin's recording
// is in the real-data dialect and deterministic, its tilt is the acos of the rotation it records,
// a replay of the pair on the twin's own parameters reproduces the recording (only sensor noise
// and the start from the recorded pose differ) far better than the shipped model does, the
// outcome rule, and recording errors naming file, line and column.
#include "calib/rising_pair.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "calib/recording_replay.h"
#include "calib/rising_twin.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;

namespace fs = std::filesystem;

std::shared_ptr<RobotModel> bioloid() {
  return std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("bioloid")));
}

MotorMap motorMap() { return MotorMap::read(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/motor_map.csv"); }

std::string tmp(const std::string& name) {
  const std::string d = (fs::temp_directory_path() / ("gapsim_rising_pair_" + std::to_string(::getpid()))).string();
  fs::create_directories(d);
  return d + "/" + name;
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
}

/// Two keyframes on the lean task, short.
KeyframeController shortLean() {
  return KeyframeController({"thigh", "shin", "heel"}, {{0.2, {-0.3, 1.2, -0.6}, 0}, {0.25, {-0.5, 1.0, -0.5}, 0}});
}

}  // namespace

TEST(RisingPair, CommandedMotionIsTheControllerAtEveryTime) {
  const auto model = bioloid();
  const RisingTask task = makeRisingTask("lean", *model);
  const KeyframeController ctrl = shortLean();
  const std::string path = tmp("cmd.csv");
  writeText(path, commandedMotionCsv(task, ctrl));
  const Motion m = loadMotion(path);
  ASSERT_EQ(m.joints(), realDataJoints());
  ASSERT_EQ(m.frameCount(), 3u);  // t = 0, 0.2, 0.45
  std::vector<double> q, v;
  for (double t : {0.0, 0.05, 0.2, 0.31, 0.45, 0.9}) {
    ctrl.targets(task.legs, task.start_q, t, q);
    m.sampleAll(t, v);
    for (std::size_t c = 0; c < v.size(); ++c)
      EXPECT_NEAR(v[c], q[static_cast<std::size_t>(model->jointIndex(m.joints()[c]))], 1e-8)
          << m.joints()[c] << " t " << t;
  }
}

/// The twin (hidden parameters) records the short lean once for the tests below.
class RisingTwinPair : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    model_ = bioloid();
    hidden_ = std::make_shared<RobotModel>(*model_);
    loadParameterFile(*hidden_, std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/calibration/twin_hidden.params");
    task_ = std::make_unique<RisingTask>(makeRisingTask("lean", *model_));
    hidden_task_ = std::make_unique<RisingTask>(makeRisingTask("lean", *hidden_));
    writeText(cmd_, commandedMotionCsv(*task_, shortLean()));
    motion_ = std::make_unique<Motion>(loadMotion(cmd_));
    horizon_s_ = shortLean().duration_s() + 1.0;
    run_ = std::make_unique<RisingTwinRun>(runRisingTwin(*hidden_task_, *motion_, motorMap(), horizon_s_, settings_));
  }
  static void TearDownTestSuite() {
    run_.reset();
    motion_.reset();
    hidden_task_.reset();
    task_.reset();
    hidden_.reset();
    model_.reset();
  }
  static inline std::shared_ptr<RobotModel> model_, hidden_;
  static inline std::unique_ptr<RisingTask> task_, hidden_task_;
  static inline const std::string cmd_ = tmp("twin_cmd.csv");
  static inline std::unique_ptr<Motion> motion_;
  static inline double horizon_s_ = 0;
  static inline RisingTwinSettings settings_;
  static inline std::unique_ptr<RisingTwinRun> run_;
};

TEST_F(RisingTwinPair, RecordsTheRealDialectDeterministically) {
  EXPECT_NEAR(hidden_->totalMass_kg(), 1.5, 1e-3);  // the twin: 1.5 kg
  const RisingTask& hidden_task = *hidden_task_;
  const Motion& motion = *motion_;
  const double horizon = horizon_s_;
  const RisingTwinSettings& s = settings_;
  const RisingTwinRun& a = *run_;
  const RisingTwinRun b = runRisingTwin(hidden_task, motion, motorMap(), horizon, s);
  ASSERT_FALSE(a.diverged) << a.error;
  EXPECT_EQ(a.recording.toCsv(), b.recording.toCsv());
  EXPECT_EQ(a.recording.columns(), realRecordingColumns());
  const auto t = a.recording.column("time_s");
  EXPECT_DOUBLE_EQ(t.front(), 0.0);
  EXPECT_NEAR(t.back(), horizon, 1e-9);
  // Frame periods within 1/60 s +- 3 ms, +- the 1 ms step grid the frames fall on.
  for (std::size_t k = 1; k + 1 < t.size(); ++k) {
    EXPECT_GE(t[k] - t[k - 1], 1.0 / 60 - 0.003 - 0.001 - 1e-9);
    EXPECT_LE(t[k] - t[k - 1], 1.0 / 60 + 0.003 + 0.001 + 1e-9);
  }
  // Tilt = acos(R_zz) of the recorded rotation vector (the data package's definition).
  for (std::size_t r = 0; r < a.recording.rows(); r += 17) {
    const Eigen::Vector3d rv(a.recording.at(r, a.recording.columnIndex("torso/rotvec_x")),
                             a.recording.at(r, a.recording.columnIndex("torso/rotvec_y")),
                             a.recording.at(r, a.recording.columnIndex("torso/rotvec_z")));
    const Eigen::Matrix3d R = Eigen::AngleAxisd(rv.norm(), rv.normalized()).toRotationMatrix();
    EXPECT_NEAR(std::acos(R(2, 2)), a.recording.at(r, a.recording.columnIndex("torso/tilt_rad")), 1e-9);
  }
  // A different noise seed gives a different recording.
  RisingTwinSettings s2 = s;
  s2.noise_seed = 2;
  EXPECT_NE(runRisingTwin(hidden_task, motion, motorMap(), horizon, s2).recording.toCsv(), a.recording.toCsv());
}

/// The pair replayed on the hidden parameters matches the recording far better than on the model.
TEST_F(RisingTwinPair, ItsReplayMatchesTheHiddenModel) {
  const auto& model = model_;
  const auto& hidden = hidden_;
  const RisingTask& task = *task_;
  const std::string& cmd = cmd_;
  const RisingTwinRun& a = *run_;
  ASSERT_FALSE(a.diverged) << a.error;
  const std::string rec = tmp("twin_rec.csv");
  a.recording.write(rec);
  const ReplayTrial trial = risingPairTrial("lean", task, cmd, rec);
  ASSERT_TRUE(trial.has_scene);
  ASSERT_EQ(trial.scene.size(), 1u);
  EXPECT_EQ(trial.scene[0].name, "wall");
  ReplayOptions o;
  o.wall = false;
  const ReplayResult on_hidden = replayTrial(*hidden, trial, motorMap(), o);
  const ReplayResult on_model = replayTrial(*model, trial, motorMap(), o);
  ASSERT_TRUE(on_hidden.error.empty()) << on_hidden.error;
  ASSERT_TRUE(on_model.error.empty()) << on_model.error;
  EXPECT_LT(on_hidden.rms_rad, 0.02);
  EXPECT_LT(on_hidden.rms_rad, 0.5 * on_model.rms_rad);

  // The encoder term E_q: the recording's 16 joints; on the hidden parameters only the encoders'
  // whole ticks (uniform rounding, RMS 1 tick / sqrt(12) per joint) and the start from the
  // recorded pose remain, so E_q stays within a few times 16 (tick^2 / 12) x the span. The gains
  // alone (the hidden model with the default servos: same mass and COMs) already give a tracking
  // error several times larger: the term tells the gains, which the tilt hardly does. The gains
  // are the servos' stall torque, which scales every torque of the drive.
  EXPECT_EQ(on_hidden.joints_compared, 16);
  const double tick = 5 * M_PI / 3 / 1024;  // motor_map.csv: (5 pi / 3) / 1024 rad per tick
  const double span = on_hidden.time_s.back() - on_hidden.time_s.front();
  const double quantisation = 16 * tick * tick / 12 * span;
  EXPECT_LT(on_hidden.E_joint_rad2_s, 5 * quantisation) << "quantisation floor " << quantisation;
  RobotModel gains_default = *hidden;
  for (auto& [name, v] :  // bioloid.urdf's values
       {std::pair<std::string, double>{"servos/servo/stall_torque", 1.8}, {"servos/servo/friction/tau_c", 0.06}})
    setParameter(gains_default, name, v);
  const ReplayResult on_gains = replayTrial(gains_default, trial, motorMap(), o);
  ASSERT_TRUE(on_gains.error.empty()) << on_gains.error;
  std::printf(
      "E_q: hidden %.3g, hidden with default gains %.3g, shipped model %.3g rad^2 s (floor %.3g); tilt E %.3g %.3g "
      "%.3g\n",
      on_hidden.E_joint_rad2_s, on_gains.E_joint_rad2_s, on_model.E_joint_rad2_s, quantisation, on_hidden.E_rad2_s,
      on_gains.E_rad2_s, on_model.E_rad2_s);
  EXPECT_GT(on_gains.E_joint_rad2_s, 3 * on_hidden.E_joint_rad2_s);
  EXPECT_GT(on_model.E_joint_rad2_s, 3 * on_hidden.E_joint_rad2_s);

  // ReplayProblem scores a trial E + W E_q (W = 0: the tilt alone, paper 002).
  ParameterSpace none;
  ReplaySet set;
  set.trials = {trial};
  ReplayOptions ow = o;
  ow.joint_weight = 7.0;
  const EvalResult tilt_only = ReplayProblem(hidden, none, set, motorMap(), o).evaluate(Eigen::VectorXd());
  const EvalResult with_q = ReplayProblem(hidden, none, set, motorMap(), ow).evaluate(Eigen::VectorXd());
  EXPECT_DOUBLE_EQ(tilt_only.fitness, on_hidden.E_rad2_s);
  EXPECT_DOUBLE_EQ(with_q.fitness, on_hidden.E_rad2_s + 7.0 * on_hidden.E_joint_rad2_s);
}

TEST(RisingPair, OutcomeIsTheLastFrameAgainstTheTaskThresholds) {
  const RisingTask task = makeRisingTask("sit", *bioloid());
  Log rec(realRecordingColumns());
  std::vector<double> row(rec.cols(), 0.0);
  const int ti = rec.columnIndex("torso/tilt_rad"), zi = rec.columnIndex("torso/z_m");
  auto add = [&](double t, double tilt, double z) {
    row[0] = t;
    row[static_cast<std::size_t>(ti)] = tilt;
    row[static_cast<std::size_t>(zi)] = z;
    rec.appendRow(row);
  };
  add(0.0, 0.5, 0.24);
  add(1.0, 0.9, 0.26);
  add(2.0, 0.19, 0.26);
  RealityOutcome o = realityOutcome(rec, task, 1.0);
  EXPECT_TRUE(o.upright);
  EXPECT_TRUE(o.complete);
  EXPECT_DOUBLE_EQ(o.max_tilt_rad, 0.9);
  EXPECT_FALSE(realityOutcome(rec, task, 1.5).complete);  // ends before T + 1
  add(3.0, 0.19, 0.24);                                   // upright but still seated
  EXPECT_FALSE(realityOutcome(rec, task, 1.0).upright);
  add(4.0, 0.21, 0.30);  // high but tilted
  EXPECT_FALSE(realityOutcome(rec, task, 1.0).upright);
}

TEST(RisingPair, BadRecordingsNameFileLineAndColumn) {
  const std::string no_col = tmp("no_col.csv");
  writeText(no_col, "time_s,torso/tilt_rad\n0,0.1\n0.1,0.1\n");
  EXPECT_TRUE(throwsSaying<InputError>([&] { readRisingRecording(no_col); }, {"no_col.csv", "torso/pitch_signed_rad"}));
  Log rec(realRecordingColumns());
  std::vector<double> row(rec.cols(), 0.0);
  rec.appendRow(row);
  row[0] = 0.1;
  rec.appendRow(row);
  rec.appendRow(row);  // time repeats on data line 3 = file line 4
  const std::string rep = tmp("repeat.csv");
  rec.write(rep);
  EXPECT_TRUE(throwsSaying<InputError>([&] { readRisingRecording(rep); }, {"repeat.csv:4: time_s"}));
}
