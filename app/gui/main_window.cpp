// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QOpenGLWidget>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <filesystem>
#include <iostream>
#include <map>

#include "app/gui/calibrate_panel.h"
#include "app/gui/ghost_pose.h"
#include "app/gui/gl_view.h"
#include "app/gui/mabel_panel.h"
#include "app/gui/model_params.h"
#include "app/gui/overlay_mapping.h"
#include "app/gui/overlay_panel.h"
#include "app/gui/playback_bar.h"
#include "app/gui/plot_panel.h"
#include "app/gui/plot_widget.h"
#include "app/gui/robot_panel.h"
#include "app/gui/run_event.h"
#include "app/gui/signal_tree.h"
#include "app/gui/sim_session.h"
#include "calib/recording_manifest.h"
#include "calib/replay_commands.h"
#include "sim/input_error.h"
#include "sim/keyframe_controller.h"
#include "sim/log_writer.h"
#include "sim/motion_readers.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::gui {

namespace {
constexpr int kMaxRecent = 10;
QString imuColumn(const SignalStore& store, const char* suffix) {
  const SignalSource* s = store.source(SignalStore::kSimulation);
  if (!s) return {};
  for (const std::string& c : s->columns)
    if (c.size() >= std::strlen(suffix) && c.compare(c.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
      return QString::fromStdString(c);
  return {};
}
}  // namespace

/// Long on purpose: the window's widget tree, docks and panels built top to bottom in the order
/// they are shown, each wired to the session where it is made.
MainWindow::MainWindow(bool interactive, QWidget* parent)
    : QMainWindow(parent),
      interactive_(interactive),
      store_(new SignalStore(this)),
      session_(new SimSession(store_, this)) {
  setWindowTitle("gapsim");
  setAcceptDrops(true);
  setDockNestingEnabled(true);
  // Qt's offscreen/minimal platforms have no OpenGL windows: there the view is kept out of the
  // window (drawing nothing) and a note takes its place.
  view_ = new GlView;
  auto* centre = new QWidget;
  auto* centre_layout = new QVBoxLayout(centre);
  centre_layout->setContentsMargins(0, 0, 0, 0);
  centre_layout->setSpacing(0);
  banner_ = new QLabel;
  banner_->setObjectName("eventBanner");
  banner_->setWordWrap(true);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  banner_->hide();
  centre_layout->addWidget(banner_);
  // Non-modal: the replay plays on while the user reads it.
  calibration_hint_ = new QFrame;
  calibration_hint_->setObjectName("calibrationHint");
  calibration_hint_->setStyleSheet("QFrame#calibrationHint { background: #fff4ce; border-bottom: 1px solid #d9c77a; }");
  auto* hint_layout = new QHBoxLayout(calibration_hint_);
  hint_layout->setContentsMargins(10, 5, 6, 5);
  calibration_hint_text_ = new QLabel;
  calibration_hint_text_->setWordWrap(true);
  calibration_hint_button_ = new QPushButton;
  auto* hint_close = new QToolButton;
  hint_close->setText(QStringLiteral("\u2715"));
  hint_close->setToolTip(tr("Hide this note for this replay"));
  hint_close->setAutoRaise(true);
  hint_layout->addWidget(calibration_hint_text_, 1);
  hint_layout->addWidget(calibration_hint_button_);
  hint_layout->addWidget(hint_close);
  calibration_hint_->hide();
  centre_layout->addWidget(calibration_hint_);
  connect(hint_close, &QToolButton::clicked, this, [this] {
    calibration_hint_closed_ = true;
    calibration_hint_->hide();
  });
  connect(calibration_hint_button_, &QPushButton::clicked, this, [this] {
    const QString file = calibration_hint_button_->property("file").toString();
    if (!file.isEmpty()) applyParameterFile(file);
  });
  if (GlView::platformSupportsOpenGL()) {
    view_container_ = QWidget::createWindowContainer(view_);  // takes the window
    view_container_->setMinimumSize(view_->minimumSize());
    view_container_->setFocusPolicy(Qt::ClickFocus);
    centre_layout->addWidget(view_container_, 1);
    if (PlotWidget::useOpenGL()) {
      // Qt Charts' OpenGL series add QOpenGLWidgets, and the first one added to a shown window
      // makes Qt recreate the window for OpenGL composition, deleting the view's native window
      // with it. A hidden one from the start has the window created that way once.
      auto* composition = new QOpenGLWidget(centre);
      composition->hide();
    }
  } else {
    owned_view_.reset(view_);
    auto* note = new QLabel(tr("No 3D view: the Qt platform '%1' has no OpenGL windows.\n"
                               "Run gapsim on a desktop or under xvfb-run.")
                                .arg(QGuiApplication::platformName()));
    note->setAlignment(Qt::AlignCenter);
    centre_layout->addWidget(note, 1);
  }
  setCentralWidget(centre);

  plots_ = new PlotPanel(store_);
  tree_ = new SignalTree(store_);
  robot_panel_ = new RobotPanel;
  overlay_panel_ = new OverlayPanel(store_);
  calibrate_panel_ = new CalibratePanel(store_);
  auto dock = [this](const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    addDockWidget(area, d);
    return d;
  };
  QDockWidget* plot_dock = dock(tr("Plots"), "plots", plots_, Qt::RightDockWidgetArea);
  QDockWidget* robot_dock = dock(tr("Robot"), "robot", robot_panel_, Qt::LeftDockWidgetArea);
  QDockWidget* signal_dock = dock(tr("Signals"), "signals", tree_, Qt::LeftDockWidgetArea);
  QDockWidget* overlay_dock = dock(tr("Overlays"), "overlays", overlay_panel_, Qt::LeftDockWidgetArea);
  QDockWidget* calibrate_dock = dock(tr("Calibrate"), "calibrate", calibrate_panel_, Qt::RightDockWidgetArea);
  tabifyDockWidget(signal_dock, overlay_dock);
  tabifyDockWidget(plot_dock, calibrate_dock);
  signal_dock->raise();
  plot_dock->raise();
  resizeDocks({robot_dock, signal_dock}, {430, 400}, Qt::Vertical);  // widths: showEvent, once the size is known

  playback_ = new PlaybackBar(session_);
  addToolBar(Qt::BottomToolBarArea, playback_);
  status_ = new QLabel;
  statusBar()->addPermanentWidget(status_, 1);
  plots_->addPlot();
  plots_->addPlot();

  buildMenus();
  connect(session_, &SimSession::loaded, this, &MainWindow::onLoaded);
  connect(session_, &SimSession::frameShown, this, &MainWindow::onFrameShown);
  connect(session_, &SimSession::eventsChanged, this, &MainWindow::onEventsChanged);
  connect(session_, &SimSession::playingChanged, this, &MainWindow::updateStatus);  // not 250 ms late
  connect(session_, &SimSession::simulationError, this,
          [this](const QString& m) { reportError(tr("The simulation diverged"), m); });
  connect(plots_, &PlotPanel::seekRequested, session_, &SimSession::seek);
  connect(tree_, &SignalTree::signalActivated, this, [this](const SignalRef& r) {
    if (PlotWidget* p = plots_->currentPlot()) p->addSignal(r);
  });
  connect(robot_panel_, &RobotPanel::errorOccurred, this, &MainWindow::reportError);
  connect(robot_panel_, &RobotPanel::hopControllerToggled, this, [this](bool on) { setHopController(on); });
  connect(robot_panel_, &RobotPanel::applyRequested, this,
          [this](std::shared_ptr<const RobotModel> m) { loadModel(std::move(m), session_->motion()); });
  connect(overlay_panel_, &OverlayPanel::removeRequested, store_, &SignalStore::removeOverlay);
  connect(calibrate_panel_, &CalibratePanel::applyRequested, this,
          [this](const QString& robot, const QString& base, const QString& best) {
            const bool ok = applyParameterFile(best, robot, base);
            calibrate_panel_->showApplyResult(ok, ok ? tr("Applied %1 to %2: the simulation restarted with it.")
                                                           .arg(best, QString::fromStdString(session_->model()->name))
                                                     : tr("Could not apply %1: %2").arg(best, last_error_));
          });
  connect(calibrate_panel_, &CalibratePanel::playScenarioRequested, this,
          [this](const QString& motion, const QString& reference) {
            if (openMotion(motion) && !reference.isEmpty()) openOverlay(reference);
          });
  auto* status_timer = new QTimer(this);
  connect(status_timer, &QTimer::timeout, this, &MainWindow::updateStatus);
  status_timer->start(250);
  panel_clock_.start();

  if (interactive_) {
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    docks_sized_ = restoreState(s.value("window/state").toByteArray());  // the user's layout wins
  }
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (docks_sized_) return;
  docks_sized_ = true;
  // The 3D view gets the larger share: about half the width (640 px of 1280, 800 of 1600), the
  // plots 30 % and the robot and signal docks the rest.
  auto* plots = findChild<QDockWidget*>("plots");
  auto* robot = findChild<QDockWidget*>("robot");
  if (plots && robot) resizeDocks({plots, robot}, {width() * 30 / 100, width() * 20 / 100}, Qt::Horizontal);
}

MainWindow::~MainWindow() = default;

/// Long on purpose: the menu bar as one table, an entry per statement in the order the menus show
/// them, each connected to the one function that does the work.
void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    const QString p =
        QFileDialog::getOpenFileName(this, tr("Open robot, motion or log"), QString(),
                                     tr("All gapsim files (*.urdf *.xml *.csv *.motion *.txt);;All files (*)"));
    if (!p.isEmpty()) openAny(p);
  });
  file->addAction(tr("Open &Robot..."), this, [this] {
    const QString p = QFileDialog::getOpenFileName(this, tr("Open robot"), QString::fromStdString(robotsDirectory()),
                                                   tr("Robot files (*.urdf *.xml);;All files (*)"));
    if (!p.isEmpty()) openRobot(p);
  });
  file->addAction(tr("Open &Motion..."), this, [this] {
    const QString p = QFileDialog::getOpenFileName(this, tr("Open motion"), QString(),
                                                   tr("Motions (*.csv *.motion *.txt);;All files (*)"));
    if (p.isEmpty()) return;
    if (p.endsWith(".txt", Qt::CaseInsensitive))
      openAny(p);  // asks for the frame period
    else
      openMotion(p);
  });
  file->addAction(tr("Open &Log Overlay..."), this, [this] {
    const QString p =
        QFileDialog::getOpenFileName(this, tr("Open a recorded log"), QString(), tr("CSV logs (*.csv);;All files (*)"));
    if (!p.isEmpty()) openOverlay(p);
  });
  file->addAction(tr("Replay Real Recordin&g..."), this, [this] {
    const QString p = QFileDialog::getOpenFileName(this, tr("Replay a recording (a manifest's first trial, or a CSV)"),
                                                   QString(), tr("Recordings (*.json *.csv);;All files (*)"));
    if (!p.isEmpty()) openRecordingReplay(p);
  });
  file->addAction(tr("Open &Keyframe Controller..."), this, [this] {
    const QString dir = QString::fromStdString(robotsDirectory()) + "/bioloid/controllers";
    const QString p = QFileDialog::getOpenFileName(this, tr("Open a keyframe controller"), dir,
                                                   tr("Controllers (*.csv);;All files (*)"));
    if (!p.isEmpty()) openController(p);
  });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  rebuildRecentMenu();
  file->addSeparator();
  file->addAction(tr("Save La&yout..."), this, [this] {
    const QString p =
        QFileDialog::getSaveFileName(this, tr("Save the plot layout"), "gapsim_layout.json", tr("Layouts (*.json)"));
    if (!p.isEmpty()) saveLayout(p);
  });
  file->addAction(tr("Load Layou&t..."), this, [this] {
    const QString p =
        QFileDialog::getOpenFileName(this, tr("Load a plot layout"), QString(), tr("Layouts (*.json);;All files (*)"));
    if (!p.isEmpty()) loadLayout(p);
  });
  file->addSeparator();
  file->addAction(tr("Export 3D View as PNG..."), this, [this] {
    const QString p = QFileDialog::getSaveFileName(this, tr("Export 3D view"), "gapsim_view.png", tr("PNG (*.png)"));
    if (!p.isEmpty()) exportViewPng(p);
  });
  file->addAction(tr("Export Plots as PNG..."), this, [this] {
    const QString p = QFileDialog::getSaveFileName(this, tr("Export plots"), "gapsim_plots.png", tr("PNG (*.png)"));
    if (!p.isEmpty()) exportPlotsPng(p);
  });
  file->addAction(tr("Export Simulated Log as CSV..."), QKeySequence::Save, this, [this] {
    const QString p = QFileDialog::getSaveFileName(this, tr("Export log"), "gapsim_log.csv", tr("CSV (*.csv)"));
    if (!p.isEmpty()) exportLogCsv(p);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* robot = menuBar()->addMenu(tr("&Robot"));
  for (const std::string& name : shippedRobots()) {
    const QString n = QString::fromStdString(name);
    robot->addAction(n, this, [this, n] { openRobot(n); });
  }
  robot->addSeparator();
  motion_menu_ = robot->addMenu(tr("Shipped &Motions"));

  QMenu* play = menuBar()->addMenu(tr("&Playback"));
  for (QAction* a : {playback_->playAction(), playback_->stepBackAction(), playback_->stepForwardAction(),
                     playback_->resetAction(), playback_->loopAction()})
    play->addAction(a);
  play->addSeparator();
  balance_action_ = play->addAction(tr("Ankle &Balance (Gyro Feedback)"));
  balance_action_->setCheckable(true);
  balance_action_->setToolTip(
      tr("Damp the torso's rocking with the gyro on the stance ankles, as a walking engine "
         "does. Walks and the kick name it and play with it; off plays them open loop (gapsim-cli run --open-loop; "
         "docs/walk.md). Restarts the run."));
  connect(balance_action_, &QAction::triggered, this, [this](bool on) {
    // Back on: the feedback the motion names (walks: roll and pitch), else the roll damper.
    const Motion* m = session_->motion().get();
    std::optional<BalanceParams> named;
    if (m) named = motionController(*m);
    setAnkleBalance(on, named.value_or(BalanceParams{}));
  });

  QMenu* view = menuBar()->addMenu(tr("&View"));
  auto toggle = [&](const QString& text, const QKeySequence& key, bool on, auto setter) {
    QAction* a = view->addAction(text);
    a->setCheckable(true);
    a->setChecked(on);
    a->setShortcut(key);
    connect(a, &QAction::toggled, view_, setter);
    return a;
  };
  follow_action_ = toggle(tr("&Follow Robot"), Qt::Key_F, view_->follow(), &GlView::setFollow);
  connect(view_, &GlView::followChanged, follow_action_, &QAction::setChecked);
  toggle(tr("Centre of &Mass"), Qt::Key_C, view_->showCom(), &GlView::setShowCom);
  toggle(tr("&Contacts and Forces"), Qt::Key_T, view_->showContacts(), &GlView::setShowContacts);
  toggle(tr("Joint &Axes"), Qt::Key_J, view_->showJointAxes(), &GlView::setShowJointAxes);
  ghost_action_ = view->addAction(tr("&Ghost of the Recording"));
  ghost_action_->setCheckable(true);
  ghost_action_->setChecked(true);
  ghost_action_->setShortcut(Qt::Key_G);
  ghost_action_->setToolTip(
      tr("An overlaid log with joint angles (<joint>/q_rad) drawn as a translucent robot at the "
         "cursor, coloured by each joint's error: green 0, red 0.2 rad and more"));
  connect(ghost_action_, &QAction::toggled, this, [this] { updateGhost(); });
  connect(store_, &SignalStore::sourcesChanged, this, [this] { updateGhost(); });
  connect(store_, &SignalStore::offsetChanged, this, [this] { updateGhost(); });
  view->addAction(tr("Reset &Camera"), Qt::Key_Home, view_, &GlView::resetCamera);
  view->addSeparator();
  view->addAction(tr("Add &Plot"), plots_, [this] { plots_->addPlot(); });
  view->addSeparator();
  for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About gapsim"), this, [this] {
    QMessageBox::about(this, tr("About gapsim"),
                       tr("<b>gapsim</b> — a simulator for small humanoid robots that closes the reality gap.<br>"
                          "This application is GPL-3.0-or-later (it links Qt Charts); the simulation libraries "
                          "are BSD-3-Clause.<br>%1")
                           .arg(view_->glInfo()));
  });
}

