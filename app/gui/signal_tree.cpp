// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/signal_tree.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>
#include <map>

#include "app/gui/signal_mime.h"

namespace gapsim::gui {

void SignalTreeModel::rebuild(const SignalStore& store) {
  clear();
  setHorizontalHeaderLabels({tr("Signal")});
  for (int id : store.sourceIds()) {
    const SignalSource* s = store.source(id);
    if (!s || s->columns.empty()) continue;
    auto* top = new QStandardItem(s->name);
    top->setEditable(false);
    top->setDragEnabled(false);
    top->setToolTip(s->path.isEmpty() ? tr("the simulated log") : s->path);
    std::map<QString, QStandardItem*> folders;  // "a/b" -> item
    for (const std::string& col : s->columns) {
      const QStringList parts = QString::fromStdString(col).split('/');
      QStandardItem* parent = top;
      QString path;
      for (int i = 0; i + 1 < parts.size(); ++i) {
        path += parts[i] + '/';
        auto it = folders.find(path);
        if (it == folders.end()) {
          auto* f = new QStandardItem(parts[i]);
          f->setEditable(false);
          f->setDragEnabled(false);
          parent->appendRow(f);
          it = folders.emplace(path, f).first;
        }
        parent = it->second;
      }
      auto* leaf = new QStandardItem(parts.back());
      leaf->setEditable(false);
      leaf->setDragEnabled(true);
      leaf->setData(id, kSourceRole);
      leaf->setData(QString::fromStdString(col), kColumnRole);
      leaf->setToolTip(QString::fromStdString(col));
      parent->appendRow(leaf);
    }
    appendRow(top);
  }
}

QStringList SignalTreeModel::mimeTypes() const { return {kSignalMimeType}; }

std::vector<SignalRef> SignalTreeModel::leavesUnder(const QModelIndex& index) const {
  std::vector<SignalRef> out;
  const QVariant col = data(index, kColumnRole);
  if (col.isValid()) out.push_back({data(index, kSourceRole).toInt(), col.toString().toStdString()});
  for (int r = 0; r < rowCount(index); ++r) {
    const auto sub = leavesUnder(this->index(r, 0, index));
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

QMimeData* SignalTreeModel::mimeData(const QModelIndexList& indexes) const {
  std::vector<SignalRef> refs;
  for (const QModelIndex& i : indexes) {
    const QVariant col = data(i, kColumnRole);
    if (col.isValid()) refs.push_back({data(i, kSourceRole).toInt(), col.toString().toStdString()});
  }
  return encodeSignals(refs);
}

SignalTree::SignalTree(SignalStore* store, QWidget* parent)
    : QWidget(parent), store_(store), model_(new SignalTreeModel(this)), proxy_(new QSortFilterProxyModel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  filter_ = new QLineEdit;
  filter_->setPlaceholderText(tr("filter signals (e.g. knee)"));
  filter_->setClearButtonEnabled(true);
  proxy_->setSourceModel(model_);
  proxy_->setRecursiveFilteringEnabled(true);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterRole(SignalTreeModel::kColumnRole);
  view_ = new QTreeView;
  view_->setModel(proxy_);
  view_->setHeaderHidden(true);
  view_->setDragEnabled(true);
  view_->setDragDropMode(QAbstractItemView::DragOnly);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setUniformRowHeights(true);
  layout->addWidget(filter_);
  layout->addWidget(view_);
  connect(filter_, &QLineEdit::textChanged, this, &SignalTree::setFilter);
  connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& pi) {
    const QModelIndex i = proxy_->mapToSource(pi);
    const QVariant col = model_->data(i, SignalTreeModel::kColumnRole);
    if (col.isValid())
      emit signalActivated({model_->data(i, SignalTreeModel::kSourceRole).toInt(), col.toString().toStdString()});
  });
  connect(store_, &SignalStore::sourcesChanged, this, &SignalTree::rebuild);
  rebuild();
}

void SignalTree::setFilter(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);
  proxy_->setFilterFixedString(text);
  if (!text.isEmpty()) view_->expandAll();
}

void SignalTree::rebuild() {
  model_->rebuild(*store_);
  // Top level and the IMU/COM folders open: the signals people plot first.
  for (int r = 0; r < proxy_->rowCount(); ++r) view_->expand(proxy_->index(r, 0));
}

}  // namespace gapsim::gui
