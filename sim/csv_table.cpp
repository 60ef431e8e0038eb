// SPDX-License-Identifier: BSD-3-Clause
#include "sim/csv_table.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <unordered_map>

#include "sim/input_error.h"
#include "sim/text.h"
#include "sim/text_file.h"

namespace gapsim {

CsvNumberStatus parseCsvNumber(std::string_view cell, double& value) {
  std::string_view s = trimBlanks(cell);
  if (s.empty()) return CsvNumberStatus::Empty;
  // from_chars does not take a leading '+', which spreadsheets and Webots files do write.
  if (s.front() == '+') {
    s.remove_prefix(1);
    if (s.empty() || s.front() == '-' || s.front() == '+') return CsvNumberStatus::NotANumber;
  }
  double v = 0.0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range && r.ptr == s.data() + s.size()) {
    return CsvNumberStatus::OutOfRange;
  }
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return CsvNumberStatus::NotANumber;
  if (!std::isfinite(v)) return CsvNumberStatus::NonFinite;
  value = v;
  return CsvNumberStatus::Ok;
}

std::string csvNumberError(CsvNumberStatus status, std::string_view cell) {
  const std::string text(trimBlanks(cell));
  switch (status) {
    case CsvNumberStatus::Ok:
      return "ok";
    case CsvNumberStatus::Empty:
      return "empty cell (a number is required)";
    case CsvNumberStatus::NonFinite:
      return "non-finite value '" + text + "' (NaN and infinity are not accepted)";
    case CsvNumberStatus::OutOfRange:
      return "number out of the range of a double: '" + text + "'";
    case CsvNumberStatus::NotANumber:
      break;
  }
  std::string msg = "not a number: '" + text + "'";
  if (text.find(',') != std::string::npos) msg += " (decimal comma? write '.')";
  return msg;
}

CsvTable CsvTable::read(const std::string& path, const CsvReadOptions& opt) {
  return parse(readTextFile(path), path, opt);
}

namespace {

/// The delimiter of the header row: the option's, else ';' when the row has one and no ','.
char headerDelimiter(std::string_view line, int line_no, const std::string& name, char option) {
  if (option != '\0') return option;
  const bool comma = line.find(',') != std::string_view::npos;
  const bool semicolon = line.find(';') != std::string_view::npos;
  if (comma && semicolon)
    throw InputError(name, line_no, "", "header row contains both ',' and ';': cannot tell the delimiter");
  return semicolon ? ';' : ',';
}

/// The header row's column names, unquoted; InputError for an empty or duplicate name and for a
/// row of numbers (a forgotten header would silently turn the first sample into column names).
std::vector<std::string> headerColumns(std::string_view line, char delimiter, int line_no, const std::string& name) {
  std::vector<std::string_view> cells;
  splitCells(line, delimiter, cells);
  if (cells.size() > 1 && trimBlanks(cells.back()).empty()) cells.pop_back();
  std::vector<std::string> columns;
  columns.reserve(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) {
    std::string_view col = trimBlanks(cells[c]);
    if (col.size() >= 2 && col.front() == '"' && col.back() == '"') col = col.substr(1, col.size() - 2);
    if (col.empty()) throw InputError(name, line_no, "", "empty column name (column " + std::to_string(c + 1) + ")");
    columns.emplace_back(col);
  }
  const bool all_numeric = std::all_of(columns.begin(), columns.end(), [](const auto& c) {
    double v;
    return parseCsvNumber(c, v) == CsvNumberStatus::Ok;
  });
  if (all_numeric) throw InputError(name, line_no, "", "expected a header row of column names, found numbers");
  std::unordered_map<std::string_view, std::size_t> seen;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto [it, inserted] = seen.emplace(columns[c], c);
    if (!inserted)
      throw InputError(name, line_no, columns[c],
                       "duplicate column name '" + columns[c] + "' (columns " + std::to_string(it->second + 1) +
                           " and " + std::to_string(c + 1) + ")");
  }
  return columns;
}

