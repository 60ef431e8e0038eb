// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer targets of gapsim's parsers, built only with clang and
// -DGAPSIM_LIBFUZZER=ON (scripts/fuzz.sh --libfuzzer does it in build-fuzz/). One executable per
// target, this source compiled with GAPSIM_FUZZ_TARGET set to the target's name:
//   urdf, motion_csv, joint_table, webots, mtn, params, space, scenarios, log, controller,
//   servo_log, robot_step (a fuzzed robot loaded and stepped 50 times)
// Each input is written to a file with the format's extension and read as the CLI reads it. A
// parser may refuse the input (InputError, std::invalid_argument) and a simulation may diverge
// (DivergenceError); anything else, a crash, a hang or a sanitizer report is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "calib/objective.h"
#include "calib/parameter_space.h"
#include "calib/servo_identification.h"
#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "sim/keyframe_controller.h"
#include "sim/motion_readers.h"
#include "sim/mtn_reader.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

#ifndef GAPSIM_FUZZ_TARGET
#error "compile with -DGAPSIM_FUZZ_TARGET=<target>"
#endif
#define GAPSIM_STR2(x) #x
#define GAPSIM_STR(x) GAPSIM_STR2(x)

namespace {

const std::string kTarget = GAPSIM_STR(GAPSIM_FUZZ_TARGET);

std::string extension() {
  if (kTarget == "urdf" || kTarget == "robot_step") return ".urdf";
  if (kTarget == "webots") return ".motion";
  if (kTarget == "mtn") return ".mtn";
  if (kTarget == "params") return ".params";
  return ".csv";
}

std::string scratchFile() {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("gapsim_fuzz_" + kTarget + "_" + std::to_string(getpid()) + extension()))
                                      .string();
  return path;
}

const gapsim::RobotModel& nao() {
  static const gapsim::RobotModel m = gapsim::loadRobotFile(gapsim::resolveRobotFile("nao"));
  return m;
}

void parse(const std::string& path) {
  using namespace gapsim;
  if (kTarget == "urdf") {
    loadRobotFile(path);
  } else if (kTarget == "robot_step") {
    auto model = std::make_shared<const RobotModel>(loadRobotFile(path));
    Simulation sim(model);
    for (int i = 0; i < 50; ++i) sim.step();
  } else if (kTarget == "motion_csv") {
    loadMotion(path);
  } else if (kTarget == "joint_table") {
    loadMotion(path, 0.02);
  } else if (kTarget == "webots") {
    loadMotion(path);
  } else if (kTarget == "mtn") {
    const MtnFile f = MtnFile::read(path);
    for (const auto& name : f.pageNames()) (void)name;
  } else if (kTarget == "params") {
    RobotModel m = nao();
    loadParameterFile(m, path);
  } else if (kTarget == "space") {
    calib::ParameterSpace::load(path);
  } else if (kTarget == "scenarios") {
    calib::ScenarioSet::load(path, false);
  } else if (kTarget == "log") {
    CsvTable::read(path);
  } else if (kTarget == "controller") {
    KeyframeController::read(path);
  } else if (kTarget == "servo_log") {
    calib::ServoStepLog::read(path);
  } else {
    std::fprintf(stderr, "parser_fuzz: unknown target %s\n", kTarget.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = scratchFile();
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    parse(path);
  } catch (const gapsim::InputError&) {
  } catch (const gapsim::DivergenceError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
