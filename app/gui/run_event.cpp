// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/run_event.h"

#include <cstdio>

namespace gapsim::gui {

std::string bannerText(const RunEvent& e) {
  char t[64];
  std::snprintf(t, sizeof t, "%s at %.2f s", e.kind == RunEvent::Kind::kFall ? "fell" : "diverged", e.t_s);
  return e.what.empty() ? std::string(t) : std::string(t) + ": " + e.what;
}

QColor eventColor(RunEvent::Kind kind) {
  return kind == RunEvent::Kind::kFall ? QColor(230, 115, 0) : QColor(200, 20, 20);
}

}  // namespace gapsim::gui
