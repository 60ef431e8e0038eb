// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Every time series the GUI can plot: the simulated log (source 0, growing while the simulation
/// runs) and the overlaid real logs (one source per file, each with a time offset). Stored column
/// by column so a plot reads a signal without gathering it from rows.
///
/// A signal is named by (source id, column). An overlay's sample at t is shown at t + offset_s
/// (calib/log_compare.h's convention), so the offset slider moves the whole file on the axis.

#include <QObject>
#include <QString>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "calib/log_compare.h"

namespace gapsim {
class Log;
}

namespace gapsim::gui {

struct SignalRef {
  int source = -1;
  std::string column;
  bool operator==(const SignalRef&) const = default;
  bool operator<(const SignalRef& o) const { return source != o.source ? source < o.source : column < o.column; }
};

struct SignalSource {
  int id = -1;
  QString name;                      ///< "simulation" or the overlay file's name (unique)
  QString path;                      ///< overlay file path
  std::vector<std::string> columns;  ///< without time_s
  std::vector<double> time_s;
  std::vector<std::vector<double>> values;  ///< per column
  double offset_s = 0.0;                    ///< overlays only
  int columnIndex(const std::string& c) const;
};

class SignalStore : public QObject {
  Q_OBJECT
 public:
  static constexpr int kSimulation = 0;
  explicit SignalStore(QObject* parent = nullptr);

  /// Starts a new simulated log with these Recorder columns (time_s first), dropping old rows.
  void resetSimulation(const std::vector<std::string>& columns);
  /// Appends one Recorder row (time_s first).
  void appendSimulationRow(const std::vector<double>& row);
  /// Adds an overlay from a log already read; returns its id. Name made unique.
  int addOverlay(const QString& name, const QString& path, const Log& log);
  void removeOverlay(int id);
  void setOffset(int id, double offset_s);

  const SignalSource* source(int id) const;
  std::vector<int> sourceIds() const;
  std::vector<int> overlayIds() const;
  /// The signal as a view (times without the offset applied); nullopt if unknown.
  std::optional<SampledSignal> signal(const SignalRef& ref) const;
  double offset(int id) const;
  QString label(const SignalRef& ref) const;  ///< "torso/pitch_rad" or "file.csv: torso/pitch_rad"
  /// Latest time of the simulated log, or 0.
  double simulationEnd_s() const;
  /// First and last time over all sources with offsets applied; {0, 0} if empty.
  std::pair<double, double> timeSpan() const;
  /// A gapsim::Log of the simulated rows (for CSV export). Empty columns -> empty Log.
  Log simulationLog() const;

 signals:
  void sourcesChanged();  ///< added, removed or reset: rebuild trees
  void dataAppended();    ///< new simulation rows
  void offsetChanged(int id);

 private:
  std::map<int, SignalSource> sources_;
  int next_id_ = 1;
};

}  // namespace gapsim::gui
