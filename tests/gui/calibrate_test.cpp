// SPDX-License-Identifier: GPL-3.0-or-later
// The Calibrate panel on the offscreen platform: progress-line and history parsing, a calibration
// child process that fails (bad space file) or crashes leaves the GUI up with the error shown, a
// tiny real calibration of the shipped twin example (2 generations of 4) completes and fills the
// convergence plot, the before/after comparison runs, and applying best.params changes the named
// parameter of the running session. Also the overlay column mapping of recorded tilt logs.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineSeries>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <functional>
#include <utility>

#include "app/gui/calib_job.h"
#include "app/gui/calib_progress.h"
#include "app/gui/calib_results.h"
#include "app/gui/calibrate_panel.h"
#include "app/gui/convergence_plot.h"
#include "app/gui/main_window.h"
#include "app/gui/overlay_mapping.h"
#include "app/gui/plot_widget.h"
#include "app/gui/sim_session.h"
#include "calib/parameter_space.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "tests/gui/temp_file.h"

using namespace gapsim;
using namespace gapsim::gui;

namespace {
const QString kExample = QStringLiteral(GAPSIM_SOURCE_DIR "/calib/examples/nao_twin");

double parameterValue(const RobotModel& m, const std::string& name) {
  for (const ParameterEntry& e : listParameters(m))
    if (e.name == name) return e.value;
  return std::nan("");
}

// The twin example cut short for speed: the fast squat (0.9 s) to train on, the slow one
// (0.9 s) to validate on (held out, and it picks best.params); written into `dir`, pointing at the example's motions
// and references.
QString tinyScenarios(const QString& dir) {
  const QString p = dir + "/scenarios.csv";
  std::ofstream(p.toStdString()) << "name,motion,reference,duration_s,weight,role\n"
                                 << "squat_fast," << kExample.toStdString() << "/motions/squat_fast.csv,"
                                 << kExample.toStdString() << "/reference/squat_fast.csv,0.9,1,train\n"
                                 << "squat_slow," << kExample.toStdString() << "/motions/squat_slow.csv,"
                                 << kExample.toStdString() << "/reference/squat_slow.csv,0.9,1,validate\n";
  return p;
}

// The example's space, but starting K_e away from the robot's default (0.0195), so the best
// value differs from what the session runs whether or not two generations improve on the start.
QString tinySpace(const QString& dir) {
  const QString p = dir + "/space.csv";
  std::ofstream(p.toStdString()) << "name,value,lower,upper,frozen,tie,scale\n"
                                 << "legs/typeB/motor/K_e,0.025,0.0075,0.05,0,,log\n"
                                 << "legs/soft/D_B,2006.5,700,6000,0,,log\n";
  return p;
}

CalibJobSettings tinyRun(const QString& out) {
  CalibJobSettings s;
  s.robot = "nao";
  s.space = tinySpace(QFileInfo(out).absolutePath());
  s.scenarios = tinyScenarios(QFileInfo(out).absolutePath());
  s.algorithm = "cmaes";
  s.generations = 2;
  s.population = 4;
  s.seed = 3;
  s.workers = 2;
  s.out = out;
  s.extra = {"--sigma0", "0.25"};
  return s;
}
/// Writes `text` to `path` and reads it with `read`: the line and field of the InputError that
/// the reader throws; line -1 if it throws none.
std::pair<int, QString> badCellOf(const QString& path, const char* text,
                                  const std::function<void(const QString&)>& read) {
  std::ofstream(path.toStdString()) << text;
  try {
    read(path);
  } catch (const InputError& e) {
    return {e.line(), QString::fromStdString(e.field())};
  }
  return {-1, QString()};
}

}  // namespace

