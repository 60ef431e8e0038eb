// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The Robot dock's Drive tab: the torque-speed envelope and drive/backdrive diagram of the joint
/// picked in its list, as `gapsim-cli drive-curve` computes it (calib/drive_curve.h: the compiled
/// drive of that joint, swept). Drawn with Qt Charts: tau_max(qd) and tau_min(qd), the backdriven
/// quadrants (II, IV) shaded, the stall and no-load points marked. It follows the dock's pending
/// parameter edits (the model it is given), so an edited gain shows before Apply. A joint without
/// an envelope (a coupled drive, a mimic) shows why in the text line instead.

#include <QWidget>
#include <memory>
#include <optional>
#include <string>

#include "calib/drive_curve.h"
#include "sim/robot_model.h"

class QAreaSeries;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QCategoryAxis;

namespace gapsim::gui {

class DriveCurvePanel : public QWidget {
  Q_OBJECT
 public:
  explicit DriveCurvePanel(QWidget* parent = nullptr);

  /// A newly loaded or edited robot: lists its movable joints (keeps the picked one if it is
  /// still there) and draws the picked joint's envelope (when the tab is shown; else when it is).
  void setModel(const RobotModel& model);
  /// Picks a joint by name and draws it; false if the robot has no such joint.
  bool showJoint(const std::string& joint);

  QComboBox* jointBox() const { return joints_; }
  QLabel* statusLabel() const { return status_; }
  QLineSeries* upperSeries() const { return upper_; }
  QLineSeries* lowerSeries() const { return lower_; }
  QScatterSeries* markSeries() const { return marks_; }
  /// The curve drawn (none when the joint has no envelope).
  const std::optional<calib::DriveCurve>& curve() const { return curve_; }

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  void redraw();

  std::unique_ptr<RobotModel> model_;
  std::optional<calib::DriveCurve> curve_;
  QComboBox* joints_;
  QLabel* status_;
  QChartView* view_;
  QChart* chart_;
  QCategoryAxis *ax_, *ay_;  // labels placed at exact multiples of the step ("0", not "-0.0")
  QLineSeries *upper_, *lower_;
  QLineSeries *shade2_top_, *shade2_bottom_, *shade4_top_, *shade4_bottom_;
  QAreaSeries *shade2_, *shade4_;
  QScatterSeries* marks_;
  bool stale_ = false;  // the model changed while the tab was hidden
};

}  // namespace gapsim::gui