void MainWindow::reportError(const QString& title, const QString& message) {
  last_error_ = message;
  if (interactive_)
    QMessageBox::critical(this, title, message);
  else
    std::cerr << "gapsim: " << title.toStdString() << ": " << message.toStdString() << std::endl;
}

bool MainWindow::loadModel(std::shared_ptr<const RobotModel> model, std::shared_ptr<const Motion> motion) {
  try {
    session_->load(std::move(model), std::move(motion));
    return true;
  } catch (const std::exception& e) {
    reportError(tr("Cannot start the simulation"), QString::fromStdString(e.what()));
    return false;
  }
}

bool MainWindow::setAnkleBalance(bool on, const BalanceParams& params) {
  try {
    session_->setBalance(on ? std::optional<BalanceParams>(params) : std::nullopt);
  } catch (const std::exception& e) {
    reportError(tr("Cannot balance on the ankles"), QString::fromStdString(e.what()));
    balance_action_->setChecked(false);
    return false;
  }
  balance_action_->setChecked(on);
  return true;
}

bool MainWindow::setHopController(bool on, const MabelHopController::Params& params) {
  if (on && (!session_->model() || session_->model()->mabel_legs.empty())) {
    reportError(tr("Cannot run the hopping controller"),
                tr("the hopping controller drives MABEL only (robot '%1' has no <mabel_leg>)")
                    .arg(session_->model() ? QString::fromStdString(session_->model()->name) : QString()));
    return false;
  }
  try {
    session_->setHopController(on, params);
  } catch (const std::exception& e) {
    reportError(tr("Cannot run the hopping controller"), QString::fromStdString(e.what()));
    robot_panel_->mabelPanel()->setHopChecked(session_->hopControllerOn());
    return false;
  }
  // The controller's phase next to the torso angles, once, so that switching it on shows it at work.
  if (session_->hopControllerOn() && plots_->plots().size() > 1) {
    PlotWidget* p = plots_->plots()[1];
    const SignalRef phase{SignalStore::kSimulation, "hop/phase"};
    p->addSignal(phase);  // false (nothing) if already shown
  }
  return true;
}

