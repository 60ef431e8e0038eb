// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/dc_motor.h"

#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = DcMotor::Params;

constexpr Field<P> kFields[]{
    memberField<P, &P::L_H>("L", "H", "armature inductance"),
    memberField<P, &P::R_Ohm>("R", "Ohm", "armature resistance"),
    memberField<P, &P::K_t_Nm_A>("K_t", "N*m/A", "torque constant"),
    memberField<P, &P::S>("S", "-", "stiffness factor scaling the current, in [0,1]"),
    memberField<P, &P::B_v_Nm_s_rad>("B_v", "N*m*s/rad",
                                     "speed friction incl. back-EMF, motor-side torque per joint speed"),
    memberField<P, &P::K_e_V_s_rad>("K_e", "V*s/rad",
                                    "true back-EMF constant on the motor speed (0 = folded into B_v)"),
};

}  // namespace

void DcMotor::Params::validate() const {
  using detail::num;
  if (!(L_H > 0) || !(R_Ohm > 0) || !(K_t_Nm_A > 0) || !std::isfinite(L_H) || !std::isfinite(R_Ohm) ||
      !std::isfinite(K_t_Nm_A))
    throw std::invalid_argument("DcMotor: L, R, K_t must be finite and > 0, got L = " + num(L_H) +
                                " H, R = " + num(R_Ohm) + " Ohm, K_t = " + num(K_t_Nm_A) + " N*m/A");
  if (!(S >= 0 && S <= 1)) throw std::invalid_argument("DcMotor: stiffness S must be in [0, 1], got " + num(S));
  if (!(B_v_Nm_s_rad >= 0) || !std::isfinite(B_v_Nm_s_rad) || !(K_e_V_s_rad >= 0) || !std::isfinite(K_e_V_s_rad))
    throw std::invalid_argument("DcMotor: B_v and K_e must be finite and >= 0, got B_v = " + num(B_v_Nm_s_rad) +
                                " N*m*s/rad, K_e = " + num(K_e_V_s_rad) + " V*s/rad");
}

std::span<const Field<P>> DcMotor::Params::fields() { return kFields; }

DcMotor::DcMotor(const Params& params) : params_(params) { params_.validate(); }

double DcMotor::step(double dt_s, double U_V, double omega_joint_rad_s, double omega_motor_rad_s) {
  const Params& p = params_;
  State& s = state_;
  // Exact solution of L dI/dt = U_eff - R I over dt with U_eff constant:
  //   I(dt) = U_eff/R + (I0 - U_eff/R) exp(-dt R/L)  <=>  U_R += (U_eff - U_R)(1 - exp(-dt R/L)).
  // -expm1 keeps full precision when dt R/L is small.
  const double U_e = p.K_e_V_s_rad * omega_motor_rad_s;
  const double alpha = -std::expm1(-dt_s * p.R_Ohm / p.L_H);
  s.U_R_V += (U_V - U_e - s.U_R_V) * alpha;
  s.current_A = s.U_R_V / p.R_Ohm;
  s.back_emf_V = U_e;
  s.friction_Nm = p.B_v_Nm_s_rad * omega_joint_rad_s;
  s.torque_Nm = s.current_A * p.S * p.K_t_Nm_A - s.friction_Nm;
  return s.torque_Nm;
}

double DcMotor::stallTorque_Nm(double U_V) const { return params_.S * params_.K_t_Nm_A * U_V / params_.R_Ohm; }

double DcMotor::noLoadJointSpeed_rad_s(double U_V, double ratio) const {
  const Params& p = params_;
  return stallTorque_Nm(U_V) / (p.B_v_Nm_s_rad + p.S * p.K_t_Nm_A * p.K_e_V_s_rad * ratio / p.R_Ohm);
}

double DcMotor::jointDamping_Nm_s_rad(double ratio) const {
  const Params& p = params_;
  return ratio * (p.B_v_Nm_s_rad + ratio * p.S * p.K_t_Nm_A * p.K_e_V_s_rad / p.R_Ohm);
}

}  // namespace gapsim::motorgear
