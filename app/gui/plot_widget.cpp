// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/plot_widget.h"

#include <QContextMenuEvent>
#include <QGraphicsLayout>
#include <QDragEnterEvent>
#include <QLegendMarker>
#include <QMenu>
#include <QMimeData>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "app/gui/decimate.h"
#include "app/gui/signal_mime.h"

namespace gapsim::gui {

namespace {
bool g_use_opengl = false;
const QColor kPalette[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
                           QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(23, 190, 207)};
}

void PlotWidget::setUseOpenGL(bool on) { g_use_opengl = on; }
bool PlotWidget::useOpenGL() { return g_use_opengl; }

PlotWidget::PlotWidget(SignalStore* store, QWidget* parent)
    : QChartView(parent), store_(store), chart_(new QChart), ax_(new QValueAxis), ay_(new QValueAxis) {
  chart_->setAnimationOptions(QChart::NoAnimation);
  chart_->legend()->setAlignment(Qt::AlignTop);
  QFont f = chart_->legend()->font();
  f.setPointSizeF(8);
  chart_->legend()->setFont(f);
  chart_->setMargins(QMargins(2, 0, 2, 0));
  chart_->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->setBackgroundRoundness(0);
  ax_->setTitleText(QString());
  ax_->setLabelFormat("%.1f");
  ax_->setLabelsFont(f);
  ay_->setLabelFormat("%.3g");
  ay_->setLabelsFont(f);
  chart_->addAxis(ax_, Qt::AlignBottom);
  chart_->addAxis(ay_, Qt::AlignLeft);
  setChart(chart_);
  setRenderHint(QPainter::Antialiasing, false);  // crisp 1 px lines and twice as fast
  setAcceptDrops(true);
  viewport()->setAcceptDrops(true);  // drag events arrive at the viewport of a scroll area
  setRubberBand(QChartView::NoRubberBand);
  setMinimumHeight(110);
  cursor_item_ = new QGraphicsLineItem;
  cursor_item_->setPen(QPen(QColor(60, 60, 60, 170), 1, Qt::DashLine));
  cursor_item_->setZValue(1000);
  chart_->scene()->addItem(cursor_item_);
  ax_->setRange(0, 10);
  ay_->setRange(-1, 1);
  // A new simulated log (load, reset) or a removed overlay: the unwrapped copies start over.
  connect(store_, &SignalStore::sourcesChanged, this, [this] {
    for (Entry& e : entries_) e.unwrapped = {};
  });
}

bool PlotWidget::addSignal(const SignalRef& ref) {
  if (!store_->signal(ref)) return false;
  for (const Entry& e : entries_)
    if (e.ref == ref) return false;
  auto* s = new QLineSeries;
  s->setName(store_->label(ref));
  QColor color = kPalette[color_counter_++ % std::size(kPalette)];
  QPen pen(color, 1.5);
  if (ref.source != SignalStore::kSimulation) {
    for (const Entry& e : entries_)  // an overlay takes the colour of the simulated signal it matches
      if (e.ref.source == SignalStore::kSimulation && e.ref.column == ref.column) pen.setColor(e.series->pen().color());
    if (g_use_opengl) pen.setColor(pen.color().lighter(150));
    else pen.setStyle(Qt::DashLine);
  }
  s->setUseOpenGL(g_use_opengl);
  s->setPen(pen);
  chart_->addSeries(s);
  s->attachAxis(ax_);
  s->attachAxis(ay_);
  entries_.push_back({ref, s, isAngleColumn(ref.column), {}});
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
  emit signalsChanged();
}

void PlotWidget::clearSignals() {
  while (!entries_.empty()) removeSignal(entries_.back().ref);
}

bool PlotWidget::setSignalPen(const SignalRef& ref, const QPen& pen) {
  for (Entry& e : entries_)
    if (e.ref == ref) {
      e.series->setPen(pen);
      return true;
    }
  return false;
}

bool PlotWidget::setSignalLabel(const SignalRef& ref, const QString& label) {
  for (Entry& e : entries_)
    if (e.ref == ref) {
      e.series->setName(label);
      return true;
    }
  return false;
}

std::vector<SignalRef> PlotWidget::signalRefs() const {
  std::vector<SignalRef> r;
  for (const Entry& e : entries_) r.push_back(e.ref);
  return r;
}

void PlotWidget::refresh(double x0, double x1) {
  x0_ = x0, x1_ = x1;
  // Drop series whose source disappeared (overlay closed).
  for (std::size_t i = entries_.size(); i-- > 0;)
    if (!store_->signal(entries_[i].ref)) removeSignal(entries_[i].ref);
  const int columns = std::max(50, static_cast<int>(chart_->plotArea().width()));
  ax_->setRange(x0, x1);  // before the data: every change re-lays out all series
  double ylo = 1, yhi = 0;
  points_drawn_ = 0;
  for (Entry& e : entries_) {
    auto sig = store_->signal(e.ref);
    if (unwrap_ && e.angle) {
      if (e.unwrapped.values.size() > sig->v.size()) e.unwrapped = {};  // the log was replaced
      unwrapAppend(sig->v, e.unwrapped);
      sig->v = e.unwrapped.values;
    }
    Decimated d = decimateMinMax(*sig, store_->offset(e.ref.source), x0, x1, columns);
    points_drawn_ += static_cast<int>(d.points.size());
    e.series->replace(d.points);
    if (d.y_min <= d.y_max) {
      if (ylo > yhi) ylo = d.y_min, yhi = d.y_max;
      ylo = std::min(ylo, d.y_min), yhi = std::max(yhi, d.y_max);
    }
  }
  if (auto_y_ && ylo <= yhi) {
    const double span = yhi - ylo, pad = span > 0 ? 0.08 * span : std::max(1e-3, 0.1 * std::abs(yhi));
    ay_->setRange(ylo - pad, yhi + pad);
  }
  updateCursorItem();
  updateMarkerItems();
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
  if (!(x1_ > x0_) || cursor_s_ < x0_ || cursor_s_ > x1_) {
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

void PlotWidget::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasFormat(kSignalMimeType)) e->acceptProposedAction();
  else e->ignore();
}

void PlotWidget::dragMoveEvent(QDragMoveEvent* e) {
  if (e->mimeData()->hasFormat(kSignalMimeType)) e->acceptProposedAction();
  else e->ignore();
}

void PlotWidget::dropEvent(QDropEvent* e) {
  const auto refs = decodeSignals(e->mimeData());
  if (refs.empty()) return e->ignore();
  for (const SignalRef& r : refs) addSignal(r);
  e->acceptProposedAction();
}

void PlotWidget::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  const double factor = std::pow(0.8, steps);
  if (e->modifiers() & Qt::ShiftModifier) {
    auto_y_ = false;
    const double c = (ay_->min() + ay_->max()) / 2, h = (ay_->max() - ay_->min()) / 2 * factor;
    ay_->setRange(c - h, c + h);
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
  if (e->button() == Qt::LeftButton && !dragging_) emit seekRequested(timeAt(e->position()));
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
  menu.addSeparator();
  menu.addAction(tr("Remove plot"), this, [this] { emit removeRequested(); });
  menu.exec(e->globalPos());
}

void PlotWidget::resizeEvent(QResizeEvent* e) {
  QChartView::resizeEvent(e);
  updateCursorItem();
  updateMarkerItems();
}

}  // namespace gapsim::gui