class CalibrateTest : public QObject {
  Q_OBJECT
 private slots:
  void progressLinesAreParsed() {
    // The exact format of calib/calibration.cpp's Calibration::run.
    const auto g0 = parseProgressLine("gen 0 (initial parameters): fitness 0.0123");
    QVERIFY(g0);
    QCOMPARE(g0->generation, 0);
    QCOMPARE(g0->best, 0.0123);
    QCOMPARE(g0->median, 0.0123);
    const auto g =
        parseProgressLine("gen 3/12 evals 18 best 0.00123 median 0.0045 sigma 0.2134 evals/s 2.50 eta 0:01:36");
    QVERIFY(g);
    QCOMPARE(g->generation, 3);
    QCOMPARE(g->generations, 12);
    QCOMPARE(g->evaluations, 18L);
    QCOMPARE(g->best, 0.00123);
    QCOMPARE(g->median, 0.0045);
    QCOMPARE(g->sigma, 0.2134);
    QCOMPARE(g->evals_per_s, 2.5);
    QCOMPARE(g->eta, QString("0:01:36"));
    QCOMPARE(g->failed, 0);
    const auto f = parseProgressLine(
        "gen 4/12 evals 24 best 1e-05 median inf sigma 0.1 evals/s 0.00 eta ? (2 failed, e.g. squat: diverged: NaN)");
    QVERIFY(f);
    QVERIFY(std::isinf(f->median));
    QCOMPARE(f->eta, QString("?"));
    QCOMPARE(f->failed, 2);
    QCOMPARE(f->failure, QString("squat: diverged: NaN"));
    // With validation scenarios (the '*' marks the set best.params holds), and with failures too.
    const auto v0 = parseProgressLine("gen 0 (initial parameters): fitness 0.0123, validation 0.0456");
    QVERIFY(v0);
    QCOMPARE(v0->validation, 0.0456);
    QVERIFY(v0->validation_best);
    const auto v0f =
        parseProgressLine("gen 0 (initial parameters): fitness inf (walk: fell, at t = 1 s), validation 2");
    QVERIFY(v0f && std::isinf(v0f->best));
    QCOMPARE(v0f->validation, 2.0);
    QVERIFY(std::isnan(g->validation));
    const auto v = parseProgressLine(
        "gen 3/12 evals 18 best 0.00123 median 0.0045 sigma 0.2134 evals/s 2.50 eta 0:01:36 | train 0.00123 "
        "validation 0.0051 *");
    QVERIFY(v);
    QCOMPARE(v->generation, 3);
    QCOMPARE(v->validation, 0.0051);
    QVERIFY(v->validation_best);
    const auto vf = parseProgressLine(
        "gen 4/12 evals 24 best 0.001 median 0.004 sigma 0.2 evals/s 2.50 eta 0:01:30 | train 0.001 validation "
        "0.0062 (1 failed, e.g. kick: diverged)");
    QVERIFY(vf);
    QCOMPARE(vf->validation, 0.0062);
    QVERIFY(!vf->validation_best);
    QCOMPARE(vf->failed, 1);
    QCOMPARE(vf->failure, QString("kick: diverged"));
    for (const char* other :
         {"calibrate: cmaes, 2 free dimensions", "best fitness 0.1 (initial 0.2) after 8 evaluations",
          "error: space.csv:3: value: not a number", "gen x/12 evals 1 best 1 median 1 sigma 1 evals/s 1 eta ?",
          "optimizer stopped: tolfun", ""})
      QVERIFY2(!parseProgressLine(other), other);
  }

  void historyIsReadAndBadHistoryNamed() {
    QTemporaryDir dir;
    const QString p = test::writeIn(
        dir, "history.csv", "generation,evaluations,best,median,sigma,a,b\n0,0,2,2,0.2,1,1\n1,6,1.5,3,0.18,1,1\n");
    const auto h = readHistory(p);
    QCOMPARE(h.size(), std::size_t(2));
    QCOMPARE(h[1].generation, 1);
    QCOMPARE(h[1].evaluations, 6L);
    QCOMPARE(h[1].median, 3.0);
    QCOMPARE(badCellOf(p, "generation,evaluations,best,median,sigma\n0,0,2,x,0.2\n", readHistory),
             std::make_pair(2, QString("median")));
  }

