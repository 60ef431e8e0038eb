// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/plot_widget.h"

#include <QContextMenuEvent>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QMenu>
#include <QMimeData>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "app/gui/decimate.h"
#include "app/gui/flat_chart.h"
#include "app/gui/legend_labels.h"
#include "app/gui/nice_ticks.h"

namespace gapsim::gui {

namespace {
bool g_use_opengl = false;
constexpr int kRightMargin_px = 12;  // room for half the last time label, which sits on the edge
const QColor kPalette[] = {QColor(31, 119, 180),  QColor(214, 39, 40), QColor(44, 160, 44),   QColor(255, 127, 14),
                           QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(23, 190, 207)};
}  // namespace

void PlotWidget::setUseOpenGL(bool on) { g_use_opengl = on; }
bool PlotWidget::useOpenGL() { return g_use_opengl; }

PlotWidget::PlotWidget(SignalStore* store, QWidget* parent)
    : SignalDropView(parent), store_(store), chart_(new QChart), ax_(new QCategoryAxis), legend_(chart_) {
  makeFlat(chart_, QMargins(2, 0, kRightMargin_px, 0));
  chart_->legend()->hide();  // plot_legend.h draws the whole names
  QFont f = font();
  f.setPointSizeF(8);
  ax_->setLabelsFont(f);
  ax_->setTitleFont(f);
  ax_->setTitleText(axisTitle({"s", "time"}));
  chart_->addAxis(ax_, Qt::AlignBottom);
  setChart(chart_);
  setRenderHint(QPainter::Antialiasing, false);  // crisp 1 px lines and twice as fast
  setRubberBand(QChartView::NoRubberBand);
  setMinimumHeight(130);
  cursor_item_ = new QGraphicsLineItem;
  cursor_item_->setPen(QPen(QColor(60, 60, 60, 170), 1, Qt::DashLine));
  cursor_item_->setZValue(1000);
  chart_->scene()->addItem(cursor_item_);
  const QColor ab_color(0, 110, 140);
  for (int i = 0; i < 2; ++i) {
    ab_lines_[i] = new QGraphicsLineItem;
    ab_lines_[i]->setPen(QPen(ab_color, 1, Qt::DotLine));
    ab_lines_[i]->setZValue(1000);
    ab_lines_[i]->hide();
    chart_->scene()->addItem(ab_lines_[i]);
    ab_labels_[i] = new QGraphicsSimpleTextItem(i == 0 ? "A" : "B");
    ab_labels_[i]->setBrush(ab_color);
    QFont bold = f;
    bold.setBold(true);
    ab_labels_[i]->setFont(bold);
    ab_labels_[i]->setZValue(1000);
    ab_labels_[i]->hide();
    chart_->scene()->addItem(ab_labels_[i]);
  }
  ab_box_ = new QGraphicsRectItem;
  ab_box_->setBrush(QColor(255, 255, 255, 220));
  ab_box_->setPen(QPen(ab_color, 1));
  ab_box_->setZValue(1002);
  ab_box_->hide();
  chart_->scene()->addItem(ab_box_);
  ab_text_ = new QGraphicsSimpleTextItem(ab_box_);
  ab_text_->setFont(f);
  ax_->setRange(0, 10);
  // A new simulated log (load, reset) or a removed overlay: the unwrapped copies start over.
  connect(store_, &SignalStore::sourcesChanged, this, [this] {
    for (Entry& e : entries_) e.unwrapped = {};
  });
}

QCategoryAxis* PlotWidget::axisFor(const ColumnUnit& unit) {
  for (const ValueAxis& a : axes_)
    if (a.unit == unit) return a.axis;
  auto* axis = new QCategoryAxis;
  QFont f = font();
  f.setPointSizeF(8);
  axis->setLabelsFont(f);
  axis->setTitleFont(f);
  axis->setTitleText(axisTitle(unit));
  axis->setRange(-1, 1);
  // The first unit on the left, the others on the right (Qt Charts stacks them outward).
  chart_->addAxis(axis, axes_.empty() ? Qt::AlignLeft : Qt::AlignRight);
  if (!axes_.empty()) axis->setGridLineVisible(false);  // one grid: the first axis's
  axes_.push_back({unit, axis});
  return axis;
}

void PlotWidget::dropUnusedAxes() {
  for (std::size_t i = axes_.size(); i-- > 0;) {
    const bool used =
        std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.unit == axes_[i].unit; });
    if (used) continue;
    chart_->removeAxis(axes_[i].axis);
    delete axes_[i].axis;
    axes_.erase(axes_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  // The first remaining axis is on the left and draws the grid.
  if (!axes_.empty() && axes_.front().axis->alignment() != Qt::AlignLeft) {
    QCategoryAxis* first = axes_.front().axis;
    const auto series = chart_->series();
    chart_->removeAxis(first);
    chart_->addAxis(first, Qt::AlignLeft);
    first->setGridLineVisible(true);
    for (const Entry& e : entries_)
      if (e.unit == axes_.front().unit) e.series->attachAxis(first);
  }
}

bool PlotWidget::addSignal(const SignalRef& ref) {
  if (!store_->signal(ref)) return false;
  for (const Entry& e : entries_)
    if (e.ref == ref) return false;
  auto* s = new QLineSeries;
  s->setName(store_->label(ref));
  const ColumnUnit unit = columnUnit(ref.column);
  QColor color = kPalette[color_counter_++ % std::size(kPalette)];
  QPen pen(color, 1.5);
  if (ref.source != SignalStore::kSimulation) {
    for (const Entry& e : entries_)  // an overlay takes the colour of the simulated signal it matches
      if (e.ref.source == SignalStore::kSimulation && e.ref.column == ref.column) pen.setColor(e.series->pen().color());
    if (g_use_opengl)
      pen.setColor(pen.color().lighter(150));
    else
      pen.setStyle(Qt::DashLine);
  }
  s->setUseOpenGL(g_use_opengl);
  s->setPen(pen);
  chart_->addSeries(s);
  s->attachAxis(ax_);
  s->attachAxis(axisFor(unit));
  entries_.push_back({ref, s, isAngleColumn(ref.column), {}, unit, {}});
  updateLegend();
  refresh(x0_, x1_);
  emit signalsChanged();
  return true;
}

void PlotWidget::removeSignal(const SignalRef& ref) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.ref == ref; });
  if (it == entries_.end()) return;
  chart_->removeSeries(it->series);
  delete it->series;
  entries_.erase(it);
  dropUnusedAxes();
  updateLegend();
  emit signalsChanged();
}

