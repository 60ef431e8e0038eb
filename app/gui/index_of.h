// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Position of a name in a list of names (log columns, table rows): the one lookup the panels share.

#include <algorithm>
#include <string>
#include <vector>

namespace gapsim::gui {

/// Index of `name` in `names`, or -1 if absent.
inline int indexOf(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

}  // namespace gapsim::gui
