// SPDX-License-Identifier: BSD-3-Clause
#include "calib/recording_manifest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>
#include <string_view>
#include <utility>

#include "calib/lean_to_stand_layout.h"
#include "sim/input_error.h"
#include "sim/text_file.h"

namespace gapsim::calib {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
constexpr const char* kFormat = "gapsim-recordings 1";

// ---------------------------------------------------------------------------------------------
// Line of every value: nlohmann keeps no positions, so the (already validated) text is walked
// once and each JSON pointer gets the line of its key (object member) or of its first character
// (array element, root).

class LineMap {
 public:
  explicit LineMap(const std::string& s) : s_(s) { value(""); }
  int line(const std::string& pointer) const {
    const auto it = lines_.find(pointer);
    return it == lines_.end() ? 0 : it->second;
  }

 private:
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      if (s_[i_] == '\n') ++line_;
      ++i_;
    }
  }
  std::string str() {
    std::string out;
    ++i_;  // opening quote
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        out += s_[i_ + 1];  // the pointer only needs the key's characters, escapes approximated
        i_ += 2;
      } else {
        out += s_[i_++];
      }
    }
    ++i_;
    return out;
  }
  static std::string escape(const std::string& k) {
    std::string o;
    for (char c : k) o += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return o;
  }
  void value(const std::string& path) {
    ws();
    lines_.emplace(path, line_);
    if (i_ >= s_.size()) return;
    if (s_[i_] == '{') {
      ++i_;
      ws();
      while (i_ < s_.size() && s_[i_] != '}') {
        ws();
        const int key_line = line_;
        const std::string key = str();
        ws();
        ++i_;  // ':'
        const std::string p = path + "/" + escape(key);
        lines_.emplace(p, key_line);
        value(p);
        ws();
        if (i_ < s_.size() && s_[i_] == ',') ++i_;
        ws();
      }
      ++i_;
    } else if (s_[i_] == '[') {
      ++i_;
      ws();
      for (int k = 0; i_ < s_.size() && s_[i_] != ']'; ++k) {
        value(path + "/" + std::to_string(k));
        ws();
        if (i_ < s_.size() && s_[i_] == ',') ++i_;
        ws();
      }
      ++i_;
    } else if (s_[i_] == '"') {
      str();
    } else {
      while (i_ < s_.size() && std::string(",]} \t\r\n").find(s_[i_]) == std::string::npos) ++i_;
    }
  }
  const std::string& s_;
  std::size_t i_ = 0;
  int line_ = 1;
  std::map<std::string, int> lines_;
};