void PlotWidget::clearSignals() {
  while (!entries_.empty()) removeSignal(entries_.back().ref);
}

bool PlotWidget::setSignalPen(const SignalRef& ref, const QPen& pen) {
  for (Entry& e : entries_)
    if (e.ref == ref) {
      e.series->setPen(pen);
      updateLegend();
      return true;
    }
  return false;
}

bool PlotWidget::setSignalLabel(const SignalRef& ref, const QString& label) {
  for (Entry& e : entries_)
    if (e.ref == ref) {
      e.series->setName(label);
      e.label = label;
      updateLegend();
      return true;
    }
  return false;
}

std::vector<SignalRef> PlotWidget::signalRefs() const {
  std::vector<SignalRef> r;
  for (const Entry& e : entries_) r.push_back(e.ref);
  return r;
}

std::optional<SampledSignal> PlotWidget::shownSignal(Entry& e) {
  auto sig = store_->signal(e.ref);
  if (sig && unwrap_ && e.angle) {
    if (e.unwrapped.values.size() > sig->v.size()) e.unwrapped = {};  // the log was replaced
    unwrapAppend(sig->v, e.unwrapped);
    sig->v = e.unwrapped.values;
  }
  return sig;
}

void PlotWidget::refresh(double x0, double x1) {
  x0_ = x0, x1_ = x1;
  // Drop series whose source disappeared (overlay closed).
  for (std::size_t i = entries_.size(); i-- > 0;)
    if (!store_->signal(entries_[i].ref)) removeSignal(entries_[i].ref);
  const QRectF area = chart_->plotArea();
  const int columns = std::max(50, static_cast<int>(area.width()));
  ax_->setRange(x0, x1);  // before the data: every change re-lays out all series
  applyNiceTicks(ax_, std::clamp(static_cast<int>(area.width() / 45), 3, 12));
  std::vector<std::pair<double, double>> range(axes_.size(), {1, 0});  // per value axis: lo > hi = none
  points_drawn_ = 0;
  for (Entry& e : entries_) {
    auto sig = shownSignal(e);
    Decimated d = decimateMinMax(*sig, store_->offset(e.ref.source), x0, x1, columns);
    points_drawn_ += static_cast<int>(d.points.size());
    e.series->replace(d.points);
    const auto a = static_cast<std::size_t>(valueAxisOf(e.ref));
    auto& [ylo, yhi] = range[a];
    if (d.y_min <= d.y_max) {
      if (ylo > yhi) ylo = d.y_min, yhi = d.y_max;
      ylo = std::min(ylo, d.y_min), yhi = std::max(yhi, d.y_max);
    }
  }
  const int max_ticks = std::clamp(static_cast<int>(area.height() / 28), 2, 10);
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    const auto [ylo, yhi] = range[a];
    if (auto_y_ && ylo <= yhi) {
      const double span = yhi - ylo, pad = span > 0 ? 0.08 * span : std::max(1e-3, 0.1 * std::abs(yhi));
      axes_[a].axis->setRange(ylo - pad, yhi + pad);
    }
    applyNiceTicks(axes_[a].axis, max_ticks);
  }
  updateCursorItem();
  updateMarkerItems();
  updateAbItems();
}

