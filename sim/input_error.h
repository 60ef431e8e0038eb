// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The one exception type for bad input (robot files, motions, logs, parameter files, command
/// line values). It carries the file, the 1-based line (0 when the error is not tied to a line)
/// and the field, so every front end can print "file:line: field: what" and exit with code 2.

#include <cstdio>
#include <stdexcept>
#include <string>

namespace gapsim {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, std::string field, std::string what)
      : std::runtime_error(format(file, line, field, what)),
        file_(std::move(file)),
        line_(line),
        field_(std::move(field)) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& field() const { return field_; }

 private:
  static std::string format(const std::string& file, int line, const std::string& field,
                            const std::string& what) {
    // Command-line values have no file: "--dt: must be > 0".
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    if (!s.empty()) s += ": ";
    if (!field.empty()) s += field + ": ";
    return s + what;
  }
  std::string file_;
  int line_;
  std::string field_;
};

/// A value with 6 significant digits ("%.6g"), as error messages and summary tables print it.
inline std::string sixDigits(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace gapsim