/// Appends one data row's numbers to `data`; InputError naming the cell for a wrong cell count
/// or a value that is not a finite number (an empty cell is NaN where the options allow it).
void appendDataRow(std::string_view line, int line_no, const std::string& name, char delimiter,
                   const std::vector<std::string>& columns, const CsvReadOptions& opt, int time_col,
                   std::vector<std::string_view>& cells, std::vector<double>& data) {
  const std::size_t n = columns.size();
  splitCells(line, delimiter, cells);
  if (cells.size() == n + 1 && trimBlanks(cells.back()).empty()) cells.pop_back();
  if (cells.size() != n)
    throw InputError(name, line_no, cells.size() < n ? columns[cells.size()] : std::string(),
                     "expected " + std::to_string(n) + " cells separated by '" + std::string(1, delimiter) + "', got " +
                         std::to_string(cells.size()));
  for (std::size_t c = 0; c < n; ++c) {
    double v = 0.0;
    const CsvNumberStatus st = parseCsvNumber(cells[c], v);
    if (st == CsvNumberStatus::Empty && opt.allow_empty_cells && static_cast<int>(c) != time_col)
      v = std::numeric_limits<double>::quiet_NaN();
    else if (st != CsvNumberStatus::Ok)
      throw InputError(name, line_no, columns[c], csvNumberError(st, cells[c]));
    data.push_back(v);
  }
}

/// The time column's order from row to row, as the options ask (InputError naming both lines).
struct TimeOrderCheck {
  const std::string& name;
  const CsvReadOptions& opt;
  double prev_time = 0.0;
  int prev_line = 0;

  void next(double time, int line_no) {
    if (prev_line > 0) {
      const bool bad = opt.time_order == TimeOrder::StrictlyIncreasing ? !(time > prev_time) : time < prev_time;
      if (bad)
        throw InputError(name, line_no, opt.time_column,
                         "time " + shortestText(time) + " s at line " + std::to_string(line_no) +
                             (time == prev_time ? " does not increase from " : " goes back from ") +
                             shortestText(prev_time) + " s at line " + std::to_string(prev_line));
    }
    prev_time = time;
    prev_line = line_no;
  }
};

}  // namespace

CsvTable CsvTable::parse(std::string_view text, const std::string& name, const CsvReadOptions& opt) {
  if (opt.delimiter != '\0' && opt.delimiter != ',' && opt.delimiter != ';') {
    throw std::invalid_argument("CsvReadOptions::delimiter must be ',', ';' or '\\0'");
  }
  CsvTable t;
  t.path_ = name;
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

  std::vector<std::string_view> cells;
  int time_col = -1;
  TimeOrderCheck order{name, opt};
  forEachLine(text, [&](std::string_view line, int line_no) {
    const std::string_view content = trimBlanks(line);
    if (content.empty() || content.front() == '#') return;

    if (t.header_line_ == 0) {
      t.header_line_ = line_no;
      t.delimiter_ = headerDelimiter(line, line_no, name, opt.delimiter);
      t.columns_ = headerColumns(line, t.delimiter_, line_no, name);
      if (!opt.time_column.empty()) {
        time_col = t.columnIndex(opt.time_column);
        if (time_col < 0) {
          throw InputError(name, line_no, opt.time_column,
                           "no '" + opt.time_column + "' column" +
                               (opt.missing_time_hint.empty() ? std::string() : "; " + opt.missing_time_hint));
        }
      }
      return;
    }
    appendDataRow(line, line_no, name, t.delimiter_, t.columns_, opt, time_col, cells, t.data_);
    if (time_col >= 0)
      order.next(t.data_[t.data_.size() - t.columns_.size() + static_cast<std::size_t>(time_col)], line_no);
    t.row_lines_.push_back(line_no);
  });

  if (t.header_line_ == 0)
    throw InputError(name, 1, "header", "empty file: no header row (only blank or comment lines)");
  if (t.row_lines_.empty()) {
    throw InputError(name, t.header_line_, "", "no data rows after the header");
  }
  return t;
}

int CsvTable::columnIndex(std::string_view name) const {
  const auto it = std::find(columns_.begin(), columns_.end(), name);
  return it == columns_.end() ? -1 : static_cast<int>(it - columns_.begin());
}

std::vector<std::string> CsvTable::missingColumns(const std::vector<std::string>& expected) const {
  std::vector<std::string> missing;
  for (const std::string& e : expected) {
    if (!has(e)) missing.push_back(e);
  }
  return missing;
}

std::vector<double> CsvTable::column(std::string_view name) const {
  const int c = columnIndex(name);
  if (c < 0) {
    throw InputError(path_, header_line_, std::string(name), "no column '" + std::string(name) + "'");
  }
  std::vector<double> out(rows());
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = at(r, static_cast<std::size_t>(c));
  return out;
}

}  // namespace gapsim