QStringList PlotWidget::timeTickLabels() const { return axisTickLabels(*ax_); }

QStringList PlotWidget::valueTickLabels(int axis) const {
  return axis >= 0 && axis < valueAxisCount() ? axisTickLabels(*axes_[static_cast<std::size_t>(axis)].axis)
                                              : QStringList{};
}

QString PlotWidget::valueAxisTitle(int axis) const {
  return axis >= 0 && axis < valueAxisCount() ? axes_[static_cast<std::size_t>(axis)].axis->titleText() : QString{};
}

std::pair<double, double> PlotWidget::valueRange(int axis) const {
  const QCategoryAxis* a = axes_.at(static_cast<std::size_t>(axis)).axis;
  return {a->min(), a->max()};
}

int PlotWidget::valueAxisOf(const SignalRef& ref) const {
  for (const Entry& e : entries_)
    if (e.ref == ref)
      for (std::size_t a = 0; a < axes_.size(); ++a)
        if (axes_[a].unit == e.unit) return static_cast<int>(a);
  return -1;
}

void PlotWidget::updateLegend() {
  QStringList names;
  for (const Entry& e : entries_) names << (e.label.isEmpty() ? store_->label(e.ref) : e.label);
  const QStringList texts = legendLabels(names);
  legend_.setTitle(legendPrefix(names));
  std::vector<PlotLegend::Entry> items;
  for (std::size_t i = 0; i < entries_.size(); ++i)
    items.push_back({texts[static_cast<qsizetype>(i)], entries_[i].series->pen()});
  legend_.setEntries(items);
  const double h = legend_.layout(6, 2, std::max(100, width() - 12));
  top_margin_ = static_cast<int>(std::ceil(h));
  chart_->setMargins(QMargins(2 + extra_left_, top_margin_, kRightMargin_px + extra_right_, 0));
}

double PlotWidget::plotAreaLeft() const {
  // Laid out now: new tick labels change the value axis's width only at the next layout, which
  // Qt runs later from the event loop, and the stacked plots align on this figure at once.
  if (QGraphicsLayout* l = chart_->layout()) l->activate();
  return chart_->plotArea().left();
}

double PlotWidget::plotAreaRight() const {
  if (QGraphicsLayout* l = chart_->layout()) l->activate();
  return chart_->plotArea().right();
}

void PlotWidget::setExtraLeftMargin(int px) {
  if (px == extra_left_) return;
  extra_left_ = std::max(0, px);
  chart_->setMargins(QMargins(2 + extra_left_, top_margin_, kRightMargin_px + extra_right_, 0));
}

void PlotWidget::setExtraRightMargin(int px) {
  if (px == extra_right_) return;
  extra_right_ = std::max(0, px);
  chart_->setMargins(QMargins(2 + extra_left_, top_margin_, kRightMargin_px + extra_right_, 0));
}

void PlotWidget::setAbCursors(const AbCursors& ab) {
  ab_ = ab;
  updateAbItems();
}

