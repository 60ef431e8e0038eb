// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The Calibrate dock. A form for `gapsim-cli calibrate` (space, scenarios,
/// algorithm, generations, population, seed, workers, results directory, resume), Start and Stop;
/// the job runs as a child process (calib_job.h), so whatever happens to it the GUI stays up and
/// shows its exit code and stderr. Progress: a bar, the last generation's figures, and the
/// convergence plot (best and median per generation, log scale). When a run has finished, or
/// when an existing results directory is opened: "Apply best parameters" hands DIR/best.params
/// to the main window (which restarts the simulation with it), and "Before/after" simulates a
/// scenario with the initial and the best parameters and overlays both on its reference log:
/// the three logs become overlays of the signal store (so the signal tree, the Overlays dock and
/// the main plots can use them too) and the panel's own plot shows one column of each.
/// With validation scenarios the convergence plot also shows the validation fitness and the
/// generation best.params comes from; the Parameters tab lists per parameter how far it moved
/// and how well the data determine it (search spread and fitness curvature), with the run's
/// warnings.

#include <QFutureWatcher>
#include <QWidget>
#include <memory>
#include <optional>

#include "app/gui/calib_job.h"
#include "app/gui/calib_results.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace gapsim::gui {

class ConvergencePlot;
class PlotWidget;
class SignalStore;

/// What the before/after worker thread hands back.
struct ComparisonOutcome {
  std::shared_ptr<BeforeAfter> result;
  QString error;
};

class CalibratePanel : public QWidget {
  Q_OBJECT
 public:
  explicit CalibratePanel(SignalStore* store, QWidget* parent = nullptr);
  ~CalibratePanel() override;

  CalibJobSettings settings() const;
  void setSettings(const CalibJobSettings& s);
  /// The gapsim-cli to run (default: findCli()).
  void setCliPath(const QString& path) { cli_ = path; }
  QString cliPath() const { return cli_; }

  /// Starts the job of the form; false if it could not start (the reason is shown).
  bool startJob();
  void stopJob();
  bool jobRunning() const;
  CalibJob* job() const { return job_; }

  /// Shows an existing results directory (history, best parameters); false with the error shown.
  bool openResults(const QString& dir);
  const std::optional<CalibrationResults>& results() const { return results_; }

  /// "Apply best parameters": emits applyRequested for the current results.
  void applyBest();
  /// "Before/after": simulates the chosen scenario in a worker thread; comparisonReady() when done.
  void compareBeforeAfter(int scenario = -1);
  bool comparisonRunning() const;
  const BeforeAfter* comparison() const { return comparison_.get(); }
  /// Overlay ids of reference, before and after in the store (-1 if none).
  int referenceOverlay() const { return overlay_ids_[0]; }
  int beforeOverlay() const { return overlay_ids_[1]; }
  int afterOverlay() const { return overlay_ids_[2]; }
  void showComparisonColumn(const QString& column);

  ConvergencePlot* convergencePlot() const { return convergence_; }
  QTableWidget* parameterTable() const { return params_table_; }
  QString parameterSummary() const;
  PlotWidget* comparisonPlot() const { return compare_plot_; }
  QString statusText() const;
  QString progressText() const;
  QString outputText() const;
  int progressValue() const;
  /// The progress bar's text as shown ("10 generations planned", "generation 2 of 10").
  QString progressBarText() const;

  /// Shows a message about the last Apply (the main window reports how it went).
  void showApplyResult(bool ok, const QString& message);

 signals:
  /// Load `best_params` (after `base_params`, if any) into the simulation of `robot`.
  void applyRequested(const QString& robot, const QString& base_params, const QString& best_params);
  /// Play this scenario's motion in the main view with its reference log overlaid.
  void playScenarioRequested(const QString& motion, const QString& reference);
  void comparisonReady();
  void jobFinished(int exit_code, bool ok);

 private:
  QWidget* buildForm();
  void browse(QLineEdit* edit, bool directory, const QString& filter);
  void onProgress(const GenerationProgress& p);
  void onFinished(int code, bool ok, const QString& verdict);
  void appendOutput(const QString& text, bool error);
  void setStatus(const QString& text, bool error);
  void updateButtons();
  void onComparisonDone();
  void clearComparison();
  void refreshComparisonPlot();
  void showParameterReport();

  SignalStore* store_;
  QString cli_;
  CalibJob* job_;
  std::optional<CalibrationResults> results_;
  std::unique_ptr<BeforeAfter> comparison_;
  QFutureWatcher<ComparisonOutcome>* watcher_;
  int overlay_ids_[3] = {-1, -1, -1};
  int planned_generations_ = 0;
  bool comparing_ = false;  // from the start of a comparison until its result is shown

  QComboBox* robot_;
  QLineEdit* space_;
  QLineEdit* scenarios_;
  QComboBox* algorithm_;
  QSpinBox* generations_;
  QSpinBox* population_;
  QSpinBox* seed_;
  QSpinBox* workers_;
  QLineEdit* out_;
  QCheckBox* resume_;
  QCheckBox* force_;
  QLineEdit* extra_;
  QPushButton* start_;
  QPushButton* stop_;
  QPushButton* open_;
  QProgressBar* bar_;
  QLabel* progress_;
  QLabel* status_;
  ConvergencePlot* convergence_;
  QTabWidget* tabs_;
  QPlainTextEdit* output_;
  QPushButton* apply_;
  QComboBox* scenario_;
  QComboBox* column_;
  QPushButton* compare_;
  QPushButton* play_;
  QLabel* compare_label_;
  PlotWidget* compare_plot_;
  QTableWidget* params_table_;
  QLabel* params_label_;
};

}  // namespace gapsim::gui
