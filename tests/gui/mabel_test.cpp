// SPDX-License-Identifier: GPL-3.0-or-later
// The MABEL tab of the robot dock (app/gui/mabel_panel.h) on the offscreen platform: it appears
// only for MABEL, shows the transmission, spring and ground parameters, an edit sets the named
// parameter (the name gapsim-cli --set takes), and the hopping controller in a GUI session logs
// the phase and the probes, advances through the phases and matches the CLI's loop (runHop).
#include <QCheckBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>

#include "app/gui/mabel_panel.h"
#include "app/gui/main_window.h"
#include "app/gui/plot_panel.h"
#include "app/gui/plot_widget.h"
#include "app/gui/robot_panel.h"
#include "app/gui/scripted_run.h"
#include "app/gui/signal_store.h"
#include "app/gui/signal_tree.h"
#include "app/gui/sim_session.h"
#include "sim/mabel_hop_run.h"
#include "sim/motion.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

using namespace gapsim;
using namespace gapsim::gui;

namespace {
std::shared_ptr<const RobotModel> robot(const char* name) {
  return std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile(name)));
}

double parameter(const RobotModel& m, const std::string& name) {
  for (const ParameterEntry& e : listParameters(m))
    if (e.name == name) return e.value;
  throw std::out_of_range(name);
}

// Runs the session until `t_s` of simulated time is logged.
bool runUntil(SimSession& s, double t_s, int timeout_ms) {
  s.setSpeed(20);  // paced at 20x real time (or as fast as the machine goes)
  s.play();
  QElapsedTimer clock;
  clock.start();
  while (s.currentTime_s() < t_s && clock.elapsed() < timeout_ms) {
    QTest::qWait(20);
    s.tick();
  }
  s.pause();
  return s.currentTime_s() >= t_s;
}
}  // namespace

class GuiMabelTest : public QObject {
  Q_OBJECT
 private slots:
  void tabOnlyForMabelWithItsParameters() {
    RobotPanel panel;
    panel.setRobot(robot("nao"), {});
    QVERIFY(!panel.mabelTabShown());
    const auto mabel = robot("mabel");
    panel.setRobot(mabel, {});
    QVERIFY(panel.mabelTabShown());
    MabelPanel* p = panel.mabelPanel();
    QTableWidget* legs = p->legTable();
    QCOMPARE(legs->columnCount(), 2);
    const int left = p->legColumnOf("mabel/left"), right = p->legColumnOf("mabel/right");
    QVERIFY(left >= 0 && right >= 0);
    // Every transmission and spring parameter of each leg, with the model's value (6 digits).
    for (const char* leaf :
         {"mLA/gamma", "mLS/gamma", "mLA/K_T", "mLS/mu", "mLA/J_rotor_man", "mLS/J_pulley", "mLA/K_C", "mLS/Kd_C",
          "Bsp/gamma", "Bsp/J", "spring/K_B", "spring/Kd_B", "spring/Kd_1", "spring/K_vd1", "spring/K_vd2"}) {
      const int r = p->legRowOf(leaf);
      QVERIFY2(r >= 0, leaf);
      for (int c : {left, right}) {
        const std::string name = p->parameterName(legs, r, c);
        const double v = parameter(*mabel, name);
        QVERIFY2(std::abs(legs->item(r, c)->text().toDouble() - v) <= 1e-5 * std::abs(v), name.c_str());
      }
    }
    // The paper's spring stiffnesses (Fig. 22): 115.1 left, 111.7 right.
    QCOMPARE(legs->item(p->legRowOf("spring/K_B"), left)->text().toDouble(), 115.1);
    QCOMPARE(legs->item(p->legRowOf("spring/K_B"), right)->text().toDouble(), 111.7);
    QCOMPARE(legs->rowCount(), static_cast<int>(motorgear::MabelTransmission::Params::paramInfo().size()));
    QCOMPARE(p->groundTable()->rowCount(), static_cast<int>(motorgear::CompliantGround::Params::paramInfo().size()));
    // Without the controller's columns the status says so.
    QCOMPARE(p->phaseText(), QString("off"));
    // A robot without MABEL legs drops the tab again.
    panel.setRobot(robot("bioloid"), {});
    QVERIFY(!panel.mabelTabShown());
  }