  void validationIsReadAndBadValidationNamed() {
    QTemporaryDir dir;
    const QString p =
        test::writeIn(dir, "validation.csv", "generation,train_fitness,validation_fitness\n0,2,3\n2,1,inf\n");
    const auto v = readValidation(p);
    QCOMPARE(v.size(), std::size_t(2));
    QCOMPARE(v[1].generation, 2);
    QVERIFY(std::isinf(v[1].validation));
    QCOMPARE(badCellOf(p, "generation,train_fitness,validation_fitness\n0,2,3\n1,1,x\n", readValidation),
             std::make_pair(3, QString("validation_fitness")));
  }

  void convergencePlotShowsValidationAndItsPick() {
    ConvergencePlot plot;
    QCOMPARE(plot.validationBestGeneration(), -1);
    // Validation falls, then rises while training falls: the ring stays on generation 2.
    plot.setValidation({{0, 1.0, 2.0}, {2, 0.5, 0.8}, {3, 0.3, 0.9}, {5, 0.1, 1.5}});
    QCOMPARE(plot.validationPointCount(), 4);
    QCOMPARE(plot.validationBestGeneration(), 2);
    // Live: a progress line with '*' moves the ring, one without adds only the point.
    GenerationProgress g;
    g.generation = 6, g.best = g.median = 0.05, g.validation = 0.7, g.validation_best = true;
    plot.addGeneration(g);
    QCOMPARE(plot.validationBestGeneration(), 6);
    g.generation = 7, g.validation = 0.75, g.validation_best = false;
    plot.addGeneration(g);
    QCOMPARE(plot.validationPointCount(), 6);
    QCOMPARE(plot.validationBestGeneration(), 6);
    const auto [f0, f1] = plot.fitnessRange();
    QVERIFY(f0 < 0.05 && f1 > 2.0);  // the validation values are inside the axis too
  }

  void argumentsFollowTheForm() {
    QTemporaryDir dir;
    const QString out = dir.filePath("x");
    CalibJobSettings s = tinyRun(out);
    const QStringList a = calibrateArguments(s);
    QCOMPARE(a.front(), QString("calibrate"));
    for (const char* o :
         {"--space", "--scenarios", "--optimizer", "--generations", "--lambda", "--seed", "--jobs", "--out"})
      QVERIFY2(a.contains(o), o);
    QCOMPARE(a[a.indexOf("--lambda") + 1], QString("4"));
    QCOMPARE(a.back(), QString("0.25"));
    s.resume = true;
    const QStringList r = calibrateArguments(s);
    QCOMPARE(r[r.indexOf("--resume") + 1], out);
    QVERIFY(!r.contains("--space"));  // the checkpoint holds them
    s.workers = 1;
    QVERIFY(calibrateArguments(s).contains("serial"));
  }

  void convergencePlotSkipsWhatALogAxisCannotShow() {
    ConvergencePlot plot;
    GenerationProgress g;
    g.best = g.median = 1.0;  // generation 0
    plot.addGeneration(g);
    g.generation = 1, g.best = 0.1, g.median = INFINITY;
    plot.addGeneration(g);
    QCOMPARE(plot.bestPointCount(), 2);
    QCOMPARE(plot.medianPointCount(), 1);
    QCOMPARE(plot.skippedValues(), 1);
    g.best = 0.05;  // the same generation again (a resume) replaces it
    plot.addGeneration(g);
    QCOMPARE(plot.bestPointCount(), 2);
    QVERIFY(std::abs(ConvergencePlot::fitnessOf(plot.bestSeries()->at(1)) - 0.05) < 1e-15);
  }

