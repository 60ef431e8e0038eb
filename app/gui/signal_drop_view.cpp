// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/signal_drop_view.h"

#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>

#include "app/gui/signal_mime.h"

namespace gapsim::gui {

SignalDropView::SignalDropView(QWidget* parent) : QChartView(parent) {
  setAcceptDrops(true);
  viewport()->setAcceptDrops(true);  // drag events arrive at the viewport of a scroll area
}

void SignalDropView::dragEnterEvent(QDragEnterEvent* e) { acceptSignalDrag(e); }

void SignalDropView::dragMoveEvent(QDragMoveEvent* e) { acceptSignalDrag(e); }

void SignalDropView::dropEvent(QDropEvent* e) {
  const auto refs = decodeSignals(e->mimeData());
  if (refs.empty()) return e->ignore();
  dropSignals(refs);
  e->acceptProposedAction();
}

}  // namespace gapsim::gui