  void editSetsTheNamedParameter() {
    RobotPanel panel;
    const auto mabel = robot("mabel");
    panel.setRobot(mabel, {});
    MabelPanel* p = panel.mabelPanel();
    QTableWidget* legs = p->legTable();
    const int r = p->legRowOf("spring/K_B"), left = p->legColumnOf("mabel/left");
    QCOMPARE(p->parameterName(legs, r, left), std::string("mabel/left/spring/K_B"));
    legs->item(r, left)->setText("130");
    QVERIFY(panel.hasPendingEdits());
    QCOMPARE(parameter(*panel.editedModel(), "mabel/left/spring/K_B"), 130.0);
    QCOMPARE(parameter(*panel.editedModel(), "mabel/right/spring/K_B"), 111.7);  // the other leg stays
    QCOMPARE(parameter(*mabel, "mabel/left/spring/K_B"), 115.1);                 // and the loaded model
    // The same through setParameter (gapsim-cli --set): identical models.
    RobotModel cli = *mabel;
    setParameter(cli, "mabel/left/spring/K_B", 130.0);
    QCOMPARE(cli.mabel_legs[0].params.spring.K_B_Nm_rad, panel.editedModel()->mabel_legs[0].params.spring.K_B_Nm_rad);
    // The ground table edits the compliant ground.
    QTableWidget* g = p->groundTable();
    const std::string gname = p->parameterName(g, 0, 0);
    QVERIFY(gname.rfind("mabel/ground/", 0) == 0);
    const double g0 = parameter(*mabel, gname);
    g->item(0, 0)->setText(QString::number(g0 * 2, 'g', 17));
    QCOMPARE(parameter(*panel.editedModel(), gname), g0 * 2);
    // A refused value (negative stiffness) or text is reported; the table returns to the model's value.
    QSignalSpy errors(&panel, &RobotPanel::errorOccurred);
    legs->item(r, left)->setText("-5");
    QCOMPARE(errors.count(), 1);
    QTRY_COMPARE(p->legTable()->item(r, left)->text().toDouble(), 130.0);
    p->legTable()->item(r, left)->setText("abc");
    QCOMPARE(errors.count(), 2);
  }