bool MainWindow::openRobot(const QString& name_or_path) { return openRobotFile(name_or_path, true); }

bool MainWindow::openRobotFile(const QString& name_or_path, bool restore_overlays) {
  std::shared_ptr<const RobotModel> model;
  try {
    model = std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile(name_or_path.toStdString())));
  } catch (const std::exception& e) {
    reportError(tr("Cannot load the robot"), QString::fromStdString(e.what()));
    return false;
  }
  for (const std::string& w : model->warnings)
    statusBar()->showMessage(tr("warning: %1").arg(QString::fromStdString(w)), 8000);
  rememberLayout();  // the robot being left: its plots come back when it is loaded again
  replaying_recording_ = false;
  if (!loadModel(model, nullptr)) return false;
  restoreRememberedLayout(restore_overlays);
  robot_arg_ = name_or_path;
  if (interactive_) QSettings().setValue("lastRobot", name_or_path);
  if (QFileInfo(name_or_path).isFile()) addRecent("robot", QFileInfo(name_or_path).absoluteFilePath());
  return true;
}

bool MainWindow::openMotion(const QString& path, std::optional<double> frame_period_s) {
  if (!session_->model()) return false;
  std::shared_ptr<const Motion> motion;
  try {
    motion = std::make_shared<const Motion>(loadMotion(path.toStdString(), frame_period_s));
    std::vector<std::string> names;
    for (const Joint& j : session_->model()->joints) names.push_back(j.name);
    motion->checkJoints(names);
  } catch (const InputError& e) {
    if (e.field() == "time_s" && !frame_period_s) return openMotionWithoutTimes(path);
    reportError(tr("Cannot load the motion"), QString::fromStdString(e.what()));
    return false;
  } catch (const std::exception& e) {
    reportError(tr("Cannot load the motion"), QString::fromStdString(e.what()));
    return false;
  }
  const bool was_replaying = replaying_recording_;
  replaying_recording_ = false;  // another motion: not the recording's commands
  if (!loadModel(session_->model(), motion)) {
    replaying_recording_ = was_replaying;
    updateCalibrationHint();
    return false;
  }
  addRecent("motion", QFileInfo(path).absoluteFilePath());
  statusBar()->showMessage(tr("motion %1: %2 s").arg(QFileInfo(path).fileName()).arg(motion->endTime_s()), 5000);
  return true;
}

