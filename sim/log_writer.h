// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Writers of gapsim's time-series CSV dialect (read back with CsvTable): a header row of column
/// names, then one row per sample, cells separated by ',' and lines ended by '\n'.
///
/// Numbers are written with std::to_chars in the shortest form that reads back to the same
/// double (e.g. `0.1`, `-0`, `1e-07`, `5e-324`), so the text is locale independent and
/// deterministic: identical doubles give byte-identical files, and reading the file back with
/// CsvTable gives exactly the doubles that were written.
///
/// Column names must be non-empty, unique, free of ',', ';', '"', '\r', '\n' and of
/// leading/trailing blanks, and must not start with '#'; violations are programming errors
/// (std::invalid_argument). Non-finite values are refused (std::invalid_argument): the reader
/// rejects them, so writing one would produce an unreadable log. Check for divergence first.

#include <cstddef>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/csv_table.h"

namespace gapsim {

/// Appends the shortest round-trip text of `value` to `out`.
void appendCsvNumber(std::string& out, double value);

/// Throws std::invalid_argument if `columns` break the rules in the file comment.
void validateLogColumns(const std::vector<std::string>& columns);

/// Streams rows to a CSV file as they are produced (the simulator's 1 kHz recorder).
class LogWriter {
 public:
  /// Opens (truncates) `path` and writes the header row. Throws InputError(path, 0, "", ...) if
  /// the file cannot be opened, std::invalid_argument for bad column names.
  LogWriter(std::string path, std::vector<std::string> columns);
  /// Closes the file; errors are swallowed here, call close() to see them.
  ~LogWriter();
  LogWriter(LogWriter&&) noexcept = default;
  LogWriter& operator=(LogWriter&&) noexcept = default;
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  /// Writes one row; values.size() must equal columns().size() and every value be finite
  /// (std::invalid_argument otherwise). Throws std::logic_error after close().
  void writeRow(std::span<const double> values);
  /// Flushes and closes; throws InputError(path, 0, "", ...) if writing failed. Idempotent.
  void close();

  const std::string& path() const { return path_; }
  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rowsWritten() const { return rows_; }
  bool isOpen() const { return out_.is_open(); }

 private:
  std::string path_;
  std::vector<std::string> columns_;
  std::ofstream out_;
  std::string line_;  // reused row buffer
  std::size_t rows_ = 0;
};

/// An in-memory log (GUI, calibration): named columns and row-major rows, written to CSV later.
class Log {
 public:
  Log() = default;
  /// Empty log with these columns (validated as for LogWriter).
  explicit Log(std::vector<std::string> columns);
  /// Reads a CSV file (CsvTable::read with `opt`; by default a strictly increasing time_s).
  static Log read(const std::string& path, const CsvReadOptions& opt = {});
  /// Copies a table already read.
  static Log fromTable(const CsvTable& table);

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t cols() const { return columns_.size(); }
  std::size_t rows() const { return columns_.empty() ? 0 : data_.size() / columns_.size(); }
  /// Index of column `name`, -1 if absent.
  int columnIndex(std::string_view name) const;
  bool has(std::string_view name) const { return columnIndex(name) >= 0; }
  double at(std::size_t row, std::size_t col) const { return data_[row * columns_.size() + col]; }
  std::span<const double> row(std::size_t row) const { return {data_.data() + row * columns_.size(), columns_.size()}; }
  /// A copy of column `name`; std::out_of_range if absent.
  std::vector<double> column(std::string_view name) const;
  /// All values, row-major.
  const std::vector<double>& data() const { return data_; }

  /// Appends one row; same preconditions as LogWriter::writeRow (std::invalid_argument).
  void appendRow(std::span<const double> values);
  void reserveRows(std::size_t rows) { data_.reserve(rows * columns_.size()); }
  /// Drops all rows, keeps the columns.
  void clear() { data_.clear(); }

  /// The CSV text (header plus rows), byte-identical to what LogWriter writes.
  std::string toCsv() const;
  /// Writes toCsv() to `path`; InputError(path, 0, "", ...) if that fails. A log without rows
  /// writes only the header, which CsvTable refuses to read back (no data rows).
  void write(const std::string& path) const;

 private:
  std::vector<std::string> columns_;
  std::vector<double> data_;
};

}  // namespace gapsim