  void hopControllerLogsPhasesAsTheCliLoop() {
    SignalStore store;
    SimSession session(&store);
    const auto mabel = robot("mabel");
    session.load(mabel, nullptr);
    QVERIFY(!session.hopControllerOn());
    QVERIFY(store.source(SignalStore::kSimulation)->columnIndex("hop/phase") < 0);
    session.setHopController(true);
    QVERIFY(session.hopControllerOn());
    // Phase and probes (cable stretch, spring deflection q_Bsp) are signals in the tree.
    SignalTreeModel tree;
    tree.rebuild(store);
    const std::vector<SignalRef> leaves = tree.leavesUnder(QModelIndex());
    for (const char* c : {"hop/phase", "hop/touchdowns", "mabel/left/stretch_mLS_rad", "mabel/right/stretch_mLA_rad",
                          "mabel/left/q_Bsp_rad", "mabel/left/spring_torque_Nm", "LToe/normal_N"})
      QVERIFY2(std::find(leaves.begin(), leaves.end(), SignalRef{SignalStore::kSimulation, c}) != leaves.end(), c);
    // The drop start: the hip starts higher than the standing model's.
    QVERIFY(runUntil(session, 1.5, 120000));
    const SignalSource* sim = store.source(SignalStore::kSimulation);
    const auto& phase = sim->values[static_cast<std::size_t>(sim->columnIndex("hop/phase"))];
    std::set<int> seen(phase.begin(), phase.end());
    QVERIFY2(seen.count(1) && seen.count(2) && seen.count(3), "flight, touchdown and kickoff phases");
    QVERIFY(sim->values[static_cast<std::size_t>(sim->columnIndex("hop/touchdowns"))].back() >= 1);
    // The same run through the CLI's loop (sim/mabel_hop_run.h) gives the same log, row by row.
    const MabelHopController::Params hp;
    auto start = hopStartModel(*mabel, hp.drop_m);
    Simulation cli(start);
    MabelHopController ctl(cli, hp);
    RunConfig cfg;
    cfg.duration_s = sim->time_s.back() + 1e-9;
    cfg.probe_patterns = {"mabel/left/*", "mabel/right/*", "LToe/*", "RToe/*"};
    Log log(hopLogColumns(*start, cfg.probe_patterns));
    runHop(cli, ctl, cfg, &log);
    QVERIFY(log.rows() >= sim->time_s.size());
    for (const char* c : {"hop/phase", "hop/touchdowns", "mabel/left/stretch_mLS_rad", "mabel/right/q_Bsp_rad"}) {
      const std::vector<double> want = log.column(c);
      const auto& got = sim->values[static_cast<std::size_t>(sim->columnIndex(c))];
      for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i]) QFAIL(qPrintable(QString("%1 row %2: %3 != %4").arg(c).arg(i).arg(got[i]).arg(want[i])));
    }
    // Reset and apply keep it; a new motion replaces it.
    session.reset();
    QVERIFY(session.hopControllerOn());
    auto motion = std::make_shared<const Motion>(std::vector<std::string>{"knee_L"}, std::vector<double>{0.0, 1.0},
                                                 std::vector<std::vector<double>>{{0.3}, {0.4}});
    session.load(mabel, motion);
    QVERIFY(!session.hopControllerOn());
    QVERIFY(store.source(SignalStore::kSimulation)->columnIndex("hop/phase") < 0);
    session.setHopController(true);  // the motion stays loaded, not played
    QVERIFY(session.hopControllerOn());
    QCOMPARE(session.motion(), motion);
    // Off again: the plain standing simulation, without the controller's columns.
    session.setHopController(false);
    QVERIFY(!session.hopControllerOn());
    QVERIFY(store.source(SignalStore::kSimulation)->columnIndex("hop/phase") < 0);
  }

  void panelSwitchRunsTheControllerAndShowsThePhase() {
    MainWindow w(false);
    QVERIFY(w.openRobot("mabel"));
    RobotPanel* panel = w.robotPanel();
    QVERIFY(panel->mabelTabShown());
    MabelPanel* p = panel->mabelPanel();
    QCOMPARE(p->phaseText(), QString("off"));
    p->hopCheck()->setChecked(true);  // as a click
    QVERIFY(w.session()->hopControllerOn());
    // (The window is not shown here, so the panel is fed the rows the shown window would feed it.)
    panel->showRow(w.session()->row(0));
    QCOMPARE(p->phaseText(), QString("I flight"));  // dropping
    QCOMPARE(p->hopsText(), QString("0 (touchdowns 0)"));
    // hop/phase is plotted like any signal.
    bool plotted = false;
    for (PlotWidget* pw : w.plots()->plots())
      for (const SignalRef& r : pw->signalRefs()) plotted = plotted || r.column == "hop/phase";
    QVERIFY(plotted);
    QVERIFY(runUntil(*w.session(), 0.8, 60000));
    panel->showRow(w.session()->row(w.session()->frameCount() - 1));
    QVERIFY(p->hopsText() != "0 (touchdowns 0)");  // landed from the drop at least once
    // An edit applied keeps the controller running on the edited model.
    const int r = p->legRowOf("spring/K_B");
    p->legTable()->item(r, p->legColumnOf("mabel/left"))->setText("120");
    for (QPushButton* b : panel->findChildren<QPushButton*>())
      if (b->text().startsWith("Apply")) b->click();
    QCOMPARE(w.session()->model()->mabel_legs[0].params.spring.K_B_Nm_rad, 120.0);
    QVERIFY(w.session()->hopControllerOn());
    QVERIFY(p->hopCheck()->isChecked());
    // Off: back to the standing robot.
    p->hopCheck()->setChecked(false);
    QVERIFY(!w.session()->hopControllerOn());
    QCOMPARE(p->phaseText(), QString("off"));
    // Another robot: refused with the reason, nothing changes.
    QVERIFY(w.openRobot("nao"));
    QVERIFY(!panel->mabelTabShown());
    QVERIFY(!w.setHopController(true));
    QVERIFY(w.lastError().contains("MABEL"));
    QVERIFY(!w.session()->hopControllerOn());
  }

  void scriptedOptions() {
    int code = -1;
    const auto o = parseOptions({"gapsim", "--robot", "mabel", "--controller", "hop", "--hop", "torso_update=0",
                                 "--plot", "hop/phase,mabel/left/q_Bsp_rad", "--plot", "LToe/normal_N", "--quit"},
                                code);
    QVERIFY(o);
    QCOMPARE(o->controller, QString("hop"));
    QCOMPARE(o->hop, QString("torso_update=0"));
    QCOMPARE(o->plots, QStringList({"hop/phase,mabel/left/q_Bsp_rad", "LToe/normal_N"}));
    // The GUI applies --hop as the CLI does: parameters reach the session's controller.
    MainWindow w(false);
    QVERIFY(w.openRobot("mabel"));
    MabelHopController::Params hp = parseHopParams(o->hop.toStdString());
    QVERIFY(!hp.torso_update);
    QVERIFY(w.setHopController(true, hp));
    QVERIFY(w.session()->hopControllerOn());
    // Without eq. (51) h_Tor stays h_Tor0 (8 deg) through the touchdowns (with it, it moves).
    QVERIFY(runUntil(*w.session(), 1.0, 60000));
    const SignalSource* sim = w.store()->source(SignalStore::kSimulation);
    QVERIFY(sim->values[static_cast<std::size_t>(sim->columnIndex("hop/touchdowns"))].back() >= 1);
    QCOMPARE(sim->values[static_cast<std::size_t>(sim->columnIndex("hop/h_Tor_rad"))].back(), 8.0 * M_PI / 180);
  }
};

QTEST_MAIN(GuiMabelTest)
#include "mabel_test.moc"
