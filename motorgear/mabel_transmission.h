// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// MabelTransmission: one leg of MABEL's cable-differential drivetrain (Park, Sreenath, Hurst,
// Grizzle, MABEL identification report, shared/papers/003_*: Sec. II, IV, VII; eqs. 1, 5,
// 6, 17, 25-27, 30; Tables IV, V, VII, IX). The leg-angle motor (mLA), the leg-shape motor (mLS)
// and the spring pulley B_Spring (Bsp) are three degrees of freedom integrated here; the thigh and
// shin are the simulator's. They meet through two stretching cables.
//
// Link coordinates (paper Fig. 2, angles from the torso axis):  eq. (1)
//   q_LA = (q_Th + q_Sh)/2   leg angle,    q_LS = (q_Th - q_Sh)/2   leg shape
// Rigid (stiff-cable) relations, eqs. (5), (6):
//   q_mLA = gamma_A q_LA,    q_LS = q_mLS/gamma_S + q_Bsp/gamma_B
//   gamma_A = gamma_LA->mLA = -23.53, gamma_S = gamma_LS->mLS = 31.42, gamma_B = gamma_LS->Bsp = 5.18
//   (so tau_LS = gamma_B tau_Bsp, and the C_Spring pulley carries tau_LS/2 = 2.59 tau_Bsp: eq. 23).
// Cable stretch, motor coordinates (eq. 25, written so that lambda = 0 is exactly eqs. 5-6; the
// printed eq. 25 has the opposite sign on gamma_A q_LA and gamma_Bsp q_Bsp, which contradicts
// eqs. 5-6; see docs/mabel.md):
//   lambda_A = q_mLA - gamma_A q_LA
//   lambda_S = q_mLS - gamma_S q_LS + (gamma_S/gamma_B) q_Bsp
//   tau_cX   = K_C,X lambda_X + Kd_C,X lambda_X'                      eq. (27), N m on the motor
// Equations of motion (generalised forces from virtual work, B_cable = d lambda'/dq, eq. 26):
//   J_A q_mLA'' = (u_A + b_A)/K_T,A - mu_A q_mLA' - tau_cA               (motor, eq. 17)
//   J_S q_mLS'' = (u_S + b_S)/K_T,S - mu_S q_mLS' - tau_cS
//   J_B q_Bsp'' = tau_Bsp(q_Bsp, q_Bsp') - (gamma_S/gamma_B) tau_cS      (spring, eq. 30)
//   Q_LA = gamma_A tau_cA,   Q_LS = gamma_S tau_cS                       (on the links)
//   tau_Th = (Q_LA + Q_LS)/2,  tau_Sh = (Q_LA - Q_LS)/2   (Jacobian of eq. 1: dq_LA/dq_Th = 1/2 ...)
// u is the torque command sent to the amplifier [N m]; the amplifier and motor give (u + b)/K_T
// (eq. 17: K_TQ = diag(1/K_T), Table IV: K_T, b; Table V: mu). J_X = alpha_X J_rotor,man,X +
// J_pulley,X (eq. 8-9); the default J_pulley lumps Table IX through the step-down ratios 11.77
// (mLA) and 9.647 (mLS) and J_rotor,man is what makes J_X equal J_3^exp / K_T of Table III (the
// full pulley chain identified as one inertia); see docs/mabel.md for the numbers.
//
// Integration: linearly implicit (Rosenbrock-Euler) on the 3 transmission DOF with the links moving
// at their sampled speed over the step:
//   (M - h D - h^2 K) dv = h (f0 + h K v0 + h F_link qd_link),  v1 = v0 + dv,  x1 = x0 + h v1
// with K = df/dx, D = df/dv (the spring's slopes from MabelSpring), F_link = df/dq_link. It is
// A-stable for every linear term (K_C, Kd_C, K_B, K_vd1, mu), so the stiff hard stop (K_vd1 h / J_B
// = 430 at h = 1 ms) needs no substeps. What stays explicit is the coupling to the simulator's
// links: the returned torques are constant over the next step, a symplectic-Euler-like exchange that
// is stable for h sqrt(K_C gamma^2 / J_link) < 2 and accurate for < 1. validate() enforces
// max_step_s sqrt(K_C,X gamma_X^2 / J_link_min) <= 1 with the declared smallest link-side inertia,
// and step() splits dt into ceil(dt / max_step_s) substeps (the links frozen at their sampled
// speed). With the defaults (K_C 3.5, 2.96; J_link_min 0.1 kg m^2) the bound allows 7.4 ms.

#include <string>
#include <string_view>
#include <vector>

