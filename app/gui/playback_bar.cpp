// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/playback_bar.h"

#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <cmath>

namespace gapsim::gui {

PlaybackBar::PlaybackBar(SimSession* session, QWidget* parent) : QToolBar(tr("Playback"), parent), session_(session) {
  setObjectName("playback");
  setMovable(false);
  play_ = addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play / pause"), session_, &SimSession::togglePlay);
  play_->setShortcut(Qt::Key_Space);
  step_back_ = addAction(style()->standardIcon(QStyle::SP_MediaSeekBackward), tr("Step back"), session_,
                         &SimSession::stepBackward);
  step_back_->setShortcut(Qt::Key_Left);
  step_fwd_ = addAction(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Step forward"), session_,
                        &SimSession::stepForward);
  step_fwd_->setShortcut(Qt::Key_Right);
  reset_ = addAction(style()->standardIcon(QStyle::SP_MediaSkipBackward), tr("Reset"), session_, &SimSession::reset);
  reset_->setShortcut(Qt::Key_R);
  loop_ = addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Loop"));
  loop_->setCheckable(true);
  loop_->setShortcut(Qt::Key_L);
  connect(loop_, &QAction::toggled, session_, &SimSession::setLoop);
  for (QAction* a : {play_, step_back_, step_fwd_, reset_, loop_})
    a->setToolTip(a->text() + " (" + a->shortcut().toString(QKeySequence::NativeText) + ")");
  addSeparator();
  speed_ = new QComboBox;
  for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0}) speed_->addItem(QStringLiteral("%1x").arg(s), s);
  speed_->setCurrentIndex(3);
  speed_->setToolTip(tr("Simulated seconds per wall-clock second"));
  speed_->setFocusPolicy(Qt::NoFocus);
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int i) { session_->setSpeed(speed_->itemData(i).toDouble()); });
  addWidget(speed_);
  connect(session_, &SimSession::speedChanged, this, [this](double s) {  // set elsewhere (command line)
    int i = speed_->findData(s);
    if (i < 0) {
      speed_->addItem(QStringLiteral("%1x").arg(s), s);
      i = speed_->count() - 1;
    }
    if (speed_->currentIndex() != i) speed_->setCurrentIndex(i);
  });
  addSeparator();
  slider_ = new MarkedSlider;
  slider_->setMinimumWidth(300);
  slider_->setFocusPolicy(Qt::NoFocus);
  slider_->setToolTip(tr("Seek within what has been simulated"));
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (!syncing_) session_->seekIndex(v);
  });
  addWidget(slider_);
  time_ = new QLabel;
  time_->setMinimumWidth(150);
  time_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  addWidget(time_);
  // At most 10 Hz while playing: each repaint of the bar takes main-thread time from the 3D view.
  connect(session_, &SimSession::frameShown, this, [this] {
    if (marks_pending_) showEvents();
    if (!session_->playing() || !refresh_clock_.isValid() || refresh_clock_.elapsed() > 100) refresh();
  });
  connect(session_, &SimSession::playingChanged, this, [this](bool playing) {
    play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  });
  connect(session_, &SimSession::eventsChanged, this, &PlaybackBar::showEvents);
  refresh();
}

void PlaybackBar::showEvents() {
  std::vector<MarkedSlider::Mark> marks;
  QString tip = tr("Seek within what has been simulated");
  const int frames = session_->frameCount();
  const double last_s = frames ? session_->frame(frames - 1).t_s : -1.0;
  marks_pending_ = false;
  for (const RunEvent& e : session_->events()) {
    marks_pending_ = marks_pending_ || e.t_s > last_s + 1e-9;
    marks.push_back({session_->indexAtOrAfter(e.t_s), eventColor(e.kind)});
    tip += "\n" + QString::fromStdString(bannerText(e));
  }
  slider_->setMarks(marks);
  slider_->setToolTip(tip);
}

void PlaybackBar::refresh() {
  refresh_clock_.start();
  syncing_ = true;
  slider_->setRange(0, std::max(0, session_->frameCount() - 1));
  slider_->setValue(session_->currentIndex());
  syncing_ = false;
  const double last = session_->frameCount() ? session_->frame(session_->frameCount() - 1).t_s : 0.0;
  const double end = session_->endTime_s();
  time_->setText(
      std::isfinite(end)
          ? tr("%1 / %2 s (end %3)").arg(session_->currentTime_s(), 0, 'f', 2).arg(last, 0, 'f', 2).arg(end, 0, 'f', 1)
          : tr("%1 / %2 s").arg(session_->currentTime_s(), 0, 'f', 2).arg(last, 0, 'f', 2));
}

}  // namespace gapsim::gui
