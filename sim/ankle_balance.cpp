// SPDX-License-Identifier: BSD-3-Clause
#include "sim/ankle_balance.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "sim/input_error.h"
#include "sim/key_values.h"
#include "sim/simulation.h"

namespace gapsim {

void BalanceParams::validate(const std::string& source) const {
  auto bad = [&](const char* field, double v, const std::string& rule) {
    throw InputError(source, 0, field, sixDigits(v) + " is out of range: " + rule);
  };
  if (!std::isfinite(roll_rate_gain_s)) bad("roll_rate", roll_rate_gain_s, "must be finite");
  if (!std::isfinite(pitch_rate_gain_s)) bad("pitch_rate", pitch_rate_gain_s, "must be finite");
  if (!(period_s > 0 && period_s <= 1)) bad("period", period_s, "0 < period <= 1 s");
  if (!(min_load_N >= 0 && std::isfinite(min_load_N))) bad("min_load", min_load_N, "must be finite and >= 0 N");
  if (!std::isfinite(heading_gain_rad_per_rad)) bad("heading", heading_gain_rad_per_rad, "must be finite");
  if (!(max_yaw_correction_rad >= 0 && max_yaw_correction_rad <= 0.5))
    bad("max_yaw", max_yaw_correction_rad, "0 <= max_yaw <= 0.5 rad");
}

namespace {

using motorgear::memberField;
using B = BalanceParams;

constexpr motorgear::Field<B> kBalanceFields[]{
    memberField<B, &B::roll_rate_gain_s>("roll_rate", "s",
                                         "ankle roll target change per torso roll rate (rad per rad/s)"),
    memberField<B, &B::pitch_rate_gain_s>("pitch_rate", "s",
                                          "ankle pitch target change per torso pitch rate (rad per rad/s)"),
    memberField<B, &B::period_s>("period", "s", "controller period"),
    memberField<B, &B::min_load_N>("min_load", "N", "below this total foot force both feet count half"),
    memberField<B, &B::heading_gain_rad_per_rad>("heading", "rad/rad",
                                                 "hip yaw swing per heading error (turns the torso back each step)"),
    memberField<B, &B::max_yaw_correction_rad>("max_yaw", "rad", "bound on the hip yaw swing"),
};

}  // namespace

std::span<const motorgear::Field<BalanceParams>> balanceParamFields() { return kBalanceFields; }

BalanceParams parseBalanceParams(const std::string& spec, const std::string& source) {
  BalanceParams p;
  const std::string keys = fieldKeys(balanceParamFields());
  applyKeyValues(balanceParamFields(), parseKeyValues(spec, source, keys, ",;", "balance"), p, source, "balance");
  p.validate(source);
  return p;
}

std::optional<BalanceParams> parseMotionController(const std::string& spec, const std::string& file, int line) {
  if (spec.empty() || spec == "none") return std::nullopt;
  const std::string name = spec.substr(0, spec.find(':'));
  if (name != "balance")
    throw InputError(file, line, "controller", "unknown controller '" + name + "' (known: balance, none)");
  const std::string keys = name.size() < spec.size() ? spec.substr(name.size() + 1) : std::string();
  try {
    return parseBalanceParams(keys, file);
  } catch (const InputError& e) {
    throw InputError(file, line, "controller", e.what());
  }
}

std::optional<BalanceParams> motionController(const Motion& motion) {
  return parseMotionController(motion.controller(), motion.sourceFile(), motion.controllerLine());
}

std::array<double, 2> footLoadShares(double force0_N, double force1_N, double min_load_N) {
  const double f0 = std::max(0.0, force0_N), f1 = std::max(0.0, force1_N);
  const double total = f0 + f1;
  if (!(total >= min_load_N) || total <= 0) return {0.5, 0.5};
  return {f0 / total, f1 / total};
}

namespace {

/// The joint whose child is `link`, or -1.
int jointAbove(const RobotModel& m, int link) {
  for (std::size_t j = 0; j < m.joints.size(); ++j)
    if (m.joints[j].child == link) return static_cast<int>(j);
  return -1;
}

}  // namespace

AnkleBalance::AnkleBalance(const RobotModel& m, const BalanceParams& p) : p_(p) {
  p_.validate();
  if (m.foot_contacts.size() < 2)
    throw InputError(m.source_file, 0, "balance",
                     "ankle balance needs two foot contacts, the robot has " + std::to_string(m.foot_contacts.size()));
  for (int i = 0; i < 2; ++i) {
    Foot& f = feet_[static_cast<std::size_t>(i)];
    f.contact = i;
    const FootContactSpec& fc = m.foot_contacts[static_cast<std::size_t>(i)];
    f.roll_joint = jointAbove(m, fc.link);
    f.pitch_joint = f.roll_joint < 0 ? -1 : jointAbove(m, m.joints[static_cast<std::size_t>(f.roll_joint)].parent);
    // Axes in the joint frames, which are aligned with the torso's in the zero pose for the
    // robots this applies to: roll about +-x, pitch about +-y (the sign flips the correction).
    auto along = [&](int j, int axis) {
      if (j < 0) return 0.0;
      const Eigen::Vector3d a = m.joints[static_cast<std::size_t>(j)].axis;
      return std::abs(a[axis]) > 0.9 ? (a[axis] > 0 ? 1.0 : -1.0) : 0.0;
    };
    f.roll_sign = along(f.roll_joint, 0);
    f.pitch_sign = along(f.pitch_joint, 1);
    for (int j = f.pitch_joint; j >= 0 && f.yaw_joint < 0;) {
      const Joint& js = m.joints[static_cast<std::size_t>(j)];
      if (std::abs(js.axis.z()) > 0.3) {
        f.yaw_joint = j;
        f.yaw_axis_z = js.axis.z();
        f.yaw_target_joint = js.mimic.master >= 0 ? js.mimic.master : j;
        if (js.mimic.master >= 0) {
          f.yaw_target_multiplier = js.mimic.multiplier;
          f.yaw_target_offset_rad = js.mimic.offset;
        }
      }
      j = jointAbove(m, js.parent);
    }
    if (p_.heading_gain_rad_per_rad != 0 && f.yaw_joint < 0)
      throw InputError(m.source_file, 0, "balance",
                       "heading feedback needs a hip yaw joint (axis with a vertical component) above foot contact '" +
                           fc.name + "'");
    if (f.roll_sign == 0 || f.pitch_sign == 0)
      throw InputError(m.source_file, 0, "balance",
                       "foot contact '" + fc.name +
                           "' is not carried by an ankle roll joint (axis along x) below an "
                           "ankle pitch joint (axis along y)");
  }
}

bool AnkleBalance::needsSensors(long step, double dt_s) {
  if (period_steps_ == 0) period_steps_ = std::max(1L, std::lround(p_.period_s / dt_s));
  return p_.heading_gain_rad_per_rad != 0 || (step > 0 && step % period_steps_ == 0);
}

BalanceSensors AnkleBalance::read(const Simulation& sim) const {
  const ImuReading imu = sim.imu();
  return {imu.gyro_rad_s,
          imu.roll_rad,
          imu.pitch_rad,
          {sim.footContact(feet_[0].contact).force_N, sim.footContact(feet_[1].contact).force_N}};
}

const std::vector<double>& AnkleBalance::adjust(const Simulation& sim, const std::vector<double>& target) {
  const long k = sim.stepCount();
  return adjust(k, sim.dt_s(), needsSensors(k, sim.dt_s()) ? read(sim) : BalanceSensors{}, target);
}

const std::vector<double>& AnkleBalance::adjust(long step, double dt_s, const BalanceSensors& s,
                                                const std::vector<double>& target) {
  const bool update = needsSensors(step, dt_s) && step > 0 && step % period_steps_ == 0;
  if (update) {
    const auto share = footLoadShares(s.foot_force_N[0], s.foot_force_N[1], p_.min_load_N);
    for (std::size_t i = 0; i < 2; ++i) {
      corr_[i][0] = share[i] * p_.roll_rate_gain_s * s.gyro_rad_s.x() * feet_[i].roll_sign;
      corr_[i][1] = share[i] * p_.pitch_rate_gain_s * s.gyro_rad_s.y() * feet_[i].pitch_sign;
    }
  }
  if (p_.heading_gain_rad_per_rad != 0) {
    // The world yaw rate from the body rates and the roll and pitch (ZYX Euler rates), integrated
    // every step as the Nao's inertial board integrates its AngleZ.
    const Eigen::Vector3d& w = s.gyro_rad_s;
    heading_est_rad_ += (std::sin(s.roll_rad) * w.y() + std::cos(s.roll_rad) * w.z()) / std::cos(s.pitch_rad) * dt_s;
    if (update) updateYawCorrection(s, target);
  }
  out_ = target;
  for (std::size_t i = 0; i < 2; ++i) {
    out_[static_cast<std::size_t>(feet_[i].roll_joint)] += corr_[i][0];
    out_[static_cast<std::size_t>(feet_[i].pitch_joint)] += corr_[i][1];
    if (feet_[i].yaw_joint >= 0) out_[static_cast<std::size_t>(feet_[i].yaw_joint)] += yaw_correction_rad_;
  }
  return out_;
}

void AnkleBalance::updateYawCorrection(const BalanceSensors& s, const std::vector<double>& target) {
  const auto share = footLoadShares(s.foot_force_N[0], s.foot_force_N[1], p_.min_load_N);
  // A hip yaw angle change dq turns the torso by -a_z dq about the vertical over a foot that
  // holds the ground (a_z: the axis' vertical component); the load shares say which foot does.
  // The motion's own hip yaw targets so give the heading it plans (a turning walk's turn), and
  // the correction swings between +u in one single support and -u in the other: with the Nao's
  // mirrored axes each swing turns the torso the same way, and in double support it is 0, so
  // the joint does not twist the feet against the ground.
  double phase = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    const double q_rad = yawTarget(target, i);
    if (heading_started_) heading_plan_rad_ -= share[i] * feet_[i].yaw_axis_z * (q_rad - yaw_target_prev_rad_[i]);
    yaw_target_prev_rad_[i] = q_rad;
    phase -= share[i] * (feet_[i].yaw_axis_z > 0 ? 1.0 : -1.0);
  }
  // The torso's yaw rocks at the gait's frequency (each swing leg turns it); fed back as it is,
  // that rocking would twist the feet by the same phase every step. So the error is averaged over
  // the last two steps (one gait cycle), and the swing's amplitude is set anew at each change of
  // the supporting foot.
  heading_error_sum_rad_[1] += heading_plan_rad_ - heading_est_rad_;
  ++heading_error_count_[1];
  const int stance = phase > 0.5 ? 1 : phase < -0.5 ? -1 : stance_sign_;
  if (stance != stance_sign_) {
    if (stance_sign_ != 0) {
      const double mean_error_rad = (heading_error_sum_rad_[0] + heading_error_sum_rad_[1]) /
                                    static_cast<double>(heading_error_count_[0] + heading_error_count_[1]);
      yaw_swing_rad_ = std::clamp(p_.heading_gain_rad_per_rad * mean_error_rad, -p_.max_yaw_correction_rad,
                                  p_.max_yaw_correction_rad);
    }
    heading_error_sum_rad_ = {heading_error_sum_rad_[1], 0.0};
    heading_error_count_ = {heading_error_count_[1], 0};
    stance_sign_ = stance;
  }
  yaw_correction_rad_ = yaw_swing_rad_ * phase;
  heading_started_ = true;
}

double AnkleBalance::yawTarget(const std::vector<double>& target, std::size_t foot) const {
  const Foot& f = feet_[foot];
  return target[static_cast<std::size_t>(f.yaw_target_joint)] * f.yaw_target_multiplier + f.yaw_target_offset_rad;
}

}  // namespace gapsim
