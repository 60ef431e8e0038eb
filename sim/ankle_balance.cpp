// SPDX-License-Identifier: BSD-3-Clause
#include "sim/ankle_balance.h"

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
}

namespace {

using motorgear::memberField;
using B = BalanceParams;

const std::array<motorgear::Field<B>, 4> kBalanceFields{{
    memberField<B, &B::roll_rate_gain_s>("roll_rate", "s",
                                         "ankle roll target change per torso roll rate (rad per rad/s)"),
    memberField<B, &B::pitch_rate_gain_s>("pitch_rate", "s",
                                          "ankle pitch target change per torso pitch rate (rad per rad/s)"),
    memberField<B, &B::period_s>("period", "s", "controller period"),
    memberField<B, &B::min_load_N>("min_load", "N", "below this total foot force both feet count half"),
}};

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
    if (f.roll_sign == 0 || f.pitch_sign == 0)
      throw InputError(m.source_file, 0, "balance",
                       "foot contact '" + fc.name +
                           "' is not carried by an ankle roll joint (axis along x) below an "
                           "ankle pitch joint (axis along y)");
  }
}

const std::vector<double>& AnkleBalance::adjust(const Simulation& sim, const std::vector<double>& target) {
  if (period_steps_ == 0) period_steps_ = std::max(1L, std::lround(p_.period_s / sim.dt_s()));
  const long k = sim.stepCount();
  if (k > 0 && k % period_steps_ == 0) {
    const Eigen::Vector3d w = sim.imu().gyro_rad_s;
    const auto share = footLoadShares(sim.footContact(feet_[0].contact).force_N,
                                      sim.footContact(feet_[1].contact).force_N, p_.min_load_N);
    for (std::size_t i = 0; i < 2; ++i) {
      corr_[i][0] = share[i] * p_.roll_rate_gain_s * w.x() * feet_[i].roll_sign;
      corr_[i][1] = share[i] * p_.pitch_rate_gain_s * w.y() * feet_[i].pitch_sign;
    }
  }
  out_ = target;
  for (std::size_t i = 0; i < 2; ++i) {
    out_[static_cast<std::size_t>(feet_[i].roll_joint)] += corr_[i][0];
    out_[static_cast<std::size_t>(feet_[i].pitch_joint)] += corr_[i][1];
  }
  return out_;
}

}  // namespace gapsim
