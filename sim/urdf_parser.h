// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Reads a robot file (URDF plus the `<gapsim>` extension, docs/robot-format.md) into an
/// immutable RobotModel. Every error is an InputError naming file, line and field; everything
/// ignored or replaced is listed in RobotModel::warnings (one entry per kind of element).

#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim {

/// Parse a robot file from disk.
RobotModel loadRobotFile(const std::string& path);

/// Parse robot XML held in memory; `path` is only used in messages and to resolve nothing else.
RobotModel parseRobotXml(const std::string& xml_text, const std::string& path);

/// The children of `<gapsim>` the parser has a handler for. They must be exactly the elements of
/// gapsimSchema() (sim/gapsim_elements.h); a test compares the two.
std::vector<std::string> gapsimHandledElements();

}  // namespace gapsim
