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
  static const QRegularExpression initial(
      R"(^gen 0 \(initial parameters\): fitness ([^\s,]+).*?(?:, validation (\S+))?$)");
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

namespace {
// The calibration's own CSV files: '#' comments and blank lines skipped, a header whose first
// cells are `columns`, then rows of at least that many cells, each read by `row` (line number,
// cells, and a reader of cell k as a number that throws naming the file, line and column).
// Not sim's CsvTable: these files hold "inf" where every candidate failed, which a log must not.
class CalibCsv {
 public:
  CalibCsv(const QString& path, QStringList columns)
      : path_(path), file_(path.toStdString()), columns_(std::move(columns)) {}

  template <class Row>
  void read(const char* what, Row row) const {
    QFile f(path_);
    if (!f.open(QIODevice::ReadOnly)) throw InputError(file_, 0, "", std::string("cannot open the ") + what);
    int n = 0;
    bool header = false;
    while (!f.atEnd()) {
      ++n;
      const QString line = QString::fromUtf8(f.readLine()).trimmed();
      if (line.isEmpty() || line.startsWith('#')) continue;
      const QStringList cells = line.split(',');
      if (!header) {
        if (cells.mid(0, columns_.size()) != columns_)
          throw InputError(file_, n, "header", "expected '" + columns_.join(',').toStdString() + ",...'");
        header = true;
        continue;
      }
      if (cells.size() < columns_.size())
        throw InputError(file_, n, "", "expected at least " + std::to_string(columns_.size()) + " cells");
      row(n, cells);
    }
    if (!header) throw InputError(file_, 0, "header", std::string("empty ") + what);
  }
  long integer(const QStringList& cells, int k, int line) const {
    bool ok = false;
    const long v = cells[k].toLong(&ok);
    if (!ok)
      throw InputError(file_, line, columns_[k].toStdString(), "not an integer: '" + cells[k].toStdString() + "'");
    return v;
  }
  double real(const QStringList& cells, int k, int line) const {
    bool ok = false;
    const double v = number(cells[k], &ok);
    if (!ok) throw InputError(file_, line, columns_[k].toStdString(), "not a number: '" + cells[k].toStdString() + "'");
    return v;
  }

 private:
  QString path_;
  std::string file_;
  QStringList columns_;
};
}  // namespace

std::vector<GenerationProgress> readHistory(const QString& path) {
  const CalibCsv csv(path, {"generation", "evaluations", "best", "median", "sigma"});
  std::vector<GenerationProgress> out;
  csv.read("history file", [&](int n, const QStringList& cells) {
    GenerationProgress p;
    p.generation = static_cast<int>(csv.integer(cells, 0, n));
    p.evaluations = csv.integer(cells, 1, n);
    p.best = csv.real(cells, 2, n);
    p.median = csv.real(cells, 3, n);
    p.sigma = csv.real(cells, 4, n);
    out.push_back(p);
  });
  return out;
}

std::vector<ValidationPoint> readValidation(const QString& path) {
  const CalibCsv csv(path, {"generation", "train_fitness", "validation_fitness"});
  std::vector<ValidationPoint> out;
  csv.read("validation file", [&](int n, const QStringList& cells) {
    ValidationPoint v;
    v.generation = static_cast<int>(csv.integer(cells, 0, n));
    v.train = csv.real(cells, 1, n);
    v.validation = csv.real(cells, 2, n);
    out.push_back(v);
  });
  return out;
}

}  // namespace gapsim::gui
