// SPDX-License-Identifier: GPL-3.0-or-later
// Widgets and models of the desktop application on the offscreen platform: the signal tree, the
// drop of signals onto a plot, the decimation, the overlay join with offset and its RMS figure,
// the alignment, the parameter binding to the model and the robot panel, and playback from the
// recorded history.
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMimeData>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <numbers>
#include <span>

#include "app/gui/decimate.h"
#include "app/gui/drive_curve_panel.h"
#include "app/gui/ghost_pose.h"
#include "app/gui/gl_view.h"
#include "app/gui/keyframe_table.h"
#include "app/gui/main_window.h"
#include "app/gui/model_params.h"
#include "app/gui/overlay_panel.h"
#include "app/gui/playback_bar.h"
#include "app/gui/plot_panel.h"
#include "app/gui/plot_widget.h"
#include "app/gui/robot_panel.h"
#include "app/gui/run_event.h"
#include "app/gui/servo_table.h"
#include "app/gui/signal_mime.h"
#include "app/gui/signal_store.h"
#include "app/gui/signal_tree.h"
#include "app/gui/sim_session.h"
#include "app/gui/unwrap.h"
#include "calib/drive_curve.h"
#include "calib/replay_commands.h"
#include "sim/input_error.h"
#include "sim/log_writer.h"
#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"
#include "tests/gui/temp_file.h"

using namespace gapsim;
using namespace gapsim::gui;

namespace {
// A simulated log of 10 s at 100 Hz: pitch = sin(t), knee = 0.5 t.
void fillSimulation(SignalStore& store) {
  store.resetSimulation({"time_s", "torso/pitch_rad", "LKneePitch/q_rad", "LKneePitch/tau_Nm"});
  for (int i = 0; i <= 1000; ++i) {
    const double t = i * 0.01;
    store.appendSimulationRow({t, std::sin(t) + 0.3 * std::sin(3.1 * t), 0.5 * t, 0.1});
  }
}

// A "real" log: the same pitch recorded 0.4 s late with a 0.05 rad bias, and an extra column.
Log realLog(double delay_s, double bias) {
  Log log({"time_s", "torso/pitch_rad", "imu/temperature_C"});
  for (int i = 0; i <= 800; ++i) {
    const double t = i * 0.01, s = t - delay_s;
    log.appendRow(std::vector<double>{t, std::sin(s) + 0.3 * std::sin(3.1 * s) + bias, 30.0});
  }
  return log;
}

// Qt delivers synthetic drag events only during a real drag; the handlers are called directly.
struct DroppablePlot : PlotWidget {
  using PlotWidget::dragEnterEvent;
  using PlotWidget::dropEvent;
  using PlotWidget::PlotWidget;
};

std::shared_ptr<const RobotModel> nao() {
  return std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("nao")));
}
}  // namespace

class GuiWidgetsTest : public QObject {
  Q_OBJECT
 private slots:
  void signalTreeFollowsTheSlashes() {
    SignalStore store;
    fillSimulation(store);
    store.addOverlay("real.csv", "/tmp/real.csv", realLog(0, 0));
    SignalTree tree(&store);
    SignalTreeModel* m = tree.model();
    QCOMPARE(m->rowCount(), 2);  // simulation, real.csv
    const QModelIndex sim = m->index(0, 0);
    QCOMPARE(m->data(sim).toString(), QString("simulation"));
    QCOMPARE(m->rowCount(sim), 2);  // torso, LKneePitch
    QModelIndex knee;
    for (int r = 0; r < m->rowCount(sim); ++r)
      if (m->data(m->index(r, 0, sim)).toString() == "LKneePitch") knee = m->index(r, 0, sim);
    QVERIFY(knee.isValid());
    QCOMPARE(m->rowCount(knee), 2);  // q_rad, tau_Nm
    QCOMPARE(m->data(m->index(1, 0)).toString(), QString("real.csv"));
    // Dragging a folder's leaves carries (source, column) pairs.
    const auto leaves = m->leavesUnder(knee);
    QCOMPARE(leaves.size(), std::size_t(2));
    std::unique_ptr<QMimeData> mime(m->mimeData({m->index(0, 0, knee)}));
    const auto refs = decodeSignals(mime.get());
    QCOMPARE(refs.size(), std::size_t(1));
    QCOMPARE(refs[0].source, SignalStore::kSimulation);
    QCOMPARE(QString::fromStdString(refs[0].column), QString("LKneePitch/q_rad"));
    // The filter keeps matching leaves and their parents.
    tree.setFilter("tau");
    auto* proxy = tree.view()->model();
    QCOMPARE(proxy->rowCount(), 1);  // only the simulation has a tau column
  }

