// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/column_unit.h"

namespace gapsim::gui {

namespace {
struct Suffix {
  const char* suffix;
  const char* unit;
  const char* quantity;
};
// Longest first where one suffix ends another (_rad_s2, _rad_s, then _s).
constexpr Suffix kSuffixes[] = {
    {"_rad_s2", "rad/s²", "angular acceleration"},
    {"_m_s2", "m/s²", "acceleration"},
    {"_rad_s", "rad/s", "angular velocity"},
    {"_m_s", "m/s", "velocity"},
    {"_kgm2", "kg m²", "inertia"},
    {"_rad", "rad", "angle"},
    {"_deg", "deg", "angle"},
    {"_Nm", "N m", "torque"},
    {"_N", "N", "force"},
    {"_mm", "mm", "length"},
    {"_m", "m", "length"},
    {"_ms", "ms", "time"},
    {"_s", "s", "time"},
    {"_A", "A", "current"},
    {"_V", "V", "voltage"},
    {"_W", "W", "power"},
    {"_J", "J", "energy"},
    {"_Hz", "Hz", "frequency"},
    {"_kg", "kg", "mass"},
    {"_C", "°C", "temperature"},
};
}  // namespace

ColumnUnit columnUnit(const std::string& column) {
  const std::string leaf = column.substr(column.rfind('/') == std::string::npos ? 0 : column.rfind('/') + 1);
  for (const Suffix& s : kSuffixes) {
    const std::string suf = s.suffix;
    if (leaf.size() > suf.size() && leaf.compare(leaf.size() - suf.size(), suf.size(), suf) == 0)
      return {QString::fromUtf8(s.unit), QString::fromUtf8(s.quantity)};
  }
  return {};
}

QString axisTitle(const ColumnUnit& u) {
  if (u.unit.isEmpty()) return QStringLiteral("no unit");
  return QStringLiteral("%1 (%2)").arg(u.quantity, u.unit);
}

}  // namespace gapsim::gui
