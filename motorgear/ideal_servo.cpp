// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/ideal_servo.h"

#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = IdealServo::Params;

constexpr Field<P> kFields[]{
    memberField<P, &P::gain_1_s>("gain", "1/s", "commanded speed per position error"),
    memberField<P, &P::max_velocity_rad_s>("max_velocity", "rad/s", "commanded speed limit"),
    memberField<P, &P::fmax_Nm>("fmax", "N*m", "joint motor force limit (N on a prismatic joint)"),
};

}  // namespace

void IdealServo::Params::validate() const {
  using detail::num;
  if (!(gain_1_s > 0) || !(max_velocity_rad_s > 0) || !(fmax_Nm >= 0) || !std::isfinite(gain_1_s) ||
      !std::isfinite(max_velocity_rad_s) || !std::isfinite(fmax_Nm))
    throw std::invalid_argument("IdealServo: need gain > 0, max_velocity > 0, fmax >= 0, got gain = " + num(gain_1_s) +
                                " 1/s, max_velocity = " + num(max_velocity_rad_s) + " rad/s, fmax = " + num(fmax_Nm) +
                                " N*m");
}

std::span<const Field<P>> IdealServo::Params::fields() { return kFields; }

IdealServo::IdealServo(const Params& params) : params_(params) { params_.validate(); }

double IdealServo::velocity_rad_s(double q_target_rad, double q_rad) const {
  const double v = params_.gain_1_s * (q_target_rad - q_rad);
  if (std::isnan(v)) return v;
  const double m = params_.max_velocity_rad_s;
  return v < -m ? -m : (v > m ? m : v);
}

}  // namespace gapsim::motorgear
