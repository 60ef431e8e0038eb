// SPDX-License-Identifier: BSD-3-Clause
#include "sim/motion.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <unordered_set>

#include "sim/input_error.h"
#include "sim/text.h"

namespace gapsim {

namespace {}  // namespace

Motion::Motion(std::vector<std::string> joints, std::vector<double> times_s,
               std::vector<std::vector<double>> values_rad, std::string source_file, int header_line,
               std::vector<int> frame_lines)
    : source_file_(std::move(source_file)),
      header_line_(header_line),
      frame_lines_(std::move(frame_lines)),
      joints_(std::move(joints)),
      times_s_(std::move(times_s)) {
  checkJointNames();
  const std::size_t F = times_s_.size();
  if (F == 0) throw InputError(source_file_, header_line_, "", "motion has no frames");
  if (!frame_lines_.empty() && frame_lines_.size() != F) {
    throw std::invalid_argument("Motion: frame_lines must be empty or one per frame");
  }
  if (values_rad.size() != F) {
    throw InputError(source_file_, header_line_, "",
                     std::to_string(F) + " frame times but " + std::to_string(values_rad.size()) + " frames of values");
  }
  readFrames(values_rad);
  fillHoles();
}

void Motion::checkJointNames() const {
  if (joints_.empty()) throw InputError(source_file_, header_line_, "", "motion has no joints");
  std::unordered_set<std::string_view> seen;
  for (const std::string& j : joints_) {
    if (j.empty()) throw InputError(source_file_, header_line_, "", "empty joint name");
    if (!seen.insert(j).second) {
      throw InputError(source_file_, header_line_, j, "joint '" + j + "' appears twice");
    }
  }
}

/// Times finite and never going back; one finite value or NaN (not given) per joint and frame.
void Motion::readFrames(const std::vector<std::vector<double>>& values_rad) {
  const std::size_t J = joints_.size();
  const std::size_t F = times_s_.size();
  given_rad_.reserve(F * J);
  for (std::size_t k = 0; k < F; ++k) {
    const int line = frameLine(k);
    if (!std::isfinite(times_s_[k])) {
      throw InputError(source_file_, line, "time_s",
                       "non-finite time " + shortestText(times_s_[k]) + " at frame " + std::to_string(k));
    }
    if (k > 0 && times_s_[k] < times_s_[k - 1]) {
      throw InputError(source_file_, line, "time_s",
                       "time goes back: " + shortestText(times_s_[k]) + " s at frame " + std::to_string(k) + " after " +
                           shortestText(times_s_[k - 1]) + " s" +
                           (frameLine(k - 1) > 0 ? " at line " + std::to_string(frameLine(k - 1)) : std::string()));
    }
    if (values_rad[k].size() != J) {
      throw InputError(source_file_, line, "",
                       "frame " + std::to_string(k) + " has " + std::to_string(values_rad[k].size()) + " values for " +
                           std::to_string(J) + " joints");
    }
    for (std::size_t j = 0; j < J; ++j) {
      if (std::isinf(values_rad[k][j])) {
        throw InputError(source_file_, line, joints_[j], "infinite joint target");
      }
      given_rad_.push_back(values_rad[k][j]);
    }
  }
}

/// Fills the holes by the sampling law evaluated at each hole's time (see motion.h).
void Motion::fillHoles() {
  const std::size_t J = joints_.size();
  const std::size_t F = times_s_.size();
  filled_rad_ = given_rad_;
  std::vector<std::size_t> given;
  for (std::size_t j = 0; j < J; ++j) {
    given.clear();
    for (std::size_t k = 0; k < F; ++k) {
      if (!std::isnan(given_rad_[k * J + j])) given.push_back(k);
    }
    if (given.empty()) {
      throw InputError(source_file_, header_line_, joints_[j],
                       "joint '" + joints_[j] + "' is given a value in no frame");
    }
    std::size_t g = 0;  // given[g] is the first given frame after k
    for (std::size_t k = 0; k < F; ++k) {
      if (g < given.size() && given[g] == k) {
        ++g;
        continue;
      }
      double v;
      if (g == 0) {
        v = given_rad_[given.front() * J + j];  // before the first: hold
      } else if (g == given.size()) {
        v = given_rad_[given.back() * J + j];  // after the last: hold
      } else {
        const std::size_t p = given[g - 1], n = given[g];
        const double tp = times_s_[p], tn = times_s_[n], tk = times_s_[k];
        const double qp = given_rad_[p * J + j], qn = given_rad_[n * J + j];
        // tk == tp: the ramp p->n starts here (or, if tn == tp too, nothing reads this value).
        // tk == tn (> tp): the ramp ends here; use qn exactly rather than a rounded ramp.
        if (tk <= tp) {
          v = qp;
        } else if (tk >= tn) {
          v = qn;
        } else {
          v = qp + (qn - qp) * (tk - tp) / (tn - tp);
        }
      }
      filled_rad_[k * J + j] = v;
    }
  }
}

int Motion::frameLine(std::size_t frame) const { return frame < frame_lines_.size() ? frame_lines_[frame] : 0; }

int Motion::jointIndex(std::string_view name) const {
  const auto it = std::find(joints_.begin(), joints_.end(), name);
  return it == joints_.end() ? -1 : static_cast<int>(it - joints_.begin());
}

std::size_t Motion::frameAt(double t_s) const {
  // Last frame with t_k <= t_s; callers handled t_s < t_0 (and NaN) already.
  const auto it = std::upper_bound(times_s_.begin(), times_s_.end(), t_s);
  return static_cast<std::size_t>(it - times_s_.begin()) - 1;
}

std::size_t Motion::frameAt(double t_s, MotionCursor& cursor) const {
  const std::size_t F = times_s_.size();
  std::size_t k = cursor.frame;
  if (k < F && times_s_[k] <= t_s) {
    // Playback moves forward by a step much shorter than a frame: a few increments at most.
    for (int steps = 0; steps < 8; ++steps) {
      if (k + 1 == F || times_s_[k + 1] > t_s) {
        cursor.frame = k;
        return k;
      }
      ++k;
    }
  }
  k = frameAt(t_s);
  cursor.frame = k;
  return k;
}

double Motion::interpolate(std::size_t k, std::size_t j, double t_s) const {
  const std::size_t J = joints_.size();
  const double a = filled_rad_[k * J + j];
  if (k + 1 == times_s_.size()) return a;
  // k is the last frame with t_k <= t_s, so t_{k+1} > t_s >= t_k and the division is safe.
  const double b = filled_rad_[(k + 1) * J + j];
  const double tk = times_s_[k];
  return a + (b - a) * (t_s - tk) / (times_s_[k + 1] - tk);
}

double Motion::sample(std::size_t joint_index, double t_s) const {
  if (!(t_s >= times_s_.front())) return filled_rad_[joint_index];
  return interpolate(frameAt(t_s), joint_index, t_s);
}

void Motion::sampleAll(double t_s, std::vector<double>& out) const {
  MotionCursor cursor;
  sampleAll(t_s, out, cursor);
}

void Motion::sampleAll(double t_s, std::vector<double>& out, MotionCursor& cursor) const {
  const std::size_t J = joints_.size();
  out.resize(J);
  if (!(t_s >= times_s_.front())) {
    std::copy(filled_rad_.begin(), filled_rad_.begin() + static_cast<std::ptrdiff_t>(J), out.begin());
    return;
  }
  const std::size_t k = frameAt(t_s, cursor);
  for (std::size_t j = 0; j < J; ++j) out[j] = interpolate(k, j, t_s);
}

void Motion::checkJoints(const std::vector<std::string>& known_joints) const {
  for (const std::string& j : joints_) {
    if (std::find(known_joints.begin(), known_joints.end(), j) != known_joints.end()) continue;
    std::string list;
    for (const std::string& k : known_joints) list += (list.empty() ? "" : ", ") + k;
    throw InputError(
        source_file_, header_line_, j,
        "unknown joint '" + j + "' (the robot has: " + (list.empty() ? std::string("no joints") : list) + ")");
  }
}

std::vector<int> Motion::mapJoints(const std::vector<std::string>& known_joints) const {
  checkJoints(known_joints);
  std::vector<int> map;
  map.reserve(joints_.size());
  for (const std::string& j : joints_) {
    map.push_back(static_cast<int>(std::find(known_joints.begin(), known_joints.end(), j) - known_joints.begin()));
  }
  return map;
}

}  // namespace gapsim
