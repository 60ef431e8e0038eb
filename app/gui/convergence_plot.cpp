// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/convergence_plot.h"

#include <QGraphicsLayout>
#include <algorithm>
#include <cmath>
#include <vector>

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
      median_(new QLineSeries) {
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->setMargins(QMargins(2, 0, 12, 0));
  chart_->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->setBackgroundRoundness(0);
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
  median_->setName(tr("median of generation"));
  median_->setPen(QPen(QColor(255, 127, 14), 1.5, Qt::DashLine));
  median_->setPointsVisible(true);
  for (QLineSeries* s : {best_, median_}) {
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
  rescale();
}

void ConvergencePlot::rescale() {
  double lo = INFINITY, hi = -INFINITY, x1 = 1;
  for (QLineSeries* s : {best_, median_})
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
