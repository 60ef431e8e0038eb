// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/calib_progress.h"

#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <variant>

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

/// One column of a calibration CSV file and the member of Row its cells go to: whole numbers
/// (int, long) are read as integers, doubles as numbers with inf and nan.
template <class Row>
struct Column {
  const char* name;
  std::variant<int Row::*, long Row::*, double Row::*> member;
};

/// The calibration's own CSV files: '#' comments and blank lines skipped, a header whose first
/// cells are the columns' names, then rows of at least that many cells, each cell read into its
/// column's member; an error names the file, the line and the column.
/// Not sim's CsvTable: these files hold "inf" where every candidate failed, which a log must not.
template <class Row>
std::vector<Row> readColumns(const QString& path, const char* what, std::initializer_list<Column<Row>> columns) {
  const std::string file = path.toStdString();
  QStringList names;
  for (const Column<Row>& c : columns) names << c.name;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) throw InputError(file, 0, "", std::string("cannot open the ") + what);
  std::vector<Row> out;
  int n = 0;
  bool header = false;
  while (!f.atEnd()) {
    ++n;
    const QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    const QStringList cells = line.split(',');
    if (!header) {
      if (cells.mid(0, names.size()) != names)
        throw InputError(file, n, "header", "expected '" + names.join(',').toStdString() + ",...'");
      header = true;
      continue;
    }
    if (cells.size() < names.size())
      throw InputError(file, n, "", "expected at least " + std::to_string(names.size()) + " cells");
    Row row;
    int k = 0;
    for (const Column<Row>& c : columns) {
      const QString& cell = cells[k++];
      bool ok = false;
      std::visit(
          [&](auto member) {
            using T = std::remove_reference_t<decltype(row.*member)>;
            if constexpr (std::is_same_v<T, double>)
              row.*member = number(cell, &ok);
            else
              row.*member = static_cast<T>(cell.toLong(&ok));
          },
          c.member);
      if (!ok)
        throw InputError(file, n, c.name,
                         (std::holds_alternative<double Row::*>(c.member) ? "not a number: '" : "not an integer: '") +
                             cell.toStdString() + "'");
    }
    out.push_back(row);
  }
  if (!header) throw InputError(file, 0, "header", std::string("empty ") + what);
  return out;
}

}  // namespace

std::vector<GenerationProgress> readHistory(const QString& path) {
  using G = GenerationProgress;
  return readColumns<G>(path, "history file",
                        {{"generation", &G::generation},
                         {"evaluations", &G::evaluations},
                         {"best", &G::best},
                         {"median", &G::median},
                         {"sigma", &G::sigma}});
}

std::vector<ValidationPoint> readValidation(const QString& path) {
  using V = ValidationPoint;
  return readColumns<V>(
      path, "validation file",
      {{"generation", &V::generation}, {"train_fitness", &V::train}, {"validation_fitness", &V::validation}});
}

}  // namespace gapsim::gui
