// SPDX-License-Identifier: GPL-3.0-or-later
// Redraw speed of the plot libraries with 4 signals of 10 minutes at 100 Hz (60 000 points each),
// the case a long log makes. Prints one line per variant: the time to hand the data to the chart and
// the time to repaint the widget, as medians over repeated frames. Run under a display (xvfb-run).
//
//   gapsim-plot-bench [--width 1000] [--frames 15]
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/gui/decimate.h"

#ifdef GAPSIM_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace {
constexpr int kSeries = 4;
constexpr int kPoints = 60000;  // 10 min at 100 Hz

struct Data {
  std::vector<double> t;
  std::vector<std::vector<double>> v;
};

Data makeData() {
  Data d;
  d.t.resize(kPoints);
  d.v.assign(kSeries, std::vector<double>(kPoints));
  unsigned seed = 1;
  for (int i = 0; i < kPoints; ++i) {
    d.t[i] = i * 0.01;
    for (int s = 0; s < kSeries; ++s) {
      seed = seed * 1664525u + 1013904223u;
      d.v[s][i] = std::sin(0.5 * d.t[i] * (s + 1)) + 0.05 * ((seed >> 8) / double(1 << 24) - 0.5);
    }
  }
  return d;
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x.empty() ? 0 : x[x.size() / 2];
}

// One chart frame: set the data for the window [x0, x1], then repaint synchronously.
void benchCharts(const Data& d, bool opengl, bool decimate, int width, int frames) {
  QChartView view;
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  auto *ax = new QValueAxis, *ay = new QValueAxis;
  chart->addAxis(ax, Qt::AlignBottom);
  chart->addAxis(ay, Qt::AlignLeft);
  std::vector<QLineSeries*> series;
  for (int s = 0; s < kSeries; ++s) {
    auto* ls = new QLineSeries;
    ls->setUseOpenGL(opengl);
    chart->addSeries(ls);
    ls->attachAxis(ax);
    ls->attachAxis(ay);
    series.push_back(ls);
  }
  ay->setRange(-1.1, 1.1);
  view.setChart(chart);
  view.resize(width, 300);
  view.show();
  QApplication::processEvents();
  std::vector<double> set_ms, paint_ms;
  for (int f = 0; f < frames; ++f) {
    // Full range, then scroll a little each frame as the live plot does.
    const double x0 = f * 0.5, x1 = d.t.back() + f * 0.5;
    QElapsedTimer t;
    t.start();
    ax->setRange(x0, x1);  // first: each change re-lays out every series
    for (int s = 0; s < kSeries; ++s) {
      QList<QPointF> pts;
      if (decimate) {
        pts = gapsim::gui::decimateMinMax({d.t, d.v[s]}, 0.0, x0, x1, width).points;
      } else {
        pts.reserve(kPoints);
        for (int i = 0; i < kPoints; ++i) pts.append(QPointF(d.t[i], d.v[s][i]));
      }
      series[s]->replace(pts);
    }
    set_ms.push_back(t.nsecsElapsed() * 1e-6);
    t.restart();
    view.repaint();
    QApplication::processEvents();
    paint_ms.push_back(t.nsecsElapsed() * 1e-6);
  }
  std::printf(
      "QtCharts QLineSeries opengl=%-3s decimated=%-3s points/series=%6lld  set_data_ms=%8.2f  repaint_ms=%8.2f  "
      "total_ms=%8.2f\n",
      opengl ? "yes" : "no", decimate ? "yes" : "no", static_cast<long long>(series[0]->count()), median(set_ms),
      median(paint_ms), median(set_ms) + median(paint_ms));
}

#ifdef GAPSIM_HAVE_QCUSTOMPLOT
void benchQcp(const Data& d, int width, int frames) {
  QCustomPlot plot;
  QVector<double> keys(d.t.begin(), d.t.end());
  for (int s = 0; s < kSeries; ++s) plot.addGraph();
  plot.yAxis->setRange(-1.1, 1.1);
  plot.resize(width, 300);
  plot.show();
  QApplication::processEvents();
  std::vector<double> set_ms, paint_ms;
  for (int f = 0; f < frames; ++f) {
    QElapsedTimer t;
    t.start();
    for (int s = 0; s < kSeries; ++s) plot.graph(s)->setData(keys, QVector<double>(d.v[s].begin(), d.v[s].end()), true);
    plot.xAxis->setRange(f * 0.5, d.t.back() + f * 0.5);
    set_ms.push_back(t.nsecsElapsed() * 1e-6);
    t.restart();
    plot.replot(QCustomPlot::rpImmediateRefresh);
    QApplication::processEvents();
    paint_ms.push_back(t.nsecsElapsed() * 1e-6);
  }
  std::printf(
      "QCustomPlot 2.1 (adaptive sampling)       points/series=%6d  set_data_ms=%8.2f  repaint_ms=%8.2f  "
      "total_ms=%8.2f\n",
      kPoints, median(set_ms), median(paint_ms), median(set_ms) + median(paint_ms));
}
#endif
}  // namespace

int main(int argc, char** argv) {
  QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
  QApplication app(argc, argv);
  int width = 1000, frames = 15;
  const QStringList a = QApplication::arguments();
  for (int i = 1; i + 1 < a.size(); ++i) {
    if (a[i] == "--width") width = a[i + 1].toInt();
    if (a[i] == "--frames") frames = a[i + 1].toInt();
  }
  std::printf("4 series x 60000 points (10 min at 100 Hz), plot %d x 300 px, median of %d frames\n", width, frames);
  const Data d = makeData();
  benchCharts(d, false, false, width, std::max(3, frames / 3));
  benchCharts(d, true, false, width, frames);
  benchCharts(d, false, true, width, frames);
  benchCharts(d, true, true, width, frames);
#ifdef GAPSIM_HAVE_QCUSTOMPLOT
  benchQcp(d, width, frames);
#else
  std::printf("QCustomPlot: not found (libqcustomplot-dev), not measured\n");
#endif
  return 0;
}
