// SPDX-License-Identifier: GPL-3.0-or-later
// The plots on the offscreen platform: nice-number ticks, units and axis titles from the column
// names, one value axis per unit, whole legends, the cursor kept in view, cursors A and B, and the
// scrubber's click-to-seek.
#include <QMouseEvent>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>

#include "app/gui/column_unit.h"
#include "app/gui/legend_labels.h"
#include "app/gui/marked_slider.h"
#include "app/gui/nice_ticks.h"
#include "app/gui/plot_panel.h"
#include "app/gui/plot_widget.h"
#include "app/gui/signal_store.h"
#include "app/gui/time_window.h"
#include "app/gui/xy_plot_widget.h"
#include "sim/log_writer.h"

using namespace gapsim;
using namespace gapsim::gui;

namespace {
// 10 s at 100 Hz: a small pitch (amplitude 0.005 rad, the "0.00529" labels), both knees,
// a knee torque, the COM and a unitless hop phase 0..6.
void fill(SignalStore& store) {
  store.resetSimulation({"time_s", "torso/pitch_rad", "LKneePitch/q_rad", "RKneePitch/q_rad", "LKneePitch/q_target_rad",
                         "LKneePitch/tau_Nm", "com/x_m", "com/y_m", "hop/phase"});
  for (int i = 0; i <= 1000; ++i) {
    const double t = i * 0.01;
    store.appendSimulationRow({t, 0.00529 * std::sin(t) - 0.00016, 0.5 * t, -0.5 * t, 0.5 * t + 0.01, 0.1 * std::cos(t),
                               0.2 * t, 0.05 * std::sin(2 * t), double(i / 50 % 7)});
  }
}

// Two stacked time plots on the store above, shown: COM x (0..2 m) and a knee torque
// (-0.1..0.1 N m), whose value axes have labels of different widths ("2.0", "-0.10").
struct StackedPlots {
  SignalStore store;
  PlotPanel panel{filled(store)};
  StackedPlots() {
    panel.resize(600, 600);
    panel.addPlot()->addSignal({0, "com/x_m"});
    panel.addPlot()->addSignal({0, "LKneePitch/tau_Nm"});
    panel.show();
  }
  static SignalStore* filled(SignalStore& s) {
    fill(s);
    return &s;
  }
};

// A label is a nice number of its axis: the ticks are consecutive multiples of one step 1, 2 or
// 5 x 10^n, and each label prints no more decimals than that step needs.
void checkNice(const QStringList& labels, const char* what) {
  QVERIFY2(labels.size() >= 2, what);
  std::vector<double> v;
  for (const QString& l : labels) {
    bool ok = false;
    v.push_back(l.toDouble(&ok));
    QVERIFY2(ok, qPrintable(QString("%1: label '%2' is not a number").arg(what, l)));
    QVERIFY2(!l.startsWith("-0") || l.toDouble() != 0, qPrintable(QString("%1: '%2'").arg(what, l)));
  }
  const double step = v[1] - v[0];
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  QVERIFY2(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 || std::abs(mantissa - 5) < 1e-6,
           qPrintable(QString("%1: step %2 of %3").arg(what).arg(step).arg(labels.join(' '))));
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  for (std::size_t i = 0; i < v.size(); ++i) {
    QVERIFY2(std::abs(v[i] / step - std::round(v[i] / step)) < 1e-6,
             qPrintable(QString("%1: %2 not a multiple of %3").arg(what).arg(v[i]).arg(step)));
    if (i) QVERIFY2(std::abs(v[i] - v[i - 1] - step) < 1e-6 * step, what);
    const QString& l = labels[static_cast<qsizetype>(i)];
    if (!l.contains('e'))
      QVERIFY2(l.section('.', 1).size() == decimals,
               qPrintable(QString("%1: '%2' with step %3").arg(what, l).arg(step)));
  }
}
}  // namespace