bool MainWindow::openMotionWithoutTimes(const QString& path) {
  const QString what =
      tr("%1 has no time_s column: its rows are frames at a fixed period.").arg(QFileInfo(path).fileName());
  if (!interactive_) {
    reportError(tr("Cannot load the motion"), what + " " +
                                                  tr("Open it from File > Open Motion, which asks for the frame "
                                                     "period, or start gapsim with --frame-period SECONDS."));
    return false;
  }
  bool ok = false;
  const double period = QInputDialog::getDouble(this, tr("Motion without times"), what + "\n" + tr("Frame period (s):"),
                                                0.01, 0.001, 1.0, 4, &ok);
  return ok && openMotion(path, period);
}

bool MainWindow::openOverlay(const QString& path) {
  int id = -1;
  try {
    // A recording's tilt column goes by the simulation's name for it (overlay_mapping.h).
    const SignalSource* sim = store_->source(SignalStore::kSimulation);
    const Log log = mapOverlayLog(Log::read(path.toStdString()), sim ? sim->columns : std::vector<std::string>{});
    id = store_->addOverlay(QFileInfo(path).fileName(), path, log);
  } catch (const std::exception& e) {
    reportError(tr("Cannot load the log"), QString::fromStdString(e.what()));
    return false;
  }
  addRecent("overlay", QFileInfo(path).absoluteFilePath());
  overlay_panel_->selectOverlay(id);
  // Overlay the pitch (and roll) on the plots that show the simulated ones.
  bool tilt_shown = false;
  const SignalSource* sim = store_->source(SignalStore::kSimulation);
  const std::string tilt = sim ? tiltColumn(sim->columns) : std::string();
  for (PlotWidget* p : plots_->plots())
    for (const SignalRef& r : p->signalRefs()) {
      if (r.source == SignalStore::kSimulation && store_->signal({id, r.column})) p->addSignal({id, r.column});
      tilt_shown = tilt_shown || (r.source == SignalStore::kSimulation && r.column == tilt);
    }
  // A recording with the torso tilt (the BIOLOID's rising trials) is compared on it: show it.
  if (!tilt.empty() && !tilt_shown && store_->signal({id, tilt}) && !plots_->plots().empty()) {
    PlotWidget* p = plots_->plots().front();
    p->addSignal({SignalStore::kSimulation, tilt});
    p->addSignal({id, tilt});
  }
  plots_->redrawNow();
  return true;
}

