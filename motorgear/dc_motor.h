// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// DcMotor: the armature circuit and torque of MoToFlex Algorithm 1, lines 5-6.
//
// Equations (all motor side, before the gear; sign: positive U gives positive torque):
//   RL circuit  L dI/dt = U - U_e - R I,  U_R := R I,  U_e = K_e * omega_motor (0 by default)
//   integrated EXACTLY for U and omega constant over the step dt:
//       U_R(t + dt) = U_R(t) + (U - U_e - U_R(t)) * (1 - exp(-dt R / L))
//   (the paper prints exp(-t/(L/R)) with the absolute time t; the step dt is meant: with t the
//   filter would freeze after start-up). Explicit Euler U_R += (U - U_R) dt R/L is unstable for
//   dt > 2 L/R = 96 us with the MoToFlex values, i.e. at the 1 ms step; the exact form is
//   stable for every dt.
//   current     I = U_R / R                                                  [A]
//   torque      T_M = S * K_t * I  -  B_v * omega_joint                     [N m, motor side]
// S in [0, 1] is the Nao "stiffness" that scales the current (paper footnote 3). B_v is the
// paper's speed-dependent friction that also stands in for the back-EMF; the paper and the
// original implementation multiply it by the JOINT speed (motoflex_nao_parameters.csv: "multiplied
// by joint speed before the gear ratio"), so B_v has units N m (motor side) per rad/s (joint side),
// and the joint sees sigma * B_v * omega_joint after Gear. The optional true back-EMF K_e acts on
// the motor speed omega_motor = sigma * omega_joint.
//
// Parameter set: motoflex_nao_parameters.csv (L = 3.09e-4 H, R = 6.44 Ohm, K = 1.95e-2 N m/A,
// stiffness 0.7, B = 5.346e-2 for gear type A, 3.883e-2 for type B). Electrical time constant
// L/R = 48 us, so at a 1 ms step U_R equals U to within exp(-20.8) = 1e-9 (the paper's remark
// that U_R is "close to U after only 1 ms").
//
// Validity: L, R, K_t > 0, S in [0, 1], B_v, K_e >= 0. step() never throws; non-finite inputs
// propagate.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/component.h"
#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class DcMotor : public Component<DcMotor> {
 public:
  struct Params : FieldParams<Params> {
    double L_H = 3.09e-4;            ///< armature inductance [H]                      name "L"
    double R_Ohm = 6.44;             ///< armature resistance [Ohm]                    name "R"
    double K_t_Nm_A = 1.95e-2;       ///< torque constant [N m/A]                      name "K_t"
    double S = 0.7;                  ///< stiffness factor in [0, 1] [-]                name "S"
    double B_v_Nm_s_rad = 5.346e-2;  ///< speed friction incl. back-EMF, times JOINT speed
                                     ///< [N m (motor) / (rad/s joint)]              name "B_v"
    double K_e_V_s_rad = 0.0;        ///< true back-EMF constant, times MOTOR speed [V s/rad]
                                     ///< (0 = MoToFlex: back-EMF folded into B_v)     name "K_e"

    void validate() const;
    double electricalTimeConstant_s() const { return L_H / R_Ohm; }

    /// The field table (names L, R, K_t, S, B_v, K_e) behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "DcMotor";
  };

  struct State {
    double U_R_V = 0.0;  ///< voltage across R (state of the RL filter) [V]
    // Last outputs, for probes.
    double current_A = 0.0;    ///< I = U_R / R [A]
    double back_emf_V = 0.0;   ///< K_e omega_motor [V]
    double friction_Nm = 0.0;  ///< B_v omega_joint (motor side, subtracted from the torque) [N m]
    double torque_Nm = 0.0;    ///< T_M, motor side [N m]
  };

  DcMotor() = default;
  explicit DcMotor(const Params& params);  ///< validates (throws std::invalid_argument)

  /// Advances the RL circuit by dt_s and returns the motor-side torque T_M [N m].
  /// omega_joint_rad_s multiplies B_v (paper); omega_motor_rad_s multiplies K_e (0 by default).
  double step(double dt_s, double U_V, double omega_joint_rad_s, double omega_motor_rad_s = 0.0);

  // Analytic steady-state helpers (no state involved).
  /// Stall current U/R [A].
  double stallCurrent_A(double U_V) const { return U_V / params_.R_Ohm; }
  /// Stall torque S K_t U / R, motor side [N m] (friction vanishes at zero speed).
  double stallTorque_Nm(double U_V) const;
  /// Joint speed where T_M = 0 at voltage U: S K_t U / R = (B_v + S K_t K_e sigma / R) omega_j.
  double noLoadJointSpeed_rad_s(double U_V, double ratio) const;
  /// Viscous damping seen AT THE JOINT, sigma (B_v + sigma S K_t K_e / R) [N m s/rad], for a
  /// simulator that wants to apply the speed term implicitly.
  double jointDamping_Nm_s_rad(double ratio) const;

 private:
  friend class Component<DcMotor>;
  Params params_{};
  State state_{};
};

}  // namespace gapsim::motorgear
