// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/pid.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = Pid::Params;

constexpr Field<P> kFields[]{
    memberField<P, &P::p_V_rad>("p", "V/rad", "discrete proportional gain"),
    memberField<P, &P::i_V_rad_s>("i", "V/(rad s)", "integral gain Ki (on the time integral of the error)"),
    memberField<P, &P::d_V_rad>("d", "V/rad", "discrete derivative gain (per control period)"),
    memberField<P, &P::dt_ref_s>("dt_ref", "s", "control period at which d (a per-step difference gain) is defined"),
    memberField<P, &P::U_bat_V>("U_bat", "V", "battery voltage clamp"),
    {"anti_windup", "-", "0 none, 1 conditional integration, 2 integrator clamp",
     [](const P& p) { return static_cast<double>(p.anti_windup); },
     [](P& p, double v) { p.anti_windup = static_cast<Pid::AntiWindup>(toInt(v, 0, 2, "Pid anti_windup")); }},
};

}  // namespace

void Pid::Params::validate() const {
  using detail::num;
  if (!(p_V_rad >= 0) || !(i_V_rad_s >= 0) || !(d_V_rad >= 0) || !std::isfinite(p_V_rad) || !std::isfinite(i_V_rad_s) ||
      !std::isfinite(d_V_rad))
    throw std::invalid_argument("Pid: gains must be finite and >= 0, got p = " + num(p_V_rad) +
                                " V/rad, i = " + num(i_V_rad_s) + " V/(rad s), d = " + num(d_V_rad) + " V/rad");
  if (!(dt_ref_s > 0) || !std::isfinite(dt_ref_s))
    throw std::invalid_argument("Pid: dt_ref must be > 0, got " + num(dt_ref_s) + " s");
  if (!(U_bat_V > 0))  // +infinity is allowed: no battery clamp
    throw std::invalid_argument("Pid: U_bat must be > 0 (or +inf for no clamp), got " + num(U_bat_V) + " V");
  const int aw = static_cast<int>(anti_windup);
  if (aw < 0 || aw > 2) throw std::invalid_argument("Pid: anti_windup must be 0, 1 or 2, got " + std::to_string(aw));
}

Pid::Params Pid::Params::fromContinuous(double Kp, double Ki, double Kd, double dt_ref, double U_bat) {
  Params p;
  p.p_V_rad = Kp;
  p.i_V_rad_s = Ki;
  p.d_V_rad = Kd / dt_ref;
  p.dt_ref_s = dt_ref;
  p.U_bat_V = U_bat;
  return p;
}

std::span<const Field<P>> Pid::Params::fields() { return kFields; }

Pid::Pid(const Params& params) : params_(params) { params_.validate(); }

double Pid::step(double dt_s, double q_target_rad, double q_measured_rad) {
  const Params& p = params_;
  State& s = state_;
  const double e = q_target_rad - q_measured_rad;
  const double Ki = p.Ki_V_rad_s();
  const double Kd = p.Kd_V_s_rad();
  // Derivative: Kd (e_k - e_{k-1}) / dt == d (e_k - e_{k-1}) when dt == dt_ref.
  const double u_d = s.has_prev ? Kd * (e - s.e_prev_rad) / dt_s : 0.0;
  const double u_p = p.p_V_rad * e;

  double integral = s.integral_rad_s + e * dt_s;
  double u_i = Ki * integral;
  if (p.anti_windup == AntiWindup::kClamp) {
    // Keep the integral term itself within the battery range; store the clipped integral so it
    // recovers at once when the error changes sign.
    if (Ki > 0) {
      u_i = std::clamp(u_i, -p.U_bat_V, p.U_bat_V);
      integral = u_i / Ki;
    }
  }
  double u = u_p + u_i + u_d;
  if (p.anti_windup == AntiWindup::kConditional && std::abs(u) > p.U_bat_V && e * u > 0) {
    // Integrating would drive the output deeper into saturation: hold the integral.
    integral = s.integral_rad_s;
    u_i = Ki * integral;
    u = u_p + u_i + u_d;
  }
  s.integral_rad_s = integral;
  s.e_prev_rad = e;
  s.has_prev = true;
  s.u_unclamped_V = u;
  // std::clamp would hide a NaN behind a comparison; keep NaN visible.
  const double U = std::isnan(u) ? u : std::clamp(u, -p.U_bat_V, p.U_bat_V);
  s.saturated = std::abs(u) > p.U_bat_V;
  s.U_V = U;
  return U;
}

}  // namespace gapsim::motorgear
