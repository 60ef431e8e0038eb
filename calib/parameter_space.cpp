// SPDX-License-Identifier: BSD-3-Clause
#include "calib/parameter_space.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "calib/csv_cells.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/text.h"

namespace gapsim::calib {
namespace {

constexpr double kA = 0.05;  // width of the quadratic zones of the boundary transform

bool flag(const std::string& t, const std::string& file, int line) {
  std::string s = t;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "1" || s == "yes" || s == "true") return true;
  if (s == "0" || s == "no" || s == "false" || s.empty()) return false;
  throw InputError(file, line, "frozen", "expected 0/1, no/yes or false/true, not '" + t + "'");
}

}  // namespace

double boxTransform(double y) {
  const double r = 2 * (1 + 2 * kA), s = -2 * kA - 0.5;
  y -= r * std::floor((y - s) / r);
  if (y > 1 + kA) y -= 2 * (y - 1 - kA);
  if (y < -kA) y += 2 * (-kA - y);
  if (y < kA) return (y + kA) * (y + kA) / (4 * kA);
  if (y < 1 - kA) return y;
  return 1 - (y - 1 - kA) * (y - 1 - kA) / (4 * kA);
}

double boxTransformInverse(double u) {
  u = std::clamp(u, 0.0, 1.0);
  if (u < kA) return -kA + std::sqrt(4 * kA * u);
  if (u <= 1 - kA) return u;
  return 1 + kA - std::sqrt(4 * kA * (1 - u));
}

ParameterSpace ParameterSpace::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open the parameter space file");
  std::vector<SpaceEntry> entries;
  bool header = false;
  int n = 0, header_line = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++n;
    const std::string line = trimCell(raw);
    if (line.empty() || line[0] == '#') continue;
    const auto c = splitCells(line);
    if (!header) {
      header_line = n;
      static const char* kCols[] = {"name", "value", "lower", "upper", "frozen", "tie", "scale"};
      if (c.size() < 5 || c.size() > 7)
        throw InputError(path, n, "header", "expected the header name,value,lower,upper,frozen[,tie[,scale]]");
      checkHeaderCells(c, kCols, path, n);
      header = true;
      continue;
    }
    if (c.size() < 5 || c.size() > 7)
      throw InputError(
          path, n, c.empty() ? "" : c[0],
          "expected 5 to 7 cells (name,value,lower,upper,frozen[,tie[,scale]]), got " + std::to_string(c.size()));
    SpaceEntry e;
    e.line = n;
    e.name = c[0];
    if (e.name.empty()) throw InputError(path, n, "name", "empty parameter name");
    e.value = finiteCell(c[1], path, n, "value");
    e.lower = finiteCell(c[2], path, n, "lower");
    e.upper = finiteCell(c[3], path, n, "upper");
    e.frozen = flag(c[4], path, n);
    if (c.size() > 5) e.tie = c[5];
    if (c.size() > 6) {
      if (c[6] == "log")
        e.log_scale = true;
      else if (c[6] != "lin" && !c[6].empty())
        throw InputError(path, n, "scale", "expected lin or log, not '" + c[6] + "'");
    }
    entries.push_back(std::move(e));
  }
  if (!header)
    throw InputError(path, 1, "header", "empty parameter space file: no header row (only blank or comment lines)");
  if (entries.empty())
    throw InputError(path, header_line, "header", "no parameter row after the header: nothing to calibrate");
  return fromEntries(std::move(entries), path);
}

ParameterSpace ParameterSpace::fromEntries(std::vector<SpaceEntry> entries, const std::string& source) {
  ParameterSpace s;
  s.source_ = source;
  std::map<std::string, int> seen;
  std::map<std::string, int> tie_dim;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const SpaceEntry& e = entries[i];
    const auto where = [&](const std::string& field, const std::string& what) {
      return InputError(source, e.line, field, e.name + ": " + what);
    };
    if (auto it = seen.find(e.name); it != seen.end())
      throw where("name", "listed twice (first on line " + std::to_string(entries[it->second].line) + ")");
    seen[e.name] = static_cast<int>(i);
    if (!(e.lower < e.upper))
      throw where("lower", "lower " + shortestText(e.lower) + " must be below upper " + shortestText(e.upper));
    if (e.value < e.lower || e.value > e.upper)
      throw where("value", "value " + shortestText(e.value) + " outside [" + shortestText(e.lower) + ", " +
                               shortestText(e.upper) + "]");
    if (e.log_scale && !(e.lower > 0)) throw where("scale", "log scale needs lower > 0, got " + shortestText(e.lower));
    if (e.frozen) continue;
    if (!e.tie.empty()) {
      if (auto it = tie_dim.find(e.tie); it != tie_dim.end()) {
        Dimension& d = s.dims_[it->second];
        const SpaceEntry& f = entries[d.entries.front()];
        if (f.value != e.value || f.lower != e.lower || f.upper != e.upper || f.log_scale != e.log_scale)
          throw where("tie", "tie group '" + e.tie + "' must share value, bounds and scale with line " +
                                 std::to_string(f.line));
        d.entries.push_back(static_cast<int>(i));
        continue;
      }
      tie_dim[e.tie] = static_cast<int>(s.dims_.size());
    }
    s.dims_.push_back({e.tie.empty() ? e.name : e.tie, {static_cast<int>(i)}, e.value, e.lower, e.upper, e.log_scale});
  }
  for (const auto& e : entries)
    if (!e.frozen && !e.tie.empty() && seen.count(e.tie) && entries[seen[e.tie]].tie != e.tie)
      throw InputError(source, e.line, "tie", "tie label '" + e.tie + "' is also a parameter name");
  if (s.dims_.empty()) {
    // A verdict on the whole file, tied to its first parameter row so that the message has a line.
    const int first = entries.empty() ? 0 : entries.front().line, last = entries.empty() ? 0 : entries.back().line;
    throw InputError(source, first, "frozen",
                     "every parameter is frozen" +
                         (first > 0 ? " (lines " + std::to_string(first) + "-" + std::to_string(last) + ")" : "") +
                         ": nothing to calibrate");
  }
  s.entries_ = std::move(entries);
  return s;
}

