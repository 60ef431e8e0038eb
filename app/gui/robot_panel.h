// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The robot dock: what is loaded (name, mass, source), its joints with target, measured angle and
/// torque at the shown frame, and its parameters (model_params.h) as an editable tree. Edits go to
/// a copy of the model and apply with "Apply (reset)", which restarts the simulation with it;
/// "Save..." and "Load..." write and read parameter files.

#include <QWidget>
#include <memory>
#include <vector>

#include "sim/robot_model.h"

class QLabel;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;
class QPushButton;

namespace gapsim::gui {

class RobotPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RobotPanel(QWidget* parent = nullptr);

  /// Shows a newly loaded robot; `columns` are the log's (Recorder) columns.
  void setRobot(std::shared_ptr<const RobotModel> model, const std::vector<std::string>& columns);
  /// Fills the joint table from one log row (time first).
  void showRow(const std::vector<double>& row);
  /// The model with the pending edits (the loaded one if none).
  const RobotModel* editedModel() const { return edited_.get(); }
  bool hasPendingEdits() const { return dirty_; }
  /// Sets one parameter through the same path as an edit in the tree (tests, scripting).
  void editParameter(const std::string& name, double value);
  QTableWidget* jointTable() const { return joints_; }
  QTreeWidget* parameterTree() const { return params_; }

 signals:
  /// "Apply (reset)": restart with this model.
  void applyRequested(std::shared_ptr<const RobotModel> model);
  void errorOccurred(const QString& title, const QString& message);

 private:
  void fillParameters();
  void onItemChanged(QTreeWidgetItem* item, int column);
  void saveFile();
  void loadFile();

  std::shared_ptr<const RobotModel> model_;
  std::unique_ptr<RobotModel> edited_;
  struct JointColumns {
    int target = -1, measured = -1, torque = -1;
  };
  std::vector<JointColumns> joint_cols_;
  QLabel* title_;
  QTableWidget* joints_;
  QTreeWidget* params_;
  QPushButton* apply_;
  bool dirty_ = false, filling_ = false;
};

}  // namespace gapsim::gui
