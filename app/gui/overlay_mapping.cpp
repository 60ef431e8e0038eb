// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/overlay_mapping.h"

#include <algorithm>

namespace gapsim::gui {

namespace {
bool isTilt(const std::string& c) {
  static const std::string suffix = "/tilt_rad";
  return c.size() > suffix.size() && c.compare(c.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}
}  // namespace

std::string tiltColumn(const std::vector<std::string>& columns) {
  std::string found;
  for (const std::string& c : columns)
    if (isTilt(c)) {
      if (!found.empty()) return {};
      found = c;
    }
  return found;
}

std::vector<std::string> mapOverlayColumns(const std::vector<std::string>& log_columns,
                                           const std::vector<std::string>& sim_columns) {
  std::vector<std::string> out = log_columns;
  const std::string sim_tilt = tiltColumn(sim_columns), log_tilt = tiltColumn(log_columns);
  if (sim_tilt.empty() || log_tilt.empty() || log_tilt == sim_tilt) return out;
  if (contains(sim_columns, log_tilt) || contains(log_columns, sim_tilt)) return out;  // would be ambiguous
  std::replace(out.begin(), out.end(), log_tilt, sim_tilt);
  return out;
}

Log mapOverlayLog(const Log& log, const std::vector<std::string>& sim_columns) {
  std::vector<std::string> cols = mapOverlayColumns(log.columns(), sim_columns);
  if (cols == log.columns()) return log;
  Log out(std::move(cols));
  out.reserveRows(log.rows());
  for (std::size_t r = 0; r < log.rows(); ++r) out.appendRow(log.row(r));
  return out;
}

}  // namespace gapsim::gui
