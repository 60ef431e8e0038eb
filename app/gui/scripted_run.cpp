// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/scripted_run.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "app/gui/calibrate_panel.h"
#include "app/gui/drive_curve_panel.h"
#include "app/gui/gl_view.h"
#include "app/gui/main_window.h"
#include "app/gui/overlay_panel.h"
#include "app/gui/plot_panel.h"
#include "app/gui/plot_widget.h"
#include "app/gui/robot_panel.h"
#include "app/gui/run_event.h"
#include "app/gui/sim_session.h"
#include "sim/ankle_balance.h"
#include "sim/input_error.h"
#include "sim/mabel_hop_controller.h"

namespace gapsim::gui {

/// Long on purpose: the GUI's command line as one table, an option per line and each read once
/// below it, so an option and its effect sit together.
std::optional<Options> parseOptions(const QStringList& args, int& exit_code) {
  QCommandLineParser p;
  p.setApplicationDescription(
      "gapsim: simulator for small humanoid robots (Qt desktop application).\n"
      "Scripted use: gapsim --robot nao --motion FILE --overlay LOG --play-for 2 --screenshot view.png "
      "--plot-screenshot plots.png --quit");
  p.addHelpOption();
  const QCommandLineOption robot("robot", "nao, bioloid, mabel or a robot file.", "name|path");
  const QCommandLineOption motion("motion", "motion to play (CSV keyframes, joint table, Webots .motion, gapsim log).",
                                  "file");
  const QCommandLineOption period("frame-period", "frame period of a joint table without time column.", "s");
  const QCommandLineOption overlay("overlay", "recorded CSV log to overlay (repeatable).", "file");
  const QCommandLineOption plot("plot",
                                "simulation columns, comma-separated, to show in the n-th plot for the n-th --plot "
                                "(replacing its defaults; repeatable), e.g. hop/phase,mabel/left/q_Bsp_rad.",
                                "columns");
  const QCommandLineOption speed("speed", "playback speed, simulated s per wall s (0.1 to 10).", "x", "1");
  const QCommandLineOption play_for("play-for", "play this much simulated time, then stop.", "s");
  const QCommandLineOption play("play", "start playing.");
  const QCommandLineOption quit_after("quit-after",
                                      "after this many wall-clock seconds, save the screenshots and quit.", "s");
  const QCommandLineOption shot("screenshot", "save the 3D view as PNG when done.", "file");
  const QCommandLineOption plot_shot("plot-screenshot", "save the plots as PNG when done.", "file");
  const QCommandLineOption window_shot("window-screenshot", "save the whole window as PNG when done.", "file");
  const QCommandLineOption align_on("align-on", "signal to align the overlays on (with --align).", "column");
  const QCommandLineOption plot_gl("plot-opengl", "draw the plot curves with OpenGL (Qt Charts' accelerated path).");
  const QCommandLineOption csv("export-csv", "save the simulated log as CSV when done.", "file");
  const QCommandLineOption quit("quit", "quit when the scripted actions are done.");
  const QCommandLineOption align("align", "align every overlay on torso pitch after playing.");
  const QCommandLineOption stats("stats",
                                 "print frames per second of the 3D view, real-time factor and plot redraw time.");
  const QCommandLineOption com("show-com", "show the centre of mass.");
  const QCommandLineOption contacts("show-contacts", "show foot contacts and forces.");
  const QCommandLineOption axes("show-axes", "show joint axes.");
  const QCommandLineOption follow("follow", "camera follows the robot (the default for a robot with a floating base).");
  const QCommandLineOption no_follow("no-follow", "fixed camera, also for a robot with a floating base.");
  const QCommandLineOption hide("hide-robot", "draw the scene without the robot (tests).");
  const QCommandLineOption size("size", "window size.", "WxH", "1280x800");
  const QCommandLineOption calibration("calibration", "show this calibration results directory in the Calibrate dock.",
                                       "dir");
  const QCommandLineOption compare("compare", "with --calibration: before/after comparison of this scenario (0-based).",
                                   "k");
  const QCommandLineOption apply_best("apply-best", "with --calibration: apply its best parameters to the robot.");
  const QCommandLineOption dock("dock", "raise this dock (Robot, Signals, Overlays, Plots, Calibrate).", "title");
  const QCommandLineOption start_cal(
      "start-calibration",
      "start the Calibrate dock's job (the shipped example by default) writing into this directory (--force).", "dir");
  const QCommandLineOption controller("controller",
                                      "BIOLOID keyframe controller to show in the Robot dock's Keyframes tab, "
                                      "or hop: run MABEL's hopping controller (as gapsim-cli run --controller hop).",
                                      "file");
  const QCommandLineOption dock_shot(
      "dock-screenshot", "save the --dock dock (default Calibrate with --calibration) as PNG when done.", "file");
  const QCommandLineOption hop("hop",
                               "with --controller hop: its parameters as gapsim-cli run --hop takes them, "
                               "e.g. torso_update=0,drop_m=0.1 (docs/mabel.md).",
                               "key=value,...");
  const QCommandLineOption replay("replay-recording",
                                  "replay a recording (a manifest .json, its first trial, or a "
                                  "CSV) as gapsim-cli replay does and overlay it, e.g. "
                                  "../shared/real-data/bioloid/rising/lean-to-stand/0.05-01.csv.",
                                  "file");
  const QCommandLineOption params("params",
                                  "parameter file (CSV name,value) applied to the robot after it and any "
                                  "--motion or --replay-recording are loaded (as gapsim-cli run --params).",
                                  "file");
  const QCommandLineOption balance("balance",
                                   "play the motion with gyro feedback on the stance ankles (Playback > Ankle "
                                   "Balance), e.g. roll_rate=0.1, as gapsim-cli run --balance (docs/walk.md).",
                                   "key=value,...");
  const QCommandLineOption layout("layout",
                                  "plot layout to load (File > Load Layout; docs/gui.md), after the robot, "
                                  "motion, overlays and --plot.",
                                  "file");
  const QCommandLineOption drive_curve("drive-curve",
                                       "show this joint's torque-speed envelope in the Robot dock's Drive tab "
                                       "(as gapsim-cli drive-curve; raises the Robot dock).",
                                       "joint");
  p.addOptions({plot, hop, replay, params, balance, layout, drive_curve});
  p.addOptions({robot,       motion,    period,      overlay, speed,     play_for,   play,     quit_after,
                shot,        plot_shot, window_shot, csv,     quit,      align,      align_on, plot_gl,
                stats,       com,       contacts,    axes,    follow,    no_follow,  hide,     size,
                calibration, compare,   apply_best,  dock,    dock_shot, controller, start_cal});
  auto fail = [&](const QString& m) {
    std::cerr << "gapsim: " << m.toStdString() << "\n";
    exit_code = 2;
    return std::nullopt;
  };
  if (!p.parse(args)) return fail(p.errorText());
  if (p.isSet("help")) {
    std::cout << p.helpText().toStdString();
    exit_code = 0;
    return std::nullopt;
  }
  if (!p.positionalArguments().isEmpty()) return fail("unexpected argument '" + p.positionalArguments().front() + "'");
  Options o;
  auto number = [&](const QCommandLineOption& opt, double lo, double hi) -> std::optional<double> {
    bool ok = false;
    const double v = p.value(opt).toDouble(&ok);
    if (!ok || !(v >= lo && v <= hi)) return std::nullopt;
    return v;
  };
  o.robot = p.value(robot);
  o.motion = p.value(motion);
  o.overlays = p.values(overlay);
  o.plots = p.values(plot);
  o.hop = p.value(hop);
  o.layout = p.value(layout);
  if (p.isSet(period)) {
    o.frame_period_s = number(period, 1e-6, 1e3);
    if (!o.frame_period_s) return fail("--frame-period: must be a number > 0, got '" + p.value(period) + "'");
  }
  const auto sp = number(speed, 0.01, 100);
  if (!sp) return fail("--speed: must be a number in [0.01, 100], got '" + p.value(speed) + "'");
  o.speed = *sp;
  if (p.isSet(play_for)) {
    o.play_for_s = number(play_for, 0, 1e6);
    if (!o.play_for_s) return fail("--play-for: must be a number >= 0, got '" + p.value(play_for) + "'");
  }
  if (p.isSet(quit_after)) {
    o.quit_after_s = number(quit_after, 0, 1e6);
    if (!o.quit_after_s) return fail("--quit-after: must be a number >= 0, got '" + p.value(quit_after) + "'");
  }
  const QStringList wh = p.value(size).split('x');
  bool okw = false, okh = false;
  if (wh.size() == 2) o.width = wh[0].toInt(&okw), o.height = wh[1].toInt(&okh);
  if (!okw || !okh || o.width < 200 || o.height < 150) return fail("--size: expected WxH, e.g. 1600x1000");
  o.play = p.isSet(play);
  o.screenshot = p.value(shot);
  o.plot_screenshot = p.value(plot_shot);
  o.window_screenshot = p.value(window_shot);
  o.align_on = p.value(align_on);
  o.plot_opengl = p.isSet(plot_gl);
  o.export_csv = p.value(csv);
  o.quit = p.isSet(quit);
  o.align = p.isSet(align);
  o.stats = p.isSet(stats);
  o.show_com = p.isSet(com);
  o.show_contacts = p.isSet(contacts);
  o.show_axes = p.isSet(axes);
  if (p.isSet(follow) && p.isSet(no_follow)) return fail("--follow and --no-follow: give one");
  if (p.isSet(follow)) o.follow = true;
  if (p.isSet(no_follow)) o.follow = false;
  o.hide_robot = p.isSet(hide);
  o.calibration = p.value(calibration);
  o.apply_best = p.isSet(apply_best);
  o.dock = p.value(dock);
  o.dock_screenshot = p.value(dock_shot);
  o.controller = p.value(controller);
  o.replay_recording = p.value(replay);
  o.params = p.value(params);
  o.balance = p.value(balance);
  o.start_calibration = p.value(start_cal);
  o.drive_curve = p.value(drive_curve);
  if (!o.dock_screenshot.isEmpty() && o.dock.isEmpty() && p.value(calibration).isEmpty() &&
      p.value(start_cal).isEmpty() && p.value(drive_curve).isEmpty())
    return fail("--dock-screenshot needs --dock TITLE (or --calibration)");
  if (p.isSet(compare)) {
    bool ok = false;
    o.compare = p.value(compare).toInt(&ok);
    if (!ok || o.compare < 0) return fail("--compare: must be a scenario number >= 0, got '" + p.value(compare) + "'");
  }
  if ((o.compare >= 0 || o.apply_best) && o.calibration.isEmpty())
    return fail("--compare and --apply-best need --calibration DIR");
  return o;
}

ScriptedRun::ScriptedRun(MainWindow* window, Options options, QObject* parent)
    : QObject(parent), w_(window), o_(std::move(options)) {
  connect(&poll_, &QTimer::timeout, this, &ScriptedRun::poll);
  connect(w_->session(), &SimSession::simulationError, this, [this] { diverged_ = true; });
}

/// The robot, motion, recording, parameter file and overlays the options name.
bool ScriptedRun::loadInputs() {
  if (!w_->openRobot(o_.robot)) return false;
  if (!o_.motion.isEmpty() && !w_->openMotion(o_.motion, o_.frame_period_s)) return false;
  if (!o_.replay_recording.isEmpty() && !w_->openRecordingReplay(o_.replay_recording)) return false;
  if (!o_.params.isEmpty() && !w_->applyParameterFile(o_.params)) return false;
  for (const QString& path : o_.overlays)
    if (!w_->openOverlay(path)) return false;
  return true;
}

namespace {

/// A controller's "name=value;..." option read by `parse`, or nullopt after the parse error is
/// printed as the command line's errors are.
template <class Parse>
auto parsedOrSaid(const Parse& parse, const QString& text) -> std::optional<decltype(parse(std::string()))> {
  try {
    return parse(text.toStdString());
  } catch (const InputError& e) {
    std::cerr << "gapsim: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace

/// The ankle balance, MABEL's hop controller or a keyframe controller.
bool ScriptedRun::setUpControllers() {
  if (!o_.balance.isEmpty()) {
    const std::optional<BalanceParams> bp =
        parsedOrSaid([](const std::string& t) { return parseBalanceParams(t); }, o_.balance);
    if (!bp || !w_->setAnkleBalance(true, *bp)) return false;
  }
  if (!o_.hop.isEmpty() && o_.controller != "hop") {
    std::cerr << "gapsim: --hop needs --controller hop\n";
    return false;
  }
  if (o_.controller == "hop") {
    const std::optional<MabelHopController::Params> hp =
        parsedOrSaid([](const std::string& t) { return parseHopParams(t); }, o_.hop);
    if (!hp || !w_->setHopController(true, *hp)) return false;
  } else if (!o_.controller.isEmpty() && !w_->openController(o_.controller)) {
    return false;
  }
  return true;
}

/// The plots' signals (--plot) and a saved layout (--layout).
bool ScriptedRun::setUpPlots() {
  for (int k = 0; k < o_.plots.size(); ++k) {
    PlotPanel* panel = w_->plots();
    while (static_cast<int>(panel->plots().size()) <= k) panel->addPlot();
    PlotWidget* pw = panel->plots()[static_cast<std::size_t>(k)];
    for (const SignalRef& r : pw->signalRefs()) pw->removeSignal(r);
    for (const QString& c : o_.plots[k].split(',', Qt::SkipEmptyParts))
      if (!pw->addSignal({SignalStore::kSimulation, c.trimmed().toStdString()})) {
        std::cerr << "gapsim: --plot: no simulation column '" << c.trimmed().toStdString() << "'\n";
        return false;
      }
  }
  if (!o_.layout.isEmpty()) {
    if (!w_->loadLayout(o_.layout)) return false;
    for (const QString& problem : w_->layoutProblems())
      std::cerr << "gapsim: --layout: left out " << problem.toStdString() << "\n";
  }
  return true;
}

/// A calibration's results, the Drive tab, a calibration to start, and the dock to show.
bool ScriptedRun::setUpDocks() {
  if (!o_.calibration.isEmpty()) {
    CalibratePanel* c = w_->calibratePanel();
    if (!c->openResults(o_.calibration)) {
      std::cerr << "gapsim: " << c->statusText().toStdString() << "\n";
      return false;
    }
    if (o_.dock.isEmpty()) o_.dock = "Calibrate";
    if (o_.apply_best) {
      c->applyBest();
      if (!c->statusText().startsWith("Applied")) return false;
    }
    if (o_.compare >= 0) {
      if (o_.compare >= static_cast<int>(c->results()->scenario_names.size())) {
        std::cerr << "gapsim: --compare: the scenario set has " << c->results()->scenario_names.size()
                  << " scenarios\n";
        return false;
      }
      c->compareBeforeAfter(o_.compare);
    }
  }
  if (!o_.drive_curve.isEmpty()) {
    RobotPanel* rp = w_->robotPanel();
    rp->parameterTabs()->setCurrentWidget(rp->driveCurvePanel());
    if (!rp->driveCurvePanel()->showJoint(o_.drive_curve.toStdString())) {
      std::cerr << "gapsim: --drive-curve: the robot has no movable joint '" << o_.drive_curve.toStdString() << "'\n";
      return false;
    }
    if (o_.dock.isEmpty()) o_.dock = "Robot";
  }
  if (!o_.start_calibration.isEmpty()) {
    CalibratePanel* c = w_->calibratePanel();
    CalibJobSettings s = c->settings();
    s.out = o_.start_calibration;
    s.force = true;
    c->setSettings(s);
    if (!c->startJob()) return false;
    if (o_.dock.isEmpty()) o_.dock = "Calibrate";
  }
  if (!o_.dock.isEmpty()) {
    bool found = false;
    for (QDockWidget* d : w_->findChildren<QDockWidget*>())
      if (d->windowTitle().compare(o_.dock, Qt::CaseInsensitive) == 0) d->show(), d->raise(), found = true;
    if (!found) {
      std::cerr << "gapsim: --dock: no dock called '" << o_.dock.toStdString() << "'\n";
      return false;
    }
  }
  return true;
}

bool ScriptedRun::start() {
  GlView* v = w_->view();
  v->setShowCom(o_.show_com);
  v->setShowContacts(o_.show_contacts);
  v->setShowJointAxes(o_.show_axes);
  v->setShowRobot(!o_.hide_robot);
  if (!loadInputs() || !setUpControllers() || !setUpPlots() || !setUpDocks()) return false;
  if (o_.follow) v->setFollow(*o_.follow);  // after loading, which sets the robot's default
  w_->session()->setSpeed(o_.speed);
  wall_.start();
  stats_clock_.start();
  stats_frames0_ = v->framesDrawn();
  if (o_.play || o_.play_for_s) w_->session()->play();
  if (o_.play_for_s || o_.quit_after_s || o_.scripted()) poll_.start(20);
  return true;
}

void ScriptedRun::printStats(const char* when) {
  const double wall_s = stats_clock_.nsecsElapsed() * 1e-9;
  const double sim_s = w_->session()->currentTime_s() - stats_sim0_;
  std::printf("stats %s: wall_s=%.2f sim_s=%.2f rtf=%.2f fps=%.1f plot_update_ms=%.2f plotted_series=%d\n", when,
              wall_s, sim_s, wall_s > 0 ? sim_s / wall_s : 0.0,
              wall_s > 0 ? (w_->view()->framesDrawn() - stats_frames0_) / wall_s : 0.0, w_->plots()->takeMeanRedrawMs(),
              [&] {
                int n = 0;
                for (PlotWidget* p : w_->plots()->plots()) n += p->seriesCount();
                return n;
              }());
  std::fflush(stdout);
}

void ScriptedRun::poll() {
  if (done_) return;
  SimSession* s = w_->session();
  if (o_.stats && stats_clock_.elapsed() >= 1000 && s->playing()) {
    printStats("1s");
    stats_clock_.restart();
    stats_frames0_ = w_->view()->framesDrawn();
    stats_sim0_ = s->currentTime_s();
  }
  bool ready = !o_.play_for_s && !o_.quit_after_s;  // nothing to wait for
  if (o_.play_for_s && (s->currentTime_s() >= *o_.play_for_s - 1e-9 || !s->playing())) ready = true;
  if (o_.quit_after_s && wall_.elapsed() >= *o_.quit_after_s * 1000) ready = true;
  if (diverged_) ready = true;
  if (w_->calibratePanel()->comparisonRunning()) ready = false;  // the before/after is part of the picture
  if (!ready) return;
  done_ = true;
  s->pause();
  if (o_.play_for_s) s->seek(*o_.play_for_s + 1e-9);  // the thread may have run a sample or two further
  if (o_.align)
    for (int id : w_->store()->overlayIds()) {
      w_->overlayPanel()->selectOverlay(id);
      w_->overlayPanel()->alignCurrent(o_.align_on.toStdString());
      std::printf("overlay %s: %s\n", qPrintable(w_->store()->source(id)->name),
                  qPrintable(w_->overlayPanel()->statusText()));
    }
  w_->overlayPanel()->updateRms();
  w_->plots()->redrawNow();
  // Let the window repaint once with the final frame before grabbing.
  QTimer::singleShot(150, this, &ScriptedRun::finish);
}

void ScriptedRun::finish() {
  if (o_.stats) printStats("end");
  int code = 0;
  QStringList saved;
  auto save = [&](const QString& path, const QString& what, auto&& fn) {
    if (path.isEmpty()) return;
    if (fn())
      saved << what + " " + path;
    else
      code = 1;
  };
  save(o_.screenshot, "view", [&] { return w_->exportViewPng(o_.screenshot); });
  save(o_.plot_screenshot, "plots", [&] { return w_->exportPlotsPng(o_.plot_screenshot); });
  save(o_.window_screenshot, "window", [&] {
    const bool ok = w_->grabWindow().save(o_.window_screenshot, "PNG");
    if (!ok) std::cerr << "gapsim: cannot write " << o_.window_screenshot.toStdString() << "\n";
    return ok;
  });
  save(o_.dock_screenshot, "dock", [&] {
    for (QDockWidget* d : w_->findChildren<QDockWidget*>())
      if (d->windowTitle().compare(o_.dock, Qt::CaseInsensitive) == 0) {
        if (d->grab().save(o_.dock_screenshot, "PNG")) return true;
        break;
      }
    std::cerr << "gapsim: cannot write " << o_.dock_screenshot.toStdString() << "\n";
    return false;
  });
  save(o_.export_csv, "log", [&] { return w_->exportLogCsv(o_.export_csv); });
  if (diverged_) code = 3;
  QString events;
  for (const RunEvent& e : w_->session()->events()) events += "; " + QString::fromStdString(bannerText(e));
  std::printf("gapsim: t=%.3f s, %d samples%s%s%s\n", w_->session()->currentTime_s(), w_->session()->frameCount(),
              saved.isEmpty() ? "" : qPrintable(", " + saved.join(", ")), diverged_ ? ", diverged" : "",
              qPrintable(events));
  std::fflush(stdout);
  if (o_.quit || o_.quit_after_s) emit finished(code);
}

}  // namespace gapsim::gui
