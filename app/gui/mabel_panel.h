// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The MABEL tab of the robot dock: the cable-differential transmission and unilateral
/// spring of each leg (one column per <mabel_leg>, one row per parameter of
/// motorgear::MabelTransmission::Params: gear ratios, K_T, mu, rotor and pulley inertias, cable
/// K_C/Kd_C, spring K_B/Kd_B and hard stop), the compliant ground's parameters, and the hopping
/// controller: a switch that runs it (as `gapsim-cli run --controller hop`, drop start included)
/// and the live phase (I-V), hop count and torso offset h_Tor read from the log row shown.
/// A cell is the parameter `<leg>/<leaf>` or `<ground>/<leaf>` of sim/parameters.h (the names
/// `gapsim-cli params` lists and `--set` takes); an edit is handed on as (name, value), through the
/// same path as an edit in the parameter tree.

#include <QWidget>
#include <string>
#include <vector>

#include "sim/robot_model.h"

class QCheckBox;
class QLabel;
class QTableWidget;
class QTableWidgetItem;

namespace gapsim::gui {

class MabelPanel : public QWidget {
  Q_OBJECT
 public:
  explicit MabelPanel(QWidget* parent = nullptr);

  /// Fills the tables from the model; false (and empty) for a robot without MABEL legs.
  bool fill(const RobotModel& model);
  /// Finds the controller's columns (hop/phase, ...) among the log's; none: the status shows "off".
  void setColumns(const std::vector<std::string>& columns);
  /// Shows the controller state of one log row (time first).
  void showRow(const std::vector<double>& row);
  /// Reflects whether the session runs the controller (without emitting hopToggled).
  void setHopChecked(bool on);

  QTableWidget* legTable() const { return legs_; }
  QTableWidget* groundTable() const { return ground_; }
  QCheckBox* hopCheck() const { return hop_; }
  /// "I", "II", ..., "V" or "off"; the hop count as shown.
  QString phaseText() const;
  QString hopsText() const;
  /// Parameter name of a cell of either table ("" for none).
  std::string parameterName(const QTableWidget* table, int row, int column) const;
  /// Row of a transmission/spring leaf (e.g. "spring/K_B") in the leg table, -1 if none.
  int legRowOf(const std::string& leaf) const;
  int legColumnOf(const std::string& leg) const;

 signals:
  void parameterEdited(const std::string& name, double value);
  void invalidText(const std::string& name, const QString& text);
  void hopToggled(bool on);

 private:
  void onChanged(QTableWidgetItem* item);

  QTableWidget* legs_;
  QTableWidget* ground_;
  QCheckBox* hop_;
  QLabel* phase_;
  QLabel* hops_;
  QLabel* htor_;
  std::vector<std::string> leg_names_, leg_leaves_, ground_names_, ground_leaves_;
  int col_phase_ = -1, col_touchdowns_ = -1, col_htor_ = -1;
  bool filling_ = false;
};

}  // namespace gapsim::gui
