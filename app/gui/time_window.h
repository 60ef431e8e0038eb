// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Keeping the time cursor in the plots' time window: when the cursor (the shown frame) leaves
/// [x0, x1], the window moves by the least amount that brings it back, plus a margin so it does not
/// sit on the edge, and keeps its width. A seek back while following the newest sample thus shows
/// the sought frame instead of a window with no cursor in it.

#include <utility>

namespace gapsim::gui {

/// [x0, x1] if t is inside it, else the window of the same width moved so that t lies margin x
/// width inside the edge it crossed. A non-finite t (no cursor yet) leaves the window alone.
std::pair<double, double> keepInView(double x0_s, double x1_s, double t_s, double margin = 0.1);

}  // namespace gapsim::gui
