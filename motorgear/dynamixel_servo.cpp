// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/dynamixel_servo.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = DynamixelServo::Params;

constexpr Field<P> kFields[]{
    memberField<P, &P::kp_Nm_rad>("kp", "N*m/rad", "position gain"),
    memberField<P, &P::kd_Nm_s_rad>("kd", "N*m*s/rad", "velocity gain"),
    memberField<P, &P::kc_Nm>("kc", "N*m", "Coulomb friction"),
    memberField<P, &P::tau_min_Nm>("tau_min", "N*m", "lower torque clamp"),
    memberField<P, &P::tau_max_Nm>("tau_max", "N*m", "upper torque clamp"),
    memberField<P, &P::speed_max_rad_s>("speed_max", "rad/s",
                                        "no-load speed: |kp e| limited to kd * speed_max (0 = no limit)"),
    memberField<P, &P::delay_s>("delay_s", "s", "dead time of the goal position (simulation delay line, whole steps)"),
};

/// The drive term -kp e, limited to +-kd speed_max when a no-load speed is set.
double drive_Nm(const P& p, double q_bar_rad, double q_rad) {
  const double d = -p.kp_Nm_rad * (q_rad - q_bar_rad);
  if (p.speed_max_rad_s <= 0) return d;
  const double lim = p.kd_Nm_s_rad * p.speed_max_rad_s;
  return d < -lim ? -lim : (d > lim ? lim : d);
}

}  // namespace

void DynamixelServo::Params::validate() const {
  using detail::num;
  for (double v : {kp_Nm_rad, kd_Nm_s_rad, kc_Nm})
    if (!(v >= 0) || !std::isfinite(v))
      throw std::invalid_argument("DynamixelServo: kp, kd, kc must be finite and >= 0, got kp = " + num(kp_Nm_rad) +
                                  " N*m/rad, kd = " + num(kd_Nm_s_rad) + " N*m*s/rad, kc = " + num(kc_Nm) + " N*m");
  if (!(tau_min_Nm <= 0 && 0 <= tau_max_Nm) || !std::isfinite(tau_min_Nm) || !std::isfinite(tau_max_Nm))
    throw std::invalid_argument("DynamixelServo: need tau_min <= 0 <= tau_max, got tau_min = " + num(tau_min_Nm) +
                                " N*m, tau_max = " + num(tau_max_Nm) + " N*m");
  if (!(speed_max_rad_s >= 0) || !std::isfinite(speed_max_rad_s))
    throw std::invalid_argument("DynamixelServo: speed_max must be finite and >= 0 (0 = no limit), got " +
                                num(speed_max_rad_s) + " rad/s");
  if (speed_max_rad_s > 0 && !(kd_Nm_s_rad > 0))
    throw std::invalid_argument("DynamixelServo: speed_max needs kd > 0 (the torque-speed line's slope), got kd = " +
                                num(kd_Nm_s_rad) + " N*m*s/rad");
  if (!(delay_s >= 0 && delay_s <= 1))
    throw std::invalid_argument("DynamixelServo: delay_s must be in [0, 1] s, got " + num(delay_s) + " s");
}

std::span<const Field<P>> DynamixelServo::Params::fields() { return kFields; }

DynamixelServo::DynamixelServo(const Params& params) : params_(params) { params_.validate(); }

double DynamixelServo::torque_Nm(const Params& p, double q_bar_rad, double q_rad, double qd_rad_s) {
  const double sgn = qd_rad_s > 0 ? 1.0 : (qd_rad_s < 0 ? -1.0 : 0.0);
  const double tau = drive_Nm(p, q_bar_rad, q_rad) - p.kd_Nm_s_rad * qd_rad_s - p.kc_Nm * sgn;
  if (std::isnan(tau)) return tau;
  return tau < p.tau_min_Nm ? p.tau_min_Nm : (tau > p.tau_max_Nm ? p.tau_max_Nm : tau);
}

SolverTerms DynamixelServo::solverTerms(const Params& p, double q_bar_rad, double q_rad, double qd_rad_s) {
  const double e = q_rad - q_bar_rad;
  SolverTerms t;
  if (p.kd_Nm_s_rad > 0) {
    // tau = clamp(-kp e - kd qd, tau_min, tau_max) as the damper row: target -kp e / kd, CFM 1/kd.
    // speed_max clamps the target (the drive term to +-kd speed_max).
    double v = -p.kp_Nm_rad * e / p.kd_Nm_s_rad;
    if (p.speed_max_rad_s > 0) v = std::clamp(v, -p.speed_max_rad_s, p.speed_max_rad_s);
    // The row's bound is symmetric: take the clamp on the side the law pushes to.
    const double push = p.kd_Nm_s_rad * (v - qd_rad_s);
    t.damper_velocity_rad_s = v;
    t.damper_fmax_Nm = push >= 0 ? p.tau_max_Nm : -p.tau_min_Nm;
  } else {
    t.has_explicit_torque = true;
    t.explicit_torque_Nm = std::clamp(-p.kp_Nm_rad * e, p.tau_min_Nm, p.tau_max_Nm);
  }
  t.motor_fmax_Nm = p.kc_Nm;
  return t;
}

double DynamixelServo::step(double, double q_bar_rad, double q_rad, double qd_rad_s) {
  const Params& p = params_;
  const double sgn = qd_rad_s > 0 ? 1.0 : (qd_rad_s < 0 ? -1.0 : 0.0);
  state_.torque_unclamped_Nm = drive_Nm(p, q_bar_rad, q_rad) - p.kd_Nm_s_rad * qd_rad_s - p.kc_Nm * sgn;
  state_.torque_Nm = torque_Nm(p, q_bar_rad, q_rad, qd_rad_s);
  return state_.torque_Nm;
}

}  // namespace gapsim::motorgear
