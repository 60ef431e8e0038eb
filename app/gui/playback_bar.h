// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The playback toolbar: play/pause, single steps, reset, loop, speed (0.1x to 10x) and the time
/// scrubber over what has been simulated so far, with a tick at the run's fall or divergence.
/// Holds no state of its own: the SimSession does.

#include <QElapsedTimer>
#include <QToolBar>

#include "app/gui/marked_slider.h"
#include "app/gui/sim_session.h"

class QSlider;
class QLabel;
class QComboBox;

namespace gapsim::gui {

class PlaybackBar : public QToolBar {
  Q_OBJECT
 public:
  PlaybackBar(SimSession* session, QWidget* parent = nullptr);

  QAction* playAction() const { return play_; }
  QAction* stepForwardAction() const { return step_fwd_; }
  QAction* stepBackAction() const { return step_back_; }
  QAction* resetAction() const { return reset_; }
  QAction* loopAction() const { return loop_; }
  MarkedSlider* scrubber() const { return slider_; }
  QComboBox* speedBox() const { return speed_; }

 private:
  void refresh();
  void showEvents();
  SimSession* session_;
  QAction *play_, *step_fwd_, *step_back_, *reset_, *loop_;
  MarkedSlider* slider_;
  QLabel* time_;
  QComboBox* speed_;
  bool syncing_ = false;
  QElapsedTimer refresh_clock_;
  /// An event reached the bar before the history held a frame at its time (the worker reports
  /// events and frames separately): its mark is placed again when the history has grown.
  bool marks_pending_ = false;
};

}  // namespace gapsim::gui
