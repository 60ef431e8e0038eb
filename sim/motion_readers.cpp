// SPDX-License-Identifier: BSD-3-Clause
#include "sim/motion_readers.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "sim/plausible.h"
#include "sim/text.h"
#include "sim/text_file.h"

namespace gapsim {

namespace {

constexpr std::string_view kTargetSuffix = "/q_target_rad";
constexpr std::string_view kWebotsTag = "#WEBOTS_MOTION";

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// A joint target as read; NaN is "not given at this frame" (an empty cell, Webots' `*`).
void checkTarget(double q, const std::string& path, int line, const std::string& field) {
  if (!std::isnan(q)) plausible::check(q, plausible::kJointTarget, path, line, field, "joint target");
}

/// Builds a Motion from a table: `time_col` < 0 means frame k at k * frame_period_s.
Motion motionFromTable(const CsvTable& table, int time_col, double frame_period_s) {
  const auto& cols = table.columns();
  const bool is_log =
      std::any_of(cols.begin(), cols.end(), [](const std::string& c) { return endsWith(c, kTargetSuffix); });
  std::vector<std::string> joints;
  std::vector<std::size_t> source_cols;
  for (std::size_t c = 0; c < cols.size(); ++c) {
    if (static_cast<int>(c) == time_col) continue;
    const std::string& name = cols[c];
    if (endsWith(name, kTargetSuffix)) {
      joints.push_back(name.substr(0, name.size() - kTargetSuffix.size()));
    } else if (name.find('/') == std::string::npos) {
      joints.push_back(name);
    } else if (is_log) {
      continue;  // a measured signal of a replayed log
    } else {
      throw InputError(table.path(), table.headerLine(), name,
                       "column '" + name +
                           "' is not a joint target: name it after the joint (radians) or "
                           "'<joint>/q_target_rad'");
    }
    source_cols.push_back(c);
  }
  if (joints.empty()) {
    throw InputError(table.path(), table.headerLine(), "", "no joint columns");
  }
  // A log names a joint once; `J` next to `J/q_target_rad` would be ambiguous.
  for (std::size_t a = 0; a < joints.size(); ++a) {
    for (std::size_t b = a + 1; b < joints.size(); ++b) {
      if (joints[a] == joints[b]) {
        throw InputError(table.path(), table.headerLine(), cols[source_cols[b]],
                         "joint '" + joints[a] + "' is given by two columns ('" + cols[source_cols[a]] + "' and '" +
                             cols[source_cols[b]] + "')");
      }
    }
  }

  const std::size_t F = table.rows();
  std::vector<double> times(F);
  std::vector<std::vector<double>> values(F, std::vector<double>(joints.size()));
  std::vector<int> lines(F);
  for (std::size_t k = 0; k < F; ++k) {
    lines[k] = table.lineOfRow(k);
    times[k] =
        time_col >= 0 ? table.at(k, static_cast<std::size_t>(time_col)) : static_cast<double>(k) * frame_period_s;
    plausible::check(times[k], plausible::kMotionTime_s, table.path(), lines[k],
                     time_col >= 0 ? cols[static_cast<std::size_t>(time_col)] : "time_s", "time");
    for (std::size_t j = 0; j < joints.size(); ++j) {
      values[k][j] = table.at(k, source_cols[j]);
      checkTarget(values[k][j], table.path(), lines[k], cols[source_cols[j]]);
    }
  }
  return Motion(std::move(joints), std::move(times), std::move(values), table.path(), table.headerLine(),
                std::move(lines));
}

/// "MM:SS:mmm" -> seconds; false if malformed.
bool parseWebotsTime(std::string_view s, double& t_s) {
  s = trimBlanks(s);
  long parts[3];
  for (int i = 0; i < 3; ++i) {
    const std::size_t colon = i < 2 ? s.find(':') : s.size();
    if (colon == std::string_view::npos) return false;
    const std::string_view digits = s.substr(0, colon);
    if (digits.empty() || digits.size() > 6) return false;
    if (!std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return false;
    }
    std::from_chars(digits.data(), digits.data() + digits.size(), parts[i]);
    s.remove_prefix(i < 2 ? colon + 1 : colon);
    if (i == 1 && (digits.size() > 2 || parts[1] > 59)) return false;
    if (i == 2 && digits.size() != 3) return false;
  }
  t_s = static_cast<double>(parts[0] * 60000 + parts[1] * 1000 + parts[2]) / 1000.0;
  return true;
}

}  // namespace

std::optional<std::pair<std::string, int>> findControllerLine(const std::string& path) {
  // Comment lines before the header; "# controller: SPEC" names the controller (sim/motion.h).
  std::ifstream in(path, std::ios::binary);  // the motion was read already: only its leading comments here
  std::string line;
  const std::string key = "controller:";
  for (int no = 1; std::getline(in, line); ++no) {
    std::size_t p = line.find_first_not_of(" \t");
    if (p == std::string::npos) continue;
    if (line[p] != '#') break;
    p = line.find_first_not_of(" \t", p + 1);
    if (p == std::string::npos || line.compare(p, key.size(), key) != 0) continue;
    std::string spec = line.substr(p + key.size());
    const auto b = spec.find_first_not_of(" \t"), e = spec.find_last_not_of(" \t\r");
    spec = b == std::string::npos ? std::string() : spec.substr(b, e - b + 1);
    return std::make_pair(spec, no);
  }
  return std::nullopt;
}

Motion readMotionCsv(const std::string& path) {
  CsvReadOptions opt;
  opt.time_column = "time_s";
  opt.time_order = TimeOrder::NonDecreasing;
  opt.allow_empty_cells = true;
  opt.missing_time_hint = "for a joint table without time give --frame-period";
  const CsvTable table = CsvTable::read(path, opt);
  Motion motion = motionFromTable(table, table.columnIndex("time_s"), 0.0);
  if (const auto c = findControllerLine(path)) motion.setController(c->first, c->second);
  return motion;
}

Motion readJointTable(const std::string& path, double frame_period_s) {
  if (!(std::isfinite(frame_period_s) && frame_period_s > 0.0)) {
    throw InputError(path, 0, "frame_period_s",
                     "frame period must be a positive number of seconds, got " + shortestText(frame_period_s));
  }
  plausible::check(frame_period_s, plausible::kFramePeriod_s, path, 0, "frame_period_s", "frame period");
  CsvReadOptions opt;
  opt.time_column.clear();
  opt.allow_empty_cells = true;
  const CsvTable table = CsvTable::read(path, opt);
  if (table.has("time_s")) {
    throw InputError(path, table.headerLine(), "time_s",
                     "this table has a time_s column, so it is a keyframe CSV: load it without "
                     "--frame-period");
  }
  return motionFromTable(table, -1, frame_period_s);
}

namespace {

/// The header line's cells: the Webots tag, the version and the joint names.
std::vector<std::string> webotsHeaderJoints(const std::vector<std::string_view>& cells, const std::string& path,
                                            int line_no) {
  std::vector<std::string> joints;
  if (trimBlanks(cells[0]) != kWebotsTag) {
    throw InputError(path, line_no, "",
                     "not a Webots motion file: the first line must start with "
                     "'#WEBOTS_MOTION,V1.0,'");
  }
  if (cells.size() < 2 || trimBlanks(cells[1]) != "V1.0") {
    throw InputError(
        path, line_no, "version",
        "unsupported version '" + std::string(cells.size() < 2 ? "" : trimBlanks(cells[1])) + "' (expected V1.0)");
  }
  for (std::size_t c = 2; c < cells.size(); ++c) {
    const std::string_view name = trimBlanks(cells[c]);
    if (name.empty()) {
      throw InputError(path, line_no, "", "empty joint name (column " + std::to_string(c + 1) + ")");
    }
    joints.emplace_back(name);
  }
  if (joints.empty()) throw InputError(path, line_no, "", "header names no joints");
  return joints;
}

/// One pose line's joint values (cells after time and pose name); '*' (not given) reads as NaN.
std::vector<double> webotsPoseValues(const std::vector<std::string_view>& cells, const std::vector<std::string>& joints,
                                     const std::string& path, int line_no) {
  std::vector<double> row(joints.size());
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const std::string_view cell = trimBlanks(cells[j + 2]);
    if (cell == "*") {
      row[j] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    const CsvNumberStatus st = parseCsvNumber(cell, row[j]);
    if (st != CsvNumberStatus::Ok) {
      throw InputError(
          path, line_no, joints[j],
          st == CsvNumberStatus::Empty ? "empty value (write '*' for not given)" : csvNumberError(st, cell));
    }
    checkTarget(row[j], path, line_no, joints[j]);
  }
  return row;
}

}  // namespace

Motion readWebotsMotion(const std::string& path) {
  const std::string text = readTextFile(path);
  std::vector<std::string> joints;
  std::vector<double> times;
  std::vector<std::vector<double>> values;
  std::vector<int> lines;
  std::vector<std::string_view> cells;
  int header_line = 0;
  forEachLine(text, [&](std::string_view line, int line_no) {
    if (trimBlanks(line).empty()) return;

    splitCells(line, ',', cells);
    if (cells.size() > 1 && trimBlanks(cells.back()).empty()) cells.pop_back();

    if (header_line == 0) {
      header_line = line_no;
      joints = webotsHeaderJoints(cells, path, line_no);
      return;
    }

    if (cells.size() != joints.size() + 2) {
      throw InputError(path, line_no,
                       cells.size() < joints.size() + 2 && cells.size() >= 2 ? joints[cells.size() - 2] : std::string(),
                       "expected time, pose name and " + std::to_string(joints.size()) + " values, got " +
                           std::to_string(cells.size()) + " cells");
    }
    double t_s = 0.0;
    if (!parseWebotsTime(cells[0], t_s)) {
      throw InputError(path, line_no, "time",
                       "bad time '" + std::string(trimBlanks(cells[0])) + "' (expected MM:SS:mmm, e.g. 00:01:250)");
    }
    plausible::check(t_s, plausible::kMotionTime_s, path, line_no, "time", "time");
    if (!times.empty() && t_s < times.back()) {
      throw InputError(path, line_no, "time",
                       "time " + shortestText(t_s) + " s at line " + std::to_string(line_no) + " goes back from " +
                           shortestText(times.back()) + " s at line " + std::to_string(lines.back()));
    }
    std::vector<double> row = webotsPoseValues(cells, joints, path, line_no);
    times.push_back(t_s);
    values.push_back(std::move(row));
    lines.push_back(line_no);
  });
  if (header_line == 0)
    throw InputError(path, 1, "header", "empty file: no #WEBOTS_MOTION header (only blank or comment lines)");
  if (times.empty()) throw InputError(path, header_line, "", "no poses after the header");
  return Motion(std::move(joints), std::move(times), std::move(values), path, header_line, std::move(lines));
}

Motion loadMotion(const std::string& path, std::optional<double> frame_period_s) {
  std::string ext;
  if (const std::size_t dot = path.find_last_of('.');
      dot != std::string::npos && path.find_first_of("/\\", dot) == std::string::npos) {
    ext = path.substr(dot);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  bool webots = ext == ".motion";
  if (!webots) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      throw InputError(path, 0, "", std::string("cannot open file: ") + std::strerror(errno));
    }
    std::string first;
    std::getline(in, first);
    if (first.rfind("\xEF\xBB\xBF", 0) == 0) first.erase(0, 3);
    webots = trimBlanks(first).substr(0, kWebotsTag.size()) == kWebotsTag;
  }
  if (webots) {
    if (frame_period_s) {
      throw InputError(path, 0, "frame_period_s", "a Webots .motion file carries its own times: give no frame period");
    }
    return readWebotsMotion(path);
  }
  if (frame_period_s) return readJointTable(path, *frame_period_s);
  return readMotionCsv(path);
}

}  // namespace gapsim
