// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The plot layout as a JSON file (File > Save Layout / Load Layout, and the last one per robot
/// in QSettings): which signals are in which plot, the XY plots, each plot's unwrap toggle, the
/// time window and following, and the overlaid log files with their time offsets. PlotJuggler's
/// habit: a layout is the work of arranging plots, kept apart from the data it was made with.
///
///   {
///     "gapsim_layout": 1,
///     "robot": "nao_h25",
///     "window_s": 10, "follow": true,
///     "overlays": [ {"path": "/data/real_squat.csv", "offset_s": -0.25} ],
///     "plots": [
///       {"type": "time", "unwrap_angles": true,
///        "signals": ["torso/pitch_rad", {"overlay": 0, "column": "torso/pitch_rad"}]},
///       {"type": "xy", "x": "com/x_m", "y": "com/y_m"}
///     ]
///   }
///
/// A signal is a simulated column (a string) or a column of an overlay (its index in
/// "overlays"). Plots are listed top to bottom. Loading is forgiving: a signal the simulation or
/// its overlay lacks, or an overlay file that cannot be read, is left out and named in the
/// returned problems; only a file that is not such JSON is refused.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "app/gui/signal_store.h"

namespace gapsim::gui {

class PlotPanel;

struct LayoutSignal {
  int overlay = -1;  ///< -1: the simulation; else the index into PlotLayout::overlays
  std::string column;
  bool operator==(const LayoutSignal&) const = default;
};

struct LayoutPlot {
  enum class Kind { kTime, kXy };
  Kind kind = Kind::kTime;
  std::vector<LayoutSignal> series;  ///< time plots: in legend order; XY: x then y (either may be absent)
  bool unwrap_angles = true;         ///< time plots only
  bool operator==(const LayoutPlot&) const = default;
};

struct LayoutOverlay {
  QString path;  ///< absolute when saved
  double offset_s = 0.0;
  bool operator==(const LayoutOverlay&) const = default;
};

struct PlotLayout {
  static constexpr int kFormatVersion = 1;
  QString robot;  ///< the model name it was made for (informative; any robot can load it)
  double window_s = 10.0;
  bool follow = true;
  std::vector<LayoutOverlay> overlays;
  std::vector<LayoutPlot> plots;
  bool operator==(const PlotLayout&) const = default;
};

QByteArray layoutToJson(const PlotLayout& layout);
/// Throws std::runtime_error naming `where` (a file name) when the text is not a layout.
PlotLayout layoutFromJson(const QByteArray& json, const QString& where);

/// The panel's plots (top to bottom) with their signals; overlays as the store has them.
PlotLayout captureLayout(const PlotPanel& panel, const SignalStore& store);

/// Replaces the panel's plots by the layout's. `overlay_ids[i]` is the store id that stands for
/// layout.overlays[i] (-1 if it could not be opened). Returns one line per signal left out.
QStringList applyLayout(const PlotLayout& layout, const std::vector<int>& overlay_ids, PlotPanel& panel,
                        const SignalStore& store);

}  // namespace gapsim::gui
