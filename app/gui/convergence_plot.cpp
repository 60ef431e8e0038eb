// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/convergence_plot.h"

#include <QLegendMarker>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "app/gui/flat_chart.h"
#include "app/gui/nice_ticks.h"

namespace gapsim::gui {

namespace {
bool plottable(double v) { return std::isfinite(v) && v > 0; }

// Inserts or replaces the point at x (a resumed run may repeat its last generation).
void put(QLineSeries* s, double x, double y) {
  const QList<QPointF> pts = s->points();
  for (qsizetype i = 0; i < pts.size(); ++i)
    if (pts[i].x() == x) return s->replace(i, QPointF(x, y));
  qsizetype at = pts.size();
  while (at > 0 && pts[at - 1].x() > x) --at;
  s->insert(at, QPointF(x, y));
}
}  // namespace

ConvergencePlot::ConvergencePlot(QWidget* parent)
    : QChartView(parent),
      chart_(new QChart),
      ax_(new QCategoryAxis),
      ay_(new QCategoryAxis),
      best_(new QLineSeries),
      median_(new QLineSeries),
      validation_(new QLineSeries),
      pick_(new QScatterSeries) {
  makeFlat(chart_, QMargins(2, 0, 12, 0));
  chart_->legend()->setAlignment(Qt::AlignTop);
  QFont f = chart_->legend()->font();
  f.setPointSizeF(8);
  chart_->legend()->setFont(f);
  ax_->setTitleText(tr("generation"));
  ax_->setTitleFont(f);
  ax_->setLabelsFont(f);
  ax_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  ay_->setTitleText(tr("fitness (log scale)"));
  ay_->setTitleFont(f);
  ay_->setLabelsFont(f);
  ay_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  chart_->addAxis(ax_, Qt::AlignBottom);
  chart_->addAxis(ay_, Qt::AlignLeft);
  best_->setName(tr("best"));
  best_->setPen(QPen(QColor(31, 119, 180), 2));
  best_->setPointsVisible(true);
  median_->setName(tr("median"));
  median_->setPen(QPen(QColor(255, 127, 14), 1.5, Qt::DashLine));
  median_->setPointsVisible(true);
  validation_->setName(tr("validation"));
  validation_->setPen(QPen(QColor(44, 160, 44), 2));
  validation_->setPointsVisible(true);
  pick_->setName(tr("best.params"));
  pick_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
  pick_->setMarkerSize(14);
  pick_->setColor(Qt::transparent);
  pick_->setBorderColor(QColor(20, 90, 20));
  pick_->setPen(QPen(QColor(20, 90, 20), 2));
  for (QXYSeries* s : std::initializer_list<QXYSeries*>{best_, median_, validation_, pick_}) {
    chart_->addSeries(s);
    s->attachAxis(ax_);
    s->attachAxis(ay_);
  }
  setChart(chart_);
  setMinimumHeight(160);
  clear();
}

void ConvergencePlot::clear() {
  best_->clear();
  median_->clear();
  validation_->clear();
  pick_->clear();
  skipped_ = 0;
  rescale();
}

void ConvergencePlot::addGeneration(const GenerationProgress& p) {
  const double x = p.generation;
  if (plottable(p.best))
    put(best_, x, std::log10(p.best));
  else
    ++skipped_;
  if (plottable(p.median))
    put(median_, x, std::log10(p.median));
  else
    ++skipped_;
  if (!std::isnan(p.validation)) addValidation(p.generation, p.validation, p.validation_best);
  rescale();
}

void ConvergencePlot::addValidation(int generation, double fitness, bool best) {
  if (!plottable(fitness)) {
    ++skipped_;
    return;
  }
  const double y = std::log10(fitness);
  put(validation_, generation, y);
  if (best) {
    pick_->clear();
    pick_->append(generation, y);
  }
}

void ConvergencePlot::setValidation(const std::vector<ValidationPoint>& points) {
  validation_->clear();
  pick_->clear();
  // As the calibration picks: the first strictly lowest validation fitness.
  const ValidationPoint* lowest = nullptr;
  for (const ValidationPoint& v : points) {
    addValidation(v.generation, v.validation, false);
    if (plottable(v.validation) && (!lowest || v.validation < lowest->validation)) lowest = &v;
  }
  if (lowest) pick_->append(lowest->generation, std::log10(lowest->validation));
  rescale();
}

int ConvergencePlot::validationBestGeneration() const {
  return pick_->count() ? static_cast<int>(pick_->at(0).x()) : -1;
}

void ConvergencePlot::showMarkers() {
  // A run without validation scenarios shows no empty validation entries in the legend.
  for (QXYSeries* s : std::initializer_list<QXYSeries*>{validation_, pick_})
    for (QLegendMarker* m : chart_->legend()->markers(s)) m->setVisible(s->count() > 0);
}

void ConvergencePlot::rescale() {
  double lo = INFINITY, hi = -INFINITY, x1 = 1;
  showMarkers();
  for (QXYSeries* s : std::initializer_list<QXYSeries*>{best_, median_, validation_})
    for (const QPointF& q : s->points()) lo = std::min(lo, q.y()), hi = std::max(hi, q.y()), x1 = std::max(x1, q.x());
  // Whole generations, half a generation of room on each side so the first and last points
  // (drawn with their markers) are inside the frame.
  for (const QString& l : ax_->categoriesLabels()) ax_->remove(l);
  ax_->setRange(-0.5, x1 + 0.5);
  ax_->setStartValue(-0.5);
  const double step = std::max(1.0, niceStep(0, x1, 10));
  for (double g = 0; g <= x1 + 1e-9; g += step) ax_->append(QString::number(static_cast<long long>(g)), g);
  // In y (log10 of the fitness): the data and a tenth of a decade, at least one decade in all.
  if (!(lo <= hi)) lo = -1, hi = 1;
  const double pad = std::max(0.1, 0.05 * (hi - lo));
  double y0 = lo - pad, y1 = hi + pad;
  if (y1 - y0 < 1) {
    const double mid = (y0 + y1) / 2;
    y0 = mid - 0.5, y1 = mid + 0.5;
  }
  for (const QString& l : ay_->categoriesLabels()) ay_->remove(l);
  ay_->setRange(y0, y1);
  ay_->setStartValue(y0);
  // Labels at 1, 2, 5 x 10^n while there are few decades, at the decades only (or every few) beyond.
  const int d0 = static_cast<int>(std::floor(y0)), d1 = static_cast<int>(std::ceil(y1));
  const int decades = d1 - d0;
  const int every = decades <= 8 ? 1 : (decades + 7) / 8;
  for (int d = d0; d <= d1; d += every)
    for (double m : decades <= 2 ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
      const double y = d + std::log10(m);
      if (y < y0 || y > y1) continue;
      ay_->append(QStringLiteral("%1e%2").arg(m).arg(d), y);
    }
}

QStringList ConvergencePlot::fitnessLabels() const { return const_cast<QCategoryAxis*>(ay_)->categoriesLabels(); }

QStringList ConvergencePlot::generationLabels() const { return const_cast<QCategoryAxis*>(ax_)->categoriesLabels(); }

std::pair<double, double> ConvergencePlot::fitnessRange() const {
  return {std::pow(10.0, ay_->min()), std::pow(10.0, ay_->max())};
}

}  // namespace gapsim::gui
