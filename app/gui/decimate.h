// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Min/max decimation to the pixel width of a plot: a line through 60 000 samples drawn 1000
/// pixels wide covers each pixel column with one vertical stroke from the column's minimum to its
/// maximum, so keeping just those two samples per column (in time order) draws the same picture
/// with 2000 points. The chart then redraws in a time independent of the log's length.

#include <QList>
#include <QPointF>

#include "calib/log_compare.h"

namespace gapsim::gui {

struct Decimated {
  QList<QPointF> points;        ///< (t + offset, v), time ascending
  double y_min = 0, y_max = 0;  ///< over the points inside [x0, x1]; y_min > y_max if none
};

/// The samples of `s` shifted by offset_s that are visible in [x0_s, x1_s] when drawn `columns`
/// pixels wide, plus the nearest sample on each side (so the line reaches the edges). All of them
/// when there are at most 2 per column, otherwise each column's minimum and maximum in time order
/// (at most 2 per column).
Decimated decimateMinMax(const SampledSignal& s, double offset_s, double x0_s, double x1_s, int columns);

}  // namespace gapsim::gui
