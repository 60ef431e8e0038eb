// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The robot dock: what is loaded (name, mass, source), its joints with target, measured angle and
/// torque at the shown frame, and its parameters (model_params.h) as an editable tree. Edits go to
/// a copy of the model and apply with "Apply (reset)", which restarts the simulation with it;
/// "Save..." and "Load..." write and read parameter files. A robot with Dynamixel servos (the
/// BIOLOID GP) also gets the Servos tab (servo_table.h): its gains kp, kd, kc and torque clamp
/// per servo group and joint, edited through the same parameter names. MABEL gets the MABEL tab
/// (mabel_panel.h): transmission, spring and ground parameters and the hopping controller. Every
/// robot has the Drive tab (drive_curve_panel.h): the torque-speed envelope of a joint's drive.

#include <QWidget>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/keyframe_controller.h"
#include "sim/robot_model.h"

class QLabel;
class QTableWidget;
class QTreeWidget;
class QLineEdit;
class QTreeWidgetItem;
class QPushButton;
class QTabWidget;

namespace gapsim::gui {

class ServoTable;
class KeyframeTable;
class MabelPanel;
class DriveCurvePanel;

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
  QLabel* titleLabel() const { return title_; }
  QTreeWidget* parameterTree() const { return params_; }
  /// The filter box above the parameter tree.
  QLineEdit* parameterFilter() const { return param_filter_; }
  /// The servo gains table; shown as a tab only for robots with Dynamixel servos.
  ServoTable* servoTable() const { return servos_; }
  bool servoTabShown() const;
  QTabWidget* parameterTabs() const { return tabs_; }
  /// Shows a keyframe controller's keyframes in the Keyframes tab (until the next robot).
  void setController(const KeyframeController& c);
  KeyframeTable* keyframeTable() const { return keyframes_; }
  bool keyframeTabShown() const;
  /// The MABEL tab; shown only for robots with MABEL legs.
  MabelPanel* mabelPanel() const { return mabel_; }
  bool mabelTabShown() const;
  /// The Drive tab (every robot): the torque-speed envelope of a joint's drive.
  DriveCurvePanel* driveCurvePanel() const { return drive_; }

 signals:
  /// "Apply (reset)": restart with this model.
  void applyRequested(std::shared_ptr<const RobotModel> model);
  void errorOccurred(const QString& title, const QString& message);
  /// The MABEL tab's hopping-controller switch.
  void hopControllerToggled(bool on);

 private:
  void fillParameters();
  void onItemChanged(QTreeWidgetItem* item, int column);
  /// Sets one parameter on the edited copy (tree or servo table); false with the error reported.
  bool applyEdit(const std::string& name, double value);
  void refillLater();
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
  QLineEdit* param_filter_;
  std::map<std::string, double> file_defaults_;  // the robot file's parameter values
  std::string defaults_source_;
  QTabWidget* tabs_;
  ServoTable* servos_;
  KeyframeTable* keyframes_;
  MabelPanel* mabel_;
  DriveCurvePanel* drive_;
  QPushButton* apply_;
  bool dirty_ = false, filling_ = false;
};

}  // namespace gapsim::gui
