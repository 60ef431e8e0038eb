// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The torque-speed envelope of a joint drive, asked of the drive itself (drive.h), not derived
/// again from its formula: whatever law runs for the joint (voltage-limited Dynamixel, paper law,
/// MoToFlex chain, ideal servo, with gear friction, backlash or a delay around it) answers.
///
/// One point (qd, sign): a clone of the drive is stepped with the joint moving at the constant
/// rate qd (q_k = q0 + k dt qd) and the target error_rad ahead of the joint in the direction
/// `sign` (+1: the law pushes q up; -1: down), so that the position law saturates. Each step the
/// solver terms are turned into the torque they put on a joint moving at qd (steadyTorque_Nm),
/// and that torque, negated, is the next step's load estimate (DriveInput::load_torque_Nm: at a
/// constant rate the load balances the drive, which the load-dependent friction models read).
/// The answer is the torque once it settles: at least settle_s of stepping (delay lines, current
/// filters, integrators), then until two steps differ by at most 1e-12 (1 + |tau|) N m, at most
/// max_steps steps; a point that does not settle says so (converged = false).
///
/// Quadrants: a point with tau qd > 0 is driving (the drive does work on the load, quadrants I
/// and III), tau qd < 0 is backdriven (the load does work on the drive, II and IV). The upper
/// curve tau_max(qd) is the sign +1 sweep, the lower curve tau_min(qd) the sign -1 sweep; between
/// them lies every torque the drive can put on the joint at that rate.
///
/// Rows at a constant rate qd (drive.h): the explicit torque as it is; the damper row gives
/// clamp(b (v_d - qd), +-damper_fmax); a motor row with target 0 is dry friction, -fmax sgn(qd);
/// a motor row with target v_r != 0 is a velocity servo, fmax sgn(v_r - qd). Where the sign is 0
/// (qd = 0 for friction, qd = v_r for a servo) the row can hold anything within its bound and
/// the point takes the bound on the side the law pushes: at qd = 0 the upper curve is the torque
/// that starts a motion upwards (the friction takes its share), the lower curve downwards.
///
/// Units SI. Never throws except for options out of range (std::invalid_argument with the numbers).

#include <vector>

#include "motorgear/drive.h"

namespace gapsim::motorgear {

struct EnvelopeOptions {
  double dt_s = 0.001;     ///< the step the drive is stepped with (the simulation's dt)
  double q0_rad = 0.0;     ///< the joint angle the sweep starts at
  double error_rad = 2.0;  ///< |target - q| that saturates the position law
  double settle_s = 0.2;   ///< stepping before the torque counts as settled (> any delay line)
  int max_steps = 20000;   ///< per point
  void validate() const;   ///< throws std::invalid_argument with the numbers
};

/// The torque the solver applies with terms `t` to a joint moving steadily at qd_rad_s (see the
/// file comment); `damping_Nm_s_rad` is the drive's damper row b, `push_sign` picks the side
/// where a row's sign is 0.
double steadyTorque_Nm(const SolverTerms& t, double damping_Nm_s_rad, double qd_rad_s, int push_sign);

struct SteadyTorque {
  double tau_Nm = 0.0;
  int steps = 0;  ///< how many steps it took
  bool converged = false;
};

/// The torque of `drive` (cloned; the original is untouched) at the rate qd_rad_s with the law
/// pushing in the direction push_sign (+1 or -1).
SteadyTorque maxTorqueAtSpeed(const Drive& drive, double qd_rad_s, int push_sign, const EnvelopeOptions& o = {});

struct EnvelopePoint {
  double qd_rad_s = 0.0;
  SteadyTorque upper;  ///< push_sign +1: tau_max(qd)
  SteadyTorque lower;  ///< push_sign -1: tau_min(qd)
};

/// Both curves at each rate of `speeds_rad_s`, in that order.
std::vector<EnvelopePoint> torqueSpeedEnvelope(const Drive& drive, const std::vector<double>& speeds_rad_s,
                                               const EnvelopeOptions& o = {});

/// The no-load rate of a curve: for push_sign +1 the smallest qd in (0, limit] where tau_max(qd)
/// reaches 0, for -1 the largest qd in [-limit, 0) where tau_min(qd) reaches 0; by bisection to
/// 1e-12 relative (the curves fall with qd). 0 when the curve is already 0 or past it at rest; NaN
/// when it does not reach 0 within `limit_rad_s`.
double noLoadSpeed_rad_s(const Drive& drive, const EnvelopeOptions& o = {}, double limit_rad_s = 1000.0,
                         int push_sign = +1);

/// n rates evenly spaced over [-max, max] (n >= 2; max > 0), with 0 and +-`extra` (when within
/// the range) inserted where they are missing, sorted ascending.
std::vector<double> envelopeSpeeds(double max_rad_s, int n, const std::vector<double>& extra = {});

/// "drive" when tau qd > 0, "backdrive" when < 0, "hold" when either is 0.
const char* quadrantName(double qd_rad_s, double tau_Nm);

}  // namespace gapsim::motorgear
