// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Small text helpers that every reader and writer shares: a number as the shortest text that
/// reads back as the same double, a cell or line with its surrounding blanks removed, a line cut
/// into cells, a text walked line by line, a text read as one finite number.

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

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

/// Whether the whole of `text` is one finite number in std::from_chars' form (no blanks, no
/// leading '+'), then stored in `value` (what `value` holds otherwise is unspecified).
inline bool readFinite(std::string_view text, double& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

/// `line` cut at every `delim` into `cells` (views into `line`; cleared first). An empty line is
/// one empty cell; quotes are not special.
inline void splitCells(std::string_view line, char delim, std::vector<std::string_view>& cells) {
  cells.clear();
  for (std::size_t start = 0;;) {
    const std::size_t p = line.find(delim, start);
    cells.push_back(line.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) return;
    start = p + 1;
  }
}

/// Calls `f(line, line_no)` for each line of `text`, numbered from 1, without its '\n' nor a CRLF
/// file's '\r': what every line-oriented reader walks. A last line without '\n' is a line; a '\n'
/// at the very end starts none.
template <class F>
void forEachLine(std::string_view text, F&& f) {
  int line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(line, line_no);
  }
}

}  // namespace gapsim
