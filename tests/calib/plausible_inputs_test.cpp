// SPDX-License-Identifier: BSD-3-Clause
// A calibration's inputs meet the plausible ranges (sim/plausible.h) before anything runs: a
// scenario of 2^31 s ran for ever, a space bound of 1e-320 handed ODE a subnormal constant.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "calib/objective.h"
#include "calib/parameter_space.h"
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

}  // namespace
}  // namespace gapsim::calib
