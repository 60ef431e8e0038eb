// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// One plot of the stacked plots: a Qt Charts view of some signals over a time range set by the
/// PlotPanel (all plots share it), drawn from min/max-decimated points (decimate.h) so redrawing
/// costs the same for 10 s or 10 min of log. Signals are dropped onto it from the signal tree.
/// Mouse: wheel zooms time, Shift+wheel zooms values, drag pans, click seeks, double click fits,
/// Shift+click puts cursor A and Ctrl+click cursor B (ab_cursors.h; the deltas are drawn in the
/// plot's top right corner).
///
/// Axes: ticks at nice numbers (nice_ticks.h), the time axis titled "time (s)", and one value axis
/// per unit among the shown signals (column_unit.h: radians left, newton metres right, a unitless
/// hop phase on an axis of its own), each titled with its quantity and unit and scaled to its own
/// signals. The legend above the plot area shows every name whole but for the part all names
/// share at the front (legend_labels.h, plot_legend.h).
///
/// Angles (columns ending in `_rad`) are drawn unwrapped by default (unwrap.h: no 2 pi jumps when
/// the roll of a fallen robot passes +-pi); the context menu switches it off per plot. Time
/// markers (the run's fall or divergence, run_event.h) are vertical lines across the plot area.

#include <QCategoryAxis>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QValueAxis>
#include <optional>
#include <vector>

#include "app/gui/ab_cursors.h"
#include "app/gui/column_unit.h"
#include "app/gui/plot_legend.h"
#include "app/gui/signal_drop_view.h"
#include "app/gui/signal_store.h"
#include "app/gui/unwrap.h"

namespace gapsim::gui {

/// A vertical line at a time on the plot's axis, with a short label at its top.
struct TimeMarker {
  double t_s = 0;
  QColor color;
  QString label;  ///< e.g. "fell"
};

class PlotWidget : public SignalDropView {
  Q_OBJECT
 public:
  PlotWidget(SignalStore* store, QWidget* parent = nullptr);

  bool addSignal(const SignalRef& ref);  ///< false if unknown or already shown
  void removeSignal(const SignalRef& ref);
  void clearSignals();
  /// Overrides the automatic colour and style of one shown signal (false if it is not shown).
  bool setSignalPen(const SignalRef& ref, const QPen& pen);
  /// Overrides the legend text of one shown signal (false if it is not shown).
  bool setSignalLabel(const SignalRef& ref, const QString& label);
  std::vector<SignalRef> signalRefs() const;
  /// Series currently drawn (signals whose source still exists).
  int seriesCount() const { return static_cast<int>(entries_.size()); }
  /// Points handed to the chart by the last refresh (all series).
  int pointsDrawn() const { return points_drawn_; }

  /// Redraws the signals for the time range [x0, x1] and moves the cursor to cursor_s.
  void refresh(double x0_s, double x1_s);
  void setCursorTime(double t_s);
  /// Replaces the time markers (empty: none).
  void setMarkers(const std::vector<TimeMarker>& markers);
  const std::vector<TimeMarker>& markers() const { return markers_; }
  /// Markers inside the shown time range (drawn).
  int visibleMarkerCount() const;
  /// Draw `_rad` columns unwrapped (default on).
  void setUnwrapAngles(bool on);
  bool unwrapAngles() const { return unwrap_; }
  /// The points drawn for a shown signal by the last refresh (empty if it is not shown).
  QList<QPointF> drawnPoints(const SignalRef& ref) const;
  /// The legend's texts as drawn, one per shown signal in the order added.
  QStringList legendTexts() const { return legend_.texts(); }
  /// The shared prefix shown once in grey before them ("LKneePitch/"); empty if none.
  QString legendTitle() const { return legend_.title(); }
  /// The time axis's tick labels and title.
  QStringList timeTickLabels() const;
  QString timeAxisTitle() const { return ax_->titleText(); }
  /// Value axes, one per unit group, in the order their first signal was added.
  int valueAxisCount() const { return static_cast<int>(axes_.size()); }
  QStringList valueTickLabels(int axis) const;
  QString valueAxisTitle(int axis) const;
  /// Index of the value axis a shown signal is drawn against; -1 if not shown.
  int valueAxisOf(const SignalRef& ref) const;
  /// The value range of an axis (min, max).
  std::pair<double, double> valueRange(int axis) const;