std::string shown(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

/// Reads one object (a trial merged over the defaults) and says where each field came from.
class Fields {
 public:
  Fields(const std::string& file, const LineMap& lines, const json& own, const std::string& own_ptr,
         const std::string& own_name, const json* defaults)
      : file_(file), lines_(lines), own_(own), own_ptr_(own_ptr), own_name_(own_name), defaults_(defaults) {
    merged_ = defaults ? *defaults : json::object();
    merged_.merge_patch(own);
  }

  /// Line and dotted field name of `keys` ("trials[2].commands.hold"), in the trial when it has
  /// the key, else in the defaults; the trial's own line when neither has it.
  std::pair<int, std::string> where(const std::vector<std::string>& keys) const {
    auto has = [&](const json& j) { return descend(j, keys) != nullptr; };
    auto name = [&](const std::string& base) {
      std::string n = base;
      for (const auto& k : keys) {
        if (!k.empty() && std::all_of(k.begin(), k.end(), ::isdigit))
          n += "[" + k + "]";
        else
          n += (n.empty() ? "" : ".") + k;
      }
      return n;
    };
    auto ptr = [&](const std::string& base) {
      std::string p = base;
      for (const auto& k : keys) p += "/" + k;
      return p;
    };
    if (has(own_)) return {lines_.line(ptr(own_ptr_)), name(own_name_)};
    if (defaults_ && has(*defaults_)) return {lines_.line(ptr("/defaults")), name("defaults")};
    return {lines_.line(own_ptr_), name(own_name_)};
  }

  [[noreturn]] void fail(const std::vector<std::string>& keys, const std::string& value,
                         const std::string& what) const {
    const auto [line, field] = where(keys);
    throw InputError(file_, line, field, "'" + value + "': " + what);
  }
  [[noreturn]] void failValue(const std::vector<std::string>& keys, const std::string& what) const {
    const json* v = find(keys);
    fail(keys, v ? shown(*v) : "", what);
  }

  const json* find(const std::vector<std::string>& keys) const { return descend(merged_, keys); }

  /// The value at `keys` below `j` (object keys, or array indices written as digits), null if none.
  static const json* descend(const json& j, const std::vector<std::string>& keys) {
    const json* p = &j;
    for (const auto& k : keys) {
      if (p->is_object() && p->contains(k))
        p = &(*p)[k];
      else if (p->is_array() && !k.empty() && std::all_of(k.begin(), k.end(), ::isdigit) && std::stoul(k) < p->size())
        p = &(*p)[std::stoul(k)];
      else
        return nullptr;
    }
    return p;
  }

  std::string text(const std::vector<std::string>& keys, const std::string& fallback, bool required = false) const {
    const json* v = find(keys);
    if (!v) {
      if (required) fail(keys, "", "required field missing");
      return fallback;
    }
    if (!v->is_string()) fail(keys, shown(*v), "expected a string");
    if (required && v->get<std::string>().empty()) fail(keys, "", "must not be empty");
    return v->get<std::string>();
  }

  /// What the text at `keys` (`fallback` when absent) stands for in `choices`; any other text
  /// fails saying `expected`.
  template <class T>
  T choice(const std::vector<std::string>& keys, const std::string& fallback,
           std::initializer_list<std::pair<std::string_view, T>> choices, const std::string& expected) const {
    const std::string v = text(keys, fallback);
    for (const auto& [name, value] : choices)
      if (v == name) return value;
    failValue(keys, expected);
  }

  double number(const std::vector<std::string>& keys, double fallback, double lo, double hi, const char* unit) const {
    const json* v = find(keys);
    if (!v) return fallback;
    if (!v->is_number()) fail(keys, shown(*v), "expected a number");
    const double x = v->get<double>();
    if (!(x >= lo && x <= hi))
      fail(keys, shown(*v), "expected a number in [" + sixDigits(lo) + ", " + sixDigits(hi) + "] " + unit);
    return x;
  }

  Eigen::Vector3d vec3(const std::vector<std::string>& keys, double lo, double hi, const char* unit) const {
    const json* v = find(keys);
    if (!v || !v->is_array() || v->size() != 3)
      fail(keys, v ? shown(*v) : "", std::string("expected [x, y, z] in ") + unit);
    Eigen::Vector3d out;
    for (int k = 0; k < 3; ++k) {
      auto sub = keys;
      sub.push_back(std::to_string(k));
      out[k] = number(sub, 0, lo, hi, unit);
    }
    return out;
  }

  void onlyKeys(const std::vector<std::string>& keys, const std::set<std::string>& allowed) const {
    const json* v = keys.empty() ? &merged_ : find(keys);
    if (!v) return;
    if (!v->is_object()) fail(keys, shown(*v), "expected an object");
    for (auto it = v->begin(); it != v->end(); ++it)
      if (!allowed.count(it.key())) {
        auto sub = keys;
        sub.push_back(it.key());
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(sub, it.key(), "unknown field (expected one of " + list + ")");
      }
  }

  const std::string& file() const { return file_; }

 private:
  const std::string& file_;
  const LineMap& lines_;
  const json& own_;
  std::string own_ptr_, own_name_;
  const json* defaults_;
  json merged_;
};

std::string resolvePath(const std::string& dir, const std::string& p) {
  if (p.empty()) return p;
  const fs::path path(p);
  return (path.is_absolute() ? path : fs::path(dir) / path).lexically_normal().string();
}

/// Whether `p` is a regular file, and if not, `why`. With an error code: a name the file system
/// refuses (a component longer than NAME_MAX, no permission) is the manifest line's error, not a
/// filesystem_error without the line.
bool regularFile(const std::string& p, std::string& why) {
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (fs::is_regular_file(st)) return true;
  why = (!ec || st.type() == fs::file_type::not_found) ? "no such file" : "cannot read it: " + ec.message();
  return false;
}

/// A name containing no '/' and not a file next to the manifest is a shipped robot's name.
std::string resolveRobot(const std::string& dir, const std::string& r) {
  if (r.empty()) return r;
  const std::string p = resolvePath(dir, r);
  std::error_code ec;
  return fs::exists(p, ec) ? p : r;
}

struct UnitRow {
  const char* unit;
  const char* si;
  double scale;
};
constexpr UnitRow kUnits[] = {
    {"rad", "rad", 1.0},     {"deg", "rad", std::numbers::pi / 180.0},
    {"rad_s", "rad_s", 1.0}, {"deg_s", "rad_s", std::numbers::pi / 180.0},
    {"m", "m", 1.0},         {"mm", "m", 1e-3},
    {"cm", "m", 1e-2},       {"m_s", "m_s", 1.0},
    {"N", "N", 1.0},         {"Nm", "Nm", 1.0},
    {"s", "s", 1.0},         {"A", "A", 1.0},
    {"V", "V", 1.0},         {"1", "1", 1.0},
};

const UnitRow* unitRow(const std::string& u) {
  for (const UnitRow& r : kUnits)
    if (u == r.unit) return &r;
  return nullptr;
}

std::string unitList() {
  std::string s;
  for (const UnitRow& r : kUnits) s += (s.empty() ? "" : ", ") + std::string(r.unit);
  return s;
}

/// "initial_pose": where the trial starts (the recording's first frame, the robot file, or explicit joints and root).
void readInitialPose(const Fields& f, ManifestTrial& t) {
  f.onlyKeys({"initial_pose"}, {"from", "root_columns", "joints_rad", "root", "settle_s"});
  t.initial = f.choice<InitialPoseSource>({"initial_pose", "from"}, "first_frame",
                                          {{"first_frame", InitialPoseSource::kFirstFrame},
                                           {"robot", InitialPoseSource::kRobotFile},
                                           {"explicit", InitialPoseSource::kExplicit}},
                                          "expected first_frame, robot or explicit");
  t.root_columns = f.text({"initial_pose", "root_columns"}, "torso");
  if (const json* js = f.find({"initial_pose", "joints_rad"})) {
    if (t.initial != InitialPoseSource::kExplicit)
      f.fail({"initial_pose", "joints_rad"}, shown(*js), "joint values need \"from\": \"explicit\"");
    if (!js->is_object()) f.fail({"initial_pose", "joints_rad"}, shown(*js), "expected {\"joint\": angle_rad, ...}");
    for (auto it = js->begin(); it != js->end(); ++it)
      t.initial_q_rad[it.key()] = f.number({"initial_pose", "joints_rad", it.key()}, 0, -10, 10, "rad");
  }
  if (f.find({"initial_pose", "root"})) {
    if (t.initial != InitialPoseSource::kExplicit)
      f.failValue({"initial_pose", "root"}, "a root pose needs \"from\": \"explicit\"");
    f.onlyKeys({"initial_pose", "root"}, {"xyz_m", "rotvec_rad"});
    t.has_root_pose = true;
    t.root_xyz_m = f.vec3({"initial_pose", "root", "xyz_m"}, -1e3, 1e3, "m");
    if (f.find({"initial_pose", "root", "rotvec_rad"}))
      t.root_rotvec_rad = f.vec3({"initial_pose", "root", "rotvec_rad"}, -10, 10, "rad");
  }
  if (t.initial == InitialPoseSource::kExplicit && t.initial_q_rad.empty() && !t.has_root_pose)
    f.failValue({"initial_pose", "from"}, "explicit needs joints_rad or root");
  if (f.find({"initial_pose", "settle_s"})) t.settle_s = f.number({"initial_pose", "settle_s"}, 0, 0, 10, "s");
}

/// "scene": static boxes (a wall the robot leans on).
void readScene(const Fields& f, ManifestTrial& t) {
  f.onlyKeys({"scene"}, {"boxes"});
  if (const json* boxes = f.find({"scene", "boxes"})) {
    if (!boxes->is_array()) f.fail({"scene", "boxes"}, shown(*boxes), "expected an array of boxes");
    t.has_scene = true;
    for (std::size_t b = 0; b < boxes->size(); ++b) {
      const std::string k = std::to_string(b);
      f.onlyKeys({"scene", "boxes", k}, {"name", "size_m", "center_m", "rotvec_rad"});
      SceneBox box;
      box.name = f.text({"scene", "boxes", k, "name"}, "box" + k);
      box.size_m = f.vec3({"scene", "boxes", k, "size_m"}, 1e-4, 100, "m");
      const Eigen::Vector3d c = f.vec3({"scene", "boxes", k, "center_m"}, -1e3, 1e3, "m");
      Eigen::Vector3d rv = Eigen::Vector3d::Zero();
      if (f.find({"scene", "boxes", k, "rotvec_rad"})) rv = f.vec3({"scene", "boxes", k, "rotvec_rad"}, -10, 10, "rad");
      box.pose = Eigen::Isometry3d::Identity();
      if (rv.norm() > 0) box.pose.linear() = Eigen::AngleAxisd(rv.norm(), rv.normalized()).toRotationMatrix();
      box.pose.translation() = c;
      t.scene_boxes.push_back(box);
    }
  }
}

/// "commands": the commanded motion, how it is held between samples, its units and its feedback.
void readCommands(const Fields& f, const std::string& dir, ManifestTrial& t) {
  if (!f.find({"commands"})) f.fail({"commands"}, "", "required field missing (the commanded motion)");
  f.onlyKeys({"commands"}, {"file", "hold", "rate_hz", "units", "sent_as", "balance"});
  t.commands = resolvePath(dir, f.text({"commands", "file"}, "", true));
  std::string why;
  if (!regularFile(t.commands, why))
    f.failValue({"commands", "file"}, why + " (relative paths start at the manifest's directory)");
  t.hold = f.choice<CommandHold>({"commands", "hold"}, "frames",
                                 {{"frames", CommandHold::kFrames},
                                  {"rows", CommandHold::kRows},
                                  {"rate", CommandHold::kRate},
                                  {"continuous", CommandHold::kContinuous}},
                                 "expected frames, rows, rate or continuous");
  if (t.hold == CommandHold::kRate) {
    if (!f.find({"commands", "rate_hz"})) f.fail({"commands", "rate_hz"}, "", "hold \"rate\" needs rate_hz");
    t.rate_hz = f.number({"commands", "rate_hz"}, 0, 0.1, 1e4, "Hz");
  } else if (f.find({"commands", "rate_hz"}) && f.where({"commands", "rate_hz"}).second.rfind("defaults", 0) != 0) {
    // A trial's own rate without "rate" is a mistake; a default rate serves the trials that hold at a rate.
    f.failValue({"commands", "rate_hz"}, "only with \"hold\": \"rate\"");
  }
  t.command_scale_to_rad =
      f.choice<double>({"commands", "units"}, "rad", {{"rad", 1.0}, {"deg", std::numbers::pi / 180.0}},
                       "expected rad or deg (the command file's joint columns)");
  t.whole_ticks = f.choice<bool>({"commands", "sent_as"}, "rad", {{"rad", false}, {"dynamixel_ticks", true}},
                                 "expected rad or dynamixel_ticks");
  if (t.whole_ticks && t.hold == CommandHold::kContinuous)
    f.failValue({"commands", "sent_as"}, "whole ticks are sent at discrete times: not with \"hold\": \"continuous\"");
  if (const json* b = f.find({"commands", "balance"})) {
    if (b->is_boolean())
      t.balance = b->get<bool>() ? "balance" : "";
    else if (b->is_string() && b->get<std::string>().rfind("balance", 0) == 0)
      t.balance = b->get<std::string>();
    else
      f.fail({"commands", "balance"}, shown(*b), "expected true, false or \"balance:roll_rate=..,pitch_rate=..\"");
  }
}

/// "signals": the measured columns the replay is compared on, with units and weights.
void readSignals(const Fields& f, ManifestTrial& t) {
  const json* sigs = f.find({"signals"});
  if (!sigs) f.fail({"signals"}, "", "required field missing (at least one measured signal)");
  if (!sigs->is_array() || sigs->empty()) f.fail({"signals"}, shown(*sigs), "expected a non-empty array");
  for (std::size_t s = 0; s < sigs->size(); ++s) {
    const std::string k = std::to_string(s);
    f.onlyKeys({"signals", k}, {"column", "unit", "weight"});
    SignalSpec sp;
    sp.column = f.text({"signals", k, "column"}, "", true);
    const std::string named = unitOfColumn(sp.column);
    sp.unit = f.text({"signals", k, "unit"}, named.empty() ? "1" : named);
    const UnitRow* u = unitRow(sp.unit);
    if (!u) f.failValue({"signals", k, "unit"}, "unknown unit (expected one of " + unitList() + ")");
    if (sp.unit != (named.empty() ? "1" : named))
      f.failValue({"signals", k, "unit"}, "the column " + sp.column + " says " + (named.empty() ? "no unit" : named) +
                                              " (a column name ends in _<unit>, e.g. torso/tilt_deg)");
    sp.scale_to_si = u->scale;
    sp.weight = f.number({"signals", k, "weight"}, 1.0, 0, 1e6, "");
    t.measured.push_back(sp);
  }
}

ManifestTrial readTrial(const Fields& f, const std::string& dir, int line, int index) {
  f.onlyKeys({}, {"name", "recording", "robot", "params", "initial_pose", "scene", "commands", "signals", "role",
                  "tags", "step_duration_s"});
  ManifestTrial t;
  t.line = line;
  t.recording = resolvePath(dir, f.text({"recording"}, "", true));
  std::string why;
  if (!regularFile(t.recording, why))
    f.failValue({"recording"}, why + " (relative paths start at the manifest's directory)");
  t.name = f.text({"name"}, fs::path(t.recording).stem().string());
  if (t.name.empty()) f.failValue({"name"}, "must not be empty");
  (void)index;
  t.robot = resolveRobot(dir, f.text({"robot"}, ""));
  t.params = resolvePath(dir, f.text({"params"}, ""));
  if (!t.params.empty() && !regularFile(t.params, why)) f.failValue({"params"}, why + " (the parameter file)");
  t.step_duration_s = f.number({"step_duration_s"}, -1, 0, 1e3, "s");
  readInitialPose(f, t);
  readScene(f, t);
  readCommands(f, dir, t);
  readSignals(f, t);
  t.role = f.text({"role"}, "train");
  if (t.role != "train" && t.role != "validate" && t.role != "test")
    f.failValue({"role"}, "expected train, validate or test");
  if (const json* tags = f.find({"tags"})) {
    if (!tags->is_array()) f.fail({"tags"}, shown(*tags), "expected an array of strings");
    for (std::size_t k = 0; k < tags->size(); ++k) t.tags.push_back(f.text({"tags", std::to_string(k)}, ""));
  }
  return t;
}

}  // namespace

