// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The main window: the 3D view in the middle, docks for the robot, the signal tree, the overlays
/// and the stacked plots, the playback toolbar, menus, shortcuts, drag and drop of robot files,
/// motions and logs, recent files and the remembered layout (QSettings). Loading is all-or-nothing:
/// bad input shows the InputError text (file:line: field: what) and keeps the previous state.
///
/// A run's fall or divergence (run_event.h) shows as a coloured banner above the 3D view
/// ("fell at 4.64 s: torso tilt 60.03 deg > 60 deg fall threshold"), a marker on every plot and on the
/// scrubber, and in the status bar, until the next reset or load. The camera follows robots with a
/// floating base (they walk away) from the moment they are loaded; View > Follow Robot changes it.

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>
#include <memory>
#include <optional>
#include <string>

#include "app/gui/plot_layout.h"
#include "app/gui/signal_store.h"
#include "calib/recording_replay.h"
#include "sim/ankle_balance.h"
#include "sim/mabel_hop_controller.h"

class QLabel;
class QMenu;
class QPushButton;

namespace gapsim {
struct RobotModel;
class Motion;
}  // namespace gapsim

namespace gapsim::gui {

class GlView;
class PlotPanel;
class SignalTree;
class RobotPanel;
class OverlayPanel;
class PlaybackBar;
class SimSession;
class CalibratePanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  /// interactive = false: errors go to stderr instead of dialogs and QSettings are neither read
  /// nor written (scripted runs, tests).
  explicit MainWindow(bool interactive = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Each returns false after reporting the error; the application keeps its previous state.
  bool openRobot(const QString& name_or_path);
  bool openMotion(const QString& path, std::optional<double> frame_period_s = std::nullopt);
  bool openOverlay(const QString& path);
  /// A recorded trial (a manifest's first trial, a CSV a recordings.json names, or a CSV of the
  /// BIOLOID lean-to-stand package) replayed as `gapsim-cli replay` does: the loaded robot if it
  /// has the commanded joints (parameters included), else the trial's robot; the trial's start
  /// pose, scene and command stream after a 0.5 s settle (or the trial's); the recording as an
  /// overlay.
  bool openRecordingReplay(const QString& path);
  /// The options of that replay (as `gapsim-cli replay --settle 0.5`).
  static calib::ReplayOptions replayOptions();
  /// A BIOLOID keyframe controller file (sim/keyframe_controller.h): shown in the Robot dock's
  /// Keyframes tab (checked against the robot's legs; not played).
  bool openController(const QString& path);
  /// MABEL's hopping controller on or off (sim_session.h): restarts at t = 0 from the drop start
  /// and plots hop/phase; false (reported) for a robot it cannot drive (not MABEL).
  bool setHopController(bool on, const MabelHopController::Params& params = {});
  /// Gyro feedback on the stance ankles while a motion plays (Playback > Ankle Balance, as
  /// `gapsim-cli run --balance roll_rate=0.1`); restarts at t = 0; false (reported) for a robot
  /// without ankle roll and pitch joints above two foot contacts.
  bool setAnkleBalance(bool on, const BalanceParams& params = {});
  QAction* balanceAction() const { return balance_action_; }
  /// A dropped or opened file of any kind: robot (.urdf/.xml), overlay (CSV with '/' columns, i.e.
  /// a log) or motion (other CSV, .motion, joint tables).
  bool openAny(const QString& path);

  /// Applies a parameter file (name,value[,...]; a calibration's best.params) to the running
  /// robot and restarts the simulation with it. With `robot` (a calibration's --robot) that robot
  /// is loaded first unless it is the current one, and `base_params` (its --params) applied before.
  bool applyParameterFile(const QString& path, const QString& robot = {}, const QString& base_params = {});

  /// File > Save Layout / Load Layout (plot_layout.h). Loading opens the layout's overlay files
  /// that are not open yet (an existing file only; a missing one is named in the status bar), sets
  /// their offsets and replaces the plots; signals the simulation or an overlay lacks are left out
  /// and named in the status bar. False only for a file that cannot be read or is not a layout.
  bool saveLayout(const QString& path);
  bool loadLayout(const QString& path);
  /// What the last loadLayout (or remembered layout) left out, one line each.
  QStringList layoutProblems() const { return layout_problems_; }

  bool exportViewPng(const QString& path);
  /// The whole window as drawn, 3D view included (QWidget::grab leaves the view's native OpenGL
  /// window out).
  QImage grabWindow();
  bool exportPlotsPng(const QString& path);
  bool exportLogCsv(const QString& path);

  SimSession* session() const { return session_; }
  SignalStore* store() const { return store_; }
  GlView* view() const { return view_; }
  PlotPanel* plots() const { return plots_; }
  SignalTree* signalTree() const { return tree_; }
  RobotPanel* robotPanel() const { return robot_panel_; }
  OverlayPanel* overlayPanel() const { return overlay_panel_; }
  CalibratePanel* calibratePanel() const { return calibrate_panel_; }
  /// The last error message reported (scripted runs print it and exit non-zero).
  QString lastError() const { return last_error_; }
  /// The fall/divergence banner above the 3D view (hidden while the run has none).
  QLabel* banner() const { return banner_; }
  /// The info bar above the 3D view while a real recording replays on the robot file's default
  /// parameters and the robot ships a calibration for it (<robot dir>/calibration/
  /// lean_calibrated.params): it says what the defaults do and offers the calibration. Hidden
  /// otherwise; its button applies the calibration (applyParameterFile).
  QWidget* calibrationHint() const { return calibration_hint_; }
  QPushButton* calibrationHintButton() const { return calibration_hint_button_; }
  QAction* followAction() const { return follow_action_; }
  /// View > Ghost of the Recording (ghost_pose.h); on by default.
  QAction* ghostAction() const { return ghost_action_; }

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;
  void showEvent(QShowEvent* e) override;

 private:
  /// Poses the 3D view's ghost from the newest overlay with joint angles at the shown frame, or
  /// removes it (none, or switched off).
  void updateGhost();
  /// A motion CSV without a time_s column: asks for its frame period (interactive) or says how to
  /// give one, in the GUI's words.
  bool openMotionWithoutTimes(const QString& path);
  void buildMenus();
  void reportError(const QString& title, const QString& message);
  void addRecent(const QString& kind, const QString& path);
  void rebuildRecentMenu();
  void rebuildMotionMenu();
  void onLoaded();
  void onFrameShown(int index);
  void onEventsChanged();
  /// Shows or hides the calibration hint for the model now loaded.
  void updateCalibrationHint();
  void updateStatus();
  bool loadModel(std::shared_ptr<const RobotModel> model, std::shared_ptr<const Motion> motion);
  bool openRobotFile(const QString& name_or_path, bool restore_overlays);
  /// Opens (or finds open) the layout's overlays, then lays the plots out; fills layout_problems_.
  void applyPlotLayout(const PlotLayout& layout, const QString& layout_dir, bool open_overlays);
  /// The current robot's plot layout into QSettings (interactive only), and back.
  void rememberLayout();
  void restoreRememberedLayout(bool open_overlays);

  bool interactive_;
  SignalStore* store_;
  SimSession* session_;
  GlView* view_;
  std::unique_ptr<GlView> owned_view_;  // the view when it cannot be shown (no OpenGL windows)
  QWidget* view_container_ = nullptr;   // holds view_ in the widget tree (null without OpenGL windows)
  PlotPanel* plots_;
  SignalTree* tree_;
  RobotPanel* robot_panel_;
  OverlayPanel* overlay_panel_;
  CalibratePanel* calibrate_panel_;
  PlaybackBar* playback_;
  QAction* balance_action_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QMenu* motion_menu_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* banner_ = nullptr;
  QWidget* calibration_hint_ = nullptr;
  QLabel* calibration_hint_text_ = nullptr;
  QPushButton* calibration_hint_button_ = nullptr;
  bool replaying_recording_ = false;      // the session plays a real recording's commands (openRecordingReplay)
  bool calibration_hint_closed_ = false;  // closed by the user for this replay
  QAction* follow_action_ = nullptr;
  QAction* ghost_action_ = nullptr;
  std::string follow_default_for_;  // robot file whose default follow was applied (a reset keeps the user's)
  QString last_error_;
  QString robot_arg_;  // what the current robot was loaded from (name or path)
  QStringList layout_problems_;
  QElapsedTimer panel_clock_;
  bool docks_sized_ = false;  // the dock widths were set (or restored) once
};

}  // namespace gapsim::gui