#include "motorgear/mabel_spring.h"
#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class MabelTransmission {
 public:
  /// One motor with its amplifier and reduction to the link coordinate.
  struct Motor {
    double gamma = 1.0;             ///< gear ratio link -> motor (eq. 5/6), signed
    double K_T = 1.0;               ///< amplifier+motor constant: torque = (u + b)/K_T (Table IV)
    double b_Nm = 0.0;              ///< amplifier bias, added to the command (Table IV)
    double mu_Nms_rad = 0.0;        ///< viscous friction on the motor coordinate (Table V)
    double alpha = 1.0;             ///< J_rotor / J_rotor,man (Table IV)
    double J_rotor_man_kgm2 = 0.0;  ///< manufacturer's rotor inertia
    double J_pulley_kgm2 = 0.0;     ///< pulleys rotating with the motor, seen from it (Table IX)
    double K_C_Nm_rad = 1.0;        ///< cable stretch stiffness, motor coordinate (Table VII)
    double Kd_C_Nms_rad = 0.0;      ///< cable stretch damping (Table VII)
    double inertia_kgm2() const { return alpha * J_rotor_man_kgm2 + J_pulley_kgm2; }
  };

  struct Params {
    Motor mLA{};
    Motor mLS{};
    double gamma_Bsp = 5.18;      ///< gamma_LS->Bsp
    double J_Bsp_kgm2 = 2.35e-3;  ///< B_Spring pulley (+ half-speed D_Spring idler), Table IX
    MabelSpring::Params spring{};
    double max_step_s = 1e-3;  ///< longest internal step (see the stability note above)
    /// Mechanical locks of the test stand (paper Sec. V: the B_Spring pulley is fixed, and in a
    /// SISO experiment the other motor coordinate is locked): a locked coordinate keeps the angle
    /// it had at reset() and zero speed; its cable still couples it to the links. Names lock/mLA,
    /// lock/mLS, lock/Bsp (0 or 1).
    bool lock_mLA = false, lock_mLS = false, lock_Bsp = false;
    double J_link_min_kgm2 = 0.1;  ///< smallest link-side inertia on q_LA or q_LS it must be stable with

    void validate() const;  ///< throws std::invalid_argument naming the field and the numbers

    /// The paper's left and right legs (Tables IV, V, VII, IX, Fig. 22).
    static Params left();
    static Params right();

    /// Names relative to the leg: mLA/<field>, mLS/<field>, Bsp/gamma, Bsp/J, spring/<field>,
    /// numerics/max_step, numerics/J_link_min, lock/mLA, lock/mLS, lock/Bsp.
    static std::vector<ParamInfo> paramInfo();
    double get(std::string_view name) const;
    void set(std::string_view name, double value);
  };

  /// Link-side inputs (paper coordinates, from the simulator's joints).
  struct LinkState {
    double q_Th_rad = 0, qd_Th_rad_s = 0, q_Sh_rad = 0, qd_Sh_rad_s = 0;
  };

  struct State {
    double q_mLA_rad = 0, qd_mLA_rad_s = 0;
    double q_mLS_rad = 0, qd_mLS_rad_s = 0;
    double q_Bsp_rad = 0, qd_Bsp_rad_s = 0;
  };

  /// Every signal of the last step, by name (see names()).
  struct Probes {
    double q_LA_rad = 0, q_LS_rad = 0;  ///< eq. (1)
    double q_mLA_rad = 0, q_mLS_rad = 0, q_Bsp_rad = 0;
    double qd_mLA_rad_s = 0, qd_mLS_rad_s = 0, qd_Bsp_rad_s = 0;
    double u_mLA_Nm = 0, u_mLS_Nm = 0;                        ///< commands
    double motor_torque_mLA_Nm = 0, motor_torque_mLS_Nm = 0;  ///< (u + b)/K_T
    double stretch_mLA_rad = 0, stretch_mLS_rad = 0;          ///< lambda, motor coordinates
    double cable_torque_mLA_Nm = 0, cable_torque_mLS_Nm = 0;  ///< tau_c
    double spring_torque_Nm = 0;                              ///< tau_Bsp, eq. (30)
    double spring_branch = 0;                                 ///< 0 free, 1 hard stop, 2 hard stop closing
    double tau_LA_Nm = 0, tau_LS_Nm = 0;  ///< generalised forces on q_LA, q_LS (mean over the frame's substeps)
    double tau_Th_Nm = 0, tau_Sh_Nm = 0;  ///< on q_Th, q_Sh

    static std::vector<std::string> names();
    double get(std::string_view name) const;  ///< throws std::invalid_argument if unknown
  };

  struct Output {
    double tau_Th_Nm = 0, tau_Sh_Nm = 0;  ///< generalised forces on q_Th, q_Sh over the next dt
  };

  explicit MabelTransmission(const Params& p);  ///< validates

  /// Puts the motors and the spring where a rigid, unloaded transmission holds the links
  /// (lambda = 0, q_Bsp = 0), at the links' speeds.
  void reset(const LinkState& link);

  /// One frame of dt_s: integrates the transmission under the motor commands u [N m] with the
  /// links at `link`, returns the torques on the links for the same frame. Never throws.
  Output step(double dt_s, double u_mLA_Nm, double u_mLS_Nm, const LinkState& link);

  const Params& params() const { return p_; }
  const State& state() const { return s_; }
  void setState(const State& s) { s_ = s; }
  const Probes& probes() const { return probes_; }

  /// Rigid-cable inertia of each motor seen on its link coordinate: gamma^2 J (kg m^2).
  double reflectedInertiaLA_kgm2() const { return p_.mLA.gamma * p_.mLA.gamma * p_.mLA.inertia_kgm2(); }
  double reflectedInertiaLS_kgm2() const { return p_.mLS.gamma * p_.mLS.gamma * p_.mLS.inertia_kgm2(); }
  double reflectedInertiaBspOnLS_kgm2() const { return p_.gamma_Bsp * p_.gamma_Bsp * p_.J_Bsp_kgm2; }

  static double legAngle_rad(double q_Th, double q_Sh) { return 0.5 * (q_Th + q_Sh); }
  static double legShape_rad(double q_Th, double q_Sh) { return 0.5 * (q_Th - q_Sh); }

 private:
  void substep(double h, double u_A, double u_S, double q_LA, double qd_LA, double q_LS, double qd_LS);
  void fillProbes(double u_A, double u_S, double q_LA, double qd_LA, double q_LS, double qd_LS);

  Params p_;
  State s_{};
  Probes probes_{};
};

}  // namespace gapsim::motorgear
