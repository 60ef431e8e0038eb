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

/// `s` with its control characters spelled out (a NUL byte as \0, ESC as \x1b, CR as \r): a NUL
/// byte in a path read from a file no longer ends the message that quotes it (what() is a C
/// string), nor does a raw escape sequence reach the terminal. Line feeds and tabs (messages of
/// several lines) and bytes from 0x80 up (UTF-8) are kept.
inline std::string printable(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t') {
      out += static_cast<char>(c);
    } else if (c == '\0') {
      out += "\\0";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

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
  static std::string format(const std::string& file, int line, const std::string& field, const std::string& what) {
    // Command-line values have no file: "--dt: must be > 0".
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    if (!s.empty()) s += ": ";
    if (!field.empty()) s += field + ": ";
    return printable(s + what);
  }
  std::string file_;
  int line_;
  std::string field_;
};

/// A value with `digits` significant digits ("%.<digits>g"), as summaries print fitted values.
inline std::string significant(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

/// A value with 6 significant digits ("%.6g"), as error messages and summary tables print it.
inline std::string sixDigits(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace gapsim
