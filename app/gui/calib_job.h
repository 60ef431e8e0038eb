// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// One `gapsim-cli calibrate` run as a child process. The calibration runs outside the GUI on
/// purpose: a crash, a bad input file or a kill of the job ends the child, never the GUI, which
/// then shows the exit code and the child's stderr. Standard output is split into lines; progress
/// lines (calib_progress.h) are also delivered parsed. stop() asks politely (SIGTERM) and kills
/// (SIGKILL) after a grace period; the checkpoint written after every generation makes such a
/// stopped run resumable (`--resume`).

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

#include "app/gui/calib_progress.h"

namespace gapsim::gui {

/// What the panel's form holds; arguments() turns it into the CLI's options.
struct CalibJobSettings {
  QString robot = "nao";
  QString space, scenarios;
  QString algorithm = "cmaes";  ///< cmaes or es (--optimizer)
  int generations = 10;
  int population = 0;  ///< children per generation (--lambda); 0: the optimizer's default
  quint64 seed = 1;
  int workers = 0;      ///< worker processes (--jobs); 0: all cores, 1: serial backend
  QString out;          ///< results directory
  bool resume = false;  ///< continue the run whose checkpoint is in `out`
  bool force = false;   ///< write into a non-empty `out`
  QStringList extra;    ///< further options, passed verbatim (e.g. --sigma0 0.25)
};

/// The `gapsim-cli` argument list for these settings (starting with "calibrate").
QStringList calibrateArguments(const CalibJobSettings& s);

/// Arguments as one line a shell (and QProcess::splitCommand) reads back: quoted where needed.
QString joinArguments(const QStringList& args);

/// The gapsim-cli executable: $GAPSIM_CLI, else next to this program (or in app/cli/ below it,
/// a build tree), else on PATH; empty if none is found.
QString findCli();

class CalibJob : public QObject {
  Q_OBJECT
 public:
  explicit CalibJob(QObject* parent = nullptr);
  ~CalibJob() override;

  /// Starts the child; false (and failed()) if another is running or the program is missing.
  bool start(const QString& program, const QStringList& arguments);
  bool running() const { return process_.state() != QProcess::NotRunning; }
  /// SIGTERM now, SIGKILL after `grace_ms` if the child is still there.
  void stop(int grace_ms = 3000);
  /// Everything the child wrote to stderr so far (this run).
  QString standardError() const { return stderr_; }
  QString commandLine() const { return command_; }
  qint64 processId() const { return process_.processId(); }

 signals:
  void outputLine(const QString& line);
  void progress(const gapsim::gui::GenerationProgress& p);
  void errorText(const QString& text);
  /// The child ended: exit code (or -1 if it crashed or was killed) and a one-line verdict.
  void finished(int exit_code, bool ok, const QString& verdict);

 private:
  void readStdout();
  void onFinished(int code, QProcess::ExitStatus status);
  void onError(QProcess::ProcessError e);

  QProcess process_;
  QTimer kill_timer_;
  QString stdout_buffer_, stderr_, command_;
  bool stopping_ = false, finished_reported_ = true;
};

}  // namespace gapsim::gui