std::vector<PlotWidget::AbRow> PlotWidget::abRows() const {
  std::vector<AbRow> rows;
  if (!ab_.complete()) return rows;
  const QStringList texts = legend_.texts();
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    auto sig = const_cast<PlotWidget*>(this)->shownSignal(const_cast<Entry&>(entries_[i]));
    if (!sig) continue;
    rows.push_back({entries_[i].ref,
                    i < static_cast<std::size_t>(texts.size()) ? texts[static_cast<qsizetype>(i)] : QString(),
                    entries_[i].unit.unit, abDelta(*sig, store_->offset(entries_[i].ref.source), *ab_.a_s, *ab_.b_s)});
  }
  return rows;
}

QString PlotWidget::abReadoutText() const { return ab_box_->isVisible() ? ab_text_->text() : QString(); }

void PlotWidget::updateAbItems() {
  const QRectF area = chart_->plotArea();
  const std::optional<double> t[2] = {ab_.a_s, ab_.b_s};
  for (int i = 0; i < 2; ++i) {
    const bool in = t[i] && x1_ > x0_ && *t[i] >= x0_ && *t[i] <= x1_;
    ab_lines_[i]->setVisible(in);
    ab_labels_[i]->setVisible(in);
    if (!in) continue;
    const double x = area.left() + (*t[i] - x0_) / (x1_ - x0_) * area.width();
    ab_lines_[i]->setLine(x, area.top(), x, area.bottom());
    ab_labels_[i]->setPos(x + 3, area.bottom() - ab_labels_[i]->boundingRect().height() - 1);
  }
  const auto rows = abRows();
  if (rows.empty()) {
    ab_box_->hide();
    return;
  }
  QStringList lines{QStringLiteral("Δt = %1 s").arg(QString::number(ab_.dt_s(), 'g', 4))};
  for (const AbRow& r : rows) lines << QStringLiteral("%1: Δ = %2").arg(r.label, formatDelta(r.delta.delta(), r.unit));
  ab_text_->setText(lines.join('\n'));
  const QRectF br = ab_text_->boundingRect();
  ab_text_->setPos(4, 2);
  ab_box_->setRect(0, 0, br.width() + 8, br.height() + 4);
  ab_box_->setPos(area.right() - br.width() - 12, area.top() + 4);
  ab_box_->show();
}

void PlotWidget::setUnwrapAngles(bool on) {
  unwrap_ = on;
  refresh(x0_, x1_);
}

QList<QPointF> PlotWidget::drawnPoints(const SignalRef& ref) const {
  for (const Entry& e : entries_)
    if (e.ref == ref) return e.series->points();
  return {};
}

void PlotWidget::setMarkers(const std::vector<TimeMarker>& markers) {
  markers_ = markers;
  while (marker_lines_.size() < markers_.size()) {
    auto* line = new QGraphicsLineItem;
    line->setZValue(999);
    chart_->scene()->addItem(line);
    marker_lines_.push_back(line);
    auto* label = new QGraphicsSimpleTextItem;
    label->setZValue(999);
    QFont f = label->font();
    f.setPointSizeF(8);
    f.setBold(true);
    label->setFont(f);
    chart_->scene()->addItem(label);
    marker_labels_.push_back(label);
  }
  for (std::size_t i = 0; i < markers_.size(); ++i) {
    marker_lines_[i]->setPen(QPen(markers_[i].color, 2));
    marker_labels_[i]->setBrush(markers_[i].color);
    marker_labels_[i]->setText(markers_[i].label);
  }
  updateMarkerItems();
}

int PlotWidget::visibleMarkerCount() const {
  int n = 0;
  for (std::size_t i = 0; i < markers_.size(); ++i) n += marker_lines_[i]->isVisible() ? 1 : 0;
  return n;
}

void PlotWidget::updateMarkerItems() {
  const QRectF area = chart_->plotArea();
  for (std::size_t i = 0; i < marker_lines_.size(); ++i) {
    const bool in = i < markers_.size() && x1_ > x0_ && markers_[i].t_s >= x0_ && markers_[i].t_s <= x1_;
    marker_lines_[i]->setVisible(in);
    marker_labels_[i]->setVisible(in);
    if (!in) continue;
    const double x = area.left() + (markers_[i].t_s - x0_) / (x1_ - x0_) * area.width();
    marker_lines_[i]->setLine(x, area.top(), x, area.bottom());
    marker_labels_[i]->setPos(x + 3, area.top() + 1);
  }
}

void PlotWidget::setCursorTime(double t) {
  cursor_s_ = t;
  updateCursorItem();
}

