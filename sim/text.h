// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Small text helpers that every reader and writer shares: a number as the shortest text that
/// reads back as the same double, and a cell or line with its surrounding blanks removed.

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace gapsim {

/// The shortest text that reads back as the same double (std::to_chars): 0.08, not
/// 0.080000000000000002; 1e+308; "inf", "-inf" and "nan" (whatever the NaN's sign).
inline std::string shortestText(double v) {
  if (std::isnan(v)) return "nan";
  char buf[32];  // the longest shortest-form double is 24 characters
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

/// `s` without the spaces, tabs and carriage returns (a CRLF file's) at either end.
inline std::string_view trimBlanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace gapsim
