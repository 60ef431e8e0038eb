// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// An edited table cell that is a parameter, handed on by the panel that shows it (servo gains,
/// MABEL legs and ground): a number as parameterEdited(name, value), any other text as
/// invalidText(name, text), so that the main window treats it as an edit in the parameter tree.

#include <QString>
#include <string>

namespace gapsim::gui {

/// `panel` is a widget with the signals parameterEdited and invalidText; `name` is the cell's
/// parameter ("" for a cell that is none: nothing is handed on).
template <class Panel>
void handOnCellEdit(Panel& panel, const std::string& name, const QString& text) {
  if (name.empty()) return;
  bool ok = false;
  const double v = text.toDouble(&ok);
  if (!ok)
    emit panel.invalidText(name, text);
  else
    emit panel.parameterEdited(name, v);
}

}  // namespace gapsim::gui
