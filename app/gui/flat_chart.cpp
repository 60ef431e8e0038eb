// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/flat_chart.h"

#include <QChart>
#include <QGraphicsLayout>

namespace gapsim::gui {

void makeFlat(QChart* chart, const QMargins& margins_px) {
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setMargins(margins_px);
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
}

}  // namespace gapsim::gui
