// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The overlay dock: for the selected overlaid log, its time offset (slider and box, +-10 s in
/// 10 ms steps), automatic alignment by cross-correlation of a chosen signal against the
/// simulation (torso pitch by default), and the RMS difference to the simulation of every signal
/// the two logs share, recomputed twice a second while the simulation grows. The computations are
/// calib/log_compare.h's; this widget only wires them to the store.

#include <QTimer>
#include <QWidget>
#include <optional>

#include "app/gui/signal_store.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QTableWidget;
class QPushButton;

namespace gapsim::gui {

/// Columns present in both the simulated log and overlay `id`, in the overlay's order.
std::vector<std::string> sharedColumns(const SignalStore& store, int id);
/// The rows of the RMS table: sharedColumns with the torso tilt first when there is one (the
/// figure a rising or falling robot is judged by, and the one calibration fits).
std::vector<std::string> rmsRows(const SignalStore& store, int id);
/// RMS of simulation - overlay for one shared column at the overlay's current offset.
RmsDifference overlayRms(const SignalStore& store, int id, const std::string& column);
/// Cross-correlation offset of overlay `id` against the simulation on `column` (search +-10 s).
std::optional<OffsetEstimate> overlayAlignment(const SignalStore& store, int id, const std::string& column);

class OverlayPanel : public QWidget {
  Q_OBJECT
 public:
  explicit OverlayPanel(SignalStore* store, QWidget* parent = nullptr);

  int currentOverlay() const { return current_; }
  void selectOverlay(int id);
  /// Aligns the current overlay on `column` (empty: the chosen one) and applies the offset.
  /// Returns false (with the reason in the status label) if there is nothing to align.
  bool alignCurrent(const std::string& column = {});
  /// Recomputes the RMS table now (otherwise twice a second when something changed).
  void updateRms();
  QTableWidget* rmsTable() const { return rms_; }
  QString statusText() const;
  /// The "align on" box: the signal Align uses (and the last one it used).
  QString alignSignal() const;
  /// Chooses it as the user does in the box; false if the current overlay does not share it.
  bool setAlignSignal(const QString& column);
  QPushButton* alignButton() const { return align_; }

 signals:
  void removeRequested(int id);

 private:
  void rebuildList();
  void showOffset();

  SignalStore* store_;
  int current_ = -1;
  QComboBox* overlays_;
  QSlider* slider_;
  QDoubleSpinBox* offset_box_;
  QComboBox* align_signal_;
  QPushButton* align_;
  QPushButton* remove_;
  QLabel* status_;
  QTableWidget* rms_;
  QTimer timer_;
  bool rms_dirty_ = true, syncing_ = false;
};

}  // namespace gapsim::gui
