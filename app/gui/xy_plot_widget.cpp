// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/xy_plot_widget.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMimeData>
#include <algorithm>
#include <cmath>

#include "app/gui/column_unit.h"
#include "app/gui/flat_chart.h"
#include "app/gui/nice_ticks.h"

namespace gapsim::gui {

namespace {
constexpr int kMaxPoints = 4000;  // a stride above this: an XY curve of 10 min at 100 Hz stays cheap
}

XyPlotWidget::XyPlotWidget(SignalStore* store, QWidget* parent)
    : SignalDropView(parent),
      store_(store),
      chart_(new QChart),
      axis_x_(new QCategoryAxis),
      axis_y_(new QCategoryAxis),
      curve_(new QLineSeries),
      dot_(new QScatterSeries) {
  makeFlat(chart_, QMargins(2, 2, 12, 0));
  chart_->legend()->hide();
  QFont f = font();
  f.setPointSizeF(8);
  for (QCategoryAxis* a : {axis_x_, axis_y_}) {
    a->setLabelsFont(f);
    a->setTitleFont(f);
    a->setRange(-1, 1);
  }
  chart_->addAxis(axis_x_, Qt::AlignBottom);
  chart_->addAxis(axis_y_, Qt::AlignLeft);
  curve_->setPen(QPen(QColor(31, 119, 180), 1.5));
  dot_->setMarkerSize(9);
  dot_->setColor(QColor(214, 39, 40));
  dot_->setBorderColor(Qt::white);
  for (QXYSeries* s : std::initializer_list<QXYSeries*>{curve_, dot_}) {
    chart_->addSeries(s);
    s->attachAxis(axis_x_);
    s->attachAxis(axis_y_);
  }
  setChart(chart_);
  setRenderHint(QPainter::Antialiasing, false);
  setMinimumHeight(130);
  updateTitles();
}

bool XyPlotWidget::setSignals(const SignalRef& x, const SignalRef& y) {
  if (!store_->signal(x) || !store_->signal(y)) return false;
  x_ = x, y_ = y;
  updateTitles();
  refresh(x0_, x1_);
  return true;
}

bool XyPlotWidget::addSignal(const SignalRef& ref) {
  if (!store_->signal(ref)) return false;
  if (!x_) {
    x_ = ref;
    updateTitles();
    return true;
  }
  return setSignals(*x_, ref);
}

void XyPlotWidget::swapAxes() {
  if (x_ && y_) setSignals(*y_, *x_);
}

void XyPlotWidget::updateTitles() {
  auto title = [&](const std::optional<SignalRef>& r, const char* axis) {
    if (!r) return tr("%1: drop a signal here").arg(axis);
    const ColumnUnit u = columnUnit(r->column);
    return u.unit.isEmpty() ? store_->label(*r) : QStringLiteral("%1 (%2)").arg(store_->label(*r), u.unit);
  };
  axis_x_->setTitleText(title(x_, "X"));
  axis_y_->setTitleText(title(y_, "Y"));
}

std::optional<QPointF> XyPlotWidget::pointAt(double t) const {
  const auto sx = store_->signal(*x_), sy = store_->signal(*y_);
  if (!sx || !sy) return std::nullopt;
  const double x = interpolateAt(*sx, t - store_->offset(x_->source)),
               y = interpolateAt(*sy, t - store_->offset(y_->source));
  if (!std::isfinite(x) || !std::isfinite(y)) return std::nullopt;
  return QPointF(x, y);
}

void XyPlotWidget::refresh(double x0, double x1) {
  x0_ = x0, x1_ = x1;
  QList<QPointF> pts;
  if (x_ && y_ && store_->signal(*x_) && store_->signal(*y_)) {
    // X's samples in the window, on X's timeline shifted by its offset; Y at the same times.
    const auto sx = store_->signal(*x_);
    const double off = store_->offset(x_->source);
    const auto lo = std::lower_bound(sx->t_s.begin(), sx->t_s.end(), x0 - off);
    const auto hi = std::upper_bound(sx->t_s.begin(), sx->t_s.end(), x1 - off);
    const auto n = static_cast<std::size_t>(hi - lo), first = static_cast<std::size_t>(lo - sx->t_s.begin());
    const std::size_t stride = std::max<std::size_t>(1, (n + kMaxPoints - 1) / kMaxPoints);
    for (std::size_t i = first; i < first + n; i += stride)
      if (auto p = pointAt(sx->t_s[i] + off)) pts.push_back(*p);
  }
  curve_->replace(pts);
  if (!pts.isEmpty()) {
    double xl = pts[0].x(), xh = xl, yl = pts[0].y(), yh = yl;
    for (const QPointF& p : pts)
      xl = std::min(xl, p.x()), xh = std::max(xh, p.x()), yl = std::min(yl, p.y()), yh = std::max(yh, p.y());
    auto pad = [](double lo, double hi) { return hi > lo ? 0.06 * (hi - lo) : std::max(1e-3, 0.1 * std::abs(hi)); };
    axis_x_->setRange(xl - pad(xl, xh), xh + pad(xl, xh));
    axis_y_->setRange(yl - pad(yl, yh), yh + pad(yl, yh));
  }
  const QRectF area = chart_->plotArea();
  applyNiceTicks(axis_x_, std::clamp(static_cast<int>(area.width() / 60), 3, 10));
  applyNiceTicks(axis_y_, std::clamp(static_cast<int>(area.height() / 28), 2, 10));
  setCursorTime(cursor_s_);
}

void XyPlotWidget::setCursorTime(double t) {
  cursor_s_ = t;
  std::optional<QPointF> p;
  if (x_ && y_ && std::isfinite(t)) p = pointAt(t);
  if (p)
    dot_->replace(QList<QPointF>{*p});
  else
    dot_->clear();
}

QStringList XyPlotWidget::xTickLabels() const { return axisTickLabels(*axis_x_); }
QStringList XyPlotWidget::yTickLabels() const { return axisTickLabels(*axis_y_); }

void XyPlotWidget::dropSignals(const std::vector<SignalRef>& refs) {
  if (refs.size() >= 2)
    setSignals(refs[0], refs[1]);
  else
    addSignal(refs[0]);
}

void XyPlotWidget::contextMenuEvent(QContextMenuEvent* e) {
  QMenu menu(this);
  menu.addAction(tr("Swap X and Y"), this, &XyPlotWidget::swapAxes)->setEnabled(x_ && y_);
  menu.addSeparator();
  menu.addAction(tr("Remove plot"), this, [this] { emit removeRequested(); });
  menu.exec(e->globalPos());
}

}  // namespace gapsim::gui
