// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/unwrap.h"

#include <numbers>
#include <string_view>

namespace gapsim::gui {

void unwrapAppend(std::span<const double> angles, Unwrapped& u) {
  constexpr double kTwoPi = 2 * std::numbers::pi;
  for (std::size_t i = u.values.size(); i < angles.size(); ++i) {
    const double a = angles[i];
    if (!std::isfinite(a)) {
      u.values.push_back(a);
      continue;
    }
    if (std::isfinite(u.last_rad)) u.offset_rad -= kTwoPi * std::round((a - u.last_rad) / kTwoPi);
    u.last_rad = a;
    u.values.push_back(a + u.offset_rad);
  }
}

bool isAngleColumn(const std::string& column) {
  constexpr std::string_view kSuffix = "_rad";
  return column.size() >= kSuffix.size() &&
         column.compare(column.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

}  // namespace gapsim::gui