class GuiPlotsTest : public QObject {
  Q_OBJECT
 private slots:
  void niceStepsAreOneTwoFiveTimesAPowerOfTen() {
    QCOMPARE(niceStep(0, 10, 6), 2.0);
    QCOMPARE(niceStep(1.3, 11.3, 11), 1.0);  // the 1.3/3.8/6.3 s: whole seconds now
    QCOMPARE(niceStep(-0.0058, 0.0049, 6), 0.002);
    QCOMPARE(niceStep(0, 0, 5), 0.0);
    QRandomGenerator rng(21);
    for (int i = 0; i < 500; ++i) {
      const double lo = (rng.generateDouble() - 0.5) * std::pow(10.0, rng.bounded(-6, 5));
      // A window at least 1e-3 of its distance from zero wide (a plot's range, not 1e-10 of it).
      const double hi =
          lo + std::max(1e-3 * std::abs(lo), rng.generateDouble() * std::pow(10.0, rng.bounded(-6, 5))) + 1e-9;
      const int max_ticks = rng.bounded(3, 12);
      const double step = niceStep(lo, hi, max_ticks);
      const auto ticks = niceTicks(lo, hi, step);
      QVERIFY(static_cast<int>(ticks.size()) <= max_ticks);
      QVERIFY(ticks.size() >= 1);
      QStringList labels;
      const QString format = niceLabelFormat(lo, hi, step);
      for (double t : ticks) labels << niceLabel(t, step, format);
      if (labels.size() >= 2) checkNice(labels, qPrintable(QString("[%1, %2]").arg(lo).arg(hi)));
    }
    QCOMPARE(niceLabel(-1e-18, 0.1, "%.1f"), QString("0.0"));  // never "-0.0"
  }

  void plotTickLabelsAreNiceNumbers() {
    SignalStore store;
    fill(store);
    PlotWidget plot(&store);
    plot.resize(800, 300);
    QVERIFY(plot.addSignal({SignalStore::kSimulation, "torso/pitch_rad"}));
    for (auto [x0, x1] : {std::pair{1.3, 11.3}, {0.0, 10.0}, {2.37, 2.61}, {0.1, 0.1004}}) {
      plot.refresh(x0, x1);
      checkNice(plot.timeTickLabels(), "time");
      checkNice(plot.valueTickLabels(0), "pitch");
    }
    plot.refresh(1.3, 11.3);
    QVERIFY2(plot.timeTickLabels().contains("2"), qPrintable(plot.timeTickLabels().join(' ')));
    QCOMPARE(plot.timeAxisTitle(), QString("time (s)"));
    QCOMPARE(plot.valueAxisTitle(0), QString("angle (rad)"));
  }

  void unitsComeFromTheColumnNames() {
    QCOMPARE(columnUnit("LKneePitch/tau_Nm"), (ColumnUnit{"N m", "torque"}));
    QCOMPARE(columnUnit("torso/gyro_x_rad_s"), (ColumnUnit{"rad/s", "angular velocity"}));
    QCOMPARE(columnUnit("LKneePitch/q_rad"), (ColumnUnit{"rad", "angle"}));
    QCOMPARE(columnUnit("com/x_m"), (ColumnUnit{"m", "length"}));
    QCOMPARE(columnUnit("time_s"), (ColumnUnit{"s", "time"}));
    QCOMPARE(columnUnit("motor/current_A").unit, QString("A"));
    QCOMPARE(columnUnit("pid/U_V").unit, QString("V"));
    QCOMPARE(columnUnit("LFoot/force_N").unit, QString("N"));
    QCOMPARE(columnUnit("hop/phase"), ColumnUnit{});
    QCOMPARE(columnUnit("gear/hull_contact"), ColumnUnit{});
    QCOMPARE(columnUnit("imu/temperature_C").unit, QString("°C"));
    QCOMPARE(axisTitle(columnUnit("LKneePitch/tau_Nm")), QString("torque (N m)"));
    QCOMPARE(axisTitle({}), QString("no unit"));
  }

  void oneValueAxisPerUnit() {
    SignalStore store;
    fill(store);
    PlotWidget plot(&store);
    plot.resize(800, 300);
    const SignalRef x{0, "com/x_m"}, y{0, "com/y_m"}, phase{0, "hop/phase"}, tau{0, "LKneePitch/tau_Nm"};
    plot.addSignal(x);
    plot.addSignal(phase);  // MABEL's hop phase does not share the metres' axis
    plot.addSignal(y);
    plot.refresh(0, 10);
    QCOMPARE(plot.valueAxisCount(), 2);
    QCOMPARE(plot.valueAxisOf(x), 0);
    QCOMPARE(plot.valueAxisOf(y), 0);
    QCOMPARE(plot.valueAxisOf(phase), 1);
    QCOMPARE(plot.valueAxisTitle(0), QString("length (m)"));
    QCOMPARE(plot.valueAxisTitle(1), QString("no unit"));
    // Each axis is scaled to its own signals: the phase's 0..6 does not flatten x's 0..2 m.
    QVERIFY(plot.valueRange(0).second < 2.5 && plot.valueRange(0).first > -0.5);
    QVERIFY(plot.valueRange(1).second >= 6 && plot.valueRange(1).first <= 0);
    checkNice(plot.valueTickLabels(1), "phase");
    plot.addSignal(tau);
    QCOMPARE(plot.valueAxisCount(), 3);
    QCOMPARE(plot.valueAxisTitle(2), QString("torque (N m)"));
    // Removing the last signal of a unit removes its axis; the first left becomes the left axis.
    plot.removeSignal(x);
    plot.removeSignal(y);
    QCOMPARE(plot.valueAxisCount(), 2);
    QCOMPARE(plot.valueAxisOf(phase), 0);
    QCOMPARE(plot.valueAxisOf(tau), 1);
    plot.refresh(0, 10);
    checkNice(plot.valueTickLabels(0), "phase after removal");
  }

