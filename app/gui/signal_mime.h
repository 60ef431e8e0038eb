// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Drag and drop of signals from the signal tree onto plots: a list of (source id, column) in a
/// private MIME type, one "id<TAB>column" per line.

#include <QDropEvent>
#include <QMimeData>
#include <QString>
#include <vector>

#include "app/gui/signal_store.h"

namespace gapsim::gui {

inline const QString kSignalMimeType = QStringLiteral("application/x-gapsim-signals");

inline QMimeData* encodeSignals(const std::vector<SignalRef>& refs) {
  QString text;
  for (const SignalRef& r : refs) text += QString::number(r.source) + '\t' + QString::fromStdString(r.column) + '\n';
  auto* mime = new QMimeData;
  mime->setData(kSignalMimeType, text.toUtf8());
  return mime;
}

inline std::vector<SignalRef> decodeSignals(const QMimeData* mime) {
  std::vector<SignalRef> refs;
  if (!mime || !mime->hasFormat(kSignalMimeType)) return refs;
  const QStringList lines = QString::fromUtf8(mime->data(kSignalMimeType)).split('\n', Qt::SkipEmptyParts);
  for (const QString& line : lines) {
    const int tab = line.indexOf('\t');
    if (tab > 0) refs.push_back({line.left(tab).toInt(), line.mid(tab + 1).toStdString()});
  }
  return refs;
}

/// A plot's answer to a drag entering or moving over it: signals are welcome, anything else is
/// refused (the cursor shows it before the drop).
inline void acceptSignalDrag(QDropEvent* e) {
  if (e->mimeData()->hasFormat(kSignalMimeType))
    e->acceptProposedAction();
  else
    e->ignore();
}

}  // namespace gapsim::gui