  void convergenceAxisPutsPointsWhereTheirLabelsSay() {
    // The case: 1.06e-12 was drawn below the "1e-12" line and the last point was cut.
    ConvergencePlot plot;
    GenerationProgress g;
    for (int i = 0; i <= 9; ++i) {
      g.generation = i, g.generations = 10;
      g.best = 1.06e-12 * std::pow(3.0, 9 - i), g.median = 2 * g.best;
      plot.addGeneration(g);
    }
    const QStringList labels = plot.fitnessLabels();
    QVERIFY2(labels.contains("1e-12"), qPrintable(labels.join(' ')));
    // The label 1e-12 sits at log10(1e-12); the best point of the last generation just above it.
    const QPointF last = plot.bestSeries()->points().back();
    QVERIFY(last.y() > std::log10(1e-12) && std::abs(ConvergencePlot::fitnessOf(last) - 1.06e-12) < 1e-24);
    for (const QString& l : labels) {
      QVERIFY2(QRegularExpression("^[125]e-?\\d+$").match(l).hasMatch(), qPrintable(l));  // 1, 2 or 5 x 10^n
    }
    // Every point inside the frame, with room: first and last generation, lowest and highest value.
    const auto [f0, f1] = plot.fitnessRange();
    const auto [x0, x1] = plot.generationRange();
    for (QLineSeries* s : {plot.bestSeries(), plot.medianSeries()})
      for (const QPointF& p : s->points()) {
        QVERIFY(p.x() > x0 && p.x() < x1);
        QVERIFY(ConvergencePlot::fitnessOf(p) > f0 && ConvergencePlot::fitnessOf(p) < f1);
      }
    QCOMPARE(plot.generationLabels().front(), QString("0"));
    QCOMPARE(plot.generationLabels().back(), QString("9"));
  }

  void overlayTiltGoesToTheSimulatedTilt() {
    // A BIOLOID recording names the tilt after its body; a simulation after its IMU.
    const std::vector<std::string> sim = {"time_s", "l_hip/q_rad", "imu/tilt_rad", "imu/pitch_rad"};
    const auto m = mapOverlayColumns({"time_s", "l_hip/q_rad", "torso/tilt_rad", "torso/pitch_signed_rad"}, sim);
    QCOMPARE(m[2], std::string("imu/tilt_rad"));
    QCOMPARE(m[3], std::string("torso/pitch_signed_rad"));
    QCOMPARE(m[1], std::string("l_hip/q_rad"));
    // Same name: unchanged; two tilts in the recording: ambiguous, unchanged.
    QCOMPARE(mapOverlayColumns({"time_s", "imu/tilt_rad"}, sim)[1], std::string("imu/tilt_rad"));
    QCOMPARE(mapOverlayColumns({"a/tilt_rad", "b/tilt_rad"}, sim)[0], std::string("a/tilt_rad"));
    QCOMPARE(tiltColumn(sim), std::string("imu/tilt_rad"));
  }

  void failingJobLeavesTheGuiAliveWithTheError() {
    QTemporaryDir dir;
    CalibJobSettings s = tinyRun(dir.filePath("out"));
    const QString bad_space =
        test::writeIn(dir, "bad_space.csv", "name,value,lower,upper,frozen\nlegs/typeB/motor/B_v,abc,0.01,0.1,0\n");
    s.space = bad_space;
    SignalStore store;
    CalibratePanel panel(&store);
    // Before a job the bar says what the form plans (the form's default: 10), not "0 of 1".
    QCOMPARE(panel.progressBarText(), QString("10 generations planned"));
    panel.setCliPath(GAPSIM_CLI_PATH);
    panel.setSettings(s);
    QCOMPARE(panel.progressBarText(), QString("%1 generations planned").arg(s.generations));
    QSignalSpy done(&panel, &CalibratePanel::jobFinished);
    QVERIFY(panel.startJob());
    QCOMPARE(panel.progressBarText(), QString("generation 0 of %1").arg(s.generations));
    QVERIFY(done.wait(30000));
    QCOMPARE(done.front()[0].toInt(), 2);  // bad input
    QCOMPARE(done.front()[1].toBool(), false);
    QVERIFY2(panel.statusText().contains("exit code 2"), qPrintable(panel.statusText()));
    QVERIFY2(panel.statusText().contains("bad_space.csv:2"),
             qPrintable(panel.statusText()));  // file and line from stderr
    QVERIFY(!panel.jobRunning());
    QVERIFY(!panel.results());

    // A child that crashes (killed by a signal) and one that cannot start: reported, GUI up.
    CalibJob job;
    QSignalSpy fin(&job, &CalibJob::finished);
    QVERIFY(job.start("/bin/sh", {"-c", "echo 'gen 0 (initial parameters): fitness 1'; kill -SEGV $$"}));
    QVERIFY(fin.wait(10000));
    QCOMPARE(fin.front()[0].toInt(), -1);
    QVERIFY(fin.front()[2].toString().contains("crashed"));
    job.start(dir.filePath("no-such-program"), {});
    QTRY_COMPARE_WITH_TIMEOUT(fin.count(), 2, 10000);
    QVERIFY(fin.back()[2].toString().contains("cannot start"));
    // Stop: terminate, then kill.
    QVERIFY(job.start("/bin/sh", {"-c", "trap '' TERM; sleep 30"}));
    QTRY_VERIFY_WITH_TIMEOUT(job.processId() > 0, 5000);
    QTest::qWait(200);  // let the shell install its trap
    job.stop(300);
    QTRY_COMPARE_WITH_TIMEOUT(fin.count(), 3, 10000);
    QVERIFY(fin.back()[2].toString().contains("stopped"));
  }

