// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/legend_labels.h"

#include <algorithm>

namespace gapsim::gui {

namespace {
// Characters of the whole leading components all names share (0: none, or nothing would be left).
qsizetype commonCut(const QStringList& names) {
  if (names.size() < 2 || std::all_of(names.begin(), names.end(), [&](const QString& n) { return n == names.front(); }))
    return 0;
  // Longest common prefix of all names, in characters.
  qsizetype common = names.front().size();
  for (const QString& n : names) {
    qsizetype i = 0;
    while (i < common && i < n.size() && n[i] == names.front()[i]) ++i;
    common = i;
  }
  // Back off to just after the last separator inside it, so only whole components go, and every
  // name keeps something after the cut.
  const QString prefix = names.front().left(common);
  const qsizetype slash = prefix.lastIndexOf('/'), colon = prefix.lastIndexOf(QStringLiteral(": "));
  const bool at_slash = slash >= 0 && slash + 1 > colon + 2;
  const qsizetype cut = at_slash ? slash + 1 : (colon >= 0 ? colon + 2 : 0);
  for (const QString& n : names)
    if (n.size() <= cut) return 0;
  return cut;
}
}  // namespace

QStringList legendLabels(const QStringList& names) {
  const qsizetype cut = commonCut(names);
  if (cut == 0) return names;
  const QString mark = names.front()[cut - 1] == '/' ? QStringLiteral("…/") : QStringLiteral("…: ");
  QStringList out;
  for (const QString& n : names) out << mark + n.mid(cut);
  return out;
}

QString legendPrefix(const QStringList& names) {
  return names.isEmpty() ? QString() : names.front().left(commonCut(names));
}

}  // namespace gapsim::gui
