// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/ab_cursors.h"

namespace gapsim::gui {

AbDelta abDelta(const SampledSignal& s, double offset_s, double a_s, double b_s) {
  return {interpolateAt(s, a_s - offset_s), interpolateAt(s, b_s - offset_s)};
}

QString formatDelta(double v, const QString& unit) {
  const QString n = QString::number(v, 'g', 4);
  return unit.isEmpty() ? n : n + " " + unit;
}

}  // namespace gapsim::gui