calib::ReplayOptions MainWindow::replayOptions() {
  calib::ReplayOptions o;  // the authors' wall, commands held at the recorded frames in whole ticks
  // The recorded start pose is not at rest in the model: settle on the wall first, as the shipped
  // calibration (robots/bioloid/calibration/lean_calibrated.params) was made.
  o.settle_s = 0.5;
  return o;
}

bool MainWindow::openRecordingReplay(const QString& path) {
  calib::ReplayTrial trial;
  calib::ReplayOptions options = replayOptions();
  try {
    const calib::RecordingManifest m = calib::loadRecordingOf(path.toStdString());
    trial = calib::readTrial(m.trials.front());
    options.wall = m.authors_wall;
    options.wall_face_x_m = m.wall_face_x_m;
  } catch (const std::exception& e) {
    reportError(tr("Cannot replay the recording"), QString::fromStdString(e.what()));
    return false;
  }
  // The loaded robot if it has the recording's joints (applied parameters stay), else the trial's
  // robot (the BIOLOID when it names none).
  auto fits = [&](const std::shared_ptr<const RobotModel>& m) {
    if (!m) return false;
    for (const std::string& j : trial.motion->joints())
      if (m->jointIndex(j) < 0) return false;
    return true;
  };
  const QString robot = QString::fromStdString(trial.spec.robot.empty() ? "bioloid" : trial.spec.robot);
  // A remembered layout's plots come with the robot, its overlays do not: the recording is the overlay.
  if (!fits(session_->model()) && (!openRobotFile(robot, false) || !fits(session_->model()))) return false;
  if (trial.spec.settle_s) options.settle_s = *trial.spec.settle_s;
  const RobotModel& base = *session_->model();
  std::shared_ptr<const RobotModel> model;
  std::shared_ptr<const Motion> commands;
  try {
    model = calib::replayModel(base, trial, options);
    commands = calib::replayCommands(trial, calib::motorMapFor(base), options);
  } catch (const std::exception& e) {
    reportError(tr("Cannot replay the recording"), QString::fromStdString(e.what()));
    return false;
  }
  replaying_recording_ = true;
  calibration_hint_closed_ = false;
  if (!loadModel(model, commands)) {
    replaying_recording_ = false;
    updateCalibrationHint();
    return false;
  }
  if (!openOverlay(QString::fromStdString(trial.recording_path))) return false;
  // The recording's first frame is simulated t = settle.
  const double t0 = trial.recording->column("time_s").front();
  store_->setOffset(overlay_panel_->currentOverlay(), options.settle_s - t0);
  statusBar()->showMessage(tr("replaying %1: the trial's start pose, %2 s settle, its commands as sent "
                              "(gapsim-cli replay --settle %2)")
                               .arg(QString::fromStdString(trial.name))
                               .arg(options.settle_s),
                           8000);
  return true;
}

