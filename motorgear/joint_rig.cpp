// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/joint_rig.h"

#include <cmath>
#include <stdexcept>

#include "motorgear/param_access.h"

namespace gapsim::motorgear {
namespace {

/// v of (1) for a given motor-row torque tau_r (the row itself not enforced).
double solveWithRowTorque(double J_dt, double w, double tau, double b, double v_d, double F_d) {
  if (!(b > 0) || !(F_d > 0)) return w + tau / J_dt;
  const double v = (J_dt * w + tau + b * v_d) / (J_dt + b);
  const double td = b * (v_d - v);
  if (td > F_d) return w + (tau + F_d) / J_dt;
  if (td < -F_d) return w + (tau - F_d) / J_dt;
  return v;
}

}  // namespace

double solveJointRows(double J, double w, double dt, double tau_x, double b, const SolverTerms& t) {
  const double J_dt = J / dt;
  const double tau = tau_x + (t.has_explicit_torque ? t.explicit_torque_Nm : 0.0);
  const double F_r = t.motor_fmax_Nm;
  if (!(F_r > 0)) return solveWithRowTorque(J_dt, w, tau, b, t.damper_velocity_rad_s, t.damper_fmax_Nm);
  // Torque the row needs to hold v = v_r: from (1) with v = v_r.
  const double v_r = t.motor_velocity_rad_s;
  double td = 0.0;
  if (b > 0 && t.damper_fmax_Nm > 0) {
    td = b * (t.damper_velocity_rad_s - v_r);
    td = td > t.damper_fmax_Nm ? t.damper_fmax_Nm : (td < -t.damper_fmax_Nm ? -t.damper_fmax_Nm : td);
  }
  const double need = J_dt * (v_r - w) - tau - td;
  if (std::abs(need) <= F_r) return v_r;
  return solveWithRowTorque(J_dt, w, tau + (need > 0 ? F_r : -F_r), b, t.damper_velocity_rad_s, t.damper_fmax_Nm);
}

void JointRig::Params::validate() const {
  using detail::num;
  if (!(inertia_kgm2 > 0) || !std::isfinite(inertia_kgm2) || !std::isfinite(gravity_Nm) || !std::isfinite(q_down_rad) ||
      !std::isfinite(load_Nm))
    throw std::invalid_argument("JointRig: need a finite inertia > 0 and finite loads, got J = " + num(inertia_kgm2) +
                                " kg m^2, m g l = " + num(gravity_Nm) + " N m, load = " + num(load_Nm) + " N m");
}

JointRig::JointRig(const Params& p, double q0, double qd0) : p_(p) {
  p_.validate();
  s_.q_rad = q0;
  s_.qd_rad_s = qd0;
}

double JointRig::loadTorque_Nm(double q) const {
  return p_.load_Nm - (p_.gravity_Nm != 0 ? p_.gravity_Nm * std::sin(q - p_.q_down_rad) : 0.0);
}

void JointRig::step(double dt, Drive& drive, double target) {
  const double load = loadTorque_Nm(s_.q_rad);
  DriveInput in;
  in.target_rad = target;
  in.q_rad = s_.q_rad;
  in.q_encoder_rad = s_.q_rad;
  in.qd_rad_s = s_.qd_rad_s;
  in.load_torque_Nm = load;
  const SolverTerms t = drive.step(dt, in);
  const double v = solveJointRows(p_.inertia_kgm2, s_.qd_rad_s, dt, load, drive.damping_Nm_s_rad(), t);
  s_.qd_rad_s = v;
  s_.q_rad += dt * v;
  s_.t_s += dt;
}

}  // namespace gapsim::motorgear
