// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/plot_layout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "app/gui/plot_panel.h"

namespace gapsim::gui {

namespace {

QJsonValue signalToJson(const LayoutSignal& s) {
  if (s.overlay < 0) return QString::fromStdString(s.column);
  return QJsonObject{{"overlay", s.overlay}, {"column", QString::fromStdString(s.column)}};
}

[[noreturn]] void bad(const QString& where, const QString& what) {
  throw std::runtime_error(QStringLiteral("%1: not a gapsim plot layout: %2").arg(where, what).toStdString());
}

LayoutSignal signalFromJson(const QJsonValue& v, const QString& where) {
  if (v.isString()) return {-1, v.toString().toStdString()};
  const QJsonObject o = v.toObject();
  if (!v.isObject() || !o.value("column").isString() || !o.value("overlay").isDouble())
    bad(where, QStringLiteral("a signal is a column name or {\"overlay\": index, \"column\": name}"));
  return {o.value("overlay").toInt(), o.value("column").toString().toStdString()};
}

// The store id of a layout signal, or -1 (with the reason) if it cannot be shown.
int sourceOf(const LayoutSignal& s, const std::vector<int>& overlay_ids, const PlotLayout& layout, QString& why) {
  if (s.overlay < 0) return SignalStore::kSimulation;
  if (s.overlay >= static_cast<int>(overlay_ids.size()) || overlay_ids[static_cast<std::size_t>(s.overlay)] < 0) {
    why = s.overlay < static_cast<int>(layout.overlays.size())
              ? QStringLiteral("overlay %1 (%2) is not open")
                    .arg(s.overlay)
                    .arg(layout.overlays[static_cast<std::size_t>(s.overlay)].path)
              : QStringLiteral("no overlay %1 in the layout").arg(s.overlay);
    return -1;
  }
  return overlay_ids[static_cast<std::size_t>(s.overlay)];
}

}  // namespace

QByteArray layoutToJson(const PlotLayout& l) {
  QJsonArray overlays;
  for (const LayoutOverlay& o : l.overlays) overlays.append(QJsonObject{{"path", o.path}, {"offset_s", o.offset_s}});
  QJsonArray plots;
  for (const LayoutPlot& p : l.plots) {
    QJsonObject o;
    if (p.kind == LayoutPlot::Kind::kXy) {
      o["type"] = "xy";
      if (!p.series.empty()) o["x"] = signalToJson(p.series[0]);
      if (p.series.size() > 1) o["y"] = signalToJson(p.series[1]);
    } else {
      o["type"] = "time";
      o["unwrap_angles"] = p.unwrap_angles;
      QJsonArray sigs;
      for (const LayoutSignal& s : p.series) sigs.append(signalToJson(s));
      o["signals"] = sigs;
    }
    plots.append(o);
  }
  const QJsonObject root{{"gapsim_layout", PlotLayout::kFormatVersion},
                         {"robot", l.robot},
                         {"window_s", l.window_s},
                         {"follow", l.follow},
                         {"overlays", overlays},
                         {"plots", plots}};
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

PlotLayout layoutFromJson(const QByteArray& json, const QString& where) {
  QJsonParseError err;
  const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
  if (err.error != QJsonParseError::NoError)
    bad(where, QStringLiteral("offset %1: %2").arg(err.offset).arg(err.errorString()));
  const QJsonObject root = doc.object();
  if (!doc.isObject() || !root.contains("gapsim_layout")) bad(where, QStringLiteral("no \"gapsim_layout\" key"));
  if (root.value("gapsim_layout").toInt() != PlotLayout::kFormatVersion)
    bad(where, QStringLiteral("format version %1, this gapsim reads %2")
                   .arg(root.value("gapsim_layout").toVariant().toString())
                   .arg(PlotLayout::kFormatVersion));
  PlotLayout l;
  l.robot = root.value("robot").toString();
  l.window_s = root.value("window_s").toDouble(l.window_s);
  if (!(l.window_s > 0)) bad(where, QStringLiteral("window_s must be > 0"));
  l.follow = root.value("follow").toBool(l.follow);
  for (const QJsonValue& v : root.value("overlays").toArray()) {
    const QJsonObject o = v.toObject();
    if (!o.value("path").isString()) bad(where, QStringLiteral("an overlay needs a \"path\""));
    l.overlays.push_back({o.value("path").toString(), o.value("offset_s").toDouble(0.0)});
  }
  for (const QJsonValue& v : root.value("plots").toArray()) {
    const QJsonObject o = v.toObject();
    LayoutPlot p;
    const QString type = o.value("type").toString("time");
    if (type == "xy") {
      p.kind = LayoutPlot::Kind::kXy;
      if (o.contains("x")) p.series.push_back(signalFromJson(o.value("x"), where));
      if (o.contains("y")) {
        if (p.series.empty()) bad(where, QStringLiteral("an XY plot with \"y\" needs \"x\""));
        p.series.push_back(signalFromJson(o.value("y"), where));
      }
    } else if (type == "time") {
      p.unwrap_angles = o.value("unwrap_angles").toBool(true);
      for (const QJsonValue& s : o.value("signals").toArray()) p.series.push_back(signalFromJson(s, where));
    } else {
      bad(where, QStringLiteral("plot type '%1' (time or xy)").arg(type));
    }
    l.plots.push_back(std::move(p));
  }
  return l;
}

PlotLayout captureLayout(const PlotPanel& panel, const SignalStore& store) {
  PlotLayout l;
  l.window_s = panel.window_s();
  l.follow = panel.follow();
  const std::vector<int> ids = store.overlayIds();
  for (int id : ids) {
    const SignalSource* s = store.source(id);
    l.overlays.push_back({s->path, s->offset_s});
  }
  auto toLayout = [&](const SignalRef& r) {
    LayoutSignal s{-1, r.column};
    if (r.source != SignalStore::kSimulation)
      s.overlay = static_cast<int>(std::find(ids.begin(), ids.end(), r.source) - ids.begin());
    return s;
  };
  for (QWidget* w : panel.plotsInOrder()) {
    LayoutPlot p;
    if (auto* xy = qobject_cast<XyPlotWidget*>(w)) {
      p.kind = LayoutPlot::Kind::kXy;
      if (xy->xSignal()) p.series.push_back(toLayout(*xy->xSignal()));
      if (xy->ySignal()) p.series.push_back(toLayout(*xy->ySignal()));
    } else if (auto* t = qobject_cast<PlotWidget*>(w)) {
      p.unwrap_angles = t->unwrapAngles();
      for (const SignalRef& r : t->signalRefs()) p.series.push_back(toLayout(r));
    }
    l.plots.push_back(std::move(p));
  }
  return l;
}

QStringList applyLayout(const PlotLayout& layout, const std::vector<int>& overlay_ids, PlotPanel& panel,
                        const SignalStore& store) {
  QStringList problems;
  panel.clearPlots();
  panel.setWindow(layout.window_s);
  panel.setFollow(layout.follow);
  // The reference to a signal or the reason it is left out.
  auto resolve = [&](const LayoutSignal& s) -> std::optional<SignalRef> {
    QString why;
    const int source = sourceOf(s, overlay_ids, layout, why);
    if (source >= 0 && !store.signal({source, s.column})) {
      const SignalSource* src = store.source(source);
      why = QStringLiteral("%1 has no column %2")
                .arg(src ? src->name : QStringLiteral("source %1").arg(source), QString::fromStdString(s.column));
    }
    if (!why.isEmpty()) {
      problems << QStringLiteral("%1: %2").arg(QString::fromStdString(s.column), why);
      return std::nullopt;
    }
    return SignalRef{source, s.column};
  };
  for (const LayoutPlot& p : layout.plots) {
    if (p.kind == LayoutPlot::Kind::kXy) {
      XyPlotWidget* xy = panel.addXyPlot();
      const auto x = p.series.empty() ? std::nullopt : resolve(p.series[0]);
      const auto y = p.series.size() < 2 ? std::nullopt : resolve(p.series[1]);
      // A Y without its X is left out too: dropped alone it would become the X.
      if (x && y)
        xy->setSignals(*x, *y);
      else if (x)
        xy->addSignal(*x);
    } else {
      PlotWidget* t = panel.addPlot();
      t->setUnwrapAngles(p.unwrap_angles);
      for (const LayoutSignal& s : p.series)
        if (const auto r = resolve(s)) t->addSignal(*r);
    }
  }
  panel.redrawNow();
  return problems;
}

}  // namespace gapsim::gui