  void legendsAreWholeAndUnique() {
    // Names that differ only at the front or only at the end stay whole.
    const QStringList knees{"LKneePitch/q_rad", "RKneePitch/q_rad"};
    QCOMPARE(legendLabels(knees), knees);
    QCOMPARE(legendLabels({"LKneePitch/q_rad", "LKneePitch/q_target_rad", "LKneePitch/tau_Nm"}),
             (QStringList{"…/q_rad", "…/q_target_rad", "…/tau_Nm"}));
    QCOMPARE(legendLabels({"real.csv: torso/pitch_rad", "real.csv: com/x_m"}),
             (QStringList{"…: torso/pitch_rad", "…: com/x_m"}));
    QCOMPARE(legendLabels({"torso/pitch_rad"}), QStringList{"torso/pitch_rad"});
    QCOMPARE(legendPrefix({"LKneePitch/q_rad", "LKneePitch/tau_Nm"}), QString("LKneePitch/"));
    QCOMPARE(legendPrefix(knees), QString());
    // On a narrow plot with many signals the legend wraps onto more rows instead of cutting names.
    SignalStore store;
    fill(store);
    PlotWidget plot(&store);
    plot.resize(360, 300);
    const QStringList cols{"LKneePitch/q_rad", "RKneePitch/q_rad", "LKneePitch/q_target_rad", "torso/pitch_rad",
                           "com/x_m"};
    for (const QString& c : cols) plot.addSignal({0, c.toStdString()});
    const QStringList texts = plot.legendTexts();
    QCOMPARE(texts, cols);  // no common prefix: every name whole
    QCOMPARE(QSet<QString>(texts.begin(), texts.end()).size(), texts.size());
    plot.removeSignal({0, "torso/pitch_rad"});
    plot.removeSignal({0, "com/x_m"});
    plot.removeSignal({0, "RKneePitch/q_rad"});
    QCOMPARE(plot.legendTexts(), (QStringList{"…/q_rad", "…/q_target_rad"}));
    QCOMPARE(plot.legendTitle(), QString("LKneePitch/"));  // said once, in grey
  }

  void abCursorDeltasEqualTheData() {
    SignalStore store;
    fill(store);
    Log real({"time_s", "LKneePitch/q_rad"});
    for (int i = 0; i <= 500; ++i) real.appendRow(std::vector<double>{i * 0.01, std::sin(i * 0.01)});
    const int id = store.addOverlay("real.csv", "", real);
    store.setOffset(id, 0.5);  // its sample at t is drawn at t + 0.5 s
    PlotPanel panel(&store);
    panel.resize(800, 500);
    PlotWidget* p = panel.addPlot();
    const SignalRef knee{0, "LKneePitch/q_rad"}, tau{0, "LKneePitch/tau_Nm"}, overlay{id, "LKneePitch/q_rad"};
    p->addSignal(knee);
    p->addSignal(tau);
    p->addSignal(overlay);
    panel.setAbCursor(0, 2.0);
    QVERIFY(p->abRows().empty());  // B not set yet
    QCOMPARE(panel.abText(), QString("A 2.000 s"));
    emit p->abRequested(1, 3.5);  // Ctrl+click
    QCOMPARE(panel.abCursors().dt_s(), 1.5);
    QVERIFY(panel.abText().contains("Δt 1.500 s"));
    const SignalSource* sim = store.source(0);
    const auto at = [&](const std::string& c, int row) {
      return sim->values[static_cast<std::size_t>(sim->columnIndex(c))][static_cast<std::size_t>(row)];
    };
    const auto rows = p->abRows();
    QCOMPARE(rows.size(), std::size_t(3));
    QCOMPARE(rows[0].ref, knee);
    QCOMPARE(rows[0].delta.value_a, at("LKneePitch/q_rad", 200));  // samples at 2.00 s and 3.50 s
    QCOMPARE(rows[0].delta.value_b, at("LKneePitch/q_rad", 350));
    QCOMPARE(rows[0].delta.delta(), at("LKneePitch/q_rad", 350) - at("LKneePitch/q_rad", 200));
    QCOMPARE(rows[0].unit, QString("rad"));
    QCOMPARE(rows[1].delta.delta(), at("LKneePitch/tau_Nm", 350) - at("LKneePitch/tau_Nm", 200));
    QCOMPARE(rows[1].unit, QString("N m"));
    // The overlay's values are those of its samples at 1.5 s and 3.0 s (shown 0.5 s later).
    QVERIFY(std::abs(rows[2].delta.value_a - std::sin(1.5)) < 1e-12);
    QVERIFY(std::abs(rows[2].delta.delta() - (std::sin(3.0) - std::sin(1.5))) < 1e-12);
    p->refresh(0, 10);
    QVERIFY2(p->abReadoutText().contains("Δt = 1.5 s"), qPrintable(p->abReadoutText()));
    panel.setAbCursor(-1, 0);
    QVERIFY(p->abRows().empty());
    QVERIFY(p->abReadoutText().isEmpty());
  }

