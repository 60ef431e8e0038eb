// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/convergence_plot.h"

#include <QGraphicsLayout>
#include <algorithm>
#include <cmath>

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
    : QChartView(parent), chart_(new QChart), ax_(new QValueAxis), ay_(new QLogValueAxis),
      best_(new QLineSeries), median_(new QLineSeries) {
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->setMargins(QMargins(2, 0, 2, 0));
  chart_->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->setBackgroundRoundness(0);
  chart_->legend()->setAlignment(Qt::AlignTop);
  QFont f = chart_->legend()->font();
  f.setPointSizeF(8);
  chart_->legend()->setFont(f);
  ax_->setTitleText(tr("generation"));
  ax_->setTitleFont(f);
  ax_->setLabelFormat("%d");
  ax_->setLabelsFont(f);
  ay_->setTitleText(tr("fitness (log)"));
  ay_->setTitleFont(f);
  ay_->setLabelFormat("%.2g");
  ay_->setLabelsFont(f);
  ay_->setBase(10);
  ay_->setMinorTickCount(-1);  // minor ticks at 2..9 of every decade
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
  ax_->setRange(0, 1);
  ay_->setRange(0.1, 10);
}

void ConvergencePlot::addGeneration(const GenerationProgress& p) {
  const double x = p.generation;
  if (plottable(p.best)) put(best_, x, p.best);
  else ++skipped_;
  if (plottable(p.median)) put(median_, x, p.median);
  else ++skipped_;
  rescale();
}

void ConvergencePlot::rescale() {
  double lo = INFINITY, hi = -INFINITY, x1 = 1;
  for (QLineSeries* s : {best_, median_})
    for (const QPointF& q : s->points()) lo = std::min(lo, q.y()), hi = std::max(hi, q.y()), x1 = std::max(x1, q.x());
  ax_->setRange(0, x1);
  // Ticks on whole generations (at most about 10 of them), so the labels say where the points are.
  ax_->setTickType(QValueAxis::TicksDynamic);
  ax_->setTickAnchor(0);
  ax_->setTickInterval(std::max(1.0, std::ceil(x1 / 10.0)));
  if (!(lo <= hi)) return;
  // Whole decades around the data, so the labels are round numbers.
  ay_->setRange(std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi * 1.0001))));
}

}  // namespace gapsim::gui