  /// Left edge of the plot area (px in the view) and a margin added left of the value axis, so
  /// stacked plots line their time axes up (PlotPanel sets it).
  double plotAreaLeft() const;
  int extraLeftMargin() const { return extra_left_; }
  void setExtraLeftMargin(int px);
  /// The same on the right: a plot with a value axis on the right (a second unit) is narrower,
  /// and the others are made as narrow so that a time is at the same x in every plot.
  double plotAreaRight() const;
  int extraRightMargin() const { return extra_right_; }
  void setExtraRightMargin(int px);

  /// Cursors A and B (drawn where set) and, when both are set, the readout of the deltas.
  void setAbCursors(const AbCursors& ab);
  struct AbRow {
    SignalRef ref;
    QString label;  ///< the legend text
    QString unit;
    AbDelta delta;
  };
  /// Per shown signal, its values at A and B as drawn (unwrapped angles while unwrap is on); empty
  /// unless both cursors are set.
  std::vector<AbRow> abRows() const;
  /// The readout text drawn in the plot ("" if hidden).
  QString abReadoutText() const;

  /// Values axis: automatic (default) or fixed after Shift+wheel until a double click.
  void setAutoY(bool on) { auto_y_ = on; }
  /// Draw new series with Qt Charts' OpenGL path (faster data updates; solid lines only, so
  /// overlays are told apart by a lighter colour instead of dashes). Needs a GL-capable platform.
  static void setUseOpenGL(bool on);
  static bool useOpenGL();

 signals:
  void signalsChanged();
  void zoomRequested(double factor, double around_s);
  void panRequested(double delta_s);
  void seekRequested(double t_s);
  /// Shift+click (which = 0, cursor A) or Ctrl+click (which = 1, cursor B) at t_s; which = -1:
  /// clear both (context menu).
  void abRequested(int which, double t_s);
  void fitRequested();
  void removeRequested();

 protected:
  /// Each dropped signal is added.
  void dropSignals(const std::vector<SignalRef>& refs) override;
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  struct Entry {
    SignalRef ref;
    QLineSeries* series = nullptr;
    bool angle = false;   // a `_rad` column: unwrapped while unwrap_ is on
    Unwrapped unwrapped;  // cache, grows with the simulated log
    ColumnUnit unit;
    QString label;  // set by setSignalLabel; empty: the store's name
  };
  struct ValueAxis {
    ColumnUnit unit;
    QCategoryAxis* axis = nullptr;
  };
  /// The signal as drawn (unwrapped while unwrap is on); nullopt if its source is gone.
  std::optional<SampledSignal> shownSignal(Entry& e);
  QCategoryAxis* axisFor(const ColumnUnit& unit);
  void dropUnusedAxes();
  void updateLegend();
  void updateAbItems();
  void updateCursorItem();
  void updateMarkerItems();
  double timeAt(const QPointF& view_pos) const;

  SignalStore* store_;
  QChart* chart_;
  QCategoryAxis* ax_;
  std::vector<ValueAxis> axes_;
  PlotLegend legend_;
  QGraphicsLineItem* cursor_item_;
  AbCursors ab_;
  QGraphicsLineItem* ab_lines_[2];
  QGraphicsSimpleTextItem* ab_labels_[2];
  QGraphicsRectItem* ab_box_;
  QGraphicsSimpleTextItem* ab_text_;
  std::vector<TimeMarker> markers_;
  std::vector<QGraphicsLineItem*> marker_lines_;
  std::vector<QGraphicsSimpleTextItem*> marker_labels_;
  std::vector<Entry> entries_;
  double cursor_s_ = 0, x0_ = 0, x1_ = 10;
  bool auto_y_ = true, unwrap_ = true;
  int points_drawn_ = 0;
  int extra_left_ = 0, extra_right_ = 0, top_margin_ = 0;
  int color_counter_ = 0;
  QPointF press_pos_;
  bool dragging_ = false;
};

}  // namespace gapsim::gui