std::string unitOfColumn(const std::string& column) {
  const std::size_t slash = column.rfind('/');
  const std::string leaf = slash == std::string::npos ? column : column.substr(slash + 1);
  // Longest unit suffix first (_deg_s before _s).
  std::string best;
  for (const UnitRow& r : kUnits) {
    const std::string suf = std::string("_") + r.unit;
    if (std::string(r.unit) != "1" && leaf.size() > suf.size() && leaf.ends_with(suf) && suf.size() > best.size() + 1)
      best = r.unit;
  }
  return best;
}

double unitScaleToSi(const std::string& unit) {
  const UnitRow* r = unitRow(unit);
  return r ? r->scale : std::nan("");
}

std::string siColumnName(const std::string& column) {
  const std::string u = unitOfColumn(column);
  const UnitRow* r = unitRow(u);
  if (u.empty() || !r) return column;
  return column.substr(0, column.size() - u.size()) + r->si;
}

std::vector<SignalSpec> leanToStandSignals() {
  SignalSpec tilt;
  tilt.column = "torso/tilt_rad";
  tilt.unit = "rad";
  SignalSpec q;
  q.column = "*/q_rad";
  q.unit = "rad";
  q.weight = 0.0;
  return {tilt, q};
}

RecordingManifest parseRecordingManifest(const std::string& text, const std::string& file) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is the 1-based position of the offending byte: count the lines before it.
    const std::size_t end = std::min<std::size_t>(e.byte, text.size());
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(end > 0 ? end - 1 : 0), '\n'));
    std::string what = e.what();
    const std::size_t p = what.find("syntax error");
    throw InputError(file, line, "json", p == std::string::npos ? what : what.substr(p));
  }
  const LineMap lines(text);
  RecordingManifest m;
  m.source = file;
  m.dir = fs::absolute(fs::path(file)).parent_path().lexically_normal().string();
  if (!root.is_object())
    throw InputError(file, 1, "manifest", "'" + shown(root).substr(0, 40) + "': expected a JSON object");
  const json empty = json::object();
  const Fields top(file, lines, root, "", "", nullptr);
  top.onlyKeys({}, {"format", "description", "authors_wall", "wall_face_x_m", "defaults", "trials"});
  const std::string format = top.text({"format"}, "", true);
  if (format != kFormat) top.failValue({"format"}, std::string("expected \"") + kFormat + "\"");
  if (const json* w = top.find({"authors_wall"})) {
    if (!w->is_boolean()) top.fail({"authors_wall"}, shown(*w), "expected true or false");
    m.authors_wall = w->get<bool>();
  }
  m.wall_face_x_m = top.number({"wall_face_x_m"}, -0.087, -10, 10, "m");
  const json* defaults = top.find({"defaults"});
  if (defaults && !defaults->is_object()) top.fail({"defaults"}, shown(*defaults), "expected an object");
  const json* trials = top.find({"trials"});
  if (!trials) top.fail({"trials"}, "", "required field missing");
  if (!trials->is_array() || trials->empty())
    top.fail({"trials"}, shown(*trials).substr(0, 40), "expected a non-empty array");
  std::set<std::string> names;
  for (std::size_t k = 0; k < trials->size(); ++k) {
    const json& tj = (*trials)[k];
    const std::string ptr = "/trials/" + std::to_string(k), name = "trials[" + std::to_string(k) + "]";
    if (!tj.is_object()) throw InputError(file, lines.line(ptr), name, "'" + shown(tj) + "': expected an object");
    const Fields f(file, lines, tj, ptr, name, defaults);
    ManifestTrial t = readTrial(f, m.dir, lines.line(ptr), static_cast<int>(k));
    if (!names.insert(t.name).second) f.fail({"name"}, t.name, "a second trial of this name");
    m.trials.push_back(std::move(t));
  }
  return m;
}