  void droppingSignalsOnAPlotAddsCurves() {
    SignalStore store;
    fillSimulation(store);
    const int id = store.addOverlay("real.csv", "", realLog(0.4, 0.05));
    DroppablePlot plot(&store);
    plot.resize(600, 300);
    std::unique_ptr<QMimeData> mime(
        encodeSignals({{SignalStore::kSimulation, "torso/pitch_rad"}, {id, "torso/pitch_rad"}}));
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    plot.dragEnterEvent(&enter);
    QVERIFY(enter.isAccepted());
    QMimeData text;
    text.setText("not a signal");
    QDragEnterEvent refuse(QPoint(100, 100), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    plot.dragEnterEvent(&refuse);
    QVERIFY(!refuse.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    plot.dropEvent(&drop);
    QCOMPARE(plot.seriesCount(), 2);
    QVERIFY(!plot.addSignal({SignalStore::kSimulation, "torso/pitch_rad"}));  // no duplicates
    QVERIFY(!plot.addSignal({SignalStore::kSimulation, "no/such_column"}));
    plot.refresh(0, 10);
    QVERIFY(plot.pointsDrawn() > 0);
    store.removeOverlay(id);  // its curve goes with it
    plot.refresh(0, 10);
    QCOMPARE(plot.seriesCount(), 1);
  }

  void decimationKeepsExtremesAndBoundsThePointCount() {
    std::vector<double> t(60000), v(60000);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = i * 0.01, v[i] = std::sin(i * 0.37);
    v[12345] = 5.0;  // one spike must survive
    v[40000] = -7.0;
    const Decimated d = decimateMinMax({t, v}, 0.0, 0.0, 600.0, 1000);
    QVERIFY(d.points.size() <= 2 * 1000 + 2);
    QCOMPARE(d.y_max, 5.0);
    QCOMPARE(d.y_min, -7.0);
    bool spike = false, dip = false;
    for (const QPointF& p : d.points) spike = spike || p.y() == 5.0, dip = dip || p.y() == -7.0;
    QVERIFY(spike && dip);
    for (qsizetype i = 1; i < d.points.size(); ++i) QVERIFY(d.points[i].x() >= d.points[i - 1].x());
    // Few points: all of them, plus one neighbour on each side of the window, offset applied.
    const Decimated few = decimateMinMax({t, v}, 1.0, 11.0, 11.1, 1000);
    QCOMPARE(few.points.size(), qsizetype(13));  // samples at 10.00..10.10 (11) plus 9.99 and 10.11
    QCOMPARE(few.points.front().x(), 9.99 + 1.0);
  }

  void overlayOffsetRmsAndAlignment() {
    SignalStore store;
    fillSimulation(store);
    const int id = store.addOverlay("real.csv", "", realLog(0.4, 0.05));
    QCOMPARE(sharedColumns(store, id), std::vector<std::string>{"torso/pitch_rad"});
    // Aligned (offset -0.4 s) only the bias is left: RMS = 0.05 (the join is exact on the grid).
    store.setOffset(id, -0.4);
    const RmsDifference aligned = overlayRms(store, id, "torso/pitch_rad");
    QVERIFY(aligned.samples > 700);
    QVERIFY(std::abs(aligned.rms - 0.05) < 1e-9);
    store.setOffset(id, 0.0);
    QVERIFY(overlayRms(store, id, "torso/pitch_rad").rms > 0.2);
    // The panel aligns by cross-correlation and shows the RMS of the shared signal.
    OverlayPanel panel(&store);
    panel.selectOverlay(id);
    QVERIFY(panel.alignCurrent("torso/pitch_rad"));
    QVERIFY(std::abs(store.offset(id) - (-0.4)) < 0.005);
    panel.updateRms();
    QCOMPARE(panel.rmsTable()->rowCount(), 1);
    QCOMPARE(panel.rmsTable()->item(0, 0)->text(), QString("torso/pitch_rad"));
    QVERIFY(std::abs(panel.rmsTable()->item(0, 1)->text().toDouble() - 0.05) < 0.005);
    QVERIFY(!panel.alignCurrent("imu/temperature_C"));  // not in the simulation
  }

  void parameterBindingEditsACopyOfTheModel() {
    // The panel's names are sim/parameters.h's (gapsim-cli params, --set): per joint and per group.
    const auto model = nao();
    const int knee = model->jointIndex("LKneePitch");
    RobotModel m = *model;
    const auto params = modelParameters(m);
    auto find = [&](const std::string& n) {
      for (const auto& p : params)
        if (p.name == n) return p.value;
      return std::nan("");
    };
    QCOMPARE(find("LKneePitch/friction/dry"), m.joints[knee].drive.dry_friction_Nm);
    setModelParameter(m, "LKneePitch/friction/dry", 0.5);
    QCOMPARE(m.joints[knee].drive.dry_friction_Nm, 0.5);
    QCOMPARE(model->joints[knee].drive.dry_friction_Nm, find("LKneePitch/friction/dry"));  // the original stays
    QVERIFY_THROWS_EXCEPTION(InputError, setModelParameter(m, "LKneePitch/friction/dry", -1));
    QCOMPARE(m.joints[knee].drive.dry_friction_Nm, 0.5);  // a refused value changes nothing
    QVERIFY_THROWS_EXCEPTION(InputError, setModelParameter(m, "nope/gain", 1));
    // Save and load back; a bad line names file, line and field and leaves the model alone.
    QTemporaryDir dir;
    const std::string path = dir.filePath("nao_params.csv").toStdString();
    saveParameterFile(path, m);
    RobotModel back = *model;
    loadParameterFile(path, back);
    QCOMPARE(back.joints[knee].drive.dry_friction_Nm, 0.5);
    const std::string bad = dir.filePath("bad.csv").toStdString();
    std::ofstream(bad) << "# comment\nname,value\nLKneePitch/friction/dry,0.3\nLKneePitch/friction/dry,abc\n";
    RobotModel untouched = *model;
    try {
      loadParameterFile(bad, untouched);
      QFAIL("no exception");
    } catch (const InputError& e) {
      QCOMPARE(e.line(), 4);
      QCOMPARE(QString::fromStdString(e.field()), QString("LKneePitch/friction/dry"));
    }
    QCOMPARE(untouched.joints[knee].drive.dry_friction_Nm, model->joints[knee].drive.dry_friction_Nm);
  }

  void robotPanelShowsJointsAndAppliesEdits() {
    const auto model = nao();
    SignalStore store;
    SimSession session(&store);
    session.load(model, nullptr);
    RobotPanel panel;
    {
      // The robot file is named as the user sees it from the working directory, the full path in
      // the tooltip (screenshots carry no machine's absolute path).
      const QString cwd = QDir::currentPath();
      QDir::setCurrent(GAPSIM_SOURCE_DIR);
      panel.setRobot(model, session.columns());
      QDir::setCurrent(cwd);
      QVERIFY2(panel.titleLabel()->text().contains("<small>robots/nao/nao.urdf</small>"),
               qPrintable(panel.titleLabel()->text()));
      QCOMPARE(panel.titleLabel()->toolTip(), QString::fromStdString(model->source_file));
    }
    panel.setRobot(model, session.columns());
    QCOMPARE(panel.jointTable()->rowCount(), static_cast<int>(model->movableJoints().size()));
    panel.showRow(session.row(0));
    QVERIFY(panel.jointTable()->item(0, 2)->text() != "-");
    QSignalSpy apply(&panel, &RobotPanel::applyRequested);
    QSignalSpy errors(&panel, &RobotPanel::errorOccurred);
    const int knee = model->jointIndex("LKneePitch");
    QVERIFY(panel.parameterTree()->topLevelItemCount() > 0);
    panel.editParameter("LKneePitch/friction/dry", 0.25);
    QVERIFY(panel.hasPendingEdits());
    QCOMPARE(panel.editedModel()->joints[knee].drive.dry_friction_Nm, 0.25);
    panel.editParameter("LAnklePitch/friction/dry", -3.0);  // refused with a message, the edit before stays
    QCOMPARE(errors.count(), 1);
    QCOMPARE(panel.editedModel()->joints[knee].drive.dry_friction_Nm, 0.25);
    for (QPushButton* b : panel.findChildren<QPushButton*>())
      if (b->text().startsWith("Apply")) b->click();
    QCOMPARE(apply.count(), 1);
    QVERIFY(!panel.hasPendingEdits());
  }

  void parameterTreeKeepsItsStateFiltersAndMarksChanges() {
    const auto model = nao();
    RobotPanel panel;
    panel.resize(400, 700);
    panel.setRobot(model, {});
    QTreeWidget* tree = panel.parameterTree();
    auto group = [&](const QString& g) -> QTreeWidgetItem* {
      for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0) == g) return tree->topLevelItem(i);
      return nullptr;
    };
    auto leaf = [&](const QString& name) -> QTreeWidgetItem* {
      for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if ((*it)->data(0, Qt::UserRole + 1).toString() == name) return *it;
      return nullptr;
    };
    QVERIFY(group("LKneePitch"));
    group("LKneePitch")->setExpanded(true);
    QVERIFY(!leaf("LKneePitch/friction/dry")->font(1).bold());  // the file's value: not marked
    // An edit is marked (bold, the file's value in the tooltip, the group counts it) ...
    panel.editParameter("LKneePitch/friction/dry", 0.25);
    QVERIFY(leaf("LKneePitch/friction/dry")->font(1).bold());
    QVERIFY(leaf("LKneePitch/friction/dry")->toolTip(1).contains("robot file: "));
    QCOMPARE(group("LKneePitch")->text(1), QString("1 changed"));
    // ... and stays marked after Apply, which reloads the tree from the new model; the open group
    // stays open.
    const auto applied = std::make_shared<const RobotModel>(*panel.editedModel());
    panel.setRobot(applied, {});
    QVERIFY(group("LKneePitch")->isExpanded());
    QVERIFY(!group("RKneePitch")->isExpanded());
    QVERIFY(leaf("LKneePitch/friction/dry")->font(1).bold());
    QVERIFY(!leaf("RKneePitch/friction/dry")->font(1).bold());
    // Set back to the file's value: the mark goes.
    panel.editParameter("LKneePitch/friction/dry",
                        model->joints[static_cast<std::size_t>(model->jointIndex("LKneePitch"))].drive.dry_friction_Nm);
    QVERIFY(!leaf("LKneePitch/friction/dry")->font(1).bold());
    QCOMPARE(group("LKneePitch")->text(1), QString());
    // The filter keeps matching parameters and their groups.
    panel.parameterFilter()->setText("kneepitch/friction");
    int shown_groups = 0;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) shown_groups += tree->topLevelItem(i)->isHidden() ? 0 : 1;
    QCOMPARE(shown_groups, 2);  // LKneePitch, RKneePitch
    QVERIFY(!group("RKneePitch")->isHidden() && group("RKneePitch")->isExpanded());
    QVERIFY(group("HeadYaw")->isHidden());
    for (int k = 0; k < group("LKneePitch")->childCount(); ++k) {
      QTreeWidgetItem* l = group("LKneePitch")->child(k);
      QCOMPARE(l->isHidden(), !l->data(0, Qt::UserRole + 1).toString().contains("friction"));
    }
    panel.parameterFilter()->clear();
    QVERIFY(!group("HeadYaw")->isHidden());
    // The value column is as wide as its widest value.
    tree->expandAll();
    int widest = 0;
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
      widest = std::max(widest, tree->fontMetrics().horizontalAdvance((*it)->text(1)));
    QVERIFY2(tree->columnWidth(1) >= widest, qPrintable(QString("%1 < %2").arg(tree->columnWidth(1)).arg(widest)));
  }

  void aMotionWithoutTimesIsExplainedInTheGuisWords() {
    QTemporaryDir dir;
    const QString path = test::writeIn(dir, "no_time.csv", "LKneePitch,RKneePitch\n0.1,0.1\n0.2,0.2\n");
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    QVERIFY(!w.openMotion(path));
    QVERIFY2(w.lastError().contains("no_time.csv has no time_s column"), qPrintable(w.lastError()));
    QVERIFY2(w.lastError().contains("File > Open Motion"), qPrintable(w.lastError()));
    QVERIFY(w.openMotion(path, 0.01));  // with a frame period it loads
  }

  void ghostIsPosedFromTheLogAtTheCursor() {
    // A "real" log of the squat with the left knee bent 0.3 rad more and the right hip pitch absent,
    // delayed by an offset: the ghost's joint angles, read back from the link poses the 3D view
    // holds, are the log's at the cursor; the joints the log lacks are the simulation's.
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    QVERIFY(w.openMotion(GAPSIM_SOURCE_DIR "/robots/nao/motions/squat.csv"));
    SimSession* s = w.session();
    s->setSpeed(10.0);
    s->play();
    QTRY_VERIFY_WITH_TIMEOUT(s->currentTime_s() > 1.0, 30000);
    s->pause();
    const auto model = s->model();
    QTemporaryDir dir;
    const QString path = dir.filePath("real_knee.csv");
    {
      Log real({"time_s", "LKneePitch/q_rad", "RKneePitch/q_rad"});
      for (int i = 0; i <= 200; ++i) {
        const double t = i * 0.01;
        real.appendRow(std::vector<double>{t, 0.3 + 0.5 * t, 0.2 * std::sin(3 * t)});
      }
      real.write(path.toStdString());
    }
    QVERIFY(w.view()->ghostLinks().empty());  // no log with joint angles yet
    QVERIFY(w.openOverlay(path));
    const int id = w.store()->overlayIds().back();
    w.store()->setOffset(id, 0.1);
    s->seek(0.75);
    const double t = s->currentTime_s();
    const auto& links = w.view()->ghostLinks();
    QCOMPARE(links.size(), model->links.size());
    auto pose = [&](int link) {
      const PoseF& p = links[static_cast<std::size_t>(link)];
      Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
      x.translation() = Eigen::Vector3d(p.p[0], p.p[1], p.p[2]);
      x.linear() = Eigen::Quaterniond(p.q[0], p.q[1], p.q[2], p.q[3]).normalized().toRotationMatrix();
      return x;
    };
    // The joint angle between a joint's parent and child link: child = parent * origin * R(axis, q).
    auto angle = [&](const std::string& joint) {
      const Joint& j = model->joints[static_cast<std::size_t>(model->jointIndex(joint))];
      const Eigen::AngleAxisd r(
          Eigen::Matrix3d((j.origin.inverse() * pose(j.parent).inverse() * pose(j.child)).linear()));
      return r.angle() * (r.axis().dot(j.axis) < 0 ? -1 : 1);
    };
    const double log_time = t - 0.1;                                         // shown at t + offset
    QVERIFY2(std::abs(angle("LKneePitch") - (0.3 + 0.5 * log_time)) < 1e-5,  // float poses: 1e-5 rad
             qPrintable(QString("%1 vs %2").arg(angle("LKneePitch")).arg(0.3 + 0.5 * log_time)));
    QVERIFY(std::abs(angle("RKneePitch") - 0.2 * std::sin(3 * log_time)) < 1e-5);
    const auto hip = w.store()->signal({SignalStore::kSimulation, "RHipPitch/q_rad"});
    QVERIFY(std::abs(angle("RHipPitch") - interpolateAt(*hip, t)) < 1e-5);
    // The root is the simulated robot's, moved beside it to its left by ghostSide_m.
    const Frame& frame = s->frame(s->currentIndex());
    const PoseF& root = frame.links[static_cast<std::size_t>(model->root_link)];
    const Eigen::Vector3d shift =
        pose(model->root_link).translation() - Eigen::Vector3d(root.p[0], root.p[1], root.p[2]);
    QVERIFY2(std::abs(shift.norm() - ghostSide_m(*model, frame)) < 1e-5 && std::abs(shift.z()) < 1e-6,
             qPrintable(QString("shift %1 %2 %3").arg(shift.x()).arg(shift.y()).arg(shift.z())));
    QVERIFY(ghostSide_m(*model, frame) > 0.25);  // the standing Nao's torso height: about its width
    QVERIFY(Eigen::Quaterniond(root.q[0], root.q[1], root.q[2], root.q[3]).toRotationMatrix().col(1).dot(shift) >
            0);  // its left
    // Switched off: gone; removing the log removes it too.
    w.ghostAction()->setChecked(false);
    QVERIFY(w.view()->ghostLinks().empty());
    w.ghostAction()->setChecked(true);
    QVERIFY(!w.view()->ghostLinks().empty());
    w.store()->removeOverlay(id);
    QVERIFY(w.view()->ghostLinks().empty());
    QVERIFY(ghostColor(0).x() < ghostColor(0.3).x());  // redder with the error
  }

  void bioloidPanelShowsAndEditsTheServoGains() {
    // The Nao has no Dynamixel servos: no Servos tab.
    RobotPanel panel;
    const auto n = nao();
    panel.setRobot(n, {});
    QVERIFY(!panel.servoTabShown());
    // The BIOLOID (its voltage-domain AX-18A): one group row (all 18 servos) and one row per joint,
    // the compliance law's registers, the motor and its friction; not the PID gains the AX law does
    // not read (an edit of them would be refused).
    const auto ax = std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("bioloid")));
    panel.setRobot(ax, {});
    QVERIFY(panel.servoTabShown());
    QCOMPARE(panel.servoTable()->rowCount(), 1 + static_cast<int>(ax->movableJoints().size()));
    for (const char* g : {"cw_margin", "ccw_margin", "cw_slope", "ccw_slope", "punch", "stall_torque", "no_load_speed",
                          "friction/tau_c", "delay_s"})
      QVERIFY2(panel.servoTable()->columnOf(g) >= 0, g);
    for (const char* g : {"kp", "ki", "kd", "kc", "law"}) QVERIFY2(panel.servoTable()->columnOf(g) < 0, g);
    const int stall = panel.servoTable()->columnOf("stall_torque");
    QCOMPARE(panel.servoTable()->item(0, stall)->text().toDouble(), 1.8);
    panel.servoTable()->item(0, stall)->setText("1.5");  // the group row: every servo
    QVERIFY(panel.hasPendingEdits());
    int edited = 0;
    for (const ModelParameter& p : modelParameters(*panel.editedModel()))
      if (p.name.ends_with("/servo/stall_torque")) {
        QCOMPARE(p.value, 1.5);
        ++edited;
      }
    QCOMPARE(edited, 1 + static_cast<int>(ax->movableJoints().size()));
    // Paper 000's law (bioloid_paper_law.urdf): kp kd kc and the clamp.
    const auto bio = std::make_shared<const RobotModel>(
        loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/robots/bioloid/bioloid_paper_law.urdf"));
    panel.setRobot(bio, {});
    QVERIFY(panel.servoTabShown());
    ServoTable* t = panel.servoTable();
    QCOMPARE(t->rowCount(), 1 + static_cast<int>(bio->movableJoints().size()));
    for (const char* g : {"kp", "kd", "kc", "tau_min", "tau_max", "speed_max", "delay_s"})
      QVERIFY2(t->columnOf(g) >= 0, g);
    const int knee = bio->jointIndex("l_shin");
    const int row = t->rowOf("l_shin"), kp = t->columnOf("kp");
    QVERIFY(row > 0);
    QCOMPARE(t->parameterName(row, kp), std::string("l_shin/servo/kp"));
    const double kp0 = bio->joints[knee].drive.dynamixel.kp_Nm_rad;
    QVERIFY(std::abs(t->item(row, kp)->text().toDouble() - kp0) <= 1e-4 * kp0);  // shown with 5 digits
    // Editing a joint's cell edits that parameter of the copy (the same name as gapsim-cli --set).
    t->item(row, kp)->setText("2.5");
    QVERIFY(panel.hasPendingEdits());
    QCOMPARE(panel.editedModel()->joints[knee].drive.dynamixel.kp_Nm_rad, 2.5);
    QVERIFY(bio->joints[knee].drive.dynamixel.kp_Nm_rad != 2.5);  // the loaded model stays
    // A group row sets every servo of the group; the table then shows the new values.
    const int group = 0, kd = t->columnOf("kd");
    QVERIFY(bio->jointIndex(t->parameterName(group, kd).substr(0, t->parameterName(group, kd).find('/'))) < 0);
    t->item(group, kd)->setText("0.07");
    QTRY_COMPARE(t->item(row, kd)->text().toDouble(), 0.07);
    for (int j : bio->movableJoints()) QCOMPARE(panel.editedModel()->joints[j].drive.dynamixel.kd_Nm_s_rad, 0.07);
    // A refused value (negative gain) is reported and the table goes back to the model's value.
    QSignalSpy errors(&panel, &RobotPanel::errorOccurred);
    t->item(row, kp)->setText("-1");
    QCOMPARE(errors.count(), 1);
    QTRY_COMPARE(t->item(row, kp)->text().toDouble(), 2.5);
    t->item(row, kp)->setText("abc");
    QCOMPARE(errors.count(), 2);
    // The no-load speed and the dead time (added with the real-recording replay) edit the same way.
    const int wmax = t->columnOf("speed_max"), delay = t->columnOf("delay_s");
    t->item(row, wmax)->setText("8");
    t->item(row, delay)->setText("0.05");
    QCOMPARE(panel.editedModel()->joints[knee].drive.dynamixel.speed_max_rad_s, 8.0);
    QCOMPARE(panel.editedModel()->joints[knee].drive.dynamixel.delay_s, 0.05);
  }

  void driveTabDrawsTheEnvelopeOfTheDriveThatRuns() {
    RobotPanel panel;
    const auto bio = std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("bioloid")));
    panel.setRobot(bio, {});
    DriveCurvePanel* d = panel.driveCurvePanel();
    QVERIFY(panel.parameterTabs()->indexOf(d) >= 0);
    QCOMPARE(d->jointBox()->count(), static_cast<int>(bio->movableJoints().size()));
    QVERIFY(!d->showJoint("no_such_joint"));
    QVERIFY(d->showJoint("l_shin"));
    QVERIFY(d->curve().has_value());
    // The drawn series are the workflow's numbers (calib/drive_curve.h), point for point.
    calib::DriveCurveOptions o;
    o.joint = "l_shin";
    const calib::DriveCurve c = calib::driveCurve(*bio, o);
    QCOMPARE(d->upperSeries()->count(), static_cast<int>(c.points.size()));
    QCOMPARE(d->lowerSeries()->count(), static_cast<int>(c.points.size()));
    for (int i = 0; i < d->upperSeries()->count(); ++i) {
      QCOMPARE(d->upperSeries()->at(i).x(), c.points[static_cast<std::size_t>(i)].qd_rad_s);
      QCOMPARE(d->upperSeries()->at(i).y(), c.points[static_cast<std::size_t>(i)].upper.tau_Nm);
      QCOMPARE(d->lowerSeries()->at(i).y(), c.points[static_cast<std::size_t>(i)].lower.tau_Nm);
    }
    // The AX-18A at rest: its stall torque 1.8 N m less the Coulomb friction 0.06 N m.
    QVERIFY2(std::abs(d->curve()->stall_max_Nm - 1.74) < 1e-9, qPrintable(QString::number(d->curve()->stall_max_Nm)));
    QCOMPARE(d->markSeries()->count(), 4);  // two stall torques, two no-load rates
    QVERIFY(d->statusLabel()->text().contains("stall"));
    // A pending edit (not applied yet) shows: more friction lowers the stall torque by as much.
    panel.editParameter("l_shin/servo/friction/tau_c", 0.1);
    QVERIFY(d->showJoint("l_shin"));
    QVERIFY2(std::abs(d->curve()->stall_max_Nm - 1.7) < 1e-9, qPrintable(QString::number(d->curve()->stall_max_Nm)));
    // MABEL's legs are moved by coupled drives: no curve, and the line says why.
    const auto mabel = std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("mabel")));
    panel.setRobot(mabel, {});
    bool refused = false;
    for (int i = 0; i < d->jointBox()->count(); ++i) {
      QVERIFY(d->showJoint(d->jointBox()->itemText(i).toStdString()));
      if (!d->curve()) {
        refused = true;
        QVERIFY2(d->statusLabel()->text().contains("coupled drive"), qPrintable(d->statusLabel()->text()));
        QCOMPARE(d->upperSeries()->count(), 0);
      }
    }
    QVERIFY(refused);
  }

  void bioloidControllerKeyframesAreShown() {
    MainWindow w(false);
    QVERIFY(w.openRobot("bioloid"));
    const QString file = GAPSIM_SOURCE_DIR "/robots/bioloid/controllers/lean.csv";
    const KeyframeController c = KeyframeController::read(file.toStdString());
    QVERIFY(w.openAny(file));  // recognised by its header
    RobotPanel* panel = w.robotPanel();
    QVERIFY(panel->keyframeTabShown());
    KeyframeTable* t = panel->keyframeTable();
    QCOMPARE(t->rowCount(), static_cast<int>(c.keyframes().size()));
    QCOMPARE(t->columnCount(), 2 + static_cast<int>(c.stems().size()));
    // t of the last row is the controller's T; angles in degrees.
    QVERIFY(std::abs(t->item(t->rowCount() - 1, 1)->text().toDouble() - c.duration_s()) < 1e-3);
    const int thigh = 2 + static_cast<int>(std::find(c.stems().begin(), c.stems().end(), "thigh") - c.stems().begin());
    QVERIFY(std::abs(t->item(0, thigh)->text().toDouble() -
                     c.keyframes()[0].q_rad[static_cast<std::size_t>(thigh - 2)] * 180 / M_PI) < 0.06);
    // The Nao has no BIOLOID legs: refused with the reason, and a new robot drops the tab.
    QVERIFY(w.openRobot("nao"));
    QVERIFY(!panel->keyframeTabShown());
    QVERIFY(!w.openController(file));
    QVERIFY(!w.lastError().isEmpty());
  }

  void bioloidRecordingOverlaysTheSimulatedTilt() {
    MainWindow w(false);
    QVERIFY(w.openRobot("bioloid"));
    const std::string tilt = "torso/tilt_rad";  // the BIOLOID's IMU is on the torso
    QVERIFY(w.store()->source(SignalStore::kSimulation)->columnIndex(tilt) >= 0);
    QVERIFY(w.openOverlay(GAPSIM_TEST_DATA_DIR "/bioloid_lean_to_stand_0.05-01.csv"));
    const int id = w.store()->overlayIds().back();
    QVERIFY(w.store()->signal({id, tilt}));
    // The recording's tilt is plotted against the simulated one.
    std::vector<SignalRef> shown;
    for (PlotWidget* p : w.plots()->plots())
      for (const SignalRef& r : p->signalRefs()) shown.push_back(r);
    QVERIFY(std::find(shown.begin(), shown.end(), SignalRef{SignalStore::kSimulation, tilt}) != shown.end());
    QVERIFY(std::find(shown.begin(), shown.end(), SignalRef{id, tilt}) != shown.end());
    const auto shared = sharedColumns(*w.store(), id);  // so the Overlays dock shows its RMS
    QVERIFY(std::find(shared.begin(), shared.end(), tilt) != shared.end());
  }

  void realRecordingReplaysAsTheCliScoresIt() {
    // File > Replay Real Recording: the BIOLOID (loaded for it) starts from the recording's first
    // frame in front of the wall, plays the held commands, and the overlay's tilt RMS is the one
    // `gapsim-cli replay` reports for the trial (calib::replayTrial).
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    const QString rec = GAPSIM_SOURCE_DIR "/tests/calib/data/bioloid_lean/rising/lean-to-stand/0.05-01.csv";
    QVERIFY2(w.openRecordingReplay(rec), qPrintable(w.lastError()));
    const auto model = w.session()->model();
    QCOMPARE(QString::fromStdString(model->name), QStringLiteral("bioloid_gp"));
    bool wall = false;
    for (const SceneBox& b : model->scene_boxes) wall |= b.name == "wall";
    QVERIFY(wall);
    const std::string tilt = "torso/tilt_rad";
    QVERIFY(!w.store()->overlayIds().empty());
    const int id = w.store()->overlayIds().back();
    const SignalSource* sim = w.store()->source(SignalStore::kSimulation);
    QVERIFY(sim);
    const int tilt_col = sim->columnIndex(tilt);
    QVERIFY(tilt_col >= 0);
    const calib::ReplayTrial trial = calib::loadReplayTrial(rec.toStdString());
    const Log& recording = *trial.recording;
    const std::vector<double> row0 = w.session()->row(0);  // time first, then the columns
    QVERIFY(static_cast<std::size_t>(tilt_col) + 1 < row0.size());
    QVERIFY(std::abs(row0[static_cast<std::size_t>(tilt_col) + 1] - recording.column(tilt).front()) < 1e-5);
    w.session()->setSpeed(10.0);
    w.session()->play();
    QTRY_VERIFY_WITH_TIMEOUT(
        w.session()->currentTime_s() >= MainWindow::replayOptions().settle_s + recording.column("time_s").back(),
        60000);
    w.session()->pause();
    const RobotModel base = loadRobotFile(resolveRobotFile("bioloid"));
    const calib::ReplayResult cli =
        calib::replayTrial(base, trial, calib::motorMapFor(base), MainWindow::replayOptions());
    const RmsDifference gui = overlayRms(*w.store(), id, tilt);
    QVERIFY(gui.samples > 50);
    // Same trajectory; the GUI compares 10 ms log samples at the recorded frames, the CLI the
    // steps: a few per cent at most.
    QVERIFY2(std::abs(gui.rms - cli.rms_rad) < 0.05 * cli.rms_rad,
             qPrintable(QStringLiteral("GUI RMS %1 rad, CLI %2 rad").arg(gui.rms).arg(cli.rms_rad)));
    // Not a recording of the data package: refused, naming the file.
    QVERIFY(!w.openRecordingReplay(GAPSIM_TEST_DATA_DIR "/bioloid_lean_to_stand_0.05-01.csv"));
    QVERIFY(w.lastError().contains("bioloid_lean_to_stand_0.05-01.csv"));
  }

  void playbackSeeksWithinTheHistory() {
    SignalStore store;
    SimSession session(&store);
    const auto model = nao();
    auto motion =
        std::make_shared<const Motion>(loadMotion(std::string(GAPSIM_SOURCE_DIR) + "/robots/nao/motions/squat.csv"));
    session.load(model, motion);
    QCOMPARE(session.frameCount(), 1);
    for (int i = 0; i < 5; ++i) {
      const int before = session.frameCount();
      session.stepForward();
      QTRY_COMPARE_WITH_TIMEOUT(session.frameCount(), before + 1, 5000);
      QCOMPARE(session.currentIndex(), before);
    }
    QVERIFY(std::abs(session.currentTime_s() - 0.05) < 1e-9);  // 5 samples of 10 ms
    session.stepBackward();
    session.stepBackward();
    QCOMPARE(session.currentIndex(), 3);
    session.stepForward();  // inside the history: no simulation, the recorded frame
    QCOMPARE(session.currentIndex(), 4);
    QCOMPARE(session.frameCount(), 6);
    session.seek(0.021);
    QCOMPARE(session.currentIndex(), 2);
    QCOMPARE(store.source(SignalStore::kSimulation)->time_s.size(), std::size_t(6));
    // Playing from inside the history replays it, then the simulation takes over.
    session.setSpeed(5.0);
    session.play();
    QTRY_VERIFY_WITH_TIMEOUT(session.currentTime_s() > 0.3, 10000);
    session.pause();
    QVERIFY(session.frameCount() > 30);
    // A motion that names a joint the robot lacks is refused and the session is kept.
    auto bad = std::make_shared<const Motion>(
        loadMotion(std::string(GAPSIM_SOURCE_DIR) + "/tests/app/data/motion_unknown_joint.csv"));
    QVERIFY_THROWS_EXCEPTION(InputError, session.load(model, bad));
    QVERIFY(session.frameCount() > 30);
  }

  void ankleBalancePlaysAsTheCliAndSwitchesOffForMabel() {
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    const std::string squat = std::string(GAPSIM_SOURCE_DIR) + "/robots/nao/motions/squat.csv";
    QVERIFY(w.openAny(QString::fromStdString(squat)));
    QVERIFY(!w.balanceAction()->isChecked());
    // The CLI's loop (runMotion with --balance, and without) first: ODE's QuickStep RNG is one per
    // process, so no other simulation may step while the GUI's worker thread runs.
    const Motion motion = loadMotion(squat);
    auto cliLog = [&](const std::optional<BalanceParams>& b) {
      Simulation cli(w.session()->model());
      RunConfig cfg;
      cfg.duration_s = 0.4;
      cfg.balance = b;
      Log log(Recorder(*w.session()->model()).columns());
      runMotion(cli, &motion, cfg, &log);
      return log;
    };
    const Log closed = cliLog(BalanceParams{}), open = cliLog(std::nullopt);
    w.balanceAction()->trigger();  // as a click in Playback
    QVERIFY(w.balanceAction()->isChecked());
    SimSession* s = w.session();
    QVERIFY(s->balanceOn());
    s->setSpeed(5.0);
    s->play();
    QTRY_VERIFY_WITH_TIMEOUT(s->frameCount() > 40, 20000);
    s->pause();
    // The GUI plays what the CLI plays, row by row, and the feedback moved the ankle targets away
    // from the open-loop run's.
    const SignalSource* sim = w.store()->source(SignalStore::kSimulation);
    for (const char* c : {"LAnkleRoll/q_target_rad", "RAnklePitch/q_target_rad", "torso/roll_rad"}) {
      const std::vector<double> want = closed.column(c);
      const auto& got = sim->values[static_cast<std::size_t>(sim->columnIndex(c))];
      for (std::size_t i = 0; i <= 40; ++i)
        if (got[i] != want[i]) QFAIL(qPrintable(QString("%1 row %2: %3 != %4").arg(c).arg(i).arg(got[i]).arg(want[i])));
    }
    QVERIFY(closed.column("LAnkleRoll/q_target_rad") != open.column("LAnkleRoll/q_target_rad"));
    // MABEL has no ankles: loading it switches the feedback off, and switching it on is refused.
    QVERIFY(w.openRobot("mabel"));
    QVERIFY(!w.balanceAction()->isChecked());
    QVERIFY(!w.setAnkleBalance(true));
    QVERIFY(!w.session()->balanceOn());
  }

  void unwrapKeepsStepsWithinPi() {
    // A roll passing +pi at 3.1 -> -3.1 (a step of 0.083 rad, not -6.2) and a NaN that is skipped.
    const double pi = std::numbers::pi;
    std::vector<double> a{3.0, 3.1, -3.1, -3.0, std::nan(""), 3.1, -3.1};
    Unwrapped u;
    unwrapAppend(std::span<const double>(a).first(3), u);  // incremental: the log grows
    QCOMPARE(u.values.size(), std::size_t(3));
    unwrapAppend(a, u);
    QCOMPARE(u.values.size(), a.size());
    QCOMPARE(u.values[2], -3.1 + 2 * pi);
    QCOMPARE(u.values[3], -3.0 + 2 * pi);
    QVERIFY(std::isnan(u.values[4]));
    QCOMPARE(u.values[5], 3.1);  // -3.0 -> 3.1 across the NaN: back below +pi
    QCOMPARE(u.values[6], -3.1 + 2 * pi);
    QVERIFY(isAngleColumn("torso/roll_rad"));
    QVERIFY(!isAngleColumn("LKneePitch/dq_rad_s"));
    QVERIFY(!isAngleColumn("com/x_m"));
  }

  void fallShowsBannerMarkersAndUnwrappedRoll() {
    // The shipped 200 mm/s walk with weak pitch servos falls (tests/gui/data/nao_weak_legs.params):
    // `gapsim-cli run ... --params` prints fell=4.230, and the torso roll passes +-pi from 4.51 s.
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    QVERIFY2(w.followAction()->isChecked(), "a robot with a floating base is followed from the start");
    QVERIFY(w.openMotion(GAPSIM_SOURCE_DIR "/robots/nao/motions/walk_200mm_s_1s.csv"));
    QVERIFY(w.applyParameterFile(GAPSIM_TEST_DATA_DIR "/nao_weak_legs.params"));
    SimSession* s = w.session();
    QVERIFY(s->events().empty());
    QVERIFY(w.banner()->isHidden());
    s->setSpeed(100.0);
    s->play();
    QTRY_VERIFY_WITH_TIMEOUT(s->currentTime_s() > 6.5 || !s->playing(), 60000);
    s->pause();
    // The run goes on after the fall, and the GUI's fall is the CLI's (same physics, same steps).
    QVERIFY(s->currentTime_s() > 6.5);
    QVERIFY(s->fallTime_s().has_value());
    const double fall = *s->fallTime_s();
    QVERIFY2(std::abs(fall - 4.230) < 1e-6, qPrintable(QString::number(fall, 'f', 4)));
    QCOMPARE(s->events().size(), std::size_t(1));
    QVERIFY(!w.banner()->isHidden());
    QVERIFY2(w.banner()->text().startsWith("fell at 4.23 s: torso tilt"), qPrintable(w.banner()->text()));
    // A marker at the fall on every plot, drawn (inside the followed 10 s), and a tick on the scrubber
    // at the first frame at or after it.
    w.plots()->redrawNow();
    for (PlotWidget* p : w.plots()->plots()) {
      QCOMPARE(p->markers().size(), std::size_t(1));
      QCOMPARE(p->markers().front().t_s, fall);
      QCOMPARE(p->visibleMarkerCount(), 1);
    }
    MarkedSlider* scrubber = w.findChild<PlaybackBar*>()->scrubber();
    QCOMPARE(scrubber->marks().size(), std::size_t(1));
    const int mark = scrubber->marks().front().value;
    QVERIFY(s->frame(mark).t_s >= fall - 1e-9 && s->frame(mark - 1).t_s < fall);
    // The roll: raw, it jumps by about 2 pi; drawn (unwrapped by default) no step exceeds pi.
    const SignalRef roll{SignalStore::kSimulation, "torso/roll_rad"};
    const auto raw = w.store()->signal(roll);
    QVERIFY(raw.has_value());
    double raw_jump = 0;
    for (std::size_t i = 1; i < raw->v.size(); ++i) raw_jump = std::max(raw_jump, std::abs(raw->v[i] - raw->v[i - 1]));
    QVERIFY2(raw_jump > 5.0, qPrintable(QString("raw roll: largest step %1 rad, no wrap to test").arg(raw_jump)));
    PlotWidget* first = w.plots()->plots().front();
    QVERIFY(first->unwrapAngles());
    auto largestStep = [&](const QList<QPointF>& pts) {
      double m = 0;
      for (qsizetype i = 1; i < pts.size(); ++i) m = std::max(m, std::abs(pts[i].y() - pts[i - 1].y()));
      return m;
    };
    first->refresh(5.0, 6.5);  // 150 samples: drawn one by one, not decimated
    const QList<QPointF> unwrapped = first->drawnPoints(roll);
    QVERIFY(unwrapped.size() >= 150);
    QVERIFY2(largestStep(unwrapped) <= std::numbers::pi, qPrintable(QString::number(largestStep(unwrapped))));
    first->setUnwrapAngles(false);  // the context menu's toggle: the raw angle again
    QVERIFY(largestStep(first->drawnPoints(roll)) > 5.0);
    first->setUnwrapAngles(true);
    // A reset clears banner, markers and tick and keeps the user's camera choice.
    w.followAction()->trigger();
    QVERIFY(!w.view()->follow());
    s->reset();
    QVERIFY(s->events().empty());
    QVERIFY(w.banner()->isHidden());
    for (PlotWidget* p : w.plots()->plots()) QVERIFY(p->markers().empty());
    QVERIFY(scrubber->marks().empty());
    QVERIFY(!w.followAction()->isChecked());
    // MABEL runs on a boom (fixed base): not followed.
    QVERIFY(w.openRobot("mabel"));
    QVERIFY(!w.followAction()->isChecked());
    QVERIFY(w.openRobot("bioloid"));
    QVERIFY(w.followAction()->isChecked());
  }

  void divergenceShowsARedBannerWithTheBody() {
    // The Nao with a spin bound of 1 rad/s: the wave's elbow turns at up to 2.7 rad/s (gapsim-cli
    // run --motion wave.csv, RElbowRoll/qd_rad_s), so a step throws DivergenceError.
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    RobotModel m = *w.session()->model();
    m.max_angular_speed_rad_s = 1.0;
    auto wave = std::make_shared<const Motion>(loadMotion(GAPSIM_SOURCE_DIR "/robots/nao/motions/wave.csv"));
    w.session()->load(std::make_shared<const RobotModel>(std::move(m)), wave);
    w.session()->setSpeed(20.0);
    QSignalSpy error(w.session(), &SimSession::simulationError);
    w.session()->play();
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->events().empty(), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(error.count(), 1, 5000);
    const RunEvent& e = w.session()->events().back();
    QVERIFY(e.kind == RunEvent::Kind::kDivergence);
    QVERIFY(e.t_s > 0 && e.t_s < 8);
    QVERIFY(!w.session()->playing());  // a divergence ends the run
    QVERIFY2(w.banner()->text().startsWith(QString("diverged at %1 s: body '").arg(e.t_s, 0, 'f', 2)),
             qPrintable(w.banner()->text()));
    qInfo("banner: %s", qPrintable(w.banner()->text()));
    QVERIFY2(w.banner()->text().contains("rad/s (bound 1 rad/s)"), qPrintable(w.banner()->text()));
    QVERIFY(w.banner()->styleSheet().contains(eventColor(RunEvent::Kind::kDivergence).name()));
    for (PlotWidget* p : w.plots()->plots()) QCOMPARE(p->markers().size(), std::size_t(1));
    w.session()->reset();
    QVERIFY(w.banner()->isHidden());
  }

  void plotPanelSharesTheTimeRange() {
    SignalStore store;
    fillSimulation(store);
    PlotPanel panel(&store);
    panel.resize(600, 500);
    PlotWidget* a = panel.addPlot();
    PlotWidget* b = panel.addPlot();
    a->addSignal({SignalStore::kSimulation, "torso/pitch_rad"});
    b->addSignal({SignalStore::kSimulation, "LKneePitch/q_rad"});
    panel.setWindow(4.0);
    panel.redrawNow();
    QCOMPARE(panel.range().first, 6.0);  // following: the last 4 s of 10 s
    QCOMPARE(panel.range().second, 10.0);
    emit a->panRequested(-1.0);  // panning one plot moves all and stops following
    panel.redrawNow();
    QVERIFY(!panel.follow());
    QCOMPARE(panel.range().first, 5.0);
  }
};

QTEST_MAIN(GuiWidgetsTest)
#include "widgets_test.moc"
