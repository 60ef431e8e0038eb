// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/keyframe_table.h"

#include <QFileInfo>
#include <QHeaderView>
#include <cmath>
#include <numbers>

namespace gapsim::gui {

KeyframeTable::KeyframeTable(QWidget* parent) : QTableWidget(parent) {
  verticalHeader()->setDefaultSectionSize(18);
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  horizontalHeader()->setStretchLastSection(true);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setTextElideMode(Qt::ElideNone);
}

void KeyframeTable::showController(const KeyframeController& c) {
  clear();
  const auto& stems = c.stems();
  setColumnCount(2 + static_cast<int>(stems.size()));
  setRowCount(static_cast<int>(c.keyframes().size()));
  QStringList h{tr("d s"), tr("t s")};
  for (const std::string& s : stems) h << QString::fromStdString(s) + QStringLiteral("°");
  setHorizontalHeaderLabels(h);
  horizontalHeaderItem(0)->setToolTip(tr("time from the previous keyframe (s)"));
  horizontalHeaderItem(1)->setToolTip(tr("time from the start (s); the last pose is held after T"));
  for (int i = 2; i < columnCount(); ++i)
    horizontalHeaderItem(i)->setToolTip(tr("r_%1 target (degrees); the left joint by the mirror")
                                            .arg(QString::fromStdString(stems[static_cast<std::size_t>(i - 2)])));
  double t = 0;
  auto cell = [&](int r, int col, double v, int decimals) {
    auto* it = new QTableWidgetItem(QString::number(v, 'f', decimals));
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setItem(r, col, it);
  };
  for (int r = 0; r < rowCount(); ++r) {
    const Keyframe& k = c.keyframes()[static_cast<std::size_t>(r)];
    t += k.duration_s;
    cell(r, 0, k.duration_s, 3);
    cell(r, 1, t, 3);
    for (std::size_t j = 0; j < k.q_rad.size(); ++j)
      cell(r, 2 + static_cast<int>(j), k.q_rad[j] * 180.0 / std::numbers::pi, 1);
  }
  setToolTip(tr("%1: %2 keyframes, T = %3 s")
                 .arg(QFileInfo(QString::fromStdString(c.source())).fileName())
                 .arg(rowCount())
                 .arg(t, 0, 'f', 3));
}

}  // namespace gapsim::gui
