// SPDX-License-Identifier: BSD-3-Clause
#include "sim/log_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <unordered_set>

#include "sim/input_error.h"
#include "sim/text_file.h"

namespace gapsim {

namespace {

void appendHeader(std::string& out, const std::vector<std::string>& columns) {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c) out += ',';
    out += columns[c];
  }
  out += '\n';
}

void appendRowText(std::string& out, std::span<const double> values) {
  for (std::size_t c = 0; c < values.size(); ++c) {
    if (c) out += ',';
    appendCsvNumber(out, values[c]);
  }
  out += '\n';
}

void checkRow(std::span<const double> values, const std::vector<std::string>& columns) {
  if (values.size() != columns.size()) {
    throw std::invalid_argument("log row has " + std::to_string(values.size()) + " values for " +
                                std::to_string(columns.size()) + " columns");
  }
  for (std::size_t c = 0; c < values.size(); ++c) {
    if (!std::isfinite(values[c])) {
      throw std::invalid_argument("log column '" + columns[c] + "': non-finite value");
    }
  }
}

}  // namespace

void appendCsvNumber(std::string& out, double value) {
  char buf[32];  // the longest shortest-form double is 24 characters
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

void validateLogColumns(const std::vector<std::string>& columns) {
  if (columns.empty()) throw std::invalid_argument("a log needs at least one column");
  std::unordered_set<std::string_view> seen;
  for (const std::string& c : columns) {
    const auto bad = [&](const char* why) { throw std::invalid_argument("log column '" + c + "': " + why); };
    if (c.empty()) bad("empty name");
    if (c.find_first_of(",;\"\r\n") != std::string::npos) bad("contains , ; \" or a line break");
    if (c.front() == ' ' || c.front() == '\t' || c.back() == ' ' || c.back() == '\t') {
      bad("leading or trailing blank");
    }
    if (c.front() == '#') bad("starts with '#' (a comment line)");
    if (!seen.insert(c).second) bad("duplicate name");
  }
}

// ---------------------------------------------------------------- LogWriter

LogWriter::LogWriter(std::string path, std::vector<std::string> columns)
    : path_(std::move(path)), columns_(std::move(columns)) {
  validateLogColumns(columns_);
  out_.open(path_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    throw InputError(path_, 0, "", std::string("cannot open for writing: ") + std::strerror(errno));
  }
  appendHeader(line_, columns_);
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
}

LogWriter::~LogWriter() {
  if (out_.is_open()) out_.close();
}

void LogWriter::writeRow(std::span<const double> values) {
  if (!out_.is_open()) throw std::logic_error("LogWriter::writeRow after close: " + path_);
  checkRow(values, columns_);
  line_.clear();
  appendRowText(line_, values);
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
  ++rows_;
}

void LogWriter::close() {
  if (!out_.is_open()) return;
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || out_.fail()) throw InputError(path_, 0, "", "write failed (disk full?)");
}

// ---------------------------------------------------------------- Log

Log::Log(std::vector<std::string> columns) : columns_(std::move(columns)) { validateLogColumns(columns_); }

Log Log::read(const std::string& path, const CsvReadOptions& opt) { return fromTable(CsvTable::read(path, opt)); }

Log Log::fromTable(const CsvTable& table) {
  Log log;
  log.columns_ = table.columns();
  log.data_ = table.data();
  return log;
}

int Log::columnIndex(std::string_view name) const {
  const auto it = std::find(columns_.begin(), columns_.end(), name);
  return it == columns_.end() ? -1 : static_cast<int>(it - columns_.begin());
}

std::vector<double> Log::column(std::string_view name) const {
  const int c = columnIndex(name);
  if (c < 0) throw std::out_of_range("log has no column '" + std::string(name) + "'");
  std::vector<double> out(rows());
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = at(r, static_cast<std::size_t>(c));
  return out;
}

void Log::appendRow(std::span<const double> values) {
  checkRow(values, columns_);
  data_.insert(data_.end(), values.begin(), values.end());
}

std::string Log::toCsv() const {
  std::string text;
  appendHeader(text, columns_);
  for (std::size_t r = 0; r < rows(); ++r) appendRowText(text, row(r));
  return text;
}

void Log::write(const std::string& path) const { writeTextFile(path, toCsv()); }

}  // namespace gapsim