  // Long on purpose: one calibration run (the costly part) followed as a user goes through it:
  // progress, results, apply, before/after, reopened in another window.
  void tinyCalibrationCompletesAndItsBestParametersApply() {
    QTemporaryDir dir;
    const QString out = dir.filePath("run");
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    CalibratePanel* panel = w.calibratePanel();
    panel->setCliPath(GAPSIM_CLI_PATH);
    panel->setSettings(tinyRun(out));
    QSignalSpy done(panel, &CalibratePanel::jobFinished);
    QVERIFY(panel->startJob());
    QVERIFY(done.wait(120000));
    QVERIFY2(done.front()[1].toBool(), qPrintable(panel->statusText() + "\n" + panel->outputText()));
    // Generations 0 (initial), 1 and 2, from the progress lines and then history.csv.
    QCOMPARE(panel->convergencePlot()->bestPointCount(), 3);
    QVERIFY(panel->convergencePlot()->medianPointCount() >= 2);
    QCOMPARE(panel->progressValue(), 2);
    QVERIFY(panel->results());
    const auto& h = panel->results()->history;
    QCOMPARE(h.size(), std::size_t(3));
    QVERIFY(h.back().best <= h.front().best);  // best never gets worse than the start
    QVERIFY(panel->outputText().contains("gen 2/2"));
    // Validation: generation 0 and every improving generation, and the pick of best.params.
    QVERIFY(!panel->results()->validation.empty());
    QCOMPARE(panel->convergencePlot()->validationPointCount(), static_cast<int>(panel->results()->validation.size()));
    QVERIFY(panel->convergencePlot()->validationBestGeneration() >= 0);
    // Parameters: a row per free dimension, with both verdicts (search spread and curvature).
    QVERIFY(panel->results()->parameters);
    QTableWidget* table = panel->parameterTable();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->columnCount(), 10);
    QCOMPARE(table->item(0, 0)->text(), QString("legs/typeB/motor/K_e"));
    for (int c : {2, 3}) {
      const QString verdict = table->item(0, c)->text();
      QVERIFY2(verdict == "well" || verdict == "weak", qPrintable(verdict));
    }
    QVERIFY(panel->parameterSummary().contains("validation best"));
    QVERIFY(panel->outputText().contains("sensitivity (training fitness"));

    // Apply: the session's model gets the best value of the calibrated parameter.
    const calib::ParameterSpace best = calib::ParameterSpace::load((out + "/best.params").toStdString());
    const std::string name = best.entries().front().name;  // legs/typeB/motor/K_e
    const double want = best.entries().front().value;
    const double before = parameterValue(*w.session()->model(), name);
    QVERIFY(std::abs(before - 0.0195) < 1e-9);  // the robot's default, not the space's start
    QVERIFY(want != before);
    panel->applyBest();
    QCOMPARE(parameterValue(*w.session()->model(), name), want);
    QVERIFY(panel->statusText().startsWith("Applied"));