RecordingManifest loadRecordingOf(const std::string& recording_path) {
  std::error_code ec;
  const fs::path rec = fs::weakly_canonical(fs::absolute(recording_path), ec);
  if (ec || !fs::is_regular_file(rec)) throw InputError(recording_path, 0, "", "no such recording");
  if (rec.extension() == ".json") return loadRecordings(rec.string());
  // A CSV: the trial of the manifest next to it (or above it) that names it, else of the
  // lean-to-stand package that holds it.
  for (fs::path p = rec.parent_path(); !p.empty(); p = p.parent_path()) {
    if (fs::is_regular_file(p / "recordings.json")) {
      RecordingManifest m = loadRecordings((p / "recordings.json").string());
      std::vector<ManifestTrial> kept;
      for (auto& t : m.trials)
        if (fs::weakly_canonical(t.recording, ec) == rec) kept.push_back(std::move(t));
      if (!kept.empty()) {
        m.trials = std::move(kept);
        return m;
      }
    }
    if (isLeanToStandPackage(p.string())) return leanToStandTrialOf(p.string(), rec.string(), recording_path);
    if (p == p.root_path()) break;
  }
  throw InputError(recording_path, 0, "",
                   "not a trial of a recording manifest (recordings.json in this or a parent directory naming it) "
                   "nor of the BIOLOID lean-to-stand package (e.g. ../shared/real-data/bioloid)");
}

RecordingManifest loadRecordings(const std::string& path) {
  const fs::path p(path);
  if (fs::is_regular_file(p)) {
    if (p.extension() != ".json")
      throw InputError(path, 0, "--recordings", "expected a manifest (.json) or a directory");
    return parseRecordingManifest(readTextFile(path), path);
  }
  if (fs::is_regular_file(p / "recordings.json"))
    return parseRecordingManifest(readTextFile((p / "recordings.json").string()), (p / "recordings.json").string());
  if (!fs::exists(p)) throw InputError(path, 0, "--recordings", "no such file or directory");
  return legacyLeanToStandManifest(path);
}

}  // namespace gapsim::calib
