// SPDX-License-Identifier: BSD-3-Clause
#include "sim/keyframe_controller.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "sim/plausible.h"
#include "sim/text.h"

namespace gapsim {
namespace {

constexpr double kMaxDuration_s = 60.0;
constexpr double kMaxTotalDuration_s = 30.0;  ///< all keyframes together (optimised ones: n x at most 1.5 s)

}  // namespace

LegMirror LegMirror::bioloid(const RobotModel& model) {
  // Pitch joints: same angle on both sides; roll and yaw: opposite (see the header).
  static const std::pair<const char*, double> kStems[] = {{"hip_yaw", -1.0}, {"hip", -1.0}, {"thigh", 1.0},
                                                          {"shin", 1.0},     {"heel", 1.0}, {"foot", -1.0}};
  LegMirror m;
  for (const auto& [stem, sign] : kStems) {
    MirroredJoint j{stem, model.jointIndex(std::string("r_") + stem), model.jointIndex(std::string("l_") + stem), sign};
    if (j.right < 0 || j.left < 0)
      throw InputError(model.source_file, 0, std::string("r_") + stem,
                       "the keyframe controller needs the joints r_" + std::string(stem) + " and l_" + stem);
    m.joints.push_back(j);
  }
  return m;
}

int LegMirror::indexOf(const std::string& stem) const {
  for (std::size_t i = 0; i < joints.size(); ++i)
    if (joints[i].stem == stem) return static_cast<int>(i);
  return -1;
}

KeyframeController::KeyframeController(std::vector<std::string> stems, std::vector<Keyframe> keyframes,
                                       std::string source, int header_line)
    : stems_(std::move(stems)),
      keyframes_(std::move(keyframes)),
      source_(std::move(source)),
      header_line_(header_line) {
  std::set<std::string> seen;
  for (const auto& s : stems_) {
    if (s.empty()) throw InputError(source_, header_line_, "header", "empty joint name");
    if (!seen.insert(s).second) throw InputError(source_, header_line_, s + "_rad", "joint listed twice");
  }
  if (keyframes_.empty()) throw InputError(source_, header_line_, "", "a controller needs at least one keyframe");
  double total_s = 0;
  for (std::size_t k = 0; k < keyframes_.size(); ++k) {
    const Keyframe& f = keyframes_[k];
    const std::string where = "keyframe " + std::to_string(k + 1) + ": ";
    if (!(f.duration_s > 0.0) || !(f.duration_s <= kMaxDuration_s))
      throw InputError(
          source_, f.line, "duration_s",
          where + "duration must be in (0, " + shortestText(kMaxDuration_s) + "] s, got " + shortestText(f.duration_s));
    if (f.q_rad.size() != stems_.size())
      throw InputError(
          source_, f.line, "",
          where + std::to_string(f.q_rad.size()) + " joint values for " + std::to_string(stems_.size()) + " joints");
    for (std::size_t j = 0; j < f.q_rad.size(); ++j) {
      if (!std::isfinite(f.q_rad[j])) throw InputError(source_, f.line, stems_[j] + "_rad", where + "not finite");
      plausible::check(f.q_rad[j], plausible::kJointTarget, source_, f.line, stems_[j] + "_rad",
                       where + "joint target");
    }
    // The whole controller plays within one rising run: a keyframe line repeated a hundred times
    // (or a hundred keyframes of 60 s) would simulate for minutes to hours.
    total_s += f.duration_s;
    if (total_s > kMaxTotalDuration_s)
      throw InputError(source_, f.line, "duration_s",
                       where + "the keyframes last " + shortestText(total_s) +
                           " s up to here, more than a controller may (" + shortestText(kMaxTotalDuration_s) +
                           " s in all)");
  }
}

KeyframeController KeyframeController::read(const std::string& path) {
  CsvReadOptions opt;
  opt.time_column = "";  // durations, not times: checked below
  opt.delimiter = ',';
  const CsvTable t = CsvTable::read(path, opt);
  const auto& cols = t.columns();
  if (cols.front() != "duration_s")
    throw InputError(path, t.headerLine(), cols.front(), "the first column must be duration_s");
  std::vector<std::string> stems;
  for (std::size_t c = 1; c < cols.size(); ++c) {
    const std::string& n = cols[c];
    if (n.size() <= 4 || n.compare(n.size() - 4, 4, "_rad") != 0)
      throw InputError(path, t.headerLine(), n, "joint columns are <joint>_rad (radians), e.g. thigh_rad");
    stems.push_back(n.substr(0, n.size() - 4));
  }
  if (stems.empty()) throw InputError(path, t.headerLine(), "header", "no joint columns (e.g. thigh_rad)");
  std::vector<Keyframe> frames;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    Keyframe f;
    f.duration_s = t.at(r, 0);
    for (std::size_t c = 1; c < cols.size(); ++c) f.q_rad.push_back(t.at(r, c));
    f.line = t.lineOfRow(r);
    frames.push_back(std::move(f));
  }
  return KeyframeController(std::move(stems), std::move(frames), path, t.headerLine());
}

