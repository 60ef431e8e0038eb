// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The look every chart of the GUI shares: drawn at once, square, edge to edge in its dock.

#include <QMargins>

class QChart;

namespace gapsim::gui {

/// No animation, square corners and no inner layout margin; `margins_px` around the plot area
/// leave room for the last axis label.
void makeFlat(QChart* chart, const QMargins& margins_px);

}  // namespace gapsim::gui
