// SPDX-License-Identifier: BSD-3-Clause
#include "sim/mtn_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>
#include <sstream>

#include "sim/input_error.h"
#include "sim/plausible.h"
#include "sim/text.h"
#include "sim/text_file.h"

namespace gapsim {

namespace {

constexpr int kIds = 26;  // Dynamixel ids 0..25 in every step line
constexpr double kRadPerTick = (5.0 * std::numbers::pi / 3.0) / 1024.0;

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(std::move(l));
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> splitWords(std::string_view s, char extra = ' ') {
  std::vector<std::string> w;
  std::size_t i = 0;
  auto blank = [&](char c) { return c == ' ' || c == '\t' || c == extra; };
  while (i < s.size()) {
    while (i < s.size() && blank(s[i])) ++i;
    std::size_t j = i;
    while (j < s.size() && !blank(s[j])) ++j;
    if (j > i) w.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return w;
}

std::string trimmed(std::string_view s) { return std::string(trimBlanks(s)); }

bool parseInt(const std::string& s, int& v) {
  const char* b = s.data();
  const char* e = b + s.size();
  if (b != e && *b == '+') ++b;
  auto r = std::from_chars(b, e, v);
  return r.ec == std::errc() && r.ptr == e && b != e;
}

bool parseDouble(const std::string& s, double& v) {
  std::string_view t = s;
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  return readFinite(t, v);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Motor map

MotorMap MotorMap::read(const std::string& path) {
  const std::vector<std::string> lines = splitLines(readTextFile(path));
  MotorMap map;
  map.source_file = path;
  std::vector<std::string> header;
  int header_line = 0;
  int c_joint = -1, c_id = -1, c_off = -1, c_swap = -1;
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const int line = static_cast<int>(li) + 1;
    const std::string t = trimmed(lines[li]);
    if (t.empty() || t[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream ss(t);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(trimmed(c));
    if (header.empty()) {
      header = cells;
      header_line = line;
      for (std::size_t c = 0; c < header.size(); ++c) {
        if (header[c] == "urdf_joint") c_joint = static_cast<int>(c);
        if (header[c] == "dynamixel_id") c_id = static_cast<int>(c);
        if (header[c] == "offset_rad") c_off = static_cast<int>(c);
        if (header[c] == "swap") c_swap = static_cast<int>(c);
      }
      for (auto [col, name] : {std::pair{c_joint, "urdf_joint"}, std::pair{c_id, "dynamixel_id"},
                               std::pair{c_off, "offset_rad"}, std::pair{c_swap, "swap"}})
        if (col < 0) throw InputError(path, line, name, std::string("missing column '") + name + "'");
      continue;
    }
    if (cells.size() != header.size())
      throw InputError(path, line, "",
                       "expected " + std::to_string(header.size()) + " cells, got " + std::to_string(cells.size()));
    MotorMapEntry e;
    e.joint = cells[c_joint];
    if (e.joint.empty()) throw InputError(path, line, "urdf_joint", "empty joint name");
    if (!parseInt(cells[c_id], e.dynamixel_id) || e.dynamixel_id < 1 || e.dynamixel_id >= kIds)
      throw InputError(path, line, "dynamixel_id", "not an id in 1..25: '" + cells[c_id] + "'");
    if (!parseDouble(cells[c_off], e.offset_rad))
      throw InputError(path, line, "offset_rad", "not a number: '" + cells[c_off] + "'");
    plausible::check(e.offset_rad, plausible::kJointTarget, path, line, "offset_rad", "offset");
    if (cells[c_swap] != "0" && cells[c_swap] != "1")
      throw InputError(path, line, "swap", "must be 0 or 1, got '" + cells[c_swap] + "'");
    e.swap = cells[c_swap] == "1";
    for (const MotorMapEntry& o : map.entries) {
      if (o.joint == e.joint) throw InputError(path, line, "urdf_joint", "joint '" + e.joint + "' mapped twice");
      if (o.dynamixel_id == e.dynamixel_id)
        throw InputError(path, line, "dynamixel_id", "id " + cells[c_id] + " mapped twice");
    }
    map.entries.push_back(std::move(e));
  }
  if (map.entries.empty()) throw InputError(path, header_line, "", "no motors in the map");
  return map;
}

double MotorMap::tickToRad(const MotorMapEntry& e, double tick) {
  return (e.swap ? -1.0 : 1.0) * (tick - 512.0) * kRadPerTick + e.offset_rad;
}

double MotorMap::radToTick(const MotorMapEntry& e, double q_rad) {
  return 512.0 + (e.swap ? -1.0 : 1.0) * (q_rad - e.offset_rad) / kRadPerTick;
}

// ---------------------------------------------------------------------------------------------
// .mtn file

namespace {

/// play_param's speed_rate, the one of its five values the player uses.
double readSpeedRate(const std::string& value, const std::string& path, int line) {
  double speed_rate = 0;
  const auto w = splitWords(value);
  if (w.size() != 5)
    throw InputError(path, line, "play_param",
                     "expected 5 values (next exit repeat speed_rate "
                     "ctrl_inertial_force), got " +
                         std::to_string(w.size()));
  if (!parseDouble(w[3], speed_rate) || !(speed_rate > 0))
    throw InputError(path, line, "play_param", "speed_rate must be a number > 0, got '" + w[3] + "'");
  return speed_rate;
}

/// One step line: 26 ticks, the pause and the time.
MtnStep readStep(const std::string& value, const std::string& path, int line) {
  const auto w = splitWords(value);
  if (w.size() != kIds + 2)
    throw InputError(path, line, "step",
                     "expected 26 ticks + pause + time = 28 values, got " + std::to_string(w.size()));
  MtnStep s;
  s.line = line;
  s.ticks.resize(kIds);
  for (int id = 0; id < kIds; ++id) {
    int tick = 0;
    if (!parseInt(w[id], tick) || tick < 0 || tick > 1023)
      throw InputError(path, line, "step/id" + std::to_string(id),
                       "tick must be an integer in 0..1023, got '" + w[id] + "'");
    s.ticks[id] = tick;
  }
  if (!parseDouble(w[kIds], s.pause_s) || s.pause_s < 0)
    throw InputError(path, line, "step/pause", "must be a number >= 0 (s), got '" + w[kIds] + "'");
  if (!parseDouble(w[kIds + 1], s.time_s) || s.time_s < 0)
    throw InputError(path, line, "step/time", "must be a number >= 0 (s), got '" + w[kIds + 1] + "'");
  plausible::check(s.pause_s, plausible::kMotionTime_s, path, line, "step/pause", "pause");
  plausible::check(s.time_s, plausible::kMotionTime_s, path, line, "step/time", "time");
  return s;
}

}  // namespace

MtnFile MtnFile::read(const std::string& path) {
  const std::vector<std::string> lines = splitLines(readTextFile(path));
  MtnFile f;
  f.path = path;
  MtnPage* page = nullptr;  // the open page
  bool seen_play_param = false;
  // Anything after the last page_end is ignored (the real files end in a two-byte checksum).
  std::size_t n_lines = lines.size();
  for (std::size_t k = lines.size(); k-- > 0;)
    if (trimmed(lines[k]) == "page_end") {
      n_lines = k + 1;
      break;
    }
  // ... but a page begun there is a page cut short (a truncated file), not a checksum: without
  // this its steps were dropped silently and a --page naming it said only "no page named".
  for (std::size_t k = n_lines; k < lines.size(); ++k)
    if (trimmed(lines[k]) == "page_begin")
      throw InputError(path, static_cast<int>(k) + 1, "page_begin",
                       "page has no page_end (the file ends at line " + std::to_string(lines.size()) + "; truncated?)");
  for (std::size_t li = 0; li < n_lines; ++li) {
    const int line = static_cast<int>(li) + 1;
    const std::string t = trimmed(lines[li]);
    if (t.empty()) continue;
    if (t == "page_begin") {
      if (page)
        throw InputError(path, line, "page_begin",
                         "page begun at line " + std::to_string(page->line) + " has no page_end");
      f.pages.emplace_back();
      page = &f.pages.back();
      page->number = static_cast<int>(f.pages.size());
      page->line = line;
      seen_play_param = false;
      continue;
    }
    if (t == "page_end") {
      if (!page) throw InputError(path, line, "page_end", "page_end without page_begin");
      if (!seen_play_param) throw InputError(path, line, "play_param", "page has no play_param line");
      page = nullptr;
      continue;
    }
    const std::size_t eq = t.find('=');
    if (eq == std::string::npos)
      throw InputError(path, line, "", "expected 'key=value', page_begin or page_end, got '" + t.substr(0, 40) + "'");
    const std::string key = trimmed(std::string_view(t).substr(0, eq));
    const std::string value = t.substr(eq + 1);
    if (!page) {
      if (key == "step" || key == "name" || key == "play_param" || key == "compliance")
        throw InputError(path, line, key, "'" + key + "=' outside a page (no page_begin before it)");
      continue;  // header: type, version, enable, motor_type
    }
    if (key == "name") {
      page->name = trimmed(value);
    } else if (key == "compliance") {
      // Read by nothing in bioGP (RoboPlus convention: level n = compliance slope 2^n).
    } else if (key == "play_param") {
      page->speed_rate = readSpeedRate(value, path, line);
      seen_play_param = true;
    } else if (key == "step") {
      page->steps.push_back(readStep(value, path, line));
    } else {
      throw InputError(path, line, key, "unknown key '" + key + "' inside a page");
    }
  }
  if (page) throw InputError(path, page->line, "page_begin", "page has no page_end (end of file)");
  if (f.pages.empty())
    throw InputError(path, std::max(1, static_cast<int>(lines.size())), "",
                     "no pages up to the end of the file (not a RoboPlus .mtn file?)");
  return f;
}

std::vector<std::string> MtnFile::pageNames() const {
  std::vector<std::string> names;
  for (const MtnPage& p : pages)
    if (!p.name.empty()) names.push_back(p.name);
  return names;
}

const MtnPage& MtnFile::page(const std::string& name) const {
  for (const MtnPage& p : pages)
    if (!name.empty() && p.name == name) return p;
  int number = 0;
  if (parseInt(name, number) && number >= 1 && number <= static_cast<int>(pages.size())) return pages[number - 1];
  std::string list;
  for (const MtnPage& p : pages)
    if (!p.name.empty())
      list += (list.empty() ? "" : ", ") + p.name + " (" + std::to_string(p.number) + ", line " +
              std::to_string(p.line) + ")";
  // The line of the first page: where the file's page names start (the error is the option's, but
  // the file says which names there are).
  throw InputError(path, pages.empty() ? 0 : pages.front().line, "page",
                   "no page named '" + name + "' (pages: " + (list.empty() ? std::string("none named") : list) + ")");
}

Motion mtnPageMotion(const MtnFile& file, const std::string& page_name, const MotorMap& map,
                     const std::map<std::string, double>& initial_pose_rad) {
  const MtnPage& page = file.page(page_name);
  if (page.steps.empty())
    throw InputError(file.path, page.line, "page",
                     "page '" + (page.name.empty() ? std::to_string(page.number) : page.name) + "' has no steps");
  std::vector<std::string> joints;
  for (const MotorMapEntry& e : map.entries) joints.push_back(e.joint);
  auto targets = [&](const MtnStep& s) {
    std::vector<double> q;
    for (const MotorMapEntry& e : map.entries) q.push_back(MotorMap::tickToRad(e, s.ticks[e.dynamixel_id]));
    return q;
  };
  std::vector<double> times;
  std::vector<std::vector<double>> values;
  std::vector<int> lines;
  // t = 0: the initial pose (joints it lacks start at the first target).
  std::vector<double> q0 = targets(page.steps.front());
  for (std::size_t j = 0; j < joints.size(); ++j)
    if (auto it = initial_pose_rad.find(joints[j]); it != initial_pose_rad.end()) q0[j] = it->second;
  times.push_back(0.0);
  values.push_back(q0);
  lines.push_back(page.line);
  double t = 0.0;
  for (const MtnStep& s : page.steps) {
    t += s.time_s / page.speed_rate;  // ramp end
    // A small speed_rate stretches the page: its times must stay plausible too.
    plausible::check(t, plausible::kMotionTime_s, file.path, s.line, "step/time", "time (at the page's speed_rate)");
    times.push_back(t);
    values.push_back(targets(s));
    lines.push_back(s.line);
    if (s.pause_s > 0) {  // hold
      t += s.pause_s / page.speed_rate;
      plausible::check(t, plausible::kMotionTime_s, file.path, s.line, "step/pause", "time (at the page's speed_rate)");
      times.push_back(t);
      values.push_back(values.back());
      lines.push_back(s.line);
    }
  }
  return Motion(std::move(joints), std::move(times), std::move(values), file.path, page.line, std::move(lines));
}

bool isMtnPath(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".mtn";
}

}  // namespace gapsim
