// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Reader for gapsim's one time-series dialect (DESIGN.md "Logs and motions"): a header row of
/// column names (units in the name, `/` for hierarchy, e.g. `LKneePitch/q_rad`), then one row of
/// numbers per sample.
///
/// Accepted syntax:
///  - delimiter `,` or `;`, detected from the header row (or forced by CsvReadOptions::delimiter);
///  - blank lines and lines whose first non-blank character is `#` are skipped, but counted, so
///    every reported line number is the line an editor shows (1-based);
///  - one trailing delimiter per line is tolerated (`a,b,` is two columns), `\r\n` line endings
///    and a UTF-8 byte order mark are tolerated;
///  - cells are decimal numbers as std::from_chars reads them (locale independent), with optional
///    surrounding spaces/tabs and an optional leading `+`. NaN and infinities are rejected: a log
///    holding them is bad input.
///
/// Every error throws InputError(file, line, field, what) where field is the column name.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gapsim {

/// Order the time column must follow.
enum class TimeOrder {
  StrictlyIncreasing,  ///< logs: one sample per instant
  NonDecreasing,       ///< motions: two rows at the same time are an instantaneous step
};

/// Options of CsvTable::read.
struct CsvReadOptions {
  /// Cell delimiter: ',' or ';', or '\0' to detect it from the header row (the one of the two it
  /// contains; a header with both is ambiguous and an error).
  char delimiter = '\0';
  /// Name of the time column, which must exist and is checked against time_order.
  /// Empty: the table has no time column and nothing is checked.
  std::string time_column = "time_s";
  TimeOrder time_order = TimeOrder::StrictlyIncreasing;
  /// Appended to the "no time column" error message (e.g. a hint at --frame-period).
  std::string missing_time_hint;
  /// When true an empty cell reads as NaN ("not given", used by motions); the time column may
  /// still never be empty. When false an empty cell is an error.
  bool allow_empty_cells = false;
};

/// An immutable numeric table read from a CSV file. Values are stored row-major and contiguous.
class CsvTable {
 public:
  /// Reads and validates the file `path`. Throws InputError on any defect (cannot open, empty
  /// file, no data rows, duplicate or empty column name, wrong cell count, non-numeric or
  /// non-finite cell, time order violated, missing time column).
  static CsvTable read(const std::string& path, const CsvReadOptions& opt = {});
  /// Same, from text in memory; `name` is used as the file in error messages.
  static CsvTable parse(std::string_view text, const std::string& name, const CsvReadOptions& opt = {});

  const std::string& path() const { return path_; }
  const std::vector<std::string>& columns() const { return columns_; }
  /// Index of the column `name`, -1 if absent.
  int columnIndex(std::string_view name) const;
  bool has(std::string_view name) const { return columnIndex(name) >= 0; }
  /// Names of `expected` that are not columns of this table, in the order given.
  std::vector<std::string> missingColumns(const std::vector<std::string>& expected) const;

  std::size_t rows() const { return row_lines_.size(); }
  std::size_t cols() const { return columns_.size(); }
  /// Value at (row, col), both 0-based; unchecked.
  double at(std::size_t row, std::size_t col) const { return data_[row * columns_.size() + col]; }
  /// One row (cols() values).
  std::span<const double> row(std::size_t row) const { return {data_.data() + row * columns_.size(), columns_.size()}; }
  /// A copy of the column `name`; throws InputError(path, headerLine, name) if absent.
  std::vector<double> column(std::string_view name) const;
  /// All values, row-major (rows() * cols()).
  const std::vector<double>& data() const { return data_; }

  /// Delimiter actually used.
  char delimiter() const { return delimiter_; }
  /// 1-based file line of the header row.
  int headerLine() const { return header_line_; }
  /// 1-based file line of data row `row` (0-based), for errors found after reading.
  int lineOfRow(std::size_t row) const { return row_lines_[row]; }

 private:
  CsvTable() = default;
  std::string path_;
  std::vector<std::string> columns_;
  std::vector<double> data_;
  std::vector<int> row_lines_;
  int header_line_ = 0;
  char delimiter_ = ',';
};

/// Outcome of parseCsvNumber.
enum class CsvNumberStatus { Ok, Empty, NotANumber, NonFinite, OutOfRange };

/// Parses one number cell as CsvTable does: trims spaces/tabs, accepts a leading '+', rejects
/// NaN/inf, trailing garbage and out-of-range values. `value` is written only on Ok.
CsvNumberStatus parseCsvNumber(std::string_view cell, double& value);

/// Human-readable reason for a failed parse of `cell`, e.g. "not a number: 'abc'".
std::string csvNumberError(CsvNumberStatus status, std::string_view cell);

}  // namespace gapsim