std::string KeyframeController::toText(const std::string& comment) const {
  std::ostringstream o;
  if (!comment.empty()) {
    std::istringstream in(comment);
    for (std::string l; std::getline(in, l);) o << "# " << l << '\n';
  }
  o << "duration_s";
  for (const auto& s : stems_) o << ',' << s << "_rad";
  o << '\n';
  for (const auto& f : keyframes_) {
    o << shortestText(f.duration_s);
    for (double q : f.q_rad) o << ',' << shortestText(q);
    o << '\n';
  }
  return o.str();
}

void KeyframeController::write(const std::string& path, const std::string& comment) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(path, 0, "", "cannot write the controller file");
  out << toText(comment);
  out.flush();
  if (!out) throw InputError(path, 0, "", "writing the controller file failed");
}

double KeyframeController::duration_s() const {
  double T = 0.0;
  for (const auto& f : keyframes_) T += f.duration_s;
  return T;
}

void KeyframeController::checkAgainst(const LegMirror& legs) const {
  for (const auto& s : stems_)
    if (legs.indexOf(s) < 0) {
      std::string known;
      for (const auto& j : legs.joints) known += (known.empty() ? "" : ", ") + j.stem;
      throw InputError(source_, header_line_, s + "_rad",
                       "unknown leg joint '" + s + "' (the robot has: " + known + ")");
    }
}

void KeyframeController::targets(const LegMirror& legs, const std::vector<double>& start_q, double t_s,
                                 std::vector<double>& out) const {
  out = start_q;  // joints the controller does not name stay frozen at their start target
  // Segment k (0-based) runs from keyframe k-1 (the start pose for k = 0) to keyframe k.
  std::size_t k = 0;
  double t0 = 0.0;
  while (k < keyframes_.size() && t_s >= t0 + keyframes_[k].duration_s) t0 += keyframes_[k++].duration_s;
  const bool held = k == keyframes_.size();  // t >= T: the final pose
  const double s = held ? 1.0 : std::max(0.0, (t_s - t0) / keyframes_[k].duration_s);
  for (std::size_t c = 0; c < stems_.size(); ++c) {
    const MirroredJoint& j = legs.joints[legs.indexOf(stems_[c])];
    const Keyframe& to = keyframes_[held ? k - 1 : k];
    const double right_to = to.q_rad[c], left_to = j.left_sign * to.q_rad[c];
    if (held) {
      out[j.right] = right_to;
      out[j.left] = left_to;
      continue;
    }
    const double right_from = k == 0 ? start_q[j.right] : keyframes_[k - 1].q_rad[c];
    const double left_from = k == 0 ? start_q[j.left] : j.left_sign * keyframes_[k - 1].q_rad[c];
    out[j.right] = right_from + (right_to - right_from) * s;
    out[j.left] = left_from + (left_to - left_from) * s;
  }
}

Motion KeyframeController::toMotion(const RobotModel& model, const LegMirror& legs,
                                    const std::vector<double>& start_q) const {
  const std::vector<int> movable = model.movableJoints();
  std::vector<std::string> names;
  for (int j : movable) names.push_back(model.joints[static_cast<std::size_t>(j)].name);
  std::vector<double> times_s = {0.0};
  for (const Keyframe& k : keyframes_) times_s.push_back(times_s.back() + k.duration_s);
  std::vector<std::vector<double>> values;
  std::vector<double> q;
  for (double t : times_s) {
    targets(legs, start_q, t, q);
    std::vector<double>& row = values.emplace_back();
    for (int j : movable) row.push_back(q[static_cast<std::size_t>(j)]);
  }
  return Motion(std::move(names), std::move(times_s), std::move(values), source_);
}

}  // namespace gapsim
