// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The servo gains of a robot with Dynamixel servos (the BIOLOID GP): one row per servo
/// group (all joints of a <drivetrain>) and one per joint, one column per gain of the servo model
/// tau = clamp(-kp (q - qbar) - kd qdot - kc sgn(qdot), tau_min, tau_max). A cell is the parameter
/// `<row>/servo/<gain>` of sim/parameters.h, the name `gapsim-cli params` lists and `--set` takes;
/// an edit is handed on as (name, value), through the same path as an edit in the parameter tree.

#include <QTableWidget>
#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim::gui {

class ServoTable : public QTableWidget {
  Q_OBJECT
 public:
  explicit ServoTable(QWidget* parent = nullptr);

  /// Fills the table from the model; returns false (and empties it) if no joint has a Dynamixel
  /// servo model.
  bool fill(const RobotModel& model);
  /// Parameter name of a cell ("" for none).
  std::string parameterName(int row, int column) const;
  /// Row of a group or joint ("" not found: -1).
  int rowOf(const std::string& name) const;
  int columnOf(const std::string& gain) const;

 signals:
  void parameterEdited(const std::string& name, double value);
  void invalidText(const std::string& name, const QString& text);

 private:
  void onChanged(QTableWidgetItem* item);

  std::vector<std::string> rows_, gains_;
  bool filling_ = false;
};

}  // namespace gapsim::gui
