// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/drive_envelope.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "motorgear/param_access.h"

namespace gapsim::motorgear {
namespace {

double sgn(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

}  // namespace

void EnvelopeOptions::validate() const {
  using detail::num;
  if (!(dt_s > 0) || !std::isfinite(dt_s) || !(error_rad > 0) || !std::isfinite(error_rad) || !(settle_s >= 0) ||
      !std::isfinite(settle_s) || max_steps < 1)
    throw std::invalid_argument("EnvelopeOptions: need dt > 0, error > 0, settle >= 0 and max_steps >= 1, got " +
                                num(dt_s) + " s, " + num(error_rad) + " rad, " + num(settle_s) + " s, " +
                                std::to_string(max_steps));
  if (!std::isfinite(q0_rad)) throw std::invalid_argument("EnvelopeOptions: q0 must be finite, got " + num(q0_rad));
}

double steadyTorque_Nm(const SolverTerms& t, double damping_Nm_s_rad, double qd_rad_s, int push_sign) {
  const double side = push_sign >= 0 ? 1.0 : -1.0;
  double tau = t.has_explicit_torque ? t.explicit_torque_Nm : 0.0;
  if (damping_Nm_s_rad > 0 && t.damper_fmax_Nm > 0)
    tau += std::clamp(damping_Nm_s_rad * (t.damper_velocity_rad_s - qd_rad_s), -t.damper_fmax_Nm, t.damper_fmax_Nm);
  if (t.motor_fmax_Nm > 0) {
    if (t.motor_velocity_rad_s != 0) {  // a velocity servo pushes towards its rate
      const double s = sgn(t.motor_velocity_rad_s - qd_rad_s);
      tau += t.motor_fmax_Nm * (s != 0 ? s : side);
    } else {  // dry friction opposes the motion (or, at rest, the push)
      const double s = sgn(qd_rad_s);
      tau -= t.motor_fmax_Nm * (s != 0 ? s : side);
    }
  }
  return tau;
}

SteadyTorque maxTorqueAtSpeed(const Drive& drive, double qd_rad_s, int push_sign, const EnvelopeOptions& o) {
  o.validate();
  const double side = push_sign >= 0 ? 1.0 : -1.0;
  const std::unique_ptr<Drive> d = drive.clone();
  const double b = d->damping_Nm_s_rad();
  const int settle_steps = static_cast<int>(std::ceil(o.settle_s / o.dt_s));
  SteadyTorque out;
  double prev = std::numeric_limits<double>::quiet_NaN();
  for (int k = 0; k < o.max_steps; ++k) {
    const double q = o.q0_rad + k * o.dt_s * qd_rad_s;
    DriveInput in;
    in.q_rad = q;
    in.q_encoder_rad = q;
    in.qd_rad_s = qd_rad_s;
    in.target_rad = q + side * o.error_rad;
    in.load_torque_Nm = std::isnan(prev) ? 0.0 : -prev;
    const double tau = steadyTorque_Nm(d->step(o.dt_s, in), b, qd_rad_s, push_sign);
    out.tau_Nm = tau;
    out.steps = k + 1;
    if (k >= settle_steps && std::abs(tau - prev) <= 1e-12 * (1.0 + std::abs(tau))) {
      out.converged = true;
      break;
    }
    prev = tau;
  }
  return out;
}

std::vector<EnvelopePoint> torqueSpeedEnvelope(const Drive& drive, const std::vector<double>& speeds_rad_s,
                                               const EnvelopeOptions& o) {
  o.validate();
  std::vector<EnvelopePoint> out;
  out.reserve(speeds_rad_s.size());
  for (double v : speeds_rad_s)
    out.push_back({v, maxTorqueAtSpeed(drive, v, +1, o), maxTorqueAtSpeed(drive, v, -1, o)});
  return out;
}

double noLoadSpeed_rad_s(const Drive& drive, const EnvelopeOptions& o, double limit_rad_s, int push_sign) {
  const double side = push_sign >= 0 ? 1.0 : -1.0;
  // side * tau(side * r) > 0 while the drive still pushes at the rate r (a magnitude).
  auto pushes = [&](double r) { return side * maxTorqueAtSpeed(drive, side * r, push_sign, o).tau_Nm > 0; };
  if (!pushes(0.0)) return 0.0;
  double lo = 0.0, hi = std::min(1.0, limit_rad_s);  // bracket: double the rate until it stops pushing
  while (pushes(hi)) {
    if (hi >= limit_rad_s) return std::numeric_limits<double>::quiet_NaN();
    lo = hi;
    hi = std::min(2 * hi, limit_rad_s);
  }
  while (hi - lo > 1e-12 * hi) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (pushes(mid) ? lo : hi) = mid;
  }
  return side * hi;
}

std::vector<double> envelopeSpeeds(double max_rad_s, int n, const std::vector<double>& extra) {
  if (!(max_rad_s > 0) || !std::isfinite(max_rad_s) || n < 2)
    throw std::invalid_argument("envelopeSpeeds: need a maximum rate > 0 and at least 2 points, got " +
                                detail::num(max_rad_s) + " rad/s, " + std::to_string(n));
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(-max_rad_s + 2.0 * max_rad_s * i / (n - 1));
  v.push_back(0.0);
  for (double e : extra)
    if (std::isfinite(e) && std::abs(e) <= max_rad_s) {
      v.push_back(std::abs(e));
      v.push_back(-std::abs(e));
    }
  std::sort(v.begin(), v.end());
  // Grid points within 1e-12 of an inserted rate are the same point: keep the inserted one exactly.
  std::vector<double> out;
  for (double x : v) {
    if (!out.empty() && std::abs(x - out.back()) <= 1e-12 * max_rad_s) {
      const bool x_exact =
          x == 0.0 || std::any_of(extra.begin(), extra.end(), [&](double e) { return std::abs(e) == std::abs(x); });
      if (x_exact) out.back() = x;
      continue;
    }
    out.push_back(x);
  }
  return out;
}

const char* quadrantName(double qd_rad_s, double tau_Nm) {
  const double p = qd_rad_s * tau_Nm;
  return p > 0 ? "drive" : (p < 0 ? "backdrive" : "hold");
}

}  // namespace gapsim::motorgear
