// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test fixture: the BIOLOID identification rig (one AX joint, r_foot, gravity off) with its servo
// declared as the voltage-domain drive of an AX-18, as a user would write it in a robot file.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/robot_model.h"
#include "sim/urdf_parser.h"

namespace gapsim::test {

/// The rig's URDF with type="dynamixel" turned into the AX-18 voltage drive, written to
/// <tmp>/<file_name> (each test its own name: the suites run in parallel) and loaded.
inline RobotModel loadVoltageRig(const std::string& file_name) {
  std::ifstream in(std::string(GAPSIM_SOURCE_DIR) + "/robots/bioloid/identification/ankle_r_foot.urdf");
  std::stringstream text;
  text << in.rdbuf();
  std::string urdf = text.str();
  const std::string from = "type=\"dynamixel\"";
  urdf.replace(urdf.find(from), from.size(), "type=\"dynamixel_voltage\" preset=\"AX-18\"");
  const auto path = std::filesystem::temp_directory_path() / file_name;
  std::ofstream(path) << urdf;
  return loadRobotFile(path.string());
}

}  // namespace gapsim::test
