// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/time_window.h"

#include <cmath>

namespace gapsim::gui {

std::pair<double, double> keepInView(double x0, double x1, double t, double margin) {
  const double w = x1 - x0;
  if (!(w > 0) || !std::isfinite(t) || (t >= x0 && t <= x1)) return {x0, x1};
  if (t < x0) return {t - margin * w, t - margin * w + w};
  return {t + margin * w - w, t + margin * w};
}

}  // namespace gapsim::gui