  void stackedPlotsLineUpTheirTimeAxes() {
    StackedPlots stacked;
    PlotPanel& panel = stacked.panel;
    for (int i = 0; i < 3; ++i) {
      panel.redrawNow();
      QCoreApplication::processEvents();
    }
    const auto& p = panel.plots();
    QVERIFY2(std::abs(p[0]->plotAreaLeft() - p[1]->plotAreaLeft()) <= 1,
             qPrintable(QString("%1 vs %2").arg(p[0]->plotAreaLeft()).arg(p[1]->plotAreaLeft())));
    QVERIFY(p[0]->extraLeftMargin() > 0 || p[1]->extraLeftMargin() > 0);    // one of them moved
    QVERIFY(p[0]->extraLeftMargin() == 0 || p[1]->extraLeftMargin() == 0);  // the other did not
  }

  void stackedPlotsLineUpInOneRedraw() {
    // New tick labels change a value axis's width; the charts lay that out only from the event
    // loop, so the panel must measure the plot areas laid out, or a screenshot taken right after
    // a redraw shows the time axes apart (by 7 px in a 1920x1080 window).
    StackedPlots stacked;
    SignalStore& store = stacked.store;
    PlotPanel& panel = stacked.panel;
    const auto& p = panel.plots();
    auto apart = [&] { return QString("%1 vs %2").arg(p[0]->plotAreaLeft()).arg(p[1]->plotAreaLeft()); };
    panel.redrawNow();
    QVERIFY2(std::abs(p[0]->plotAreaLeft() - p[1]->plotAreaLeft()) <= 1, qPrintable(apart()));
    // New samples widen the torque's labels ("-0.10" to "-2000"): one redraw lines them up again.
    std::vector<double> row{0.0};
    const SignalSource* sim = store.source(SignalStore::kSimulation);
    for (const auto& v : sim->values) row.push_back(v.back());
    for (int i = 1; i <= 50; ++i) {
      row[0] = 10.0 + 0.01 * i;
      row[5] = -2000.0 * i / 50;  // LKneePitch/tau_Nm
      store.appendSimulationRow(row);
    }
    panel.redrawNow();
    QVERIFY2(std::abs(p[0]->plotAreaLeft() - p[1]->plotAreaLeft()) <= 1, qPrintable(apart()));
    // A plot with a second unit has a value axis on the right: the others end where it ends.
    PlotWidget* two = panel.addPlot();
    two->addSignal({0, "com/y_m"});
    two->addSignal({0, "hop/phase"});
    QCOMPARE(two->valueAxisCount(), 2);
    panel.redrawNow();
    for (PlotWidget* q : {p[0], p[1]}) {
      QVERIFY2(std::abs(q->plotAreaRight() - two->plotAreaRight()) <= 1,
               qPrintable(QString("right edges %1 vs %2").arg(q->plotAreaRight()).arg(two->plotAreaRight())));
      QVERIFY2(std::abs(q->plotAreaLeft() - two->plotAreaLeft()) <= 1,
               qPrintable(QString("left edges %1 vs %2").arg(q->plotAreaLeft()).arg(two->plotAreaLeft())));
    }
    QVERIFY(p[0]->extraRightMargin() > 0 && two->extraRightMargin() == 0);
    // Back to one unit: the margins go again.
    two->removeSignal({0, "hop/phase"});
    panel.redrawNow();
    QCOMPARE(p[0]->extraRightMargin(), 0);
  }