bool MainWindow::applyParameterFile(const QString& path, const QString& robot, const QString& base_params) {
  if (!robot.isEmpty()) {
    std::string wanted;
    try {
      wanted = std::filesystem::weakly_canonical(resolveRobotFile(robot.toStdString())).string();
    } catch (const std::exception& e) {
      reportError(tr("Cannot apply the parameters"), QString::fromStdString(e.what()));
      return false;
    }
    const auto current = session_->model();
    const bool same = current && std::filesystem::weakly_canonical(current->source_file).string() == wanted;
    if (!same && !openRobot(robot)) return false;
  }
  if (!session_->model()) {
    reportError(tr("Cannot apply the parameters"), tr("%1: no robot loaded").arg(path));
    return false;
  }
  RobotModel model = *session_->model();
  try {
    if (!base_params.isEmpty()) loadParameterFile(base_params.toStdString(), model);
    loadParameterFile(path.toStdString(), model);
  } catch (const std::exception& e) {
    reportError(tr("Bad parameter file"), QString::fromStdString(e.what()));
    return false;
  }
  if (!loadModel(std::make_shared<const RobotModel>(std::move(model)), session_->motion())) return false;
  statusBar()->showMessage(tr("parameters from %1 applied").arg(QFileInfo(path).fileName()), 8000);
  return true;
}

bool MainWindow::openController(const QString& path) {
  if (!session_->model()) return false;
  try {
    const KeyframeController c = KeyframeController::read(path.toStdString());
    c.checkAgainst(LegMirror::bioloid(*session_->model()));
    robot_panel_->setController(c);
  } catch (const std::exception& e) {
    reportError(tr("Cannot load the controller"), QString::fromStdString(e.what()));
    return false;
  }
  addRecent("controller", QFileInfo(path).absoluteFilePath());
  return true;
}

bool MainWindow::openAny(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "urdf" || suffix == "xml") return openRobot(path);
  if (suffix == "motion") return openMotion(path);
  if (suffix == "txt") {
    bool ok = !interactive_;
    const double period =
        interactive_ ? QInputDialog::getDouble(this, tr("Joint table"), tr("Frame period (s):"), 0.02, 1e-4, 10, 4, &ok)
                     : 0.02;
    return ok && openMotion(path, period);
  }
  // A CSV: a log has '/' in its column names (signals); a motion names joints.
  QFile f(path);
  if (f.open(QIODevice::ReadOnly)) {
    QString header;
    while (!f.atEnd()) {
      header = QString::fromUtf8(f.readLine()).trimmed();
      if (!header.isEmpty() && !header.startsWith('#')) break;
    }
    if (header.contains('/')) return openOverlay(path);
    if (header.startsWith("duration_s,")) return openController(path);  // keyframe controller
  }
  return openMotion(path);
}

void MainWindow::onLoaded() {
  const auto model = session_->model();
  view_->setRobot(model, session_->frame(0));
  // A robot with a floating base walks out of a fixed camera: follow it. Only when another robot
  // file is loaded, so that a reset or new parameters keep what the user chose.
  if (model->source_file != follow_default_for_) {
    follow_default_for_ = model->source_file;
    view_->setFollow(!model->fixed_base);
  }
  robot_panel_->setRobot(model, session_->columns());
  if (balance_action_) balance_action_->setChecked(session_->balanceOn());  // a robot without ankles turned it off
  setWindowTitle(QStringLiteral("gapsim — %1%2")
                     .arg(QString::fromStdString(model->name),
                          session_->motion()
                              ? " — " + QFileInfo(QString::fromStdString(session_->motion()->sourceFile())).fileName()
                              : QString()));
  rebuildMotionMenu();
  updateCalibrationHint();
  // Default plots (torso pitch and roll) on a fresh start or when the plots emptied.
  bool any = false;
  for (PlotWidget* p : plots_->plots()) {
    p->refresh(0, 1);  // drops signals the new robot lacks
    any = any || p->seriesCount() > 0;
  }
  if (!any && !plots_->plots().empty()) {
    PlotWidget* first = plots_->plots().front();
    for (const char* suffix : {"/pitch_rad", "/roll_rad"})
      if (const QString c = imuColumn(*store_, suffix); !c.isEmpty())
        first->addSignal({SignalStore::kSimulation, c.toStdString()});
    if (plots_->plots().size() > 1) {
      PlotWidget* second = plots_->plots()[1];
      for (const char* suffix : {"com/x_m", "com/y_m"})
        if (const QString c = imuColumn(*store_, suffix); !c.isEmpty())
          second->addSignal({SignalStore::kSimulation, c.toStdString()});
    }
  }
  plots_->setFollow(true);
  plots_->redrawNow();
}

void MainWindow::updateCalibrationHint() {
  const auto model = session_->model();
  QString calibration;
  if (replaying_recording_ && model && !model->source_file.empty()) {
    // A robot directory's calibration of its main file DIR/DIR.urdf is calibration/lean_calibrated.params;
    // that of a variant DIR/DIR_x.urdf (bioloid_paper_law.urdf) is calibration/lean_calibrated_x.params.
    const QFileInfo file(QString::fromStdString(model->source_file));
    const QString dir_name = file.absoluteDir().dirName();
    const QString variant =
        file.completeBaseName().startsWith(dir_name) ? file.completeBaseName().mid(dir_name.size()) : "";
    calibration = file.absolutePath() + "/calibration/lean_calibrated" + variant + ".params";
  }
  bool defaults = false;
  if (!calibration.isEmpty() && QFileInfo::exists(calibration)) {
    // Default = every parameter the robot file has is the file's value. The replay adds the wall
    // (scene/wall/*), which the file lacks: not a parameter the user chose.
    try {
      const RobotModel file = loadRobotFile(model->source_file);
      std::map<std::string, double> now;
      for (const ModelParameter& p : modelParameters(*model)) now[p.name] = p.value;
      defaults = true;
      for (const ModelParameter& p : modelParameters(file)) {
        auto it = now.find(p.name);
        defaults = defaults && it != now.end() && it->second == p.value;
      }
    } catch (const std::exception&) {
      defaults = false;  // the file changed on disk since: no claim about it
    }
  }
  if (!defaults || calibration_hint_closed_) {
    calibration_hint_->hide();
    return;
  }
  const QString shown = QDir(QString::fromStdString(robotsDirectory()) + "/..").relativeFilePath(calibration);
  calibration_hint_text_->setText(
      tr("<b>Replaying with the robot file's default parameters.</b> With them the model does not do what the real "
         "robot did in every trial: in some it stays on the wall, or rises and tips over, so its torso tilt ends far "
         "from the recorded one. The shipped calibration was fitted to the real lean-to-stand recordings (the torso "
         "tilt of 7 trials; docs/servo_models.md)."));
  calibration_hint_button_->setText(tr("Use the shipped calibration (%1)").arg(shown));
  calibration_hint_button_->setToolTip(tr("Applies %1 and restarts the replay with it").arg(calibration));
  calibration_hint_button_->setProperty("file", calibration);
  calibration_hint_->show();
}

