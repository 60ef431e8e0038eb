// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The signal tree (PlotJuggler's habit): every column of every source, the simulation first
/// then one top-level item per overlaid file, nested by the '/' in the column names
/// (`LKneePitch/q_rad` -> LKneePitch > q_rad). Leaves drag onto plots; a double click adds to the
/// current plot; the filter box keeps the matching leaves and their parents.

#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QWidget>

#include "app/gui/signal_store.h"

class QTreeView;
class QLineEdit;

namespace gapsim::gui {

/// The item model: leaves carry (source id, column) and drag as kSignalMimeType.
class SignalTreeModel : public QStandardItemModel {
  Q_OBJECT
 public:
  static constexpr int kSourceRole = Qt::UserRole + 1;
  static constexpr int kColumnRole = Qt::UserRole + 2;
  explicit SignalTreeModel(QObject* parent = nullptr) : QStandardItemModel(parent) {}
  void rebuild(const SignalStore& store);
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QModelIndexList& indexes) const override;
  /// All leaves under (and including) index, as signals.
  std::vector<SignalRef> leavesUnder(const QModelIndex& index) const;
};

class SignalTree : public QWidget {
  Q_OBJECT
 public:
  SignalTree(SignalStore* store, QWidget* parent = nullptr);
  SignalTreeModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  void setFilter(const QString& text);

 signals:
  void signalActivated(const gapsim::gui::SignalRef& ref);

 private:
  void rebuild();
  SignalStore* store_;
  SignalTreeModel* model_;
  QSortFilterProxyModel* proxy_;
  QTreeView* view_;
  QLineEdit* filter_;
};

}  // namespace gapsim::gui
