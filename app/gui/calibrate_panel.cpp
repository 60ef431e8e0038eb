// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/calibrate_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>

#include "app/gui/convergence_plot.h"
#include "app/gui/plot_widget.h"
#include "app/gui/signal_store.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"

namespace gapsim::gui {

namespace {
QString fmt(double v) { return std::isfinite(v) ? QString::number(v, 'g', 4) : QStringLiteral("inf"); }

// The shipped example next to the robots directory, if there: a sensible first value for the form.
QString exampleFile(const QString& name) {
  const QString p =
      QFileInfo(QString::fromStdString(robotsDirectory())).absolutePath() + "/calib/examples/nao_twin/" + name;
  return QFileInfo(p).isFile() ? QFileInfo(p).absoluteFilePath() : QString();
}

QPushButton* buttonWithTip(const QString& text, const QString& tip) {
  auto* b = new QPushButton(text);
  b->setToolTip(tip);
  return b;
}

// A message of the panel: wrapped, and selectable so that a path or number can be copied.
QLabel* messageLabel(const QString& text = QString()) {
  auto* l = new QLabel(text);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}
}  // namespace

/// Long on purpose: the panel's form, buttons, progress and results built top to bottom in the
/// order they are shown, each wired to the job where it is made.
CalibratePanel::CalibratePanel(SignalStore* store, QWidget* parent)
    : QWidget(parent),
      store_(store),
      cli_(findCli()),
      job_(new CalibJob(this)),
      watcher_(new QFutureWatcher<ComparisonOutcome>(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(buildForm());

  auto* buttons = new QHBoxLayout;
  start_ = buttonWithTip(tr("Start"), tr("Run gapsim-cli calibrate with these settings as a separate process"));
  stop_ = buttonWithTip(tr("Stop"),
                        tr("Terminate the calibration (killed after 3 s); resume it later from its checkpoint"));
  open_ = buttonWithTip(tr("Open results..."), tr("Show an existing results directory (history.csv, best.params)"));
  buttons->addWidget(start_);
  buttons->addWidget(stop_);
  buttons->addStretch(1);
  buttons->addWidget(open_);
  layout->addLayout(buttons);

  bar_ = new QProgressBar;
  // Before a job the bar says what the form plans, not a placeholder "0 of 1".
  bar_->setRange(0, generations_->value());
  bar_->setValue(0);
  bar_->setFormat(tr("%m generations planned"));  // "generation %v of %m" once a job runs
  connect(generations_, &QSpinBox::valueChanged, this, [this](int n) {
    if (!jobRunning() && bar_->value() == 0) bar_->setRange(0, n);
  });
  layout->addWidget(bar_);
  progress_ = messageLabel(tr("No calibration yet."));
  layout->addWidget(progress_);
  status_ = messageLabel();
  layout->addWidget(status_);

  // Convergence, results and output each get the whole height below the form: the plots need it.
  convergence_ = new ConvergencePlot;
  tabs_ = new QTabWidget;
  tabs_->addTab(convergence_, tr("Convergence"));
  output_ = new QPlainTextEdit;
  output_->setReadOnly(true);
  output_->setMaximumBlockCount(5000);
  QFont mono("Monospace");
  mono.setStyleHint(QFont::TypeWriter);
  mono.setPointSizeF(8);
  output_->setFont(mono);

  auto* cmp = new QWidget;
  auto* cl = new QVBoxLayout(cmp);
  cl->setContentsMargins(2, 2, 2, 2);
  auto* row1 = new QHBoxLayout;
  apply_ = buttonWithTip(tr("Apply best parameters"),
                         tr("Load DIR/best.params into the simulation (it restarts from t = 0)"));
  play_ = buttonWithTip(tr("Play scenario"),
                        tr("Play the scenario's motion in the 3D view with its reference log overlaid"));
  row1->addWidget(apply_);
  row1->addWidget(play_);
  row1->addStretch(1);
  cl->addLayout(row1);
  auto* row2 = new QHBoxLayout;
  scenario_ = new QComboBox;
  compare_ = buttonWithTip(
      tr("Before/after"),
      tr("Simulate the scenario with the initial and the best parameters and overlay both on its reference"));
  column_ = new QComboBox;
  column_->setToolTip(tr("Signal shown: torso tilt or a joint angle"));
  row2->addWidget(new QLabel(tr("scenario")));
  row2->addWidget(scenario_, 1);
  row2->addWidget(compare_);
  row2->addWidget(column_, 1);
  cl->addLayout(row2);
  compare_label_ = messageLabel();
  cl->addWidget(compare_label_);
  compare_plot_ = new PlotWidget(store_);
  compare_plot_->setMinimumHeight(180);
  cl->addWidget(compare_plot_, 1);
  tabs_->addTab(cmp, tr("Before/after"));

  auto* par = new QWidget;
  auto* pl = new QVBoxLayout(par);
  pl->setContentsMargins(2, 2, 2, 2);
  params_label_ = messageLabel(tr("The parameter report appears when a run ends."));
  pl->addWidget(params_label_);
  params_table_ = new QTableWidget;
  params_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  params_table_->verticalHeader()->setVisible(false);
  pl->addWidget(params_table_, 1);
  tabs_->addTab(par, tr("Parameters"));
  tabs_->addTab(output_, tr("Output"));
  layout->addWidget(tabs_, 1);

  connect(start_, &QPushButton::clicked, this, &CalibratePanel::startJob);
  connect(stop_, &QPushButton::clicked, this, &CalibratePanel::stopJob);
  connect(open_, &QPushButton::clicked, this, [this] {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Open calibration results"), out_->text());
    if (!d.isEmpty()) openResults(d);
  });
  connect(apply_, &QPushButton::clicked, this, &CalibratePanel::applyBest);
  connect(compare_, &QPushButton::clicked, this, [this] { compareBeforeAfter(); });
  connect(play_, &QPushButton::clicked, this, [this] {
    const int k = scenario_->currentIndex();
    if (!results_ || k < 0) return;
    emit playScenarioRequested(QString::fromStdString(results_->scenario_motions[static_cast<std::size_t>(k)]),
                               QString::fromStdString(results_->scenario_references[static_cast<std::size_t>(k)]));
  });
  connect(column_, &QComboBox::currentTextChanged, this, [this](const QString& c) {
    if (!c.isEmpty()) showComparisonColumn(c);
  });
  connect(job_, &CalibJob::outputLine, this, [this](const QString& l) { appendOutput(l, false); });
  connect(job_, &CalibJob::errorText, this, [this](const QString& t) { appendOutput(t.trimmed(), true); });
  connect(job_, &CalibJob::progress, this, &CalibratePanel::onProgress);
  connect(job_, &CalibJob::finished, this, &CalibratePanel::onFinished);
  connect(watcher_, &QFutureWatcherBase::finished, this, &CalibratePanel::onComparisonDone);
  // Zoom and pan of the comparison plot stay inside it (the main plots have their own range).
  connect(compare_plot_, &PlotWidget::fitRequested, this, &CalibratePanel::refreshComparisonPlot);
  connect(store_, &SignalStore::sourcesChanged, this, [this] {
    for (int& id : overlay_ids_)
      if (id >= 0 && !store_->source(id)) id = -1;  // removed in the Overlays dock
  });
  updateButtons();
}

CalibratePanel::~CalibratePanel() {
  watcher_->waitForFinished();  // a comparison still simulating ends before the panel goes
}

QWidget* CalibratePanel::buildForm() {
  auto* box = new QWidget;
  auto* g = new QGridLayout(box);
  g->setContentsMargins(0, 0, 0, 0);
  g->setVerticalSpacing(2);
  auto fileRow = [&](int row, const QString& label, QLineEdit*& edit, bool dir, const QString& filter,
                     const QString& tip) {
    edit = new QLineEdit;
    edit->setToolTip(tip);
    auto* b = new QPushButton(QStringLiteral("..."));
    b->setMaximumWidth(30);
    g->addWidget(new QLabel(label), row, 0);
    g->addWidget(edit, row, 1, 1, 4);
    g->addWidget(b, row, 5);
    connect(b, &QPushButton::clicked, this, [this, edit, dir, filter] { browse(edit, dir, filter); });
  };
  robot_ = new QComboBox;
  robot_->setEditable(true);
  for (const std::string& r : shippedRobots()) robot_->addItem(QString::fromStdString(r));
  robot_->setCurrentText("nao");
  robot_->setToolTip(tr("Robot name or robot file (--robot)"));
  g->addWidget(new QLabel(tr("robot")), 0, 0);
  g->addWidget(robot_, 0, 1, 1, 2);
  algorithm_ = new QComboBox;
  algorithm_->addItem("cmaes");
  algorithm_->addItem("es");
  algorithm_->setToolTip(tr("CMA-ES, or the (mu,kappa,lambda)-ES (--optimizer)"));
  g->addWidget(new QLabel(tr("algorithm")), 0, 3);
  g->addWidget(algorithm_, 0, 4, 1, 2);
  fileRow(1, tr("space"), space_, false, tr("Parameter spaces (*.csv *.params);;All files (*)"),
          tr("Parameter space: name,value,lower,upper,frozen[,tie[,scale]] (--space)"));
  fileRow(2, tr("scenarios"), scenarios_, false, tr("Scenario sets (*.csv);;All files (*)"),
          tr("Scenario set: name,motion,reference,duration_s[,weight[,role]] (--scenarios)"));
  auto spin = [&](int lo, int hi, int v, const QString& special, const QString& tip) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(v);
    if (!special.isEmpty()) s->setSpecialValueText(special);
    s->setToolTip(tip);
    return s;
  };
  generations_ = spin(1, 100000, 10, {}, tr("Generations in total, including those before a resume (--generations)"));
  population_ =
      spin(0, 100000, 0, tr("default"), tr("Children per generation (--lambda); default: CMA-ES 4 + 3 ln n, ES 800"));
  seed_ = spin(0, 2147483647, 1, {}, tr("Seed of the optimizer (--seed)"));
  workers_ = spin(0, 1024, 0, tr("all cores"), tr("Worker processes (--jobs); 1: serial"));
  g->addWidget(new QLabel(tr("generations")), 3, 0);
  g->addWidget(generations_, 3, 1, 1, 2);
  g->addWidget(new QLabel(tr("population")), 3, 3);
  g->addWidget(population_, 3, 4, 1, 2);
  g->addWidget(new QLabel(tr("seed")), 4, 0);
  g->addWidget(seed_, 4, 1, 1, 2);
  g->addWidget(new QLabel(tr("workers")), 4, 3);
  g->addWidget(workers_, 4, 4, 1, 2);
  fileRow(5, tr("results"), out_, true, {}, tr("Results directory: best.params, history.csv, checkpoint.json (--out)"));
  resume_ = new QCheckBox(tr("resume the run in this directory"));
  resume_->setToolTip(
      tr("--resume DIR: continue from its checkpoint (robot, space, scenarios and settings come from it)"));
  force_ = new QCheckBox(tr("overwrite"));
  force_->setToolTip(tr("--force: write into a non-empty results directory"));
  g->addWidget(resume_, 6, 1, 1, 3);
  g->addWidget(force_, 6, 4, 1, 2);
  extra_ = new QLineEdit;
  extra_->setPlaceholderText(tr("more options, e.g. --sigma0 0.25 --objective E_cali"));
  g->addWidget(new QLabel(tr("options")), 7, 0);
  g->addWidget(extra_, 7, 1, 1, 5);
  g->setColumnStretch(1, 1);
  g->setColumnStretch(4, 1);
  connect(resume_, &QCheckBox::toggled, this, [this] { updateButtons(); });
  space_->setText(exampleFile("space.csv"));
  scenarios_->setText(exampleFile("scenarios.csv"));
  out_->setText(QDir::temp().filePath("gapsim_calibration"));
  return box;
}

void CalibratePanel::browse(QLineEdit* edit, bool directory, const QString& filter) {
  const QString start = edit->text().isEmpty() ? QString() : QFileInfo(edit->text()).absolutePath();
  const QString p = directory ? QFileDialog::getExistingDirectory(this, tr("Results directory"), edit->text())
                              : QFileDialog::getOpenFileName(this, tr("Open"), start, filter);
  if (!p.isEmpty()) edit->setText(p);
}

CalibJobSettings CalibratePanel::settings() const {
  CalibJobSettings s;
  s.robot = robot_->currentText().trimmed();
  s.space = space_->text().trimmed();
  s.scenarios = scenarios_->text().trimmed();
  s.algorithm = algorithm_->currentText();
  s.generations = generations_->value();
  s.population = population_->value();
  s.seed = static_cast<quint64>(seed_->value());
  s.workers = workers_->value();
  s.out = out_->text().trimmed();
  s.resume = resume_->isChecked();
  s.force = force_->isChecked();
  s.extra = QProcess::splitCommand(extra_->text());
  return s;
}

void CalibratePanel::setSettings(const CalibJobSettings& s) {
  robot_->setCurrentText(s.robot);
  space_->setText(s.space);
  scenarios_->setText(s.scenarios);
  algorithm_->setCurrentText(s.algorithm);
  generations_->setValue(s.generations);
  population_->setValue(s.population);
  seed_->setValue(static_cast<int>(s.seed));
  workers_->setValue(s.workers);
  out_->setText(s.out);
  resume_->setChecked(s.resume);
  force_->setChecked(s.force);
  extra_->setText(joinArguments(s.extra));
}

bool CalibratePanel::startJob() {
  if (jobRunning()) return false;
  const CalibJobSettings s = settings();
  convergence_->clear();
  output_->clear();
  results_.reset();
  planned_generations_ = s.generations;
  bar_->setRange(0, s.generations);
  bar_->setValue(0);
  bar_->setFormat(tr("generation %v of %m"));
  progress_->setText(tr("Starting..."));
  tabs_->setCurrentWidget(convergence_);
  // A resumed run prints only its new generations: the earlier ones come from its history.
  if (s.resume) {
    try {
      for (const GenerationProgress& p : readHistory(s.out + "/history.csv")) convergence_->addGeneration(p);
      if (QFileInfo(s.out + "/validation.csv").isFile())
        convergence_->setValidation(readValidation(s.out + "/validation.csv"));
    } catch (const InputError&) {
      // No readable history: the child will say what is wrong with the directory.
    }
  }
  const QStringList args = calibrateArguments(s);
  setStatus(tr("running: %1").arg(QFileInfo(cli_).fileName() + ' ' + args.join(' ')), false);
  appendOutput("$ " + cli_ + ' ' + joinArguments(args), false);
  const bool ok = job_->start(cli_, args);
  updateButtons();
  return ok;
}

void CalibratePanel::stopJob() {
  if (!jobRunning()) return;
  setStatus(tr("stopping..."), false);
  job_->stop();
}

bool CalibratePanel::jobRunning() const { return job_->running(); }

void CalibratePanel::onProgress(const GenerationProgress& p) {
  convergence_->addGeneration(p);
  if (p.generations > 0) {
    planned_generations_ = p.generations;
    bar_->setRange(0, p.generations);
  }
  bar_->setValue(p.generation);
  QString text = p.generation == 0
                     ? tr("generation 0 (initial parameters): fitness %1").arg(fmt(p.best))
                     : tr("generation %1/%2 · %3 evaluations · best %4 · median %5 · sigma %6 · %7 evals/s · ETA %8")
                           .arg(p.generation)
                           .arg(p.generations)
                           .arg(p.evaluations)
                           .arg(fmt(p.best), fmt(p.median), fmt(p.sigma))
                           .arg(p.evals_per_s, 0, 'f', 2)
                           .arg(p.eta);
  if (!std::isnan(p.validation))
    text += tr(" · validation %1%2").arg(fmt(p.validation), p.validation_best ? tr(" (best so far)") : QString());
  if (p.failed) text += tr(" · %1 failed (%2)").arg(p.failed).arg(p.failure);
  progress_->setText(text);
}

void CalibratePanel::showParameterReport() {
  params_table_->clear();
  params_table_->setRowCount(0);
  if (!results_ || !results_->parameters) {
    params_table_->setColumnCount(0);
    params_label_->setText(tr("No parameters.json in this directory: the report is written when a run ends."));
    return;
  }
  const ParameterReport& rep = *results_->parameters;
  bool fd = false;
  for (const ParameterDetermination& d : rep.rows) fd = fd || !d.fd_determined.empty();
  // The verdicts first: a narrow dock shows them without scrolling; the figures behind them follow.
  QStringList head{tr("parameter"), tr("moved"), tr("by spread")};
  QStringList tips{tr("Free dimension of the space"), tr("(result - initial) / |initial|"),
                   tr("well: the final CMA-ES search spread is half its initial step size or less")};
  if (fd) {
    head << tr("by curvature");
    tips << tr(
        "well: moving the parameter alone (the others at the result) by 0.1 of its range or less raises the "
        "training fitness by 10 %; parameters that trade off show in the condition number");
  }
  head << tr("result") << tr("initial") << tr("spread / sigma0") << tr("moved (range)");
  tips << tr("best.params") << tr("the space file's value") << tr("final search spread over the initial step size")
       << tr("move in units of the parameter's range (log range on a log scale)");
  if (fd) {
    head << tr("half-width (range)") << tr("rise at 5 %");
    tips << tr("the move, in units of the range, that raises the training fitness by 10 % (quadratic fit)")
         << tr("training fitness rise at +-5 % of the range around the result");
  }
  params_table_->setColumnCount(static_cast<int>(head.size()));
  params_table_->setHorizontalHeaderLabels(head);
  for (int c = 0; c < static_cast<int>(tips.size()); ++c) params_table_->horizontalHeaderItem(c)->setToolTip(tips[c]);
  params_table_->setRowCount(static_cast<int>(rep.rows.size()));
  auto cell = [this](int r, int c, const QString& text, const QString& verdict = {}) {
    auto* item = new QTableWidgetItem(text);
    if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (verdict == "well") item->setForeground(QColor(20, 110, 20));
    if (verdict == "weak") item->setForeground(QColor(170, 90, 0));
    params_table_->setItem(r, c, item);
  };
  auto pct = [](double v) { return std::isfinite(v) ? QString::asprintf("%+.1f %%", 100 * v) : QStringLiteral("inf"); };
  for (int r = 0; r < static_cast<int>(rep.rows.size()); ++r) {
    const ParameterDetermination& d = rep.rows[static_cast<std::size_t>(r)];
    const QString det = QString::fromStdString(d.determined), fdd = QString::fromStdString(d.fd_determined);
    int c = 0;
    cell(r, c++, QString::fromStdString(d.dimension));
    cell(r, c++, pct(d.moved_relative));
    cell(r, c++, det, det);
    if (fd) cell(r, c++, fdd, fdd);
    cell(r, c++, fmt(d.result));
    cell(r, c++, fmt(d.initial));
    cell(r, c++, fmt(d.std_over_sigma0));
    cell(r, c++, fmt(d.moved_range_fraction));
    if (fd) {
      cell(r, c++, fmt(d.fd_halfwidth_range_fraction));
      cell(r, c++, pct(d.fd_rise_relative));
    }
  }
  params_table_->resizeColumnsToContents();
  QString text = tr("Result: %1. Condition number of the search covariance: %2 (large: parameters trade off).")
                     .arg(QString::fromStdString(rep.result), fmt(rep.condition_number));
  if (!results_->warnings.isEmpty())
    text += "\n" + tr("%n warning(s), the last: ", "", static_cast<int>(results_->warnings.size())) +
            results_->warnings.back();
  params_label_->setText(text);
}

QString CalibratePanel::parameterSummary() const { return params_label_->text(); }

void CalibratePanel::onFinished(int code, bool ok, const QString& verdict) {
  updateButtons();
  if (ok) {
    bar_->setValue(bar_->maximum());
    setStatus(tr("Calibration %1.").arg(verdict), false);
    openResults(settings().out);
  } else {
    // The child's last words say why; the whole stderr is in the Output tab.
    QStringList err = job_->standardError().trimmed().split('\n', Qt::SkipEmptyParts);
    while (err.size() > 4) err.removeFirst();
    setStatus(tr("Calibration %1.").arg(verdict) + (err.isEmpty() ? QString() : "\n" + err.join('\n')), true);
    tabs_->setCurrentWidget(output_);
  }
  appendOutput(tr("[%1, exit code %2]").arg(verdict).arg(code), !ok);
  emit jobFinished(code, ok);
}

void CalibratePanel::appendOutput(const QString& text, bool error) {
  if (text.isEmpty()) return;
  const QString esc = text.toHtmlEscaped();
  output_->appendHtml(error ? QStringLiteral("<span style=\"color:#c00000\">%1</span>").arg(esc)
                            : QStringLiteral("<span>%1</span>").arg(esc));
  output_->verticalScrollBar()->setValue(output_->verticalScrollBar()->maximum());
}

void CalibratePanel::setStatus(const QString& text, bool error) {
  status_->setStyleSheet(error ? "color: #c00000; font-weight: bold" : QString());
  status_->setText(text);
}

void CalibratePanel::updateButtons() {
  const bool running = jobRunning();
  start_->setEnabled(!running);
  stop_->setEnabled(running);
  for (QWidget* w : std::initializer_list<QWidget*>{robot_, algorithm_, space_, scenarios_, population_, seed_, force_})
    w->setEnabled(!running && !resume_->isChecked());
  for (QWidget* w : std::initializer_list<QWidget*>{generations_, workers_, out_, resume_, extra_, open_})
    w->setEnabled(!running);
  const bool have = results_.has_value();
  const bool busy = comparing_;
  apply_->setEnabled(have && !running);
  play_->setEnabled(have && scenario_->count() > 0);
  compare_->setEnabled(have && !busy && scenario_->count() > 0);
  scenario_->setEnabled(have && !busy);
}

bool CalibratePanel::openResults(const QString& dir) {
  try {
    results_ = readCalibrationResults(dir);
  } catch (const std::exception& e) {
    results_.reset();
    setStatus(tr("Cannot open the results: %1").arg(QString::fromStdString(e.what())), true);
    updateButtons();
    return false;
  }
  convergence_->clear();
  for (const GenerationProgress& p : results_->history) convergence_->addGeneration(p);
  if (!results_->validation.empty()) convergence_->setValidation(results_->validation);
  showParameterReport();
  const GenerationProgress& last = results_->history.back();
  if (!jobRunning()) {
    // How far that run went of what it was asked for, not the form's plan for a next job.
    bar_->setRange(0, std::max(1, std::max(results_->settings.generations, last.generation)));
    bar_->setValue(last.generation);
    bar_->setFormat(tr("generation %v of %m"));
    progress_->setText(tr("%1: %2 generations, %3 evaluations, best %4 (initial %5)")
                           .arg(QDir(results_->dir).dirName())
                           .arg(last.generation)
                           .arg(last.evaluations)
                           .arg(fmt(last.best), fmt(results_->history.front().best)));
  }
  // The form shows how this result was made (and is ready to resume or extend it).
  if (!jobRunning()) {
    robot_->setCurrentText(results_->robot);
    space_->setText(results_->space);
    if (results_->recordings.isEmpty()) scenarios_->setText(results_->scenarios);
    algorithm_->setCurrentText(QString::fromStdString(results_->settings.optimizer));
    generations_->setValue(results_->settings.generations);
    population_->setValue(results_->settings.lambda);
    seed_->setValue(static_cast<int>(results_->settings.seed));
  }
  out_->setText(results_->dir);
  scenario_->clear();
  for (std::size_t k = 0; k < results_->scenario_names.size(); ++k)
    scenario_->addItem(QString::fromStdString(results_->scenario_names[k]) +
                       (results_->scenario_holdout[k] ? tr(" (held out)") : QString()));
  if (!results_->recordings.isEmpty())
    compare_label_->setText(tr("A calibration on recorded trials (%1): replay them with the best parameters in File > "
                               "Replay Real Recording after Apply.")
                                .arg(results_->recordings));
  // A held-out scenario is the honest test of the result: open on the first one.
  for (std::size_t k = 0; k < results_->scenario_holdout.size(); ++k)
    if (results_->scenario_holdout[k]) {
      scenario_->setCurrentIndex(static_cast<int>(k));
      break;
    }
  updateButtons();
  return true;
}

void CalibratePanel::applyBest() {
  if (!results_) return;
  emit applyRequested(results_->robot, results_->params, results_->best_params);
}

void CalibratePanel::showApplyResult(bool ok, const QString& message) { setStatus(message, !ok); }

void CalibratePanel::compareBeforeAfter(int scenario) {
  if (!results_ || comparing_) return;
  const int k = scenario >= 0 ? scenario : scenario_->currentIndex();
  if (k < 0) return;
  if (scenario >= 0) scenario_->setCurrentIndex(scenario);
  tabs_->setCurrentIndex(tabs_->indexOf(compare_plot_->parentWidget()));
  compare_label_->setText(tr("Simulating %1 with the initial and the best parameters...")
                              .arg(QString::fromStdString(results_->scenario_names[static_cast<std::size_t>(k)])));
  const CalibrationResults r = *results_;
  comparing_ = true;
  watcher_->setFuture(QtConcurrent::run([r, k]() -> ComparisonOutcome {
    try {
      return {std::make_shared<BeforeAfter>(runBeforeAfter(r, k)), {}};
    } catch (const std::exception& e) {
      return {nullptr, QString::fromStdString(e.what())};
    }
  }));
  updateButtons();
}

bool CalibratePanel::comparisonRunning() const { return comparing_; }

void CalibratePanel::clearComparison() {
  compare_plot_->clearSignals();
  for (int& id : overlay_ids_) {
    if (id >= 0 && store_->source(id)) store_->removeOverlay(id);
    id = -1;
  }
}

void CalibratePanel::onComparisonDone() {
  const ComparisonOutcome out = watcher_->result();
  comparing_ = false;
  const std::shared_ptr<BeforeAfter> ba = out.result;
  updateButtons();
  if (!ba) {
    compare_label_->setText(tr("Before/after failed: %1").arg(out.error));
    compare_label_->setStyleSheet("color: #c00000");
    emit comparisonReady();
    return;
  }
  compare_label_->setStyleSheet(QString());
  clearComparison();
  comparison_ = std::make_unique<BeforeAfter>(std::move(*ba));
  const QString n = QString::fromStdString(comparison_->scenario);
  overlay_ids_[0] = store_->addOverlay(tr("reference %1").arg(n), QString(), comparison_->reference);
  overlay_ids_[1] = store_->addOverlay(tr("before %1").arg(n), QString(), comparison_->before);
  overlay_ids_[2] = store_->addOverlay(tr("after %1").arg(n), QString(), comparison_->after);
  column_->blockSignals(true);
  column_->clear();
  for (const std::string& c : comparableColumns(*comparison_)) column_->addItem(QString::fromStdString(c));
  column_->blockSignals(false);
  const QString pick = QString::fromStdString(defaultComparisonColumn(*comparison_, results_->objective.kind));
  if (!pick.isEmpty()) {
    column_->setCurrentText(pick);
    showComparisonColumn(pick);
  }
  emit comparisonReady();
}

void CalibratePanel::showComparisonColumn(const QString& column) {
  if (!comparison_ || overlay_ids_[0] < 0) return;
  const std::string c = column.toStdString();
  compare_plot_->clearSignals();
  const QColor colours[] = {QColor(30, 30, 30), QColor(214, 39, 40), QColor(44, 160, 44)};
  const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::SolidLine};
  const QString labels[] = {tr("reference log"), tr("before: initial parameters"), tr("after: best parameters")};
  for (int i = 0; i < 3; ++i) {
    const SignalRef ref{overlay_ids_[i], c};
    if (compare_plot_->addSignal(ref)) {
      compare_plot_->setSignalPen(ref, QPen(colours[i], i == 0 ? 2.0 : 1.5, styles[i]));
      compare_plot_->setSignalLabel(ref, labels[i]);
    }
  }
  refreshComparisonPlot();
  const double rb = rmsAgainstReference(*comparison_, comparison_->before, c);
  const double ra = rmsAgainstReference(*comparison_, comparison_->after, c);
  auto score = [](const calib::ScenarioScore& s) {
    return s.error.empty()
               ? QStringLiteral("F %1, E %2%3")
                     .arg(fmt(s.F), fmt(s.E),
                          s.fall_time_s >= 0 ? QStringLiteral(", fell at %1 s").arg(s.fall_time_s, 0, 'f', 2)
                                             : QString())
               : QString::fromStdString(s.error);
  };
  compare_label_->setText(
      tr("<b>%1</b> %2: RMS to the reference before %3, after %4 (%5)<br>"
         "before: %6<br>after: %7")
          .arg(QString::fromStdString(comparison_->scenario).toHtmlEscaped(), column.toHtmlEscaped(), fmt(rb), fmt(ra))
          .arg(std::isfinite(ra) && std::isfinite(rb) && rb > 0
                   ? QStringLiteral("%1%2%").arg(ra <= rb ? "" : "+").arg(100.0 * (ra - rb) / rb, 0, 'f', 0)
                   : QStringLiteral("-"))
          .arg(score(comparison_->before_score), score(comparison_->after_score)));
}

void CalibratePanel::refreshComparisonPlot() {
  double end = 1.0;
  for (int id : overlay_ids_)
    if (const SignalSource* s = id >= 0 ? store_->source(id) : nullptr; s && !s->time_s.empty())
      end = std::max(end, s->time_s.back());
  compare_plot_->setAutoY(true);
  compare_plot_->refresh(0, end);
}

QString CalibratePanel::statusText() const { return status_->text(); }
QString CalibratePanel::progressText() const { return progress_->text(); }
QString CalibratePanel::outputText() const { return output_->toPlainText(); }
int CalibratePanel::progressValue() const { return bar_->value(); }

QString CalibratePanel::progressBarText() const { return bar_->text(); }

}  // namespace gapsim::gui
