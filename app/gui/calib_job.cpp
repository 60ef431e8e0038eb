// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/calib_job.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace gapsim::gui {

QStringList calibrateArguments(const CalibJobSettings& s) {
  QStringList a{"calibrate"};
  if (s.resume) {
    // The checkpoint holds robot, space, scenarios and settings; only the total may change.
    a << "--resume" << s.out << "--generations" << QString::number(s.generations);
  } else {
    a << "--robot" << s.robot << "--space" << s.space << "--scenarios" << s.scenarios << "--optimizer" << s.algorithm
      << "--generations" << QString::number(s.generations) << "--seed" << QString::number(s.seed) << "--out" << s.out;
    if (s.population > 0) a << "--lambda" << QString::number(s.population);
    if (s.force) a << "--force";
  }
  if (s.workers == 1)
    a << "--backend"
      << "serial";
  else if (s.workers > 1)
    a << "--backend"
      << "processes"
      << "--jobs" << QString::number(s.workers);
  a << s.extra;
  return a;
}

QString joinArguments(const QStringList& args) {
  QStringList out;
  for (QString a : args) {
    if (!a.isEmpty() && !a.contains(QRegularExpression(R"([\s"'\\$`])"))) {
      out << a;
      continue;
    }
    out << '"' + a.replace('\\', "\\\\").replace('"', "\\\"") + '"';
  }
  return out.join(' ');
}

QString findCli() {
  const QString env = qEnvironmentVariable("GAPSIM_CLI");
  if (!env.isEmpty() && QFileInfo(env).isExecutable()) return QFileInfo(env).absoluteFilePath();
  const QString dir = QCoreApplication::applicationDirPath();
  for (const QString& p : {dir + "/gapsim-cli", dir + "/app/cli/gapsim-cli", dir + "/../../gapsim-cli"})
    if (QFileInfo(p).isExecutable()) return QFileInfo(p).canonicalFilePath();
  return QStandardPaths::findExecutable("gapsim-cli");
}

CalibJob::CalibJob(QObject* parent) : QObject(parent) {
  process_.setProcessChannelMode(QProcess::SeparateChannels);
  kill_timer_.setSingleShot(true);
  connect(&kill_timer_, &QTimer::timeout, this, [this] {
    if (running()) process_.kill();
  });
  connect(&process_, &QProcess::readyReadStandardOutput, this, &CalibJob::readStdout);
  connect(&process_, &QProcess::readyReadStandardError, this, [this] {
    const QString t = QString::fromLocal8Bit(process_.readAllStandardError());
    stderr_ += t;
    emit errorText(t);
  });
  connect(&process_, &QProcess::finished, this, &CalibJob::onFinished);
  connect(&process_, &QProcess::errorOccurred, this, &CalibJob::onError);
}

CalibJob::~CalibJob() {
  // The GUI closing must not leave an orphaned calibration behind (and QProcess warns otherwise).
  if (running()) {
    disconnect(&process_, nullptr, this, nullptr);
    process_.kill();
    process_.waitForFinished(3000);
  }
}

bool CalibJob::start(const QString& program, const QStringList& arguments) {
  if (running()) return false;
  stdout_buffer_.clear();
  stderr_.clear();
  stopping_ = false;
  finished_reported_ = false;
  command_ = program + ' ' + arguments.join(' ');
  if (program.isEmpty()) {
    finished_reported_ = true;
    emit finished(-1, false, tr("gapsim-cli not found (looked next to gapsim and on PATH; set GAPSIM_CLI)"));
    return false;
  }
  process_.start(program, arguments);
  return true;  // a failure to start arrives through errorOccurred -> finished
}

void CalibJob::stop(int grace_ms) {
  if (!running()) return;
  stopping_ = true;
  process_.terminate();
  kill_timer_.start(grace_ms);
}

void CalibJob::readStdout() {
  stdout_buffer_ += QString::fromLocal8Bit(process_.readAllStandardOutput());
  qsizetype nl;
  while ((nl = stdout_buffer_.indexOf('\n')) >= 0) {
    const QString line = stdout_buffer_.left(nl);
    stdout_buffer_.remove(0, nl + 1);
    emit outputLine(line);
    if (const auto p = parseProgressLine(line)) emit progress(*p);
  }
}

void CalibJob::onFinished(int code, QProcess::ExitStatus status) {
  kill_timer_.stop();
  readStdout();
  if (!stdout_buffer_.isEmpty()) {
    emit outputLine(stdout_buffer_);
    stdout_buffer_.clear();
  }
  if (finished_reported_) return;
  finished_reported_ = true;
  if (status == QProcess::CrashExit) {
    emit finished(-1, false,
                  stopping_ ? tr("stopped (the checkpoint allows resuming)")
                            : tr("gapsim-cli crashed (%1)").arg(process_.errorString()));
    return;
  }
  QString verdict;
  switch (code) {
    case 0:
      verdict = tr("finished");
      break;
    case 2:
      verdict = tr("bad input (exit code 2)");
      break;
    case 3:
      verdict = tr("the simulation diverged (exit code 3)");
      break;
    default:
      verdict = tr("failed with exit code %1").arg(code);
  }
  if (stopping_) verdict = tr("stopped (exit code %1; the checkpoint allows resuming)").arg(code);
  emit finished(code, code == 0 && !stopping_, verdict);
}

void CalibJob::onError(QProcess::ProcessError e) {
  if (e != QProcess::FailedToStart || finished_reported_) return;  // the others end in finished()
  finished_reported_ = true;
  emit finished(-1, false, tr("cannot start %1: %2").arg(process_.program(), process_.errorString()));
}

}  // namespace gapsim::gui
