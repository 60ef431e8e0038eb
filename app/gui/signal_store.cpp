// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/signal_store.h"

#include <algorithm>

#include "sim/log_writer.h"

namespace gapsim::gui {

int SignalSource::columnIndex(const std::string& c) const {
  auto it = std::find(columns.begin(), columns.end(), c);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

SignalStore::SignalStore(QObject* parent) : QObject(parent) {
  SignalSource& s = sources_[kSimulation];
  s.id = kSimulation;
  s.name = QStringLiteral("simulation");
}

void SignalStore::resetSimulation(const std::vector<std::string>& columns) {
  SignalSource& s = sources_[kSimulation];
  s.columns.assign(columns.begin() + (columns.empty() ? 0 : 1), columns.end());
  s.time_s.clear();
  s.values.assign(s.columns.size(), {});
  emit sourcesChanged();
}

void SignalStore::appendSimulationRow(const std::vector<double>& row) {
  SignalSource& s = sources_[kSimulation];
  if (row.size() != s.columns.size() + 1) return;
  s.time_s.push_back(row[0]);
  for (std::size_t c = 0; c < s.columns.size(); ++c) s.values[c].push_back(row[c + 1]);
  emit dataAppended();
}

int SignalStore::addOverlay(const QString& name, const QString& path, const Log& log) {
  const int id = next_id_++;
  SignalSource s;
  s.id = id;
  s.path = path;
  QString unique = name;
  for (int n = 2;; ++n) {
    bool taken = false;
    for (const auto& [k, o] : sources_) taken = taken || o.name == unique;
    if (!taken) break;
    unique = QStringLiteral("%1 (%2)").arg(name).arg(n);
  }
  s.name = unique;
  const int tcol = log.columnIndex("time_s");
  for (std::size_t c = 0; c < log.cols(); ++c) {
    if (static_cast<int>(c) == tcol) continue;
    s.columns.push_back(log.columns()[c]);
    s.values.push_back(log.column(log.columns()[c]));
  }
  if (tcol >= 0) s.time_s = log.column("time_s");
  sources_[id] = std::move(s);
  emit sourcesChanged();
  return id;
}

void SignalStore::removeOverlay(int id) {
  if (id == kSimulation || !sources_.erase(id)) return;
  emit sourcesChanged();
}

void SignalStore::setOffset(int id, double offset_s) {
  auto it = sources_.find(id);
  if (it == sources_.end() || id == kSimulation || it->second.offset_s == offset_s) return;
  it->second.offset_s = offset_s;
  emit offsetChanged(id);
}

const SignalSource* SignalStore::source(int id) const {
  auto it = sources_.find(id);
  return it == sources_.end() ? nullptr : &it->second;
}

std::vector<int> SignalStore::sourceIds() const {
  std::vector<int> ids;
  for (const auto& [k, s] : sources_) ids.push_back(k);
  return ids;
}

std::vector<int> SignalStore::overlayIds() const {
  std::vector<int> ids;
  for (const auto& [k, s] : sources_)
    if (k != kSimulation) ids.push_back(k);
  return ids;
}

std::optional<SampledSignal> SignalStore::signal(const SignalRef& ref) const {
  const SignalSource* s = source(ref.source);
  if (!s) return std::nullopt;
  const int c = s->columnIndex(ref.column);
  if (c < 0) return std::nullopt;
  return SampledSignal{s->time_s, s->values[static_cast<std::size_t>(c)]};
}

double SignalStore::offset(int id) const {
  const SignalSource* s = source(id);
  return s ? s->offset_s : 0.0;
}

QString SignalStore::label(const SignalRef& ref) const {
  const SignalSource* s = source(ref.source);
  const QString col = QString::fromStdString(ref.column);
  if (!s || ref.source == kSimulation) return col;
  return s->name + QStringLiteral(": ") + col;
}

double SignalStore::simulationEnd_s() const {
  const SignalSource* s = source(kSimulation);
  return s && !s->time_s.empty() ? s->time_s.back() : 0.0;
}

std::pair<double, double> SignalStore::timeSpan() const {
  bool any = false;
  double lo = 0, hi = 0;
  for (const auto& [k, s] : sources_) {
    if (s.time_s.empty()) continue;
    const double a = s.time_s.front() + s.offset_s, b = s.time_s.back() + s.offset_s;
    lo = any ? std::min(lo, a) : a;
    hi = any ? std::max(hi, b) : b;
    any = true;
  }
  return {lo, hi};
}

Log SignalStore::simulationLog() const {
  const SignalSource* s = source(kSimulation);
  if (!s || s->columns.empty()) return Log();
  std::vector<std::string> cols{"time_s"};
  cols.insert(cols.end(), s->columns.begin(), s->columns.end());
  Log log(cols);
  log.reserveRows(s->time_s.size());
  std::vector<double> row(cols.size());
  for (std::size_t r = 0; r < s->time_s.size(); ++r) {
    row[0] = s->time_s[r];
    for (std::size_t c = 0; c < s->columns.size(); ++c) row[c + 1] = s->values[c][r];
    log.appendRow(row);
  }
  return log;
}

}  // namespace gapsim::gui
