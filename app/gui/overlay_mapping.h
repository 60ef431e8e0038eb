// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Naming a recorded log's columns after the simulated signals they measure, so an overlay lands
/// on the curve it belongs to. Columns named as the simulation's stay as they are. The torso tilt
/// (angle between torso up and world up) is the one signal every recording of a rising robot
/// has, under the name of its body (`torso/tilt_rad` in the BIOLOID recordings, see
/// shared/real-data/bioloid/README.md) while the simulation names it after the robot's
/// IMU (`<imu>/tilt_rad`): a recording's single `*/tilt_rad` column is renamed to the
/// simulation's single tilt column when the names differ.

#include <string>
#include <vector>

#include "sim/log_writer.h"

namespace gapsim::gui {

/// The overlay's column names after mapping (same order and length as `log_columns`).
std::vector<std::string> mapOverlayColumns(const std::vector<std::string>& log_columns,
                                           const std::vector<std::string>& sim_columns);
/// The log with its columns renamed by mapOverlayColumns (the same log if nothing changes).
Log mapOverlayLog(const Log& log, const std::vector<std::string>& sim_columns);
/// The simulation's tilt column (`<imu>/tilt_rad`), empty if it has none or several.
std::string tiltColumn(const std::vector<std::string>& columns);

}  // namespace gapsim::gui
