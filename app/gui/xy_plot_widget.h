// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// An XY plot: one signal against another over the plots' time window (the COM's x against its
/// y, a foot's ZMP), with a dot at the time cursor. Drop one signal to set X, then another to set
/// Y (or two at once); the context menu swaps them. When Y comes from another source (an overlay),
/// it is taken at X's sample times, piecewise-linear, with each source's offset applied. Axes have
/// nice-number ticks and are titled with the signal and its unit.

#include <QCategoryAxis>
#include <QLineSeries>
#include <QScatterSeries>
#include <optional>

#include "app/gui/signal_drop_view.h"
#include "app/gui/signal_store.h"

namespace gapsim::gui {

class XyPlotWidget : public SignalDropView {
  Q_OBJECT
 public:
  XyPlotWidget(SignalStore* store, QWidget* parent = nullptr);

  /// Sets both signals (false if either is unknown; nothing changes then).
  bool setSignals(const SignalRef& x, const SignalRef& y);
  /// A dropped signal: X if there is none yet, else Y.
  bool addSignal(const SignalRef& ref);
  void swapAxes();
  std::optional<SignalRef> xSignal() const { return x_; }
  std::optional<SignalRef> ySignal() const { return y_; }

  /// Redraws the samples whose (shown) time lies in [x0_s, x1_s].
  void refresh(double x0_s, double x1_s);
  void setCursorTime(double t_s);
  /// The curve's points as drawn by the last refresh, and the cursor's dot (empty if none).
  QList<QPointF> points() const { return curve_->points(); }
  QList<QPointF> cursorPoint() const { return dot_->points(); }
  QString xAxisTitle() const { return axis_x_->titleText(); }
  QString yAxisTitle() const { return axis_y_->titleText(); }
  QStringList xTickLabels() const;
  QStringList yTickLabels() const;

 signals:
  void removeRequested();

 protected:
  /// Two or more dropped signals set X and Y; one is added as addSignal does.
  void dropSignals(const std::vector<SignalRef>& refs) override;
  void contextMenuEvent(QContextMenuEvent* e) override;

 private:
  /// (x, y) at time t of the X signal's timeline, or nullopt where either is undefined.
  std::optional<QPointF> pointAt(double t_shown_s) const;
  void updateTitles();

  SignalStore* store_;
  QChart* chart_;
  QCategoryAxis *axis_x_, *axis_y_;
  QLineSeries* curve_;
  QScatterSeries* dot_;
  std::optional<SignalRef> x_, y_;
  double x0_ = 0, x1_ = 10, cursor_s_ = std::nan("");
};

}  // namespace gapsim::gui
