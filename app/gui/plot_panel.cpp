// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/plot_panel.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <tuple>

#include "app/gui/time_window.h"

namespace gapsim::gui {

PlotPanel::PlotPanel(SignalStore* store, QWidget* parent) : QWidget(parent), store_(store) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* bar = new QHBoxLayout;
  auto* add = new QToolButton;
  add->setText(tr("+ Plot"));
  add->setToolTip(tr("Add a plot below; drag signals from the signal tree onto it"));
  connect(add, &QToolButton::clicked, this, [this] { addPlot(); });
  auto* add_xy = new QToolButton;
  add_xy->setText(tr("+ XY"));
  add_xy->setToolTip(tr("Add an XY plot: drop the X signal, then the Y signal (e.g. com/x_m, then com/y_m)"));
  connect(add_xy, &QToolButton::clicked, this, [this] { addXyPlot(); });
  follow_button_ = new QToolButton;
  follow_button_->setText(tr("Follow"));
  follow_button_->setCheckable(true);
  follow_button_->setChecked(true);
  follow_button_->setToolTip(tr("Trail the newest sample (off: the plots stay where you zoomed or panned)"));
  connect(follow_button_, &QToolButton::toggled, this, &PlotPanel::setFollow);
  window_box_ = new QDoubleSpinBox;
  window_box_->setRange(0.5, 3600);
  window_box_->setValue(window_s_);
  window_box_->setSuffix(" s");
  window_box_->setToolTip(tr("Time window while following"));
  connect(window_box_, &QDoubleSpinBox::valueChanged, this, &PlotPanel::setWindow);
  for (QWidget* w : std::initializer_list<QWidget*>{add, add_xy, follow_button_, window_box_})
    w->setFocusPolicy(Qt::NoFocus);
  bar->addWidget(add);
  bar->addWidget(add_xy);
  bar->addWidget(follow_button_);
  bar->addWidget(new QLabel(tr("window")));
  bar->addWidget(window_box_);
  ab_label_ = new QLabel;
  ab_label_->setToolTip(tr("Cursors A and B: Shift+click and Ctrl+click a plot (or its context menu)"));
  bar->addSpacing(12);
  bar->addWidget(ab_label_);
  bar->addStretch(1);
  layout->addLayout(bar);
  splitter_ = new QSplitter(Qt::Vertical);
  splitter_->setChildrenCollapsible(false);
  layout->addWidget(splitter_, 1);

  connect(store_, &SignalStore::dataAppended, this, &PlotPanel::markDirty);
  connect(store_, &SignalStore::offsetChanged, this, &PlotPanel::markDirty);
  connect(store_, &SignalStore::sourcesChanged, this, &PlotPanel::markDirty);
  connect(&timer_, &QTimer::timeout, this, &PlotPanel::tick);
  timer_.start(50);  // 20 redraws a second at most: smooth enough, cheap on software GL
}

PlotWidget* PlotPanel::addPlot() {
  auto* p = new PlotWidget(store_);
  plots_.push_back(p);
  splitter_->addWidget(p);
  connectPlot(p);
  p->setMarkers(markers_);
  p->setAbCursors(ab_);
  if (!current_) current_ = p;
  dirty_ = true;
  return p;
}

XyPlotWidget* PlotPanel::addXyPlot() {
  auto* p = new XyPlotWidget(store_);
  xy_plots_.push_back(p);
  splitter_->addWidget(p);
  connect(p, &XyPlotWidget::removeRequested, this, [this, p] { removeXyPlot(p); });
  dirty_ = true;
  return p;
}

void PlotPanel::connectPlot(PlotWidget* p) {
  connect(p, &PlotWidget::signalsChanged, this, [this, p] {
    current_ = p;
    dirty_ = true;
  });
  connect(p, &PlotWidget::zoomRequested, this, [this](double f, double around) {
    setFollow(false);
    x0_ = around + (x0_ - around) * f;
    x1_ = around + (x1_ - around) * f;
    dirty_ = true;
  });
  connect(p, &PlotWidget::panRequested, this, [this](double dt) {
    setFollow(false);
    x0_ += dt, x1_ += dt;
    dirty_ = true;
  });
  connect(p, &PlotWidget::seekRequested, this, [this, p](double t) {
    current_ = p;
    emit seekRequested(t);
  });
  connect(p, &PlotWidget::fitRequested, this, [this] {
    setFollow(false);
    auto [lo, hi] = store_->timeSpan();
    x0_ = lo, x1_ = std::max(hi, lo + 1.0);
    dirty_ = true;
  });
  connect(p, &PlotWidget::removeRequested, this, [this, p] { removePlot(p); });
  connect(p, &PlotWidget::abRequested, this, &PlotPanel::setAbCursor);
}

void PlotPanel::removePlot(PlotWidget* plot) {
  auto it = std::find(plots_.begin(), plots_.end(), plot);
  if (it == plots_.end()) return;
  plots_.erase(it);
  if (current_ == plot) current_ = plots_.empty() ? nullptr : plots_.front();
  plot->hide();  // gone at once, deleted once the event that removed it is over
  plot->deleteLater();
}

void PlotPanel::removeXyPlot(XyPlotWidget* plot) {
  auto it = std::find(xy_plots_.begin(), xy_plots_.end(), plot);
  if (it == xy_plots_.end()) return;
  xy_plots_.erase(it);
  plot->hide();
  plot->deleteLater();
}

