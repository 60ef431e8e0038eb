// SPDX-License-Identifier: BSD-3-Clause
#include "sim/walk_generator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "sim/ankle_balance.h"
#include "sim/input_error.h"
#include "sim/key_values.h"
#include "sim/kinematics.h"
#include "sim/log_writer.h"
#include "sim/motion_speed_check.h"
#include "sim/text_file.h"

namespace gapsim {

namespace {

using Eigen::AngleAxisd;
using Eigen::Isometry3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

/// Quintic smoothstep: 0 -> 1 with zero slope and curvature at both ends.
double smoothstep(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return s * s * s * (10.0 + s * (-15.0 + 6.0 * s));
}

/// Rounds to a multiple of `q` so the CSV text is short and the written file reads back to
/// exactly the motion the generator returns (both go through the same rounded doubles).
double quantise(double v, double q) { return std::round(v / q) * q; }

struct Pose2 {
  double x = 0, y = 0, yaw = 0;
  Pose2 plus(double dx, double dy, double dyaw) const {
    const double c = std::cos(yaw), s = std::sin(yaw);
    return {x + c * dx - s * dy, y + s * dx + c * dy, yaw + dyaw};
  }
};

Isometry3d groundPose(double x, double y, double z, double yaw) {
  Isometry3d T = Isometry3d::Identity();
  T.translate(Vector3d(x, y, z));
  T.rotate(AngleAxisd(yaw, Vector3d::UnitZ()));
  return T;
}

/// Whole-body COM (world) of `m` at joint values q with the root at `root`.
Vector3d modelCom(const RobotModel& m, const std::vector<double>& q, const Isometry3d& root) {
  const auto P = linkPoses(m, q, root);
  Vector3d sum = Vector3d::Zero();
  double mass = 0;
  for (size_t l = 0; l < m.links.size(); ++l) {
    if (!m.links[l].has_inertial) continue;
    const double mk = m.links[l].inertial.mass_kg;
    sum += mk * (P[l] * m.links[l].inertial.origin.translation());
    mass += mk;
  }
  return sum / mass;
}

/// Strips the "<input>: field: " prefix of an InputError's text.
std::string bareMessage(const InputError& e) {
  const std::string w = e.what();
  const std::string key = e.field().empty() ? std::string(": ") : e.field() + ": ";
  const auto p = w.find(key);
  return p == std::string::npos ? w : w.substr(p + key.size());
}

}  // namespace

void WalkParams::validate() const {
  auto bad = [](const char* field, double v, const std::string& rule) {
    throw InputError("walk", 0, field, sixDigits(v) + " is out of range: " + rule);
  };
  auto finite = [&](const char* f, double v) {
    if (!std::isfinite(v)) bad(f, v, "must be finite");
  };
  finite("forward_speed", forward_speed_m_s);
  finite("lateral_speed", lateral_speed_m_s);
  finite("turn_rate", turn_rate_rad_s);
  finite("torso_pitch", torso_pitch_rad);
  finite("zmp_offset_x", zmp_offset_x_m);
  finite("zmp_inset_y", zmp_inset_y_m);
  if (!(step_duration_s >= 0.2 && step_duration_s <= 20))
    bad("step_duration", step_duration_s, "0.2 s <= step_duration <= 20 s");
  if (!(step_height_m >= 0 && step_height_m <= 0.1)) bad("step_height", step_height_m, "0 <= step_height <= 0.1 m");
  if (!(com_height_m > 0.05 && com_height_m < 1.0)) bad("com_height", com_height_m, "0.05 m < com_height < 1 m");
  if (!(double_support_fraction >= 0 && double_support_fraction <= 0.9))
    bad("double_support", double_support_fraction, "0 <= double_support <= 0.9");
  if (!(foot_spacing_m > 0 && foot_spacing_m < 0.5)) bad("foot_spacing", foot_spacing_m, "0 < foot_spacing < 0.5 m");
  if (!(frame_period_s >= 0.001 && frame_period_s <= 0.05))
    bad("frame_period", frame_period_s, "0.001 s <= frame_period <= 0.05 s");
  if (!(prepare_s >= frame_period_s && prepare_s <= 60)) bad("prepare", prepare_s, "frame_period <= prepare <= 60 s");
  if (!(hold_s >= 0 && hold_s <= 60)) bad("hold", hold_s, "0 <= hold <= 60 s");
  if (!(settle_s >= 0 && settle_s <= 60)) bad("settle", settle_s, "0 <= settle <= 60 s");
  if (!(servo_lead_s >= 0 && servo_lead_s < prepare_s)) bad("servo_lead", servo_lead_s, "0 <= servo_lead < prepare");
  if (!(preview_s >= 0.1 && preview_s <= 10)) bad("preview", preview_s, "0.1 s <= preview <= 10 s");
  if (duration_s) {
    if (!(*duration_s > 0 && *duration_s <= 3600)) bad("duration", *duration_s, "0 < duration <= 3600 s");
  } else if (!(steps >= 1 && steps <= 10000)) {
    bad("steps", steps, "1 <= steps <= 10000");
  }
  const double single_support_s = (1 - double_support_fraction) * stepTime_s();
  if (single_support_s < 2 * frame_period_s)
    bad("double_support", double_support_fraction, "the single-support phase must last at least two frames");
  // The feet alternate between foot_spacing + |vy| T and foot_spacing - |vy| T apart; the soles
  // are 0.075 m wide (B-Human's foot box), so the narrow stance must keep the centres that far.
  const double narrow_m = foot_spacing_m - std::abs(lateral_speed_m_s) * stepTime_s();
  constexpr double kFootWidth_m = 0.075;
  if (narrow_m < kFootWidth_m)
    throw InputError("walk", 0, "lateral_speed",
                     "the feet would collide: foot_spacing " + sixDigits(foot_spacing_m) + " m - |lateral_speed| " +
                         sixDigits(std::abs(lateral_speed_m_s)) + " m/s * step time " + sixDigits(stepTime_s()) +
                         " s = " + sixDigits(narrow_m) + " m is below the foot width limit of " +
                         sixDigits(kFootWidth_m) + " m");
}

int WalkParams::stepCount() const {
  if (duration_s) return std::max(1, static_cast<int>(std::lround(*duration_s / stepTime_s())));
  return steps;
}

namespace {

using motorgear::Field;
using motorgear::memberField;
using W = WalkParams;

constexpr Field<W> kWalkFields[]{
    memberField<W, &W::forward_speed_m_s>("speed", "m/s", "forward speed (= forward_speed)"),
    memberField<W, &W::forward_speed_m_s>("forward_speed", "m/s", "forward speed vx, along the torso's x"),
    memberField<W, &W::lateral_speed_m_s>("lateral_speed", "m/s", "sideways speed vy, positive to the left"),
    memberField<W, &W::turn_rate_rad_s>("turn_rate", "rad/s", "turn rate omega, positive counter-clockwise"),
    memberField<W, &W::step_duration_s>("step_duration", "s", "gait cycle: one step with each foot"),
    memberField<W, &W::step_height_m>("step_height", "m", "swing foot clearance at mid-swing"),
    memberField<W, &W::com_height_m>("com_height", "m", "COM height above the soles (the cart-table z_c)"),
    memberField<W, &W::double_support_fraction>("double_support", "-", "share of each single step with both feet down"),
    memberField<W, &W::foot_spacing_m>("foot_spacing", "m", "lateral distance between the two sole frames"),
    memberField<W, &W::torso_pitch_rad>("torso_pitch", "rad", "forward lean of the torso"),
    memberField<W, &W::zmp_offset_x_m>("zmp_offset_x", "m", "ZMP reference ahead of the ankle, in the foot frame"),
    memberField<W, &W::zmp_inset_y_m>("zmp_inset_y", "m", "ZMP reference moved towards the other foot"),
    memberField<W, &W::servo_lead_s>("servo_lead", "s", "targets are sent this much early (compensates a servo lag)"),
    memberField<W, &W::prepare_s>("prepare", "s", "blend from the initial pose into the walking stance"),
    memberField<W, &W::hold_s>("hold", "s", "standing in the walking stance before the first shift"),
    memberField<W, &W::settle_s>("settle", "s", "standing after the last step"),
    memberField<W, &W::frame_period_s>("frame_period", "s", "motion frame and preview-control period"),
    memberField<W, &W::preview_s>("preview", "s", "preview horizon"),
    {"steps", "-", "single steps, the closing step included", [](const W& p) { return static_cast<double>(p.steps); },
     [](W& p, double v) { p.steps = motorgear::toInt(v, 1, 10000, "steps"); }},
    {"duration", "s", "walking time instead of steps; unset by default (listed as 0)",
     [](const W& p) { return p.duration_s.value_or(0.0); }, [](W& p, double v) { p.duration_s = v; }},
    {"fit_drives", "-", "1: shorten the double support until the leg targets stay within the drives' no-load speed",
     [](const W& p) { return p.fit_drive_speed ? 1.0 : 0.0; },
     [](W& p, double v) { p.fit_drive_speed = motorgear::toBool(v, "fit_drives"); }},
};

}  // namespace

std::span<const motorgear::Field<WalkParams>> walkParamFields() { return kWalkFields; }

std::string walkParamKeys() { return fieldKeys(walkParamFields()); }

WalkParams parseWalkParams(const std::string& spec, WalkParams p) {
  const std::vector<KeyValue> items = parseKeyValues(spec, "--walk", walkParamKeys());
  applyKeyValues(walkParamFields(), items, p, "--walk", "walk");
  auto given = [&](const char* key) {
    return std::any_of(items.begin(), items.end(), [&](const KeyValue& kv) { return kv.key == key; });
  };
  if (given("steps") && p.duration_s) throw InputError("--walk", 0, "", "give steps or duration, not both");
  p.validate();
  return p;
}

Motion GeneratedMotion::motion(const std::string& source) const {
  Motion m(joints, frame_times_s, frames_rad, source);
  m.setController(controller);
  return m;
}

void GeneratedMotion::writeCsv(const std::string& path) const {
  std::vector<std::string> cols{"time_s"};
  cols.insert(cols.end(), joints.begin(), joints.end());
  Log log(cols);
  std::vector<double> row(cols.size());
  for (size_t f = 0; f < frame_times_s.size(); ++f) {
    row[0] = frame_times_s[f];
    std::copy(frames_rad[f].begin(), frames_rad[f].end(), row.begin() + 1);
    log.appendRow(row);
  }
  writeTextFile(path, (controller.empty() ? std::string() : "# controller: " + controller + "\n") + log.toCsv());
}

ComPoser::ComPoser(const RobotModel& model, std::string source)
    : model_(model), ik_(model), q_(model.initial_q), source_(std::move(source)) {
  const Isometry3d root0 = initialRootPose(model);
  torso_minus_com_ = root0.translation() - modelCom(model, model.initial_q, root0);
  for (LegSide side : {LegSide::Left, LegSide::Right})
    for (int k : ik_.jointIndices(side))
      if (model.joints[k].mimic.master < 0) columns_.push_back(k);
}

std::vector<std::string> ComPoser::columnNames() const {
  std::vector<std::string> n;
  for (int c : columns_) n.push_back(model_.joints[c].name);
  return n;
}

std::vector<double> ComPoser::columns(const std::vector<double>& q) const {
  std::vector<double> row;
  for (int c : columns_) row.push_back(quantise(q[c], 1e-6));
  return row;
}

const std::vector<double>& ComPoser::solve(const Vector3d& com_des, double torso_yaw_rad, double torso_pitch_rad,
                                           const Isometry3d& L, const Isometry3d& R, const std::string& ctx,
                                           Isometry3d* torso_out, Vector3d* com_out) {
  Isometry3d torso = Isometry3d::Identity();
  torso.rotate(AngleAxisd(torso_yaw_rad, Vector3d::UnitZ()) * AngleAxisd(torso_pitch_rad, Vector3d::UnitY()));
  torso.translation() = com_des + torso_minus_com_;
  // Fixed-point iteration: moving the torso by d moves the COM by about 0.75 d (the legs'
  // share of the mass stays behind with the feet), so the error shrinks ~4x per pass.
  LegPairAngles a;
  try {
    for (int it = 0; it < 60; ++it) {
      a = ik_.solveBoth(torso.inverse() * L, torso.inverse() * R);
      ik_.writeJoints(a, q_);
      const Vector3d err = com_des - modelCom(model_, q_, torso);
      if (err.norm() < 1e-9) break;
      torso.translation() += err;
    }
    ik_.checkLimits(LegSide::Left, a.left);
    ik_.checkLimits(LegSide::Right, a.right);
  } catch (const InputError& e) {
    throw InputError(source_, 0, e.field(), bareMessage(e) + ctx);
  }
  torso_minus_com_ = torso.translation() - com_des;
  if (torso_out) *torso_out = torso;
  if (com_out) *com_out = modelCom(model_, q_, torso);
  return q_;
}

namespace {

/// The footsteps: both feet where they stand, then one step per gait half-cycle (the first with
/// the foot on the side the walk moves or turns to), the last closing the feet. Sets the plan's
/// start, walk start and walk end times.
void planFootsteps(const WalkParams& p, WalkPlan& plan) {
  const double Ts = p.stepTime_s();
  const double Tss = (1 - p.double_support_fraction) * Ts;
  const int n_steps = p.stepCount();
  const double half = 0.5 * p.foot_spacing_m;
  LegSide first = LegSide::Right;
  if (p.lateral_speed_m_s > 0 || (p.lateral_speed_m_s == 0 && p.turn_rate_rad_s > 0)) first = LegSide::Left;
  plan.start_s = p.prepare_s;
  const double shift_s = plan.start_s + p.hold_s;  // weight shift onto the first support foot
  plan.walk_start_s = shift_s + Ts;
  plan.footsteps.push_back({LegSide::Left, 0.0, half, 0.0, 0.0, 0.0});
  plan.footsteps.push_back({LegSide::Right, 0.0, -half, 0.0, 0.0, 0.0});
  Pose2 body;
  for (int i = 0; i < n_steps; ++i) {
    const LegSide side = (i % 2 == 0) == (first == LegSide::Left) ? LegSide::Left : LegSide::Right;
    if (i + 1 < n_steps)  // the last step closes the feet beside the support foot
      body = body.plus(p.forward_speed_m_s * Ts, p.lateral_speed_m_s * Ts, p.turn_rate_rad_s * Ts);
    const Pose2 f = body.plus(0, side == LegSide::Left ? half : -half, 0);
    const double lift = plan.walk_start_s + i * Ts;
    plan.footsteps.push_back({side, f.x, f.y, f.yaw, lift, lift + Tss});
  }
  plan.walk_end_s = plan.footsteps.back().land_s;
}

/// Foot pose at time t: the latest placement of that side, interpolated while it swings; the
/// swing height in *lift_height.
Pose2 footAt(const WalkPlan& plan, const WalkParams& p, LegSide side, double t, double* lift_height) {
  const Footstep* prev = nullptr;
  for (const Footstep& f : plan.footsteps) {
    if (f.side != side) continue;
    if (f.lift_s == f.land_s && prev == nullptr) {
      prev = &f;
      continue;
    }
    if (t < f.lift_s) break;
    if (t < f.land_s) {
      const double s = (t - f.lift_s) / (f.land_s - f.lift_s);
      const double a = smoothstep(s);
      if (lift_height) *lift_height = p.step_height_m * std::pow(std::sin(std::numbers::pi * s), 2);
      return {prev->x_m + a * (f.x_m - prev->x_m), prev->y_m + a * (f.y_m - prev->y_m),
              prev->yaw_rad + a * (f.yaw_rad - prev->yaw_rad)};
    }
    prev = &f;
  }
  if (lift_height) *lift_height = 0;
  return {prev->x_m, prev->y_m, prev->yaw_rad};
}

/// The ZMP reference at time t, piecewise linear: between the feet until the weight shift, on the
/// support foot in single support, a ramp to the next support foot in double support, back
/// between the feet at the end.
Vector2d zmpReference(const WalkPlan& plan, const WalkParams& p, double t) {
  const double Ts = p.stepTime_s();
  const double Tss = (1 - p.double_support_fraction) * Ts;
  const int n_steps = p.stepCount();
  const double shift_s = plan.start_s + p.hold_s;
  const std::vector<Footstep>& fs = plan.footsteps;
  auto zmpPoint = [&](const Footstep& f) -> Vector2d {
    const double inset = f.side == LegSide::Left ? -p.zmp_inset_y_m : p.zmp_inset_y_m;
    const Pose2 q = Pose2{f.x_m, f.y_m, f.yaw_rad}.plus(p.zmp_offset_x_m, inset, 0);
    return {q.x, q.y};
  };
  auto centre = [&](const Footstep& a, const Footstep& b) -> Vector2d {
    const Pose2 pa = Pose2{a.x_m, a.y_m, a.yaw_rad}.plus(p.zmp_offset_x_m, 0, 0);
    const Pose2 pb = Pose2{b.x_m, b.y_m, b.yaw_rad}.plus(p.zmp_offset_x_m, 0, 0);
    return {0.5 * (pa.x + pb.x), 0.5 * (pa.y + pb.y)};
  };
  // The support foot of step i (0-based): the foot placed last before it (or an initial foot).
  auto supportOf = [&](int i) -> const Footstep& {
    if (i == 0) return fs[fs[2].side == LegSide::Left ? 1 : 0];
    return fs[2 + i - 1];
  };
  const Vector2d c0 = centre(fs[0], fs[1]);
  if (t < shift_s) return c0;
  if (t < plan.walk_start_s) {
    const double a = (t - shift_s) / Ts;
    return c0 + a * (zmpPoint(supportOf(0)) - c0);
  }
  const int i = std::min(n_steps - 1, static_cast<int>(std::floor((t - plan.walk_start_s) / Ts)));
  const Footstep& step = fs[2 + i];
  const Vector2d sup = zmpPoint(supportOf(i));
  if (t < step.land_s) return sup;
  if (i + 1 < n_steps) {
    const double ds = Ts - Tss;
    const double a = ds > 0 ? std::min(1.0, (t - step.land_s) / ds) : 1.0;
    return sup + a * (zmpPoint(step) - sup);
  }
  const Vector2d c1 = centre(fs[fs.size() - 2], fs.back());
  const double a = std::min(1.0, (t - step.land_s) / Ts);
  return sup + a * (c1 - sup);
}

/// Joints by IK at every sample, the torso placed so that the model's COM is on the planned COM;
/// the frames lead the plan by the servo lead time.
void solveJoints(const RobotModel& model, const WalkParams& p, WalkPlan& plan) {
  ComPoser poser(model, "walk");
  plan.joints = poser.columnNames();
  plan.frame_times_s.push_back(0.0);
  plan.frames_rad.push_back(poser.columns(model.initial_q));
  const size_t K = plan.time_s.size();
  plan.model_com_x_m.resize(K);
  plan.model_com_y_m.resize(K);
  plan.model_com_z_m.resize(K);
  for (size_t k = 0; k < K; ++k) {
    const double t = plan.time_s[k];
    double hl = 0, hr = 0;
    const Pose2 lf = footAt(plan, p, LegSide::Left, t, &hl), rf = footAt(plan, p, LegSide::Right, t, &hr);
    const Isometry3d L = groundPose(lf.x, lf.y, hl, lf.yaw), R = groundPose(rf.x, rf.y, hr, rf.yaw);
    const Vector3d com_des(plan.com_x.pos_m[k], plan.com_y.pos_m[k], p.com_height_m);
    char ctx[64];
    std::snprintf(ctx, sizeof ctx, " at t = %.2f s", t);
    Vector3d com;
    const std::vector<double>& q =
        poser.solve(com_des, 0.5 * (lf.yaw + rf.yaw), p.torso_pitch_rad, L, R, ctx, nullptr, &com);
    plan.model_com_x_m[k] = com.x();
    plan.model_com_y_m[k] = com.y();
    plan.model_com_z_m[k] = com.z();
    plan.frame_times_s.push_back(quantise(t - p.servo_lead_s, 1e-9));
    plan.frames_rad.push_back(poser.columns(q));
  }
}

/// The walk exactly as `p` asks.
WalkPlan planAsGiven(const RobotModel& model, const WalkParams& p) {
  WalkPlan plan;
  plan.params = p;
  plan.controller = kWalkController;
  planFootsteps(p, plan);
  const double end_s = plan.walk_end_s + p.stepTime_s() + p.settle_s;
  const double dt = p.frame_period_s;

  // ZMP reference sampled at the frame period, then the COM by preview control.
  const int K = static_cast<int>(std::floor((end_s - plan.start_s) / dt + 1e-9)) + 1;
  plan.time_s.resize(K);
  plan.zmp_ref_x_m.resize(K);
  plan.zmp_ref_y_m.resize(K);
  for (int k = 0; k < K; ++k) {
    const double t = plan.start_s + k * dt;
    const Vector2d z = zmpReference(plan, p, t);
    plan.time_s[k] = t;
    plan.zmp_ref_x_m[k] = z.x();
    plan.zmp_ref_y_m[k] = z.y();
  }
  ZmpPreviewParams zp;
  zp.period_s = dt;
  zp.com_height_m = p.com_height_m;
  zp.gravity_m_s2 = -model.solver.gravity_m_s2.z();
  zp.preview_s = p.preview_s;
  const ZmpPreviewController ctrl(zp);
  plan.com_x = ctrl.track(plan.zmp_ref_x_m);
  plan.com_y = ctrl.track(plan.zmp_ref_y_m);

  solveJoints(model, p, plan);
  plan.requested_double_support_fraction = p.double_support_fraction;
  return plan;
}

}  // namespace

std::string WalkPlan::driveFitNote() const {
  const double asked = requested_double_support_fraction, used = params.double_support_fraction;
  if (asked == used) return {};
  char line[256];
  std::snprintf(line, sizeof line,
                "double support %.2f instead of %.2f of each step: with %.2f the leg targets turn faster than the "
                "drives can (the longer swing slows them; fit_drives=0 keeps %.2f; docs/walk.md)",
                used, asked, asked, asked);
  return line;
}

WalkPlan planWalk(const RobotModel& model, const WalkParams& p) {
  p.validate();
  WalkPlan plan = planAsGiven(model, p);
  if (!p.fit_drive_speed || jointsFasterThanTheirDrives(model, plan).empty()) return plan;
  // A longer swing moves the legs slower; the steps are counted so that the last one is 0 exactly.
  constexpr double kStep = 0.05;
  const int shorter_steps = static_cast<int>(std::ceil(p.double_support_fraction / kStep - 1e-9));
  for (int k = 1; k <= shorter_steps; ++k) {
    WalkParams q = p;
    q.double_support_fraction = k == shorter_steps ? 0.0 : p.double_support_fraction - k * kStep;
    WalkPlan fitted;
    try {
      fitted = planAsGiven(model, q);
    } catch (const InputError&) {
      continue;  // out of reach or past a joint limit with this timing: try the next
    }
    if (!jointsFasterThanTheirDrives(model, fitted).empty()) continue;
    fitted.requested_double_support_fraction = p.double_support_fraction;
    return fitted;
  }
  return plan;
}

}  // namespace gapsim
