// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The command line of `gapsim` and its scripted mode (documentation, tests, CI):
///   gapsim --robot nao --motion FILE --overlay LOG --play-for 2 --screenshot view.png
///          --plot-screenshot plots.png --quit
///   gapsim --calibration DIR --compare 2 --window-screenshot calibrate.png --quit
/// (the Calibrate dock on a results directory, with the before/after of scenario 2)
/// loads, plays the given simulated time, saves the images and exits with 0, or prints the error
/// and exits non-zero (2 bad input, 3 divergence, 1 anything else). The last line printed names
/// the run's fall or divergence as the banner does ("fell at 4.64 s: torso tilt 61 deg ...").

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <optional>

namespace gapsim::gui {

class MainWindow;

struct Options {
  QString robot;  ///< empty: the last one (QSettings) or nao
  QString motion;
  std::optional<double> frame_period_s;
  QStringList overlays;
  QStringList plots;         ///< --plot: columns of the n-th plot
  QString layout;            ///< --layout: plot layout file (MainWindow::loadLayout)
  QString hop;               ///< --hop: hopping-controller parameters (parseHopParams)
  QString balance;           ///< --balance: ankle balance on, with these parameters (parseBalanceParams)
  QString params;            ///< parameter file applied after loading (MainWindow::applyParameterFile)
  QString replay_recording;  ///< real BIOLOID recording to replay (MainWindow::openRecordingReplay)
  QString controller;        ///< keyframe controller to show in the Robot dock; "hop": MABEL's hopping controller
  QString drive_curve;       ///< joint whose envelope the Robot dock's Drive tab shows (raises the Robot dock)
  double speed = 1.0;
  std::optional<double> play_for_s;    ///< simulated seconds to play, then stop
  bool play = false;                   ///< start playing (interactive)
  std::optional<double> quit_after_s;  ///< wall seconds, then screenshots and quit
  QString screenshot, plot_screenshot, window_screenshot, export_csv;
  bool quit = false;
  bool align = false;  ///< align every overlay after playing
  QString align_on;    ///< column to align on (default: the pitch)
  bool stats = false;
  bool plot_opengl = false;
  QString calibration;        ///< results directory to show in the Calibrate dock
  QString start_calibration;  ///< start the Calibrate form's job (as filled in) into this directory
  int compare = -1;           ///< scenario of the before/after comparison (with calibration)
  bool apply_best = false;    ///< apply the calibration's best.params
  QString dock;               ///< dock to raise (its title, e.g. Calibrate)
  QString dock_screenshot;    ///< save that dock alone as PNG when done
  bool show_com = false, show_contacts = false, show_axes = false, hide_robot = false;
  std::optional<bool> follow;  ///< --follow / --no-follow; unset: the robot's default (floating base: on)
  int width = 1600, height = 1000;
  bool scripted() const {
    return quit || quit_after_s || !screenshot.isEmpty() || !plot_screenshot.isEmpty() ||
           !window_screenshot.isEmpty() || !dock_screenshot.isEmpty();
  }
};

/// Parses argv (after QApplication is built). On error prints it and returns nullopt with
/// exit_code set (0 for --help).
std::optional<Options> parseOptions(const QStringList& args, int& exit_code);

/// Applies the options to a shown window and drives the scripted part; finished(code) when done.
class ScriptedRun : public QObject {
  Q_OBJECT
 public:
  ScriptedRun(MainWindow* window, Options options, QObject* parent = nullptr);
  /// Loads what the options name; false (error printed) on bad input.
  bool start();

 signals:
  void finished(int exit_code);

 private:
  // start()'s steps, each false (error printed) on bad input.
  bool loadInputs();
  bool setUpControllers();
  bool setUpPlots();
  bool setUpDocks();
  void poll();
  void finish();
  void printStats(const char* when);

  MainWindow* w_;
  Options o_;
  QTimer poll_;
  QElapsedTimer wall_;
  QElapsedTimer stats_clock_;
  long stats_frames0_ = 0;
  double stats_sim0_ = 0;
  bool done_ = false, diverged_ = false;
};

}  // namespace gapsim::gui