Eigen::VectorXd ParameterSpace::initialValues() const {
  Eigen::VectorXd v(dimension());
  for (int i = 0; i < dimension(); ++i) v[i] = dims_[i].value;
  return v;
}

Eigen::VectorXd ParameterSpace::initialY() const { return yFromValues(initialValues()); }

Eigen::VectorXd ParameterSpace::valuesFromY(const Eigen::VectorXd& y) const {
  Eigen::VectorXd v(dimension());
  for (int i = 0; i < dimension(); ++i) {
    const Dimension& d = dims_[i];
    const double u = boxTransform(y[i]);
    const double x = d.log_scale ? std::exp(std::log(d.lower) + u * (std::log(d.upper) - std::log(d.lower)))
                                 : d.lower + u * (d.upper - d.lower);
    v[i] = std::clamp(x, d.lower, d.upper);  // only rounding can leave the box
  }
  return v;
}

Eigen::VectorXd ParameterSpace::yFromValues(const Eigen::VectorXd& values) const {
  Eigen::VectorXd y(dimension());
  for (int i = 0; i < dimension(); ++i) {
    const Dimension& d = dims_[i];
    const double u = d.log_scale ? (std::log(values[i]) - std::log(d.lower)) / (std::log(d.upper) - std::log(d.lower))
                                 : (values[i] - d.lower) / (d.upper - d.lower);
    y[i] = boxTransformInverse(u);
  }
  return y;
}

void ParameterSpace::apply(RobotModel& model, const Eigen::VectorXd& values) const {
  for (const auto& e : entries_)
    if (e.frozen) setParameter(model, e.name, e.value, source_, e.line);
  for (int i = 0; i < dimension(); ++i)
    for (int k : dims_[i].entries) setParameter(model, entries_[k].name, values[i], source_, entries_[k].line);
}

void ParameterSpace::checkAgainst(const RobotModel& model) const {
  // The bounds too: a calibration draws values anywhere between them.
  for (const SpaceEntry& e : entries_) {
    checkParameterValue(model, e.name, e.lower, source_, e.line, "lower bound");
    checkParameterValue(model, e.name, e.upper, source_, e.line, "upper bound");
    checkParameterValue(model, e.name, e.value, source_, e.line, "value");
  }
  RobotModel copy = model;
  apply(copy, initialValues());
}

std::string ParameterSpace::text(const Eigen::VectorXd& values, const std::string& header_comment) const {
  std::ostringstream out;
  if (!header_comment.empty()) {
    std::stringstream ss(header_comment);
    for (std::string l; std::getline(ss, l);) out << "# " << l << '\n';
  }
  out << "name,value,lower,upper,frozen,tie,scale\n";
  std::vector<double> v(entries_.size());
  for (std::size_t k = 0; k < entries_.size(); ++k) v[k] = entries_[k].value;
  for (int i = 0; i < dimension(); ++i)
    for (int k : dims_[i].entries) v[k] = values[i];
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    const auto& e = entries_[k];
    out << e.name << ',' << shortestText(v[k]) << ',' << shortestText(e.lower) << ',' << shortestText(e.upper) << ','
        << (e.frozen ? 1 : 0) << ',' << e.tie << ',' << (e.log_scale ? "log" : "lin") << '\n';
  }
  return out.str();
}

void ParameterSpace::write(const std::string& path, const Eigen::VectorXd& values,
                           const std::string& header_comment) const {
  std::ofstream out(path);
  if (!out) throw InputError(path, 0, "", "cannot write the parameter file");
  out << text(values, header_comment);
  if (!out) throw InputError(path, 0, "", "writing the parameter file failed");
}

}  // namespace gapsim::calib