void MainWindow::onFrameShown(int index) {
  const Frame& f = session_->frame(index);
  view_->setFrame(f);
  updateGhost();
  plots_->setCursorTime(f.t_s);
  // The joint table at 10 Hz at most (and when paused, at once): 26 rows of text are not free.
  if (!session_->playing() || panel_clock_.elapsed() > 100) {
    panel_clock_.restart();
    if (robot_panel_->isVisible()) robot_panel_->showRow(session_->row(index));
  }
}

void MainWindow::updateGhost() {
  if (!ghost_action_) return;  // frames before the menus exist
  const auto model = session_->model();
  const int id = model && ghost_action_->isChecked() ? ghostSource(*model, *store_) : -1;
  if (id < 0 || session_->frameCount() == 0) {
    if (!view_->ghostLinks().empty()) view_->setGhost({}, {});
    return;
  }
  const Frame& f = session_->frame(session_->currentIndex());
  const GhostPose g = ghostPose(*model, *store_, id, f.t_s, f, ghostSide_m(*model, f));
  std::vector<QVector4D> colors;
  for (double e : g.error_rad) colors.push_back(ghostColor(e));
  view_->setGhost(g.links, colors);
}

void MainWindow::onEventsChanged() {
  const std::vector<RunEvent>& events = session_->events();
  std::vector<TimeMarker> markers;
  QStringList lines;
  for (const RunEvent& e : events) {
    markers.push_back({e.t_s, eventColor(e.kind), e.kind == RunEvent::Kind::kFall ? tr("fell") : tr("diverged")});
    lines << QString::fromStdString(bannerText(e));
  }
  plots_->setMarkers(markers);
  if (events.empty()) {
    banner_->hide();
    banner_->clear();
    return;
  }
  // The worst event colours the banner: a divergence ends the run, a fall does not.
  const QColor c = eventColor(events.back().kind);
  banner_->setStyleSheet(
      QStringLiteral("QLabel#eventBanner { background: %1; color: white; font-weight: bold; padding: 5px 10px; }")
          .arg(c.name()));
  banner_->setText(lines.join('\n'));
  banner_->show();
  updateStatus();
}

void MainWindow::updateStatus() {
  const bool playing = session_->playing();
  status_->setText(tr("t = %1 s   |   real-time factor %2 (speed %3x)   |   %4 fps   |   %5 samples   |   %6")
                       .arg(session_->currentTime_s(), 0, 'f', 2)
                       .arg(playing ? QString::number(session_->realTimeFactor(), 'f', 2) + "x" : QStringLiteral("-"))
                       .arg(session_->speed())
                       .arg(playing ? QString::number(view_->framesPerSecond(), 'f', 0) : QStringLiteral("-"))
                       .arg(session_->frameCount())
                       .arg(session_->playing() ? tr("playing") : tr("paused")) +
                   (session_->events().empty()
                        ? QString()
                        : "   |   " + QString::fromStdString(bannerText(session_->events().back()))));
}

void MainWindow::rebuildMotionMenu() {
  motion_menu_->clear();
  const QString robot = QString::fromStdString(session_->model()->source_file);
  const QDir dir(QFileInfo(robot).absolutePath() + "/motions");
  const QStringList files = dir.entryList({"*.csv", "*.motion"}, QDir::Files, QDir::Name);
  for (const QString& f : files) {
    const QString p = dir.absoluteFilePath(f);
    motion_menu_->addAction(f, this, [this, p] { openMotion(p); });
  }
  motion_menu_->setEnabled(!files.isEmpty());
}

void MainWindow::addRecent(const QString& kind, const QString& path) {
  if (!interactive_) return;
  QSettings s;
  QStringList list = s.value("recentFiles").toStringList();
  const QString entry = kind + ':' + path;
  list.removeAll(entry);
  list.prepend(entry);
  while (list.size() > kMaxRecent) list.removeLast();
  s.setValue("recentFiles", list);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  const QStringList list = interactive_ ? QSettings().value("recentFiles").toStringList() : QStringList();
  for (const QString& entry : list) {
    const QString kind = entry.section(':', 0, 0), path = entry.section(':', 1);
    recent_menu_->addAction(QStringLiteral("%1 (%2)").arg(QFileInfo(path).fileName(), kind), this, [this, kind, path] {
      if (kind == "robot")
        openRobot(path);
      else if (kind == "overlay")
        openOverlay(path);
      else if (kind == "controller")
        openController(path);
      else
        openMotion(path);
    });
  }
  recent_menu_->setEnabled(!list.isEmpty());
}

