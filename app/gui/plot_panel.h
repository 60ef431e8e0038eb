// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The stacked plots: any number of PlotWidgets sharing one time range and one time cursor (the
/// shown frame). While "follow" is on the range trails the newest simulated sample by the window
/// length; zooming or panning any plot turns it off (PlotJuggler's habit), a double click fits
/// everything. Redraws at most 20 times a second, and only when something changed. The cursor is
/// kept in view (time_window.h): a seek outside the window moves the window, following or not.
/// Cursors A and B (ab_cursors.h) are shared by all plots; the bar shows their times and delta-t.
/// The plot areas share their left and right edges, so a time is at the same x in every plot.

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <cmath>
#include <vector>

#include "app/gui/plot_widget.h"
#include "app/gui/xy_plot_widget.h"

class QSplitter;
class QToolButton;
class QDoubleSpinBox;
class QLabel;

namespace gapsim::gui {

class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  PlotPanel(SignalStore* store, QWidget* parent = nullptr);

  PlotWidget* addPlot();
  /// An XY plot below the others, drawn over the same time window, with the same cursor.
  XyPlotWidget* addXyPlot();
  const std::vector<XyPlotWidget*>& xyPlots() const { return xy_plots_; }
  void removePlot(PlotWidget* plot);
  void removeXyPlot(XyPlotWidget* plot);
  /// Removes every plot, time and XY (a layout is loaded next).
  void clearPlots();
  /// Time and XY plots top to bottom, as shown.
  std::vector<QWidget*> plotsInOrder() const;
  const std::vector<PlotWidget*>& plots() const { return plots_; }
  /// The plot double-clicked signals go to (the last one clicked or the first).
  PlotWidget* currentPlot() const;

  void setCursorTime(double t_s);
  /// Time markers (the run's fall or divergence) on every plot, present and added later.
  void setMarkers(const std::vector<TimeMarker>& markers);
  /// Sets cursor A (which = 0) or B (1) on every plot; which = -1 clears both.
  void setAbCursor(int which, double t_s);
  const AbCursors& abCursors() const { return ab_; }
  /// The bar's A-B text ("A 1.20 s  B 2.70 s  Δt 1.50 s"; empty if neither is set).
  QString abText() const;
  void setFollow(bool on);
  bool follow() const { return follow_; }
  void setWindow(double seconds);
  double window_s() const { return window_s_; }
  std::pair<double, double> range() const { return {x0_, x1_}; }
  /// Redraw now (tests, screenshots) instead of on the next timer tick.
  void redrawNow();
  /// Mean wall time of a redraw of all plots (ms) since the last call; 0 if none.
  double takeMeanRedrawMs();

 signals:
  void seekRequested(double t_s);

 private:
  void markDirty() { dirty_ = true; }
  void tick();
  void connectPlot(PlotWidget* p);
  /// Lines the stacked plots' time axes up: the same left and right edges of the plot area for all.
  void alignTimeAxes();

  SignalStore* store_;
  QSplitter* splitter_;
  QToolButton* follow_button_;
  QDoubleSpinBox* window_box_;
  QLabel* ab_label_;
  AbCursors ab_;
  std::vector<PlotWidget*> plots_;
  std::vector<XyPlotWidget*> xy_plots_;
  std::vector<TimeMarker> markers_;
  PlotWidget* current_ = nullptr;
  QTimer timer_;
  bool dirty_ = true, cursor_dirty_ = false, cursor_moved_ = false, follow_ = true;
  double x0_ = 0, x1_ = 10, window_s_ = 10;
  double cursor_s_ = std::nan("");  // none until the first frame is shown
  double redraw_ms_sum_ = 0;
  int redraws_ = 0;
};

}  // namespace gapsim::gui