  void xyPlotOfTheCom() {
    SignalStore store;
    fill(store);
    PlotPanel panel(&store);
    panel.resize(600, 600);
    XyPlotWidget* xy = panel.addXyPlot();
    const SignalRef x{0, "com/x_m"}, y{0, "com/y_m"};
    QVERIFY(xy->addSignal(x));  // the first drop is X
    QVERIFY(!xy->ySignal());
    QVERIFY(xy->addSignal(y));  // the second Y
    QVERIFY(!xy->addSignal({0, "no/such_m"}));
    panel.setFollow(false);
    panel.setCursorTime(3.0);
    panel.redrawNow();  // the window 0..10 s
    const auto [t0, t1] = panel.range();
    const SignalSource* sim = store.source(0);
    const auto& cx = sim->values[static_cast<std::size_t>(sim->columnIndex("com/x_m"))];
    const auto& cy = sim->values[static_cast<std::size_t>(sim->columnIndex("com/y_m"))];
    // Every sample in the window, as the pair (x(t), y(t)) of the log.
    const QList<QPointF> pts = xy->points();
    std::size_t k = 0;
    for (std::size_t i = 0; i < sim->time_s.size(); ++i) {
      if (sim->time_s[i] < t0 || sim->time_s[i] > t1) continue;
      QVERIFY(k < static_cast<std::size_t>(pts.size()));
      QCOMPARE(pts[static_cast<qsizetype>(k)], QPointF(cx[i], cy[i]));
      ++k;
    }
    QCOMPARE(static_cast<qsizetype>(k), pts.size());
    QCOMPARE(xy->cursorPoint().size(), 1);  // the dot at the cursor: row 300
    QCOMPARE(xy->cursorPoint().front(), QPointF(cx[300], cy[300]));
    QCOMPARE(xy->xAxisTitle(), QString("com/x_m (m)"));
    QCOMPARE(xy->yAxisTitle(), QString("com/y_m (m)"));
    checkNice(xy->xTickLabels(), "xy x");
    checkNice(xy->yTickLabels(), "xy y");
    xy->swapAxes();
    QCOMPARE(*xy->xSignal(), y);
    QCOMPARE(xy->points().front(), QPointF(cy[0], cx[0]));
  }

  void theCursorStaysInView() {
    QCOMPARE(keepInView(6, 10, 8), (std::pair{6.0, 10.0}));
    QCOMPARE(keepInView(6, 10, 2), (std::pair{2 - 0.4, 2 - 0.4 + 4}));
    QCOMPARE(keepInView(0, 4, 9), (std::pair{9 + 0.4 - 4, 9 + 0.4}));
    SignalStore store;
    fill(store);
    PlotPanel panel(&store);
    panel.resize(600, 400);
    panel.addPlot()->addSignal({0, "com/x_m"});
    panel.setWindow(4.0);
    panel.setCursorTime(10.0);
    panel.redrawNow();
    QCOMPARE(panel.range(), (std::pair{6.0, 10.0}));  // following the newest sample
    panel.setCursorTime(2.0);                         // a seek back while following
    panel.redrawNow();
    QVERIFY(panel.range().first <= 2.0 && panel.range().second >= 2.0);
    QCOMPARE(panel.range().second - panel.range().first, 4.0);
    // Not following: a window panned away from a still cursor stays; a seek moves it.
    panel.setFollow(false);
    emit panel.plots().front()->panRequested(5.0);
    panel.redrawNow();
    QVERIFY(panel.range().first > 2.0);
    panel.setCursorTime(9.5);
    panel.redrawNow();
    QVERIFY(panel.range().first <= 9.5 && panel.range().second >= 9.5);
  }

  void aClickOnTheScrubberSeeksThere() {
    MarkedSlider s;
    s.resize(400, 24);
    s.setRange(0, 1000);
    s.setValue(0);
    for (int target : {750, 300, 999}) {
      const QPoint at(s.markX(target), s.height() / 2);
      QTest::mouseClick(&s, Qt::LeftButton, Qt::NoModifier, at);
      // One pixel of a 400 px track is about 3 frames of 1000.
      QVERIFY2(std::abs(s.value() - target) <= 4,
               qPrintable(QString("clicked at %1, value %2").arg(target).arg(s.value())));
    }
    QVERIFY(std::abs(s.valueAt(s.markX(500)) - 500) <= 1);  // pixel rounding
  }
};

QTEST_MAIN(GuiPlotsTest)
#include "plots_test.moc"
