// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/nice_ticks.h"

#include <QCategoryAxis>
#include <algorithm>
#include <cmath>
#include <vector>

namespace gapsim::gui {

namespace {
// Decimals a label needs for a step 1, 2 or 5 x 10^n: -n when n < 0 (5e-3 -> 3), else 0.
int decimalsFor(double step) { return std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9))); }
bool scientific(double step) { return step < 1e-4 || step > 1e5; }
}  // namespace

double niceStep(double lo, double hi, int max_ticks) {
  const double span = hi - lo;
  if (!std::isfinite(span) || span <= 0) return 0;
  max_ticks = std::max(2, max_ticks);
  // The smallest of 1, 2, 5 x 10^n with floor(span / step) + 1 <= max_ticks: start a decade
  // below span / (max_ticks - 1) and walk up.
  double decade = std::pow(10.0, std::floor(std::log10(span / (max_ticks - 1))) - 1);
  for (int i = 0; i < 12; ++i, decade *= 10)
    for (double m : {1.0, 2.0, 5.0}) {
      const double step = m * decade;
      const double n = std::floor(hi / step + 1e-9) - std::ceil(lo / step - 1e-9) + 1;
      if (n <= max_ticks) return step;
    }
  return span;
}

QString niceLabelFormat(double lo, double hi, double step) {
  if (!(step > 0)) return QStringLiteral("%.3g");
  const int es = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  if (!scientific(step)) return QStringLiteral("%.%1f").arg(decimalsFor(step));
  // 1.5e-05 on a step of 5e-06 needs one mantissa digit: digits = exponent(largest) - exponent(step).
  const double big = std::max(std::abs(lo), std::abs(hi));
  const int eb = big > 0 ? static_cast<int>(std::floor(std::log10(big) + 1e-9)) : es;
  return QStringLiteral("%.%1e").arg(std::max(0, eb - es));
}

std::vector<double> niceTicks(double lo, double hi, double step) {
  std::vector<double> t;
  if (!(step > 0)) return t;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step; ++k) t.push_back(k * step);
  return t;
}

QString niceLabel(double v, double step, const QString& format) {
  if (std::abs(v) < 1e-9 * step) v = 0;
  return QString::asprintf(format.toLatin1().constData(), v);
}

void applyNiceTicks(QCategoryAxis* axis, int max_ticks) {
  const double lo = axis->min(), hi = axis->max(), step = niceStep(lo, hi, max_ticks);
  const QString format = niceLabelFormat(lo, hi, step);
  const std::vector<double> ticks = step > 0 ? niceTicks(lo, hi, step) : std::vector<double>{};
  // Unchanged ticks (a redraw with the same range): leave the axis alone, every change re-lays
  // out the chart.
  const QStringList old = axis->categoriesLabels();
  bool same = axis->startValue() == lo && old.size() == static_cast<qsizetype>(ticks.size());
  for (std::size_t i = 0; same && i < ticks.size(); ++i)
    same = old[static_cast<qsizetype>(i)] == niceLabel(ticks[i], step, format) &&
           axis->endValue(old[static_cast<qsizetype>(i)]) == ticks[i];
  if (same) return;
  for (const QString& l : old) axis->remove(l);
  axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  axis->setStartValue(lo);
  for (double v : ticks) axis->append(niceLabel(v, step, format), v);
}

QStringList axisTickLabels(const QCategoryAxis& axis) {
  return const_cast<QCategoryAxis&>(axis).categoriesLabels();
}  // not const in Qt

}  // namespace gapsim::gui
