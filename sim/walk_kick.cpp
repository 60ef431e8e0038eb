// SPDX-License-Identifier: BSD-3-Clause
#include "sim/walk_kick.h"

#include <cmath>
#include <cstdio>

#include "sim/ankle_balance.h"
#include "sim/input_error.h"

namespace gapsim {

namespace {

using Eigen::Isometry3d;
using Eigen::Vector3d;

double smoothstep(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return s * s * s * (10.0 + s * (-15.0 + 6.0 * s));
}

/// One Cartesian keyframe: time, COM, kicking sole position (the support sole stays put).
struct Key {
  double t_s;
  Vector3d com_m;
  Vector3d kick_sole_m;
};

}  // namespace

void KickParams::validate() const {
  auto check = [](bool ok, const char* field, double v, const char* rule) {
    if (!ok) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%g is out of range: %s", v, rule);
      throw InputError("kick", 0, field, buf);
    }
  };
  check(com_height_m > 0.1 && com_height_m < 0.4, "com_height", com_height_m, "0.1 m < com_height < 0.4 m");
  check(std::abs(com_over_support_y_m) <= 0.1, "com_over_support_y", com_over_support_y_m, "|value| <= 0.1 m");
  check(std::abs(com_x_m) <= 0.05, "com_x", com_x_m, "|value| <= 0.05 m");
  check(foot_spacing_m > 0.075 && foot_spacing_m < 0.3, "foot_spacing", foot_spacing_m,
        "0.075 m < foot_spacing < 0.3 m");
  check(lift_m >= 0.005 && lift_m <= 0.1, "lift", lift_m, "0.005 m <= lift <= 0.1 m");
  check(inward_m >= 0 && inward_m <= 0.05, "inward", inward_m, "0 <= inward <= 0.05 m");
  check(wind_back_m >= 0 && wind_back_m <= 0.15, "wind_back", wind_back_m, "0 <= wind_back <= 0.15 m");
  check(reach_m >= 0 && reach_m <= 0.2, "reach", reach_m, "0 <= reach <= 0.2 m");
  check(swing_s >= 0.05 && swing_s <= 5, "swing", swing_s, "0.05 s <= swing <= 5 s");
  check(shift_s >= 0.2 && shift_s <= 10, "shift", shift_s, "0.2 s <= shift <= 10 s");
  check(frame_period_s >= 0.001 && frame_period_s <= 0.1, "frame_period", frame_period_s,
        "0.001 s <= frame_period <= 0.1 s");
}

GeneratedMotion planKick(const RobotModel& model, const KickParams& p) {
  p.validate();
  ComPoser poser(model, "kick");
  GeneratedMotion out;
  out.controller = kWalkController;
  out.joints = poser.columnNames();
  out.frame_times_s.push_back(0.0);
  out.frames_rad.push_back(poser.columns(model.initial_q));

  const double side = p.kicking_foot == LegSide::Right ? -1.0 : 1.0;  // y sign of the kicking foot
  const double half = 0.5 * p.foot_spacing_m;
  const Vector3d support_sole(0, -side * half, 0);
  const Vector3d home(0, side * half, 0);
  const double h = p.com_height_m;
  const Vector3d com_centre(p.com_x_m, 0, h), com_support(p.com_x_m, -side * p.com_over_support_y_m, h);
  // In the air the kicking foot moves towards the support foot: the torso is shifted over the
  // support foot, and a kicking foot kept under its home would need more ankle roll than the
  // joint allows (RAnkleRoll upper limit 0.398 rad).
  const Vector3d in(0, -side * p.inward_m, 0);
  const Vector3d lifted = home + in + Vector3d(0, 0, p.lift_m);
  const Vector3d back = home + in + Vector3d(-p.wind_back_m, 0, p.lift_m + 0.01);
  const Vector3d front = home + in + Vector3d(p.reach_m, 0, p.lift_m);

  double t = 1.0;  // the joint-space blend from the initial pose ends here
  std::vector<Key> keys;
  auto add = [&](double dt, const Vector3d& com, const Vector3d& sole) {
    t += dt;
    keys.push_back({t, com, sole});
  };
  keys.push_back({t, com_centre, home});
  add(0.3, com_centre, home);          // settle in the kicking stance
  add(p.shift_s, com_support, home);   // weight onto the support foot
  add(0.5, com_support, home);         // let it settle
  add(0.6, com_support, lifted);       // lift
  add(0.7, com_support, back);         // wind back
  add(0.2, com_support, back);         // pause
  add(p.swing_s, com_support, front);  // kick
  add(0.4, com_support, front);        // follow through
  add(0.7, com_support, lifted);       // retract
  add(0.6, com_support, home);         // put down
  add(0.4, com_support, home);
  add(p.shift_s, com_centre, home);  // weight back to the middle
  add(0.5, com_centre, home);

  const Isometry3d support_pose{Eigen::Translation3d(support_sole)};
  for (size_t k = 0; k + 1 < keys.size(); ++k) {
    const Key& a = keys[k];
    const Key& b = keys[k + 1];
    const int n = std::max(1, static_cast<int>(std::lround((b.t_s - a.t_s) / p.frame_period_s)));
    for (int i = (k == 0 ? 0 : 1); i <= n; ++i) {
      const double s = smoothstep(static_cast<double>(i) / n);
      const double ti = a.t_s + (b.t_s - a.t_s) * i / n;
      const Vector3d com = a.com_m + s * (b.com_m - a.com_m);
      const Isometry3d kick_pose{Eigen::Translation3d(a.kick_sole_m + s * (b.kick_sole_m - a.kick_sole_m))};
      char ctx[64];
      std::snprintf(ctx, sizeof ctx, " at t = %.2f s", ti);
      const bool right = p.kicking_foot == LegSide::Right;
      const std::vector<double>& q =
          poser.solve(com, 0.0, 0.0, right ? support_pose : kick_pose, right ? kick_pose : support_pose, ctx);
      out.frame_times_s.push_back(std::round(ti * 1e9) / 1e9);
      out.frames_rad.push_back(poser.columns(q));
    }
  }
  // Back to the initial pose by a joint-space blend, then hold it.
  out.frame_times_s.push_back(std::round((t + 1.0) * 1e9) / 1e9);
  out.frames_rad.push_back(poser.columns(model.initial_q));
  return out;
}

}  // namespace gapsim
