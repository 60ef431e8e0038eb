// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/decimate.h"

#include <algorithm>
#include <cmath>

namespace gapsim::gui {

Decimated decimateMinMax(const SampledSignal& s, double offset, double x0, double x1, int columns) {
  Decimated d;
  d.y_min = 1.0;
  d.y_max = 0.0;
  const auto& t = s.t_s;
  if (t.empty() || !(x1 > x0) || columns < 1) return d;
  // First sample inside, and one before it; last inside, and one after.
  auto lo = std::lower_bound(t.begin(), t.end(), x0 - offset);
  auto hi = std::upper_bound(t.begin(), t.end(), x1 - offset);
  std::size_t i0 = static_cast<std::size_t>(lo - t.begin()), i1 = static_cast<std::size_t>(hi - t.begin());
  auto note = [&](double y) {
    if (d.y_min > d.y_max) d.y_min = d.y_max = y;
    d.y_min = std::min(d.y_min, y);
    d.y_max = std::max(d.y_max, y);
  };
  for (std::size_t i = i0; i < i1; ++i) note(s.v[i]);  // y range: one pass, cheap next to drawing
  const std::size_t first = i0 > 0 ? i0 - 1 : i0, last = std::min(i1 + 1, t.size());
  auto push = [&](std::size_t i) { d.points.append(QPointF(t[i] + offset, s.v[i])); };
  if (i1 - i0 <= 2 * static_cast<std::size_t>(columns)) {
    d.points.reserve(static_cast<qsizetype>(last - first));
    for (std::size_t i = first; i < last; ++i) push(i);
    return d;
  }
  d.points.reserve(2 * columns + 4);
  if (first < i0) push(first);
  const double scale = columns / (x1 - x0);
  std::size_t i = i0;
  while (i < i1) {
    const long col = static_cast<long>(std::floor((t[i] + offset - x0) * scale));
    std::size_t j = i, kmin = i, kmax = i;
    while (j < i1 && static_cast<long>(std::floor((t[j] + offset - x0) * scale)) == col) {
      if (s.v[j] < s.v[kmin]) kmin = j;
      if (s.v[j] > s.v[kmax]) kmax = j;
      ++j;
    }
    // The column's extremes in time order: the vertical stroke the line draws there. The segments
    // between columns join one column's last extreme to the next one's first, at most a pixel off
    // the true path, which the eye cannot tell apart.
    push(std::min(kmin, kmax));
    if (kmin != kmax) push(std::max(kmin, kmax));
    i = j;
  }
  if (last > i1) push(i1);
  return d;
}

}  // namespace gapsim::gui
