// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// gapsim-cli info --compiled / --json: the compile step's decisions (sim/compiled_model.h).
#include <nlohmann/json.hpp>

#include "sim/compiled_model.h"
#include "sim/robot_model.h"

namespace gapsim::cli {

/// Tables of bodies, joints (rows, drives, damper rows), soft joints, coupled drives, and every
/// value that runs differently from the file's with the reason; on stdout.
void printCompiled(const RobotModel& m, const CompiledModel& c);

/// The same as JSON (SI units; poses left out).
nlohmann::json compiledJson(const RobotModel& m, const CompiledModel& c);

}  // namespace gapsim::cli
