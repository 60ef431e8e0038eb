// SPDX-License-Identifier: BSD-3-Clause
#include "calib/controller_optimization.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim/input_error.h"

namespace gapsim::calib {

ParameterSpace controllerSpace(const RisingTask& task, const ControllerSpaceSettings& s,
                               const KeyframeController* initial) {
  const int n = s.keyframes;
  if (n < 1) throw InputError("", 0, "--keyframes", "must be >= 1 (the final standing pose counts)");
  if (!(s.min_duration_s > 0) || !(s.min_duration_s < s.max_duration_s) || s.init_duration_s < s.min_duration_s ||
      s.init_duration_s > s.max_duration_s)
    throw InputError("", 0, "duration", "need 0 < min <= initial <= max keyframe duration");
  const LegMirror& legs = task.legs;
  if (initial) {
    if (static_cast<int>(initial->keyframes().size()) != n)
      throw InputError(initial->source(), 0, "--init",
                       "the initial controller has " + std::to_string(initial->keyframes().size()) +
                           " keyframes, --keyframes is " + std::to_string(n));
    initial->checkAgainst(legs);
  }
  const RobotModel& m = *task.model;
  std::vector<SpaceEntry> entries;
  for (int k = 1; k <= n; ++k) {
    const std::string kf = "kf" + std::to_string(k) + "/";
    double d = s.init_duration_s;
    if (initial) d = std::clamp(initial->keyframes()[k - 1].duration_s, s.min_duration_s, s.max_duration_s);
    entries.push_back({kf + "duration_s", d, s.min_duration_s, s.max_duration_s, false, "", false, 0});
    for (const MirroredJoint& j : legs.joints) {
      const Joint& joint = m.joints[j.right];
      const double lo = joint.has_limits ? joint.lower : -std::numbers::pi,
                   hi = joint.has_limits ? joint.upper : std::numbers::pi;
      const double start = task.start_q[j.right], stand = task.stand_q[j.right];
      const bool free_stem = std::find(s.free_stems.begin(), s.free_stems.end(), j.stem) != s.free_stems.end();
      const bool frozen = k == n || !free_stem;
      double v = frozen ? stand : start + (stand - start) * static_cast<double>(k) / n;
      if (initial && !frozen) {
        const auto& st = initial->stems();
        const auto it = std::find(st.begin(), st.end(), j.stem);
        if (it != st.end()) v = initial->keyframes()[k - 1].q_rad[it - st.begin()];
      }
      entries.push_back({kf + j.stem + "_rad", std::clamp(v, lo, hi), lo, hi, frozen, "", false, 0});
    }
  }
  return ParameterSpace::fromEntries(std::move(entries), "controller space (" + task.name + ")");
}

KeyframeController controllerFromValues(const ParameterSpace& space, const Eigen::VectorXd& values) {
  const auto& entries = space.entries();
  std::vector<double> v(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) v[i] = entries[i].value;
  const auto& dims = space.dimensions();
  for (std::size_t d = 0; d < dims.size(); ++d)
    for (int e : dims[d].entries) v[e] = values[static_cast<Eigen::Index>(d)];
  // Entries come as kf<k>/duration_s followed by kf<k>/<stem>_rad for every stem (controllerSpace).
  std::vector<std::string> stems;
  std::vector<Keyframe> frames;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string& name = entries[i].name;
    const auto slash = name.find('/');
    const std::string field = name.substr(slash + 1);
    if (field == "duration_s") {
      frames.push_back({v[i], {}, 0});
      continue;
    }
    const std::string stem = field.substr(0, field.size() - 4);
    if (frames.size() == 1) stems.push_back(stem);
    frames.back().q_rad.push_back(v[i]);
  }
  return KeyframeController(std::move(stems), std::move(frames), space.source());
}

EvalResult evaluateControllerValues(const RisingTask& task, const ParameterSpace& space, const Eigen::VectorXd& values,
                                    std::uint64_t sim_seed) {
  EvalResult r;
  RiseOptions o;
  o.seed = sim_seed;
  const RiseResult rr = evaluateRise(task, controllerFromValues(space, values), o);
  if (rr.diverged) {
    r.error = rr.error;
    return r;  // +inf
  }
  r.fitness = -rr.V_ctrl;
  r.parts = {rr.V_ctrl, rr.upright ? 1.0 : 0.0, rr.tilt_end_rad, rr.T_s};
  return r;
}

}  // namespace gapsim::calib
