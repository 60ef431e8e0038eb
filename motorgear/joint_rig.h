// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A drive's solver terms (drive.h) applied to one rigid degree of freedom, solved exactly as the
/// constraint solver treats them, and JointRig: one link on one drive (a step-test bench or a
/// pendulum), the fast stand-in for the ODE world that identification runs thousands of times.
///
/// One step of length dt for a body of inertia J at rate w (the end-of-step rate v is unknown):
///   J (v - w) / dt = tau_x + tau_d(v) + tau_r                                         (1)
///   tau_x  explicit torque (drive's explicit torque + the external load),
///   tau_d  damper row  clamp(b (v_d - v), -F_d, F_d)   (absent when b = 0 or F_d = 0),
///   tau_r  motor row: |tau_r| <= F_r, and v = v_r unless |tau_r| = F_r with v on the side the
///          bound allows (the LCP of one bounded velocity row; absent when F_r = 0).
/// The left side minus tau_x + tau_d is strictly increasing in v, so (1) has one solution, found in
/// closed form: the motor row holds v = v_r if the torque that needs is within +-F_r, otherwise it
/// saturates at the bound of that sign and (1) is solved for v, first with the damper unclamped
/// (v = (J w / dt + tau_x + tau_r + b v_d) / (J / dt + b)), else with it clamped at the violated side.
/// This is ODE's (implicit, first-order) treatment of the same rows without its iterations, ERP or
/// CFM softening. The position follows semi-implicitly, q += dt v (ODE's update).

#include "motorgear/drive.h"

namespace gapsim::motorgear {

/// The end-of-step rate v of (1). J > 0, dt > 0; never throws.
double solveJointRows(double inertia_kgm2, double w_rad_s, double dt_s, double tau_x_Nm, double damping_Nm_s_rad,
                      const SolverTerms& t);

class JointRig {
 public:
  struct Params {
    double inertia_kgm2 = 1e-3;  ///< J of link and reflected rotor about the axis
    double gravity_Nm = 0.0;     ///< m g l: load -m g l sin(q - q_down)
    double q_down_rad = 0.0;     ///< angle where the load hangs straight down
    double load_Nm = 0.0;        ///< constant external torque
    void validate() const;       ///< throws std::invalid_argument with the numbers
  };
  struct State {
    double t_s = 0.0, q_rad = 0.0, qd_rad_s = 0.0;
  };

  explicit JointRig(const Params& p, double q0_rad = 0.0, double qd0_rad_s = 0.0);
  /// External torque at angle q (gravity + constant load).
  double loadTorque_Nm(double q_rad) const;
  /// One step: the drive sees {target, q, q, qd, load} and its terms are solved by (1).
  void step(double dt_s, Drive& drive, double target_rad);
  const State& state() const { return s_; }
  const Params& params() const { return p_; }

 private:
  Params p_;
  State s_;
};

}  // namespace gapsim::motorgear