void PlotWidget::updateCursorItem() {
  const QRectF area = chart_->plotArea();
  if (!(x1_ > x0_) || !(cursor_s_ >= x0_ && cursor_s_ <= x1_)) {
    cursor_item_->hide();
    return;
  }
  const double x = area.left() + (cursor_s_ - x0_) / (x1_ - x0_) * area.width();
  cursor_item_->setLine(x, area.top(), x, area.bottom());
  cursor_item_->show();
}

double PlotWidget::timeAt(const QPointF& pos) const {
  const QRectF area = chart_->plotArea();
  const QPointF scene = mapToScene(pos.toPoint());
  return x0_ + (scene.x() - area.left()) / std::max(1.0, area.width()) * (x1_ - x0_);
}

void PlotWidget::dropSignals(const std::vector<SignalRef>& refs) {
  for (const SignalRef& r : refs) addSignal(r);
}

void PlotWidget::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  const double factor = std::pow(0.8, steps);
  if (e->modifiers() & Qt::ShiftModifier) {
    auto_y_ = false;
    for (ValueAxis& a : axes_) {
      const double c = (a.axis->min() + a.axis->max()) / 2, h = (a.axis->max() - a.axis->min()) / 2 * factor;
      a.axis->setRange(c - h, c + h);
      applyNiceTicks(a.axis, std::clamp(static_cast<int>(chart_->plotArea().height() / 28), 2, 10));
    }
  } else {
    emit zoomRequested(factor, timeAt(e->position()));
  }
  e->accept();
}

void PlotWidget::mousePressEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton) {
    press_pos_ = e->position();
    dragging_ = false;
  }
  e->accept();
}

void PlotWidget::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton)) return;
  const QPointF d = e->position() - press_pos_;
  if (!dragging_ && std::abs(d.x()) < 4) return;
  dragging_ = true;
  const double dt = -d.x() / std::max(1.0, chart_->plotArea().width()) * (x1_ - x0_);
  press_pos_ = e->position();
  emit panRequested(dt);
}

void PlotWidget::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton && !dragging_) {
    if (e->modifiers() & Qt::ShiftModifier)
      emit abRequested(0, timeAt(e->position()));
    else if (e->modifiers() & Qt::ControlModifier)
      emit abRequested(1, timeAt(e->position()));
    else
      emit seekRequested(timeAt(e->position()));
  }
  dragging_ = false;
}

void PlotWidget::mouseDoubleClickEvent(QMouseEvent*) {
  auto_y_ = true;
  emit fitRequested();
}

void PlotWidget::contextMenuEvent(QContextMenuEvent* e) {
  QMenu menu(this);
  QMenu* remove = menu.addMenu(tr("Remove signal"));
  for (const Entry& en : entries_) {
    const SignalRef ref = en.ref;
    remove->addAction(en.series->name(), this, [this, ref] { removeSignal(ref); });
  }
  remove->setEnabled(!entries_.empty());
  menu.addAction(tr("Clear plot"), this, [this] { clearSignals(); });
  menu.addAction(tr("Automatic value range"), this, [this] {
    auto_y_ = true;
    refresh(x0_, x1_);
  });
  QAction* unwrap = menu.addAction(tr("Unwrap angles (_rad)"), this, [this](bool on) { setUnwrapAngles(on); });
  unwrap->setCheckable(true);
  unwrap->setChecked(unwrap_);
  unwrap->setToolTip(tr("Draw angles without the 2 pi jumps at +-pi (a fallen robot's roll)"));
  const double t = timeAt(e->pos());
  menu.addAction(tr("Put cursor A here (Shift+click)"), this, [this, t] { emit abRequested(0, t); });
  menu.addAction(tr("Put cursor B here (Ctrl+click)"), this, [this, t] { emit abRequested(1, t); });
  menu.addAction(tr("Clear cursors A and B"), this, [this] { emit abRequested(-1, 0); });
  menu.addSeparator();
  menu.addAction(tr("Remove plot"), this, [this] { emit removeRequested(); });
  menu.exec(e->globalPos());
}

void PlotWidget::resizeEvent(QResizeEvent* e) {
  QChartView::resizeEvent(e);
  updateLegend();
  updateCursorItem();
  updateMarkerItems();
  updateAbItems();
}

}  // namespace gapsim::gui
