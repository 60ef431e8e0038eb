// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The Calibrate panel's convergence plot: best and median fitness per generation on a
/// logarithmic axis (fitness falls by decades), drawn with Qt Charts like the signal plots. The
/// points are placed at log10(fitness) on a linear axis whose ticks are labelled with the values
/// (1e-12, 2e-12, 5e-12, 1e-11, ...), so a point sits exactly where its value's label says (Qt's
/// own log axis placed 1.06e-12 below its "1e-12" line). The ranges leave half a generation and a
/// margin in y around the points, so none is cut by the frame.
/// Values a log axis cannot show (<= 0, inf from diverged candidates, nan) are left out and
/// counted, so a generation of failures shows as a gap, not as a crash of the axis.
/// With validation scenarios a third line shows the validation fitness of the training best
/// (evaluated when the training best improves), and a ring marks the generation whose set
/// best.params holds: the lowest validation fitness (early stopping). A validation line that
/// rises while the best line falls is the overfitting the run warns about.

#include <QCategoryAxis>
#include <QChartView>
#include <QLineSeries>
#include <QScatterSeries>
#include <cmath>

#include "app/gui/calib_progress.h"

namespace gapsim::gui {

class ConvergencePlot : public QChartView {
  Q_OBJECT
 public:
  explicit ConvergencePlot(QWidget* parent = nullptr);

  void clear();
  /// Adds (or replaces, if that generation is already there) one generation.
  /// Adds (or replaces) one generation; its validation point too, when it has one.
  void addGeneration(const GenerationProgress& p);
  /// Replaces the validation line by validation.csv's rows; the ring goes to the first lowest.
  void setValidation(const std::vector<ValidationPoint>& points);
  int bestPointCount() const { return static_cast<int>(best_->count()); }
  int medianPointCount() const { return static_cast<int>(median_->count()); }
  int skippedValues() const { return skipped_; }
  QLineSeries* bestSeries() const { return best_; }
  QLineSeries* medianSeries() const { return median_; }
  QLineSeries* validationSeries() const { return validation_; }
  int validationPointCount() const { return static_cast<int>(validation_->count()); }
  /// The generation best.params holds by validation (-1: no validation).
  int validationBestGeneration() const;
  /// The fitness of a drawn point (the series hold log10 of it).
  static double fitnessOf(const QPointF& p) { return std::pow(10.0, p.y()); }
  /// The value axis's labels, bottom to top, and its range in fitness.
  QStringList fitnessLabels() const;
  std::pair<double, double> fitnessRange() const;
  QStringList generationLabels() const;
  std::pair<double, double> generationRange() const { return {ax_->min(), ax_->max()}; }

 private:
  void rescale();
  void addValidation(int generation, double fitness, bool best);
  void showMarkers();

  QChart* chart_;
  QCategoryAxis* ax_;
  QCategoryAxis* ay_;
  QLineSeries* best_;
  QLineSeries* median_;
  QLineSeries* validation_;
  QScatterSeries* pick_;
  int skipped_ = 0;
};

}  // namespace gapsim::gui
