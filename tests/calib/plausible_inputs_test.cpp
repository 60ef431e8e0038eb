// SPDX-License-Identifier: BSD-3-Clause
// A calibration's inputs meet the plausible ranges (sim/plausible.h) before anything runs: a
// scenario of 2^31 s ran for ever, a space bound of 1e-320 handed ODE a subnormal constant.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "calib/objective.h"
#include "calib/parameter_space.h"
#include "calib/recording_replay.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "tests/sim/expect_input_error.h"

namespace gapsim::calib {
namespace {

const std::string kExample = std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_twin";

std::string write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "gapsim_plausible_inputs_test";
  std::filesystem::create_directories(dir);
  const std::string p = (dir / name).string();
  std::ofstream(p) << text;
  return p;
}

TEST(PlausibleInputs, AScenarioDurationBeyondElevenDaysIsRefused) {
  const std::string head = "name,motion,reference,duration_s\n";
  const std::string row = "long," + kExample + "/motions/squat_fast.csv,ref.csv,";
  test::expectInputError([&] { ScenarioSet::load(write("long.csv", head + row + "2147483648\n"), false); }, 2,
                         "duration_s", "duration 2147483648 is outside the accepted range (0, 1e+06] s");
  EXPECT_NO_THROW(ScenarioSet::load(write("fine.csv", head + row + "1.2\n"), false));
}

TEST(PlausibleInputs, SpaceBoundsMeetTheirParametersRanges) {
  const RobotModel nao = loadRobotFile(resolveRobotFile("nao"));
  const std::string head = "name,value,lower,upper,frozen\n";
  test::expectInputError(
      [&] {
        ParameterSpace::load(write("low.csv", head + "legs/typeB/motor/K_e,0.0195,1e-320,0.05,0\n")).checkAgainst(nao);
      },
      2, "legs/typeB/motor/K_e", "lower bound 1e-320 is outside the accepted range 0 or |v| in [1e-06, 1000] V s/rad");
  test::expectInputError(
      [&] { ParameterSpace::load(write("high.csv", head + "legs/soft/D_B,2006.5,700,1e300,0\n")).checkAgainst(nao); },
      2, "legs/soft/D_B", "upper bound 1e+300");
}

TEST(PlausibleInputs, TheShippedSpacesLieInside) {
  const RobotModel nao = loadRobotFile(resolveRobotFile("nao"));
  const RobotModel bioloid = loadRobotFile(resolveRobotFile("bioloid"));
  const std::string src = GAPSIM_SOURCE_DIR;
  EXPECT_NO_THROW(ParameterSpace::load(kExample + "/space.csv").checkAgainst(nao));
  EXPECT_NO_THROW(ParameterSpace::load(src + "/calib/examples/nao_walk_twin/space.csv").checkAgainst(nao));
  EXPECT_NO_THROW(ParameterSpace::load(src + "/robots/bioloid/calibration/loop_space.csv").checkAgainst(bioloid));
}

// Every space and parameter file shipped for the BIOLOID fits the robot file it is made for: the
// *_paper_law ones bioloid_paper_law.urdf (paper 000's servo law), the others bioloid.urdf (the
// identified AX-18A), whose servo parameters have other names.
TEST(PlausibleInputs, EveryShippedBioloidFileFitsItsRobotFile) {
  const std::string dir = std::string(GAPSIM_SOURCE_DIR) + "/robots/bioloid/";
  const RobotModel ax18 = loadRobotFile(dir + "bioloid.urdf");
  const RobotModel paper = loadRobotFile(dir + "bioloid_paper_law.urdf");
  int spaces = 0, params = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir + "calibration")) {
    const std::string path = e.path().string(), name = e.path().filename().string();
    SCOPED_TRACE(name);
    RobotModel robot = name.find("_paper_law") != std::string::npos ? paper : ax18;
    robot.scene_boxes = {authorsWall()};  // the lean calibration moves the replays' wall
    if (e.path().extension() == ".csv") {
      EXPECT_NO_THROW(ParameterSpace::load(path).checkAgainst(robot));
      ++spaces;
    } else if (e.path().extension() == ".params") {
      EXPECT_NO_THROW(loadParameterFile(robot, path));
      ++params;
    }
  }
  EXPECT_EQ(spaces, 4);  // lean_space, loop_space and their paper-law twins
  EXPECT_EQ(params, 6);  // lean_calibrated, twin_hidden, twin_hidden_weak and their paper-law twins
}

}  // namespace
}  // namespace gapsim::calib
