// SPDX-License-Identifier: BSD-3-Clause
// calib::recordRun (calib/recording_writer.h): the frame clock, the unit of the angle columns, and
// that its recording replays with score 0 on the model that made it (the same steps).
#include "calib/recording_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "calib/recording_replay.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {
namespace {

TEST(RecordRun, FramesAtTheRateInTheAskedUnit) {
  const RobotModel nao = loadRobotFile(resolveRobotFile("nao"));
  const Motion m = loadMotion(robotsDirectory() + "/nao/motions/squat.csv");
  RecordSettings s;
  s.duration_s = 0.5;
  s.frame_rate_hz = 20;
  const Log rad = recordRun(nao, m, s);
  // Frames at 0, 0.05, .., 0.5 s: 0.5 x 20 + 1 = 11 (frame n at the first step at or after n/20 s).
  ASSERT_EQ(rad.rows(), 11u);
  const std::vector<double> t = rad.column("time_s");
  for (std::size_t k = 0; k < t.size(); ++k) EXPECT_NEAR(t[k], 0.05 * static_cast<double>(k), 1e-9);
  s.degrees = true;
  const Log deg = recordRun(nao, m, s);
  // The same run, angles x 180/pi (a deterministic simulation).
  const std::vector<double> a = rad.column("LKneePitch/q_rad"), b = deg.column("LKneePitch/q_deg");
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_DOUBLE_EQ(b[k], a[k] * 180.0 / M_PI);
  EXPECT_TRUE(deg.has("com/z_m"));
  s.duration_s = 1e9;
  EXPECT_THROW(recordRun(nao, m, s), InputError);  // refused before it reaches ODE
  s.duration_s = 1;
  s.frame_rate_hz = NAN;
  EXPECT_THROW(recordRun(nao, m, s), InputError);
}

TEST(RecordRun, ReplaysWithScoreZeroOnItsModel) {
  const RobotModel nao = loadRobotFile(resolveRobotFile("nao"));
  const std::string motion = robotsDirectory() + "/nao/motions/squat.csv";
  RecordSettings s;
  s.duration_s = 2.0;  // the squat holds its pose for 1 s, then bends
  s.frame_rate_hz = 30;
  const Log rec = recordRun(nao, loadMotion(motion), s);
  ReplayTrial t;
  t.name = "nao";
  t.recording = std::make_shared<Log>(rec);
  t.motion = std::make_shared<Motion>(loadMotion(motion));
  t.spec.initial = InitialPoseSource::kRobotFile;
  t.spec.hold = CommandHold::kContinuous;
  t.spec.settle_s = 0.0;
  SignalSpec q;
  q.column = "*/q_rad";
  t.spec.measured = {q};
  ReplayOptions o;
  o.wall = false;
  const ReplayResult same = replayTrial(nao, t, MotorMap{}, o);
  ASSERT_TRUE(same.error.empty()) << same.error;
  EXPECT_GT(same.joints_compared, 10);
  EXPECT_LT(same.score, 1e-20);  // the same steps; only the linear sampling between steps rounds
  // Held at the recorded frames instead of every step: a different command stream, a score > 0.
  t.spec.hold = CommandHold::kFrames;
  const ReplayResult held = replayTrial(nao, t, MotorMap{}, o);
  EXPECT_GT(held.score, 1e-12);
}

}  // namespace
}  // namespace gapsim::calib
