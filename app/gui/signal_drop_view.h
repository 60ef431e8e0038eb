// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// A chart view that signals can be dropped on (from the signal tree or another plot): the drag
/// is welcome only while it carries signals, and a drop hands them to dropSignals().

#include <QChartView>
#include <vector>

#include "app/gui/signal_store.h"

namespace gapsim::gui {

class SignalDropView : public QChartView {
  Q_OBJECT
 public:
  explicit SignalDropView(QWidget* parent = nullptr);

 protected:
  /// The signals of one drop, in the dragged order; never empty.
  virtual void dropSignals(const std::vector<SignalRef>& refs) = 0;

  void dragEnterEvent(QDragEnterEvent* e) override;
  void dragMoveEvent(QDragMoveEvent* e) override;
  void dropEvent(QDropEvent* e) override;
};

}  // namespace gapsim::gui
