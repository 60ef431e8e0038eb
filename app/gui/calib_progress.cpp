// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/calib_progress.h"

#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <cmath>
#include <limits>

#include "sim/input_error.h"

namespace gapsim::gui {

namespace {
// %.6g prints inf and nan as "inf"/"nan"; QString::toDouble does not read them.
double number(const QString& s, bool* ok) {
  const QString t = s.trimmed().toLower();
  *ok = true;
  if (t == "inf" || t == "+inf") return std::numeric_limits<double>::infinity();
  if (t == "-inf") return -std::numeric_limits<double>::infinity();
  if (t == "nan" || t == "-nan") return std::numeric_limits<double>::quiet_NaN();
  return t.toDouble(ok);
}
}  // namespace

std::optional<GenerationProgress> parseProgressLine(const QString& line) {
  static const QRegularExpression initial(R"(^gen 0 \(initial parameters\): fitness ([^\s,]+).*?(?:, validation (\S+))?$)");
  static const QRegularExpression gen(
      R"(^gen (\d+)/(\d+) evals (\d+) best (\S+) median (\S+) sigma (\S+) evals/s (\S+) eta (\S+))"
      R"((?: \| train \S+ validation (\S+)( \*)?)?(?: \((\d+) failed, e\.g\. (.*)\))?\s*$)");
  const QString l = line.trimmed();
  bool ok = true;
  if (const auto m = initial.match(l); m.hasMatch()) {
    GenerationProgress p;
    p.best = p.median = number(m.captured(1), &ok);
    if (!ok) return std::nullopt;
    if (m.capturedLength(2) > 0) {
      p.validation = number(m.captured(2), &ok);
      if (!ok) return std::nullopt;
      p.validation_best = true;  // the first validation is the best so far
    }
    return p;
  }
  const auto m = gen.match(l);
  if (!m.hasMatch()) return std::nullopt;
  GenerationProgress p;
  bool oks[6];
  p.generation = m.captured(1).toInt(&oks[0]);
  p.generations = m.captured(2).toInt(&oks[1]);
  p.evaluations = m.captured(3).toLong(&oks[2]);
  p.best = number(m.captured(4), &oks[3]);
  p.median = number(m.captured(5), &oks[4]);
  p.sigma = number(m.captured(6), &oks[5]);
  for (bool b : oks)
    if (!b) return std::nullopt;
  p.evals_per_s = number(m.captured(7), &ok);
  if (!ok) return std::nullopt;
  p.eta = m.captured(8);
  if (m.capturedLength(9) > 0) {
    p.validation = number(m.captured(9), &ok);
    if (!ok) return std::nullopt;
    p.validation_best = m.capturedLength(10) > 0;
  }
  if (m.capturedLength(11) > 0) {
    p.failed = m.captured(11).toInt();
    p.failure = m.captured(12);
  }
  return p;
}

std::vector<GenerationProgress> readHistory(const QString& path) {
  QFile f(path);
  const std::string file = path.toStdString();
  if (!f.open(QIODevice::ReadOnly)) throw InputError(file, 0, "", "cannot open the history file");
  std::vector<GenerationProgress> out;
  int n = 0;
  bool header = false;
  while (!f.atEnd()) {
    ++n;
    const QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    const QStringList cells = line.split(',');
    if (!header) {
      if (cells.size() < 5 || cells[0] != "generation" || cells[1] != "evaluations" || cells[2] != "best" ||
          cells[3] != "median" || cells[4] != "sigma")
        throw InputError(file, n, "header", "expected 'generation,evaluations,best,median,sigma,...'");
      header = true;
      continue;
    }
    if (cells.size() < 5) throw InputError(file, n, "", "expected at least 5 cells");
    GenerationProgress p;
    bool ok = false;
    p.generation = cells[0].toInt(&ok);
    if (!ok) throw InputError(file, n, "generation", "not an integer: '" + cells[0].toStdString() + "'");
    p.evaluations = cells[1].toLong(&ok);
    if (!ok) throw InputError(file, n, "evaluations", "not an integer: '" + cells[1].toStdString() + "'");
    const char* names[] = {"best", "median", "sigma"};
    double* fields[] = {&p.best, &p.median, &p.sigma};
    for (int i = 0; i < 3; ++i) {
      *fields[i] = number(cells[2 + i], &ok);
      if (!ok) throw InputError(file, n, names[i], "not a number: '" + cells[2 + i].toStdString() + "'");
    }
    out.push_back(p);
  }
  if (!header) throw InputError(file, 0, "header", "empty history file");
  return out;
}

std::vector<ValidationPoint> readValidation(const QString& path) {
  QFile f(path);
  const std::string file = path.toStdString();
  if (!f.open(QIODevice::ReadOnly)) throw InputError(file, 0, "", "cannot open the validation file");
  std::vector<ValidationPoint> out;
  int n = 0;
  bool header = false;
  while (!f.atEnd()) {
    ++n;
    const QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    const QStringList cells = line.split(',');
    if (!header) {
      if (cells != QStringList{"generation", "train_fitness", "validation_fitness"})
        throw InputError(file, n, "header", "expected 'generation,train_fitness,validation_fitness'");
      header = true;
      continue;
    }
    if (cells.size() != 3) throw InputError(file, n, "", "expected 3 cells, found " + std::to_string(cells.size()));
    ValidationPoint v;
    bool ok = false;
    v.generation = cells[0].toInt(&ok);
    if (!ok) throw InputError(file, n, "generation", "not an integer: '" + cells[0].toStdString() + "'");
    v.train = number(cells[1], &ok);
    if (!ok) throw InputError(file, n, "train_fitness", "not a number: '" + cells[1].toStdString() + "'");
    v.validation = number(cells[2], &ok);
    if (!ok) throw InputError(file, n, "validation_fitness", "not a number: '" + cells[2].toStdString() + "'");
    out.push_back(v);
  }
  if (!header) throw InputError(file, 0, "header", "empty validation file");
  return out;
}

}  // namespace gapsim::gui