    // Before/after on the held-out scenario: three overlays, and the plot shows them.
    panel->compareBeforeAfter(1);
    QSignalSpy ready(panel, &CalibratePanel::comparisonReady);
    QVERIFY(ready.wait(60000));
    QVERIFY(panel->comparison());
    QCOMPARE(panel->comparison()->scenario, std::string("squat_slow"));
    QVERIFY(panel->referenceOverlay() > 0 && panel->afterOverlay() > 0);
    QCOMPARE(w.store()->overlayIds().size(), std::size_t(3));
    QCOMPARE(panel->comparisonPlot()->seriesCount(), 3);
    QVERIFY(panel->comparisonPlot()->pointsDrawn() > 100);
    QVERIFY(!comparableColumns(*panel->comparison()).empty());
    // The same simulations as the CLI's own summary of the run (summary.csv, %.6g).
    QFile summary(out + "/summary.csv");
    QVERIFY(summary.open(QIODevice::ReadOnly));
    bool found = false;
    for (const QString& line : QString::fromUtf8(summary.readAll()).split('\n'))
      if (line.startsWith("squat_slow,")) {
        const QStringList c = line.split(',');
        QVERIFY(std::abs(c[2].toDouble() / panel->comparison()->before_score.F - 1) < 1e-5);
        QVERIFY(std::abs(c[3].toDouble() / panel->comparison()->after_score.F - 1) < 1e-5);
        found = true;
      }
    QVERIFY(found);
    // Recomputing replaces the three overlays rather than adding three more.
    panel->compareBeforeAfter(1);
    QVERIFY(ready.wait(60000));
    QCOMPARE(w.store()->overlayIds().size(), std::size_t(3));
    // Opened in another window, the bar says how far the run went of its 2 generations (the
    // form's default plan is 10).
    MainWindow other(false);
    QVERIFY(other.calibratePanel()->openResults(out));
    QCOMPARE(other.calibratePanel()->progressBarText(), QString("generation 2 of 2"));
  }

  void resultsOfACalibrationOnRecordedTrialsOpen() {
    // `calibrate --recordings` writes the same results directory with kind "replay" inputs: the
    // dock shows its convergence and parameters; there are no scenarios to compare.
    QTemporaryDir dir;
    const QString out = dir.filePath("rec");
    QProcess p;
    p.start(GAPSIM_CLI_PATH,
            {"calibrate", "--recordings", GAPSIM_SOURCE_DIR "/tests/calib/data/bioloid_lean", "--space",
             GAPSIM_SOURCE_DIR "/robots/bioloid/calibration/lean_space.csv", "--trials", "0.05-*", "--generations", "1",
             "--lambda", "2", "--backend", "serial", "--no-sensitivity", "--out", out});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    MainWindow w(false);
    CalibratePanel& panel = *w.calibratePanel();
    QVERIFY2(panel.openResults(out), qPrintable(panel.statusText()));
    QVERIFY(panel.results()->recordings.endsWith("bioloid_lean"));
    QVERIFY(panel.results()->objective.kind == calib::ObjectiveKind::ECali);
    QCOMPARE(panel.results()->history.size(), std::size_t(2));
    QVERIFY(panel.results()->scenario_names.empty());
    QCOMPARE(panel.parameterTable()->rowCount(), 12);  // lean_space.csv's free dimensions (the slopes are tied)
    QCOMPARE(panel.convergencePlot()->bestPointCount(), 2);
  }

  void applyingAParameterFileOfAnotherRobotFailsCleanly() {
    QTemporaryDir dir;
    const QString p = test::writeIn(dir, "bad.params", "name,value\nno_such_joint/servo/kp,1\n");
    MainWindow w(false);
    QVERIFY(w.openRobot("nao"));
    const auto model = w.session()->model();
    QVERIFY(!w.applyParameterFile(p));
    QVERIFY(w.lastError().contains("bad.params:2"));
    QCOMPARE(w.session()->model(), model);  // unchanged
  }
};

QTEST_MAIN(CalibrateTest)
#include "calibrate_test.moc"
