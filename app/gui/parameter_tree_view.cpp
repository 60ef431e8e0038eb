// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/parameter_tree_view.h"

#include <QScrollBar>
#include <QTreeWidget>
#include <cmath>

namespace gapsim::gui {

namespace {
const QColor kChangedBackground(255, 244, 196);
}

TreeViewState saveTreeState(const QTreeWidget& tree) {
  TreeViewState s;
  for (int i = 0; i < tree.topLevelItemCount(); ++i)
    if (tree.topLevelItem(i)->isExpanded()) s.expanded.insert(tree.topLevelItem(i)->text(0));
  s.scroll = tree.verticalScrollBar()->value();
  return s;
}

void restoreTreeState(QTreeWidget& tree, const TreeViewState& s) {
  for (int i = 0; i < tree.topLevelItemCount(); ++i)
    tree.topLevelItem(i)->setExpanded(s.expanded.contains(tree.topLevelItem(i)->text(0)));
  tree.verticalScrollBar()->setValue(s.scroll);
}

void filterTree(QTreeWidget& tree, const QString& text, int name_role) {
  const QString t = text.trimmed();
  for (int i = 0; i < tree.topLevelItemCount(); ++i) {
    QTreeWidgetItem* g = tree.topLevelItem(i);
    int shown = 0;
    for (int k = 0; k < g->childCount(); ++k) {
      QTreeWidgetItem* leaf = g->child(k);
      const bool keep = t.isEmpty() || leaf->data(0, name_role).toString().contains(t, Qt::CaseInsensitive);
      leaf->setHidden(!keep);
      shown += keep ? 1 : 0;
    }
    g->setHidden(shown == 0);
    if (!t.isEmpty() && shown > 0) g->setExpanded(true);
  }
}

bool markChanged(QTreeWidgetItem* leaf, double value, const std::map<std::string, double>& defaults,
                 const std::string& name) {
  const auto it = defaults.find(name);
  const bool changed =
      it != defaults.end() && std::abs(value - it->second) > 1e-9 * std::max(1.0, std::abs(it->second));
  QFont f = leaf->font(1);
  f.setBold(changed);
  leaf->setFont(1, f);
  leaf->setBackground(1, changed ? QBrush(kChangedBackground) : QBrush());
  QString tip = leaf->toolTip(0);
  if (changed) tip += QStringLiteral("\nrobot file: %1").arg(QString::number(it->second, 'g', 10));
  leaf->setToolTip(1, tip);
  return changed;
}

void summarizeGroups(QTreeWidget& tree) {
  for (int i = 0; i < tree.topLevelItemCount(); ++i) {
    QTreeWidgetItem* g = tree.topLevelItem(i);
    int n = 0;
    for (int k = 0; k < g->childCount(); ++k) n += g->child(k)->font(1).bold() ? 1 : 0;
    g->setText(1, n ? QObject::tr("%1 changed").arg(n) : QString());
    g->setForeground(1, QColor(150, 110, 0));
  }
}

}  // namespace gapsim::gui