void PlotPanel::clearPlots() {
  for (PlotWidget* p : std::vector<PlotWidget*>(plots_)) removePlot(p);
  for (XyPlotWidget* p : std::vector<XyPlotWidget*>(xy_plots_)) removeXyPlot(p);
  current_ = nullptr;
}

std::vector<QWidget*> PlotPanel::plotsInOrder() const {
  // The splitter still holds removed plots until they are deleted: only the live ones count.
  std::vector<QWidget*> out;
  for (int i = 0; i < splitter_->count(); ++i) {
    QWidget* w = splitter_->widget(i);
    const bool live = std::find(plots_.begin(), plots_.end(), w) != plots_.end() ||
                      std::find(xy_plots_.begin(), xy_plots_.end(), w) != xy_plots_.end();
    if (live) out.push_back(w);
  }
  return out;
}

PlotWidget* PlotPanel::currentPlot() const { return current_ ? current_ : (plots_.empty() ? nullptr : plots_.front()); }

void PlotPanel::setCursorTime(double t) {
  // Applied on the next tick: moving the cursor repaints every chart, so not at 60 Hz.
  if (t == cursor_s_) return;
  cursor_s_ = t;
  cursor_dirty_ = cursor_moved_ = true;
}

void PlotPanel::setAbCursor(int which, double t) {
  if (which == 0)
    ab_.a_s = t;
  else if (which == 1)
    ab_.b_s = t;
  else
    ab_ = {};
  for (PlotWidget* p : plots_) p->setAbCursors(ab_);
  ab_label_->setText(abText());
}

QString PlotPanel::abText() const {
  QStringList parts;
  if (ab_.a_s) parts << tr("A %1 s").arg(*ab_.a_s, 0, 'f', 3);
  if (ab_.b_s) parts << tr("B %1 s").arg(*ab_.b_s, 0, 'f', 3);
  if (ab_.complete()) parts << tr("Δt %1 s").arg(ab_.dt_s(), 0, 'f', 3);
  return parts.join("   ");
}

void PlotPanel::setMarkers(const std::vector<TimeMarker>& markers) {
  markers_ = markers;
  for (PlotWidget* p : plots_) p->setMarkers(markers_);
}

void PlotPanel::setFollow(bool on) {
  follow_ = on;
  if (follow_button_->isChecked() != on) follow_button_->setChecked(on);
  dirty_ = true;
}

void PlotPanel::setWindow(double s) {
  window_s_ = s;
  if (window_box_->value() != s) window_box_->setValue(s);
  dirty_ = true;
}

void PlotPanel::tick() {
  if (cursor_moved_ && (cursor_s_ < x0_ || cursor_s_ > x1_)) dirty_ = true;  // the window must move
  if (dirty_) {
    redrawNow();
  } else if (cursor_dirty_) {
    cursor_dirty_ = cursor_moved_ = false;
    for (PlotWidget* p : plots_) p->setCursorTime(cursor_s_);
    for (XyPlotWidget* p : xy_plots_) p->setCursorTime(cursor_s_);
  }
}

void PlotPanel::redrawNow() {
  dirty_ = cursor_dirty_ = false;
  if (follow_) {
    x1_ = std::max(window_s_, store_->simulationEnd_s());
    x0_ = x1_ - window_s_;
  }
  // Following, the cursor is always kept in view (a seek back); otherwise only when it moved, so
  // a window the user panned away from a still cursor stays where it was put.
  if (follow_ || cursor_moved_) std::tie(x0_, x1_) = keepInView(x0_, x1_, cursor_s_);
  cursor_moved_ = false;
  QElapsedTimer t;
  t.start();
  for (PlotWidget* p : plots_) {
    p->refresh(x0_, x1_);
    p->setCursorTime(cursor_s_);
  }
  alignTimeAxes();
  for (XyPlotWidget* p : xy_plots_) {
    p->refresh(x0_, x1_);
    p->setCursorTime(cursor_s_);
  }
  redraw_ms_sum_ += t.nsecsElapsed() * 1e-6;
  ++redraws_;
}

void PlotPanel::alignTimeAxes() {
  // Each plot's own left edge (without the added margin); all move to the rightmost one. The
  // charts lay out on the next event, so a change of label widths settles one redraw later.
  double target = 0;
  for (PlotWidget* p : plots_) target = std::max(target, p->plotAreaLeft() - p->extraLeftMargin());
  for (PlotWidget* p : plots_)
    p->setExtraLeftMargin(static_cast<int>(std::lround(target - (p->plotAreaLeft() - p->extraLeftMargin()))));
  // The right edges likewise (all charts are as wide as the splitter): the leftmost one wins.
  double right = std::numeric_limits<double>::infinity();
  for (PlotWidget* p : plots_) right = std::min(right, p->plotAreaRight() + p->extraRightMargin());
  for (PlotWidget* p : plots_)
    p->setExtraRightMargin(static_cast<int>(std::lround(p->plotAreaRight() + p->extraRightMargin() - right)));
}

double PlotPanel::takeMeanRedrawMs() {
  const double m = redraws_ ? redraw_ms_sum_ / redraws_ : 0.0;
  redraw_ms_sum_ = 0, redraws_ = 0;
  return m;
}

}  // namespace gapsim::gui
