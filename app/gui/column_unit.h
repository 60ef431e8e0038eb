// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The unit of a logged column, read from its name by the house unit-suffix convention
/// (STYLE.md rule 5): "LKneePitch/tau_Nm" is a torque in N m, "torso/gyro_x_rad_s" an angular
/// velocity in rad/s, "hop/phase" has no unit. Plots group their signals by it (one value axis
/// per unit) and title each axis with it ("torque (N m)").

#include <QString>
#include <string>

namespace gapsim::gui {

struct ColumnUnit {
  QString unit;      ///< as printed: "rad", "rad/s", "N m", "m"; empty if the name has no known suffix
  QString quantity;  ///< "angle", "angular velocity", "torque", ...; empty if no unit
  bool operator==(const ColumnUnit&) const = default;
};

/// The unit of a column from the suffix of its last '/' component; longest suffix first (`_rad_s`
/// before `_s`). Unknown suffix or none: {}.
ColumnUnit columnUnit(const std::string& column);

/// An axis title: "torque (N m)", "time (s)", or "no unit" for a unitless group.
QString axisTitle(const ColumnUnit& u);

}  // namespace gapsim::gui