bool MainWindow::saveLayout(const QString& path) {
  PlotLayout l = captureLayout(*plots_, *store_);
  if (session_->model()) l.robot = QString::fromStdString(session_->model()->name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(layoutToJson(l)) < 0) {
    reportError(tr("Cannot save the layout"), tr("%1: cannot write it").arg(path));
    return false;
  }
  statusBar()->showMessage(tr("layout saved to %1").arg(path), 5000);
  return true;
}

bool MainWindow::loadLayout(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    reportError(tr("Cannot load the layout"), tr("%1: cannot read it").arg(path));
    return false;
  }
  PlotLayout l;
  try {
    l = layoutFromJson(f.readAll(), path);
  } catch (const std::exception& e) {
    reportError(tr("Cannot load the layout"), QString::fromStdString(e.what()));
    return false;
  }
  applyPlotLayout(l, QFileInfo(path).absolutePath(), true);
  const QString done = tr("layout %1: %2 plots").arg(QFileInfo(path).fileName()).arg(l.plots.size());
  // Not fatal: what is left out is said where it does not interrupt (a layout made for another
  // robot, or with a log that moved, still lays out the rest).
  statusBar()->showMessage(layout_problems_.isEmpty() ? done : done + tr("; left out: ") + layout_problems_.join("; "),
                           layout_problems_.isEmpty() ? 5000 : 20000);
  return true;
}

void MainWindow::applyPlotLayout(const PlotLayout& l, const QString& layout_dir, bool open_overlays) {
  layout_problems_.clear();
  std::vector<int> ids;
  for (const LayoutOverlay& o : l.overlays) {
    int id = -1;
    const QString abs = QFileInfo(o.path).absoluteFilePath();
    for (int k : store_->overlayIds())
      if (!store_->source(k)->path.isEmpty() && QFileInfo(store_->source(k)->path).absoluteFilePath() == abs) id = k;
    if (id < 0 && open_overlays) {
      // Moved together with the layout file: found beside it.
      QString file = o.path;
      if (!QFileInfo::exists(file) && QFileInfo::exists(layout_dir + '/' + QFileInfo(o.path).fileName()))
        file = layout_dir + '/' + QFileInfo(o.path).fileName();
      if (!QFileInfo::exists(file))
        layout_problems_ << tr("overlay %1: no such file").arg(o.path);
      else if (openOverlay(file))
        id = overlay_panel_->currentOverlay();
      else
        layout_problems_ << tr("overlay %1: %2").arg(o.path, last_error_);
    }
    if (id >= 0) store_->setOffset(id, o.offset_s);
    ids.push_back(id);
  }
  layout_problems_ << applyLayout(l, ids, *plots_, *store_);
}

void MainWindow::rememberLayout() {
  if (!interactive_ || !session_->model()) return;
  QSettings().setValue("layouts/" + QString::fromStdString(session_->model()->name),
                       layoutToJson(captureLayout(*plots_, *store_)));
}

void MainWindow::restoreRememberedLayout(bool open_overlays) {
  if (!interactive_ || !session_->model()) return;
  const QByteArray json = QSettings().value("layouts/" + QString::fromStdString(session_->model()->name)).toByteArray();
  if (json.isEmpty()) return;
  try {
    applyPlotLayout(layoutFromJson(json, tr("remembered layout")), QString(), open_overlays);
  } catch (const std::exception&) {
    return;  // written by another version: the default plots stay
  }
  if (!layout_problems_.isEmpty())
    statusBar()->showMessage(tr("remembered layout; left out: ") + layout_problems_.join("; "), 20000);
}

bool MainWindow::exportViewPng(const QString& path) {
  if (owned_view_) {
    reportError(tr("Export failed"),
                tr("%1: no 3D view on the Qt platform '%2' (use xvfb-run)").arg(path, QGuiApplication::platformName()));
    return false;
  }
  const QImage img = view_->grabFramebuffer();
  if (img.isNull() || !img.save(path, "PNG")) {
    reportError(tr("Export failed"), tr("%1: cannot write the 3D view image").arg(path));
    return false;
  }
  return true;
}

QImage MainWindow::grabWindow() {
  QImage img = grab().toImage();
  if (view_container_ && view_container_->isVisible()) {
    QPainter p(&img);
    p.drawImage(QRect(view_container_->mapTo(this, QPoint(0, 0)), view_container_->size()), view_->grabFramebuffer());
  }
  return img;
}

bool MainWindow::exportPlotsPng(const QString& path) {
  plots_->redrawNow();
  if (!plots_->grab().save(path, "PNG")) {
    reportError(tr("Export failed"), tr("%1: cannot write the plot image").arg(path));
    return false;
  }
  return true;
}

bool MainWindow::exportLogCsv(const QString& path) {
  try {
    store_->simulationLog().write(path.toStdString());
    return true;
  } catch (const std::exception& e) {
    reportError(tr("Export failed"), QString::fromStdString(e.what()));
    return false;
  }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  for (const QUrl& url : e->mimeData()->urls())
    if (url.isLocalFile()) openAny(url.toLocalFile());
  e->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (interactive_) {
    rememberLayout();
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
  }
  QMainWindow::closeEvent(e);
}

}  // namespace gapsim::gui
