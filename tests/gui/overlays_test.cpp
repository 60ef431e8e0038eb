// SPDX-License-Identifier: GPL-3.0-or-later
// Overlays and plot layouts on the offscreen platform: Align recovers a known delay of a log
// against the simulated squat and its box shows the signal it used; the RMS table starts with the
// torso tilt; a real BIOLOID recording replayed on the robot file's defaults offers the shipped
// calibration; the plot layout goes to a file and back, and is remembered per robot.
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <random>

#include "app/gui/main_window.h"
#include "app/gui/model_params.h"
#include "app/gui/overlay_panel.h"
#include "app/gui/plot_layout.h"
#include "app/gui/plot_panel.h"
#include "app/gui/plot_widget.h"
#include "app/gui/signal_store.h"
#include "app/gui/sim_session.h"
#include "app/gui/xy_plot_widget.h"
#include "sim/log_writer.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"
#include "tests/gui/temp_file.h"

using namespace gapsim;
using namespace gapsim::gui;

namespace {
constexpr double kDelay_s = 0.25;
constexpr double kSample_s = 0.01;  // the simulated log's period (and the logs made from it here)

// Plays the loaded motion at 20x until the simulated time passes t_s.
void playUntil(MainWindow& w, double t_s) {
  SimSession* s = w.session();
  s->setSpeed(20.0);
  s->play();
  QTRY_VERIFY_WITH_TIMEOUT(s->currentTime_s() >= t_s || !s->playing(), 60000);
  s->pause();
}

// How a "recording" differs from the simulation besides the delay: a sensor's gain and bias,
// white noise (sigma), and a clock that samples phase_s after the simulation's grid.
struct Sensor {
  double gain = 1.0, bias = 0.0, noise_sigma = 0.0, phase_s = 0.0;
};

// A "recorded" log of `column`: the simulated signal delayed by delay_s, sampled every period_s
// from t = phase_s to end_s as a recorder started with the simulation would; before the delay the
// robot had not moved yet (the first value).
void writeDelayedLog(const SignalStore& store, const std::string& column, double delay_s, double period_s, double end_s,
                     const QString& path, const Sensor& sensor = {}) {
  const auto sim = store.signal({SignalStore::kSimulation, column});
  QVERIFY(sim.has_value());
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, sensor.noise_sigma > 0 ? sensor.noise_sigma : 1.0);
  Log log({"time_s", column});
  for (int i = 0; sensor.phase_s + i * period_s <= end_s + 1e-9; ++i) {
    const double t = sensor.phase_s + i * period_s;
    const double v = t - delay_s <= sim->t_s.front() ? sim->v.front() : interpolateAt(*sim, t - delay_s);
    if (std::isnan(v)) break;  // past the simulated end
    log.appendRow(std::vector<double>{t, sensor.gain * v + sensor.bias + (sensor.noise_sigma > 0 ? noise(rng) : 0.0)});
  }
  log.write(path.toStdString());
}

// The lag the status line states ("the log lags the simulation by 0.250 s"), NaN if none.
double statedLag_s(const QString& status) {
  const auto m = QRegularExpression("the log (lags|leads) the simulation by ([0-9.]+) s").match(status);
  if (!m.hasMatch()) return std::nan("");
  return (m.captured(1) == "lags" ? 1 : -1) * m.captured(2).toDouble();
}

std::vector<std::string> columnsOf(const PlotWidget* p) {
  std::vector<std::string> c;
  for (const SignalRef& r : p->signalRefs()) c.push_back(r.column);
  return c;
}
/// Opens the Nao and its squat and plays it to `until_s`; false if either does not open.
bool playNaoSquat(MainWindow& w, double until_s) {
  if (!w.openRobot("nao") || !w.openMotion(GAPSIM_SOURCE_DIR "/robots/nao/motions/squat.csv")) return false;
  playUntil(w, until_s);
  return true;
}

}  // namespace

class GuiOverlaysTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    // The remembered layout is in QSettings: a name of this test's own, emptied (ctest points
    // XDG_CONFIG_HOME into the build tree).
    QCoreApplication::setOrganizationName("gapsim-test");
    QCoreApplication::setApplicationName("test_gui_overlays");
    QSettings().clear();
  }

  void alignRecoversAKnownDelayOnTheSquat() {
    MainWindow w(false);
    QVERIFY(playNaoSquat(w, 8.0));
    QTemporaryDir dir;
    OverlayPanel* panel = w.overlayPanel();
    // Logs of the same delay: as long as the run, on the pitch and on a knee; the first 3 s of it
    // (a short recording); one sampled at 50 Hz; and as a sensor would record them: 15 % gain,
    // a bias, noise of 1 mrad (the squat's pitch spans about 40 mrad) and a clock 3 ms off the
    // simulation's grid.
    const Sensor real{1.15, 0.002, 0.001, 0.003};
    struct Case {
      const char* name;
      const char* column;
      double period_s, end_s;
      Sensor sensor;
    } cases[] = {{"whole.csv", "torso/pitch_rad", kSample_s, 8.0, {}},
                 {"knee.csv", "LKneePitch/q_rad", kSample_s, 8.0, {}},
                 {"short.csv", "LKneePitch/q_rad", kSample_s, 3.0, {}},
                 {"50hz.csv", "torso/pitch_rad", 0.02, 8.0, {}},
                 {"sensor_pitch.csv", "torso/pitch_rad", kSample_s, 8.0, real},
                 {"sensor_knee.csv", "LKneePitch/q_rad", kSample_s, 8.0, real}};
    for (const Case& c : cases) {
      const QString path = dir.filePath(c.name);
      writeDelayedLog(*w.store(), c.column, kDelay_s, c.period_s, c.end_s, path, c.sensor);
      QVERIFY(w.openOverlay(path));
      const int id = w.store()->overlayIds().back();
      QVERIFY(panel->setAlignSignal(c.column));
      panel->alignButton()->click();
      const double offset = w.store()->offset(id);
      const double lag = statedLag_s(panel->statusText());
      qInfo("%s on %s: offset %.4f s; %s", c.name, c.column, offset, qPrintable(panel->statusText()));
      // Shown with offset o the log reads log(t - o) = sim(t - o - 0.25): aligned at o = -0.25.
      QVERIFY2(std::abs(offset + kDelay_s) <= kSample_s,
               qPrintable(QString("%1: offset %2 s").arg(c.name).arg(offset)));
      QVERIFY2(std::abs(lag - kDelay_s) <= kSample_s, qPrintable(panel->statusText()));
    }
    // The stand-in recording of the README and the docs is made the same way (by the CLI): it
    // aligns at its 0.25 s as long as it was made with the simulation of today.
    QVERIFY(w.openOverlay(GAPSIM_TEST_DATA_DIR "/real_squat.csv"));
    const int id = w.store()->overlayIds().back();
    for (const char* column : {"LKneePitch/q_rad", "torso/pitch_rad"}) {
      QVERIFY(w.overlayPanel()->alignCurrent(column));
      QVERIFY2(std::abs(w.store()->offset(id) + kDelay_s) <= kSample_s,
               qPrintable(panel->statusText() + " (if the squat's simulation changed: make real_squat.csv again, "
                                                "tests/gui/data/make_real_squat.py)"));
    }
  }

  void alignOnAPartlyRunSimulation() {
    // The recording is whole (8 s) but the simulation has only played 3 s of the squat when Align
    // is pressed: the overlap is the simulated part.
    MainWindow w(false);
    QVERIFY(playNaoSquat(w, 8.0));
    QTemporaryDir dir;
    const QString path = dir.filePath("recorded.csv");
    writeDelayedLog(*w.store(), "LKneePitch/q_rad", kDelay_s, kSample_s, 8.0, path);
    w.session()->reset();  // the same run again, 3 s of it
    playUntil(w, 3.0);
    QVERIFY(w.openOverlay(path));
    const int id = w.store()->overlayIds().back();
    QVERIFY(w.overlayPanel()->alignCurrent("LKneePitch/q_rad"));
    QVERIFY2(std::abs(w.store()->offset(id) + kDelay_s) <= kSample_s, qPrintable(w.overlayPanel()->statusText()));
  }

  void alignBoxShowsTheSignalItUsed() {
    SignalStore store;
    store.resetSimulation({"time_s", "torso/pitch_rad", "torso/roll_rad", "LKneePitch/q_rad"});
    Log real({"time_s", "torso/pitch_rad", "torso/roll_rad", "LKneePitch/q_rad"});
    for (int i = 0; i <= 600; ++i) {
      const double t = i * 0.01, s = t - 0.3;
      store.appendSimulationRow({t, std::sin(t), std::sin(2.3 * t), 0.5 * std::cos(1.7 * t)});
      real.appendRow(std::vector<double>{t, std::sin(s), std::sin(2.3 * s), 0.5 * std::cos(1.7 * s)});
    }
    const int id = store.addOverlay("real.csv", "", real);
    OverlayPanel panel(&store);
    panel.selectOverlay(id);
    QCOMPARE(panel.alignSignal(), QString("torso/pitch_rad"));  // the default
    // Chosen in the box, then Align: the box keeps the choice and the status names it.
    QVERIFY(panel.setAlignSignal("torso/roll_rad"));
    panel.alignButton()->click();
    QCOMPARE(panel.alignSignal(), QString("torso/roll_rad"));
    QVERIFY2(panel.statusText().startsWith("Aligned on torso/roll_rad"), qPrintable(panel.statusText()));
    QVERIFY(std::abs(store.offset(id) + 0.3) <= 0.01);
    // Given by name (scripted --align-on): the box shows that one, not the one before.
    QVERIFY(panel.alignCurrent("LKneePitch/q_rad"));
    QCOMPARE(panel.alignSignal(), QString("LKneePitch/q_rad"));
    // The choice survives another overlay coming and going (the list is rebuilt).
    const int other = store.addOverlay("other.csv", "", real);
    panel.selectOverlay(id);
    QCOMPARE(panel.alignSignal(), QString("LKneePitch/q_rad"));
    store.removeOverlay(other);
    QCOMPARE(panel.alignSignal(), QString("LKneePitch/q_rad"));
    QVERIFY(!panel.setAlignSignal("imu/temperature_C"));  // not shared: the box stays
    QCOMPARE(panel.alignSignal(), QString("LKneePitch/q_rad"));
  }

  void rmsTableStartsWithTheTilt() {
    // The BIOLOID recording's columns: joint angles first, the tilt in the middle.
    MainWindow w(false);
    QVERIFY(w.openRobot("bioloid"));
    QVERIFY(w.openOverlay(GAPSIM_TEST_DATA_DIR "/bioloid_lean_to_stand_0.05-01.csv"));
    const int id = w.store()->overlayIds().back();
    const auto shared = sharedColumns(*w.store(), id);
    QVERIFY(shared.size() > 1);
    QVERIFY2(shared.front() != "torso/tilt_rad", "the recording lists the tilt first: nothing to reorder, no test");
    QCOMPARE(rmsRows(*w.store(), id).front(), std::string("torso/tilt_rad"));
    QCOMPARE(rmsRows(*w.store(), id).size(), shared.size());
    w.overlayPanel()->updateRms();
    QCOMPARE(w.overlayPanel()->rmsTable()->item(0, 0)->text(), QString("torso/tilt_rad"));
    // Without a tilt column the overlay's order stays.
    SignalStore store;
    store.resetSimulation({"time_s", "a/x_m", "b/y_m"});
    store.appendSimulationRow({0, 1, 2});
    Log log({"time_s", "b/y_m", "a/x_m"});
    log.appendRow(std::vector<double>{0, 1, 2});
    const int o = store.addOverlay("o.csv", "", log);
    QCOMPARE(rmsRows(store, o), (std::vector<std::string>{"b/y_m", "a/x_m"}));
  }

  void replayOnDefaultsOffersTheShippedCalibration() {
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    const QString rec = GAPSIM_SOURCE_DIR "/tests/calib/data/bioloid_lean/rising/lean-to-stand/0.05-01.csv";
    QVERIFY(w.calibrationHint()->isHidden());
    QVERIFY2(w.openRecordingReplay(rec), qPrintable(w.lastError()));
    // The robot file's parameters: the note says what they do and offers the calibration.
    QVERIFY(!w.calibrationHint()->isHidden());
    const QString shipped = QString::fromStdString(robotsDirectory()) + "/bioloid/calibration/lean_calibrated.params";
    QVERIFY(w.calibrationHintButton()->text().startsWith("Use the shipped calibration ("));
    QVERIFY2(w.calibrationHintButton()->text().endsWith("robots/bioloid/calibration/lean_calibrated.params)"),
             qPrintable(w.calibrationHintButton()->text()));
    const QString note = w.calibrationHint()->findChild<QLabel*>()->text();
    QVERIFY2(
        note.contains("default parameters") && note.contains("stays on the wall") && note.contains("lean-to-stand"),
        qPrintable(note));
    // The button applies it: the replay restarts with the calibrated servos, the note goes.
    w.calibrationHintButton()->click();
    QVERIFY(w.calibrationHint()->isHidden());
    RobotModel calibrated = *w.session()->model();
    double stall = 0;
    for (const ModelParameter& p : modelParameters(calibrated))
      if (p.name == "servos/servo/stall_torque") stall = p.value;
    QVERIFY2(std::abs(stall - 2.097455363963032) < 1e-9, qPrintable(QString::number(stall)));
    QVERIFY(w.session()->motion() != nullptr);  // still the recording's commands
    QVERIFY(!w.store()->overlayIds().empty());
    // Replayed again on the calibrated robot (its parameters stay): no note.
    QVERIFY(w.openRecordingReplay(rec));
    QVERIFY(w.calibrationHint()->isHidden());
    // On the defaults again the note comes back; closed, it stays closed for that replay; a motion
    // of the robot's own is no replay: none.
    QVERIFY(w.openRobot("bioloid"));
    QVERIFY(w.openRecordingReplay(rec));
    QVERIFY(!w.calibrationHint()->isHidden());
    QVERIFY(w.openMotion(GAPSIM_SOURCE_DIR "/robots/bioloid/motions/" +
                         QDir(GAPSIM_SOURCE_DIR "/robots/bioloid/motions").entryList({"*.csv"}).front()));
    QVERIFY(w.calibrationHint()->isHidden());
  }

  void layoutRoundTripsThroughJson() {
    SignalStore store;
    store.resetSimulation({"time_s", "torso/pitch_rad", "torso/roll_rad", "com/x_m", "com/y_m"});
    for (int i = 0; i <= 300; ++i) {
      const double t = i * 0.01;
      store.appendSimulationRow({t, std::sin(t), std::cos(t), 0.1 * t, 0.01 * std::sin(t)});
    }
    Log real({"time_s", "torso/pitch_rad"});
    for (int i = 0; i <= 300; ++i) real.appendRow(std::vector<double>{i * 0.01, std::sin(i * 0.01 - 0.2)});
    const int id = store.addOverlay("real.csv", "/data/real.csv", real);
    store.setOffset(id, -0.2);
    PlotPanel panel(&store);
    panel.resize(600, 700);
    PlotWidget* a = panel.addPlot();
    a->addSignal({SignalStore::kSimulation, "torso/pitch_rad"});
    a->addSignal({id, "torso/pitch_rad"});
    XyPlotWidget* xy = panel.addXyPlot();
    QVERIFY(xy->setSignals({SignalStore::kSimulation, "com/x_m"}, {SignalStore::kSimulation, "com/y_m"}));
    PlotWidget* b = panel.addPlot();
    b->addSignal({SignalStore::kSimulation, "torso/roll_rad"});
    b->setUnwrapAngles(false);
    panel.setWindow(4.0);
    panel.setFollow(false);

    const PlotLayout l = captureLayout(panel, store);
    QCOMPARE(l.plots.size(), std::size_t(3));
    QCOMPARE(l.plots[1].kind, LayoutPlot::Kind::kXy);  // the order on screen: time, XY, time
    QCOMPARE(l.plots[0].series[1], (LayoutSignal{0, "torso/pitch_rad"}));
    QCOMPARE(l.overlays.size(), std::size_t(1));
    QCOMPARE(l.overlays[0].offset_s, -0.2);
    QVERIFY(!l.plots[2].unwrap_angles);
    const QByteArray json = layoutToJson(l);
    QVERIFY(json.contains("\"gapsim_layout\": 1"));
    QCOMPARE(layoutFromJson(json, "test"), l);

    // Cleared, then applied: the same plots with the same signals, in the same order.
    panel.clearPlots();
    QVERIFY(panel.plotsInOrder().empty());
    panel.addPlot()->addSignal({SignalStore::kSimulation, "com/x_m"});  // replaced by the layout
    panel.setWindow(10.0);
    panel.setFollow(true);
    const QStringList problems = applyLayout(layoutFromJson(json, "test"), {id}, panel, store);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join("; ")));
    QCOMPARE(captureLayout(panel, store), l);
    QCOMPARE(panel.plots().size(), std::size_t(2));
    QCOMPARE(panel.xyPlots().size(), std::size_t(1));
    QCOMPARE(panel.plots()[0]->signalRefs(), (std::vector<SignalRef>{{0, "torso/pitch_rad"}, {id, "torso/pitch_rad"}}));
    QVERIFY(!panel.plots()[1]->unwrapAngles());
    QCOMPARE(panel.xyPlots()[0]->ySignal()->column, std::string("com/y_m"));
    QCOMPARE(panel.window_s(), 4.0);
    QVERIFY(!panel.follow());

    // Unknown columns and a missing overlay are left out and named; the rest is laid out.
    PlotLayout odd = l;
    odd.plots[0].series.push_back({-1, "no/such_rad"});
    odd.plots[2].series.push_back({3, "torso/pitch_rad"});
    const QStringList left = applyLayout(odd, {id}, panel, store);
    QCOMPARE(left.size(), 2);
    QVERIFY2(left[0].contains("no/such_rad") && left[0].contains("simulation has no column"), qPrintable(left[0]));
    QVERIFY2(left[1].contains("no overlay 3"), qPrintable(left[1]));
    QCOMPARE(panel.plots()[0]->seriesCount(), 2);
    // Not a layout: refused with the reason.
    for (const char* bad : {"{", "{\"plots\": []}", "{\"gapsim_layout\": 2}",
                            "{\"gapsim_layout\": 1, \"plots\": [{\"type\": \"bar\"}]}"}) {
      try {
        layoutFromJson(bad, "bad.json");
        QFAIL(bad);
      } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).startsWith("bad.json: not a gapsim plot layout"), e.what());
      }
    }
  }

  void layoutSavedAndLoadedThroughTheWindow() {
    QTemporaryDir dir;
    MainWindow w(false);
    QVERIFY(playNaoSquat(w, 1.0));
    const QString real = dir.filePath("real_knee.csv");
    writeDelayedLog(*w.store(), "LKneePitch/q_rad", 0.1, 0.01, 1.0, real);
    QVERIFY(w.openOverlay(real));
    const int id = w.store()->overlayIds().back();
    w.store()->setOffset(id, -0.1);
    PlotPanel* plots = w.plots();
    PlotWidget* knee = plots->plots()[1];
    knee->clearSignals();
    knee->addSignal({SignalStore::kSimulation, "LKneePitch/q_rad"});
    knee->addSignal({id, "LKneePitch/q_rad"});
    knee->setUnwrapAngles(false);
    plots->addXyPlot()->setSignals({SignalStore::kSimulation, "com/x_m"}, {SignalStore::kSimulation, "com/y_m"});
    const PlotLayout before = captureLayout(*plots, *w.store());
    const QString file = dir.filePath("layout.json");
    QVERIFY(w.saveLayout(file));

    // Cleared: the overlay gone, other plots. Loading reopens the log at its offset.
    w.store()->removeOverlay(id);
    plots->clearPlots();
    plots->addPlot()->addSignal({SignalStore::kSimulation, "torso/roll_rad"});
    QVERIFY(w.loadLayout(file));
    QVERIFY2(w.layoutProblems().isEmpty(), qPrintable(w.layoutProblems().join("; ")));
    QCOMPARE(w.store()->overlayIds().size(), std::size_t(1));
    const int again = w.store()->overlayIds().back();
    QCOMPARE(w.store()->offset(again), -0.1);
    const PlotLayout after = captureLayout(*plots, *w.store());
    QCOMPARE(after, before);
    QCOMPARE(columnsOf(plots->plots()[1]), (std::vector<std::string>{"LKneePitch/q_rad", "LKneePitch/q_rad"}));
    QCOMPARE(plots->plots()[1]->signalRefs()[1].source, again);
    QVERIFY(!plots->plots()[1]->unwrapAngles());
    QCOMPARE(plots->xyPlots().size(), std::size_t(1));
    // Loading it again does not open the log twice.
    QVERIFY(w.loadLayout(file));
    QCOMPARE(w.store()->overlayIds().size(), std::size_t(1));

    // A layout made elsewhere: an unknown signal and a log that is not there are named in the
    // status bar, the rest is laid out.
    const QString odd =
        test::writeIn(dir, "odd.json",
                      R"({"gapsim_layout": 1, "robot": "other", "overlays": [{"path": "/nowhere/x.csv", "offset_s": 1}],
      "plots": [{"type": "time", "signals": ["torso/pitch_rad", "LElbowYaw/q_rad", "no/such_Nm", {"overlay": 0, "column": "a/b_rad"}]}]})");
    QVERIFY(w.loadLayout(odd));
    QCOMPARE(plots->plots().size(), std::size_t(1));
    QCOMPARE(columnsOf(plots->plots()[0]), (std::vector<std::string>{"torso/pitch_rad", "LElbowYaw/q_rad"}));
    const QString status = w.statusBar()->currentMessage();
    QVERIFY2(status.contains("no/such_Nm") && status.contains("/nowhere/x.csv") && status.contains("a/b_rad"),
             qPrintable(status));
    QCOMPARE(w.layoutProblems().size(), 3);
    // The layout the docs' walk picture is made with fits the Nao as it is.
    QVERIFY(w.loadLayout(GAPSIM_TEST_DATA_DIR "/nao_walk_layout.json"));
    QVERIFY2(w.layoutProblems().isEmpty(), qPrintable(w.layoutProblems().join("; ")));
    QCOMPARE(plots->plots().size(), std::size_t(3));
    QCOMPARE(plots->xyPlots().size(), std::size_t(1));
    // Not a layout: refused, the plots stay.
    const QString bad = test::writeIn(dir, "bad.json", "[1, 2]");
    QVERIFY(!w.loadLayout(bad));
    QVERIFY(w.lastError().contains("not a gapsim plot layout"));
    QCOMPARE(plots->plots().size(), std::size_t(3));
  }

  void layoutIsRememberedPerRobot() {
    // Interactive windows only (QSettings); a scripted one neither reads nor writes it.
    auto pitchAndKnee = [](MainWindow& w) {
      PlotPanel* p = w.plots();
      p->clearPlots();
      p->addPlot()->addSignal({SignalStore::kSimulation, "LKneePitch/tau_Nm"});
      p->addXyPlot()->setSignals({SignalStore::kSimulation, "com/x_m"}, {SignalStore::kSimulation, "com/y_m"});
    };
    {
      MainWindow w(true);
      QVERIFY(w.openRobot("nao"));
      pitchAndKnee(w);
      QVERIFY(w.openRobot("mabel"));  // leaving the Nao remembers its plots
      QVERIFY(w.openRobot("nao"));
      QCOMPARE(w.plots()->plots().size(), std::size_t(1));
      QCOMPARE(columnsOf(w.plots()->plots()[0]), std::vector<std::string>{"LKneePitch/tau_Nm"});
      QCOMPARE(w.plots()->xyPlots().size(), std::size_t(1));
      w.plots()->plots()[0]->addSignal({SignalStore::kSimulation, "RKneePitch/tau_Nm"});
      w.close();  // and closing remembers the last change
    }
    {
      MainWindow w(true);
      QVERIFY(w.openRobot("nao"));
      QCOMPARE(columnsOf(w.plots()->plots()[0]), (std::vector<std::string>{"LKneePitch/tau_Nm", "RKneePitch/tau_Nm"}));
      QCOMPARE(w.plots()->xyPlots().size(), std::size_t(1));
    }
    {
      MainWindow w(false);
      QVERIFY(w.openRobot("nao"));
      QCOMPARE(w.plots()->plots().size(), std::size_t(2));  // the default plots
      QVERIFY(w.plots()->xyPlots().empty());
    }
  }
};

QTEST_MAIN(GuiOverlaysTest)
#include "overlays_test.moc"
