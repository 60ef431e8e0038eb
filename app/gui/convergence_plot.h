// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The Calibrate panel's convergence plot: best and median fitness per generation on a
/// logarithmic axis (fitness falls by decades), drawn with Qt Charts like the signal plots.
/// Values a log axis cannot show (<= 0, inf from diverged candidates, nan) are left out and
/// counted, so a generation of failures shows as a gap, not as a crash of the axis.

#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include "app/gui/calib_progress.h"

namespace gapsim::gui {

class ConvergencePlot : public QChartView {
  Q_OBJECT
 public:
  explicit ConvergencePlot(QWidget* parent = nullptr);

  void clear();
  /// Adds (or replaces, if that generation is already there) one generation.
  void addGeneration(const GenerationProgress& p);
  int bestPointCount() const { return static_cast<int>(best_->count()); }
  int medianPointCount() const { return static_cast<int>(median_->count()); }
  int skippedValues() const { return skipped_; }
  QLineSeries* bestSeries() const { return best_; }
  QLineSeries* medianSeries() const { return median_; }

 private:
  void rescale();

  QChart* chart_;
  QValueAxis* ax_;
  QLogValueAxis* ay_;
  QLineSeries* best_;
  QLineSeries* median_;
  int skipped_ = 0;
};

}  // namespace gapsim::gui
