// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// What the parameter tree (RobotPanel) keeps across a refill and shows beside the values: the
/// groups the user opened and the scroll position (Apply rebuilds the tree from the new model), a
/// filter on the names, and a mark on values that differ from the robot file's defaults (bold on
/// a pale yellow, the default in the tooltip, and "n changed" on the group).

#include <QSet>
#include <QString>
#include <map>
#include <string>

class QTreeWidget;
class QTreeWidgetItem;

namespace gapsim::gui {

/// The state of the tree the user made: open groups (by text) and the vertical scroll position.
struct TreeViewState {
  QSet<QString> expanded;
  int scroll = 0;
};
TreeViewState saveTreeState(const QTreeWidget& tree);
void restoreTreeState(QTreeWidget& tree, const TreeViewState& s);

/// Hides the leaves whose full name (group/leaf) does not contain text (case-insensitive) and the
/// groups left empty; a non-empty filter opens the groups it keeps. Empty text: all shown.
void filterTree(QTreeWidget& tree, const QString& text, int name_role);

/// Marks a leaf whose value differs from the file's default (relative 1e-9), or clears the mark.
/// Returns whether it is marked.
bool markChanged(QTreeWidgetItem* leaf, double value, const std::map<std::string, double>& defaults,
                 const std::string& name);

/// Writes "n changed" into column 1 of each group with n > 0 marked leaves (bold leaves).
void summarizeGroups(QTreeWidget& tree);

}  // namespace gapsim::gui
