// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The re-synchronising RMS (`--objective resync`): a scenario is simulated in windows of length
/// H (`--resync-horizon`, s), and at the start of every window after the first the simulation is
/// pulled back onto the reference log, so each window measures how well the model predicts H
/// seconds ahead from where the robot really was. A fall early on costs its own window, not the
/// rest of the run (where F, with its cut-off at the fall, loses every later sample).
///
///   windows k = 0..K-1 on [t_k, t_k + H), t_k = k H (the last one ends at the scenario's end);
///   e_k = (1/(J S_k)) sum_{samples t in (t_k, t_k + H]} sum_j (q_ref,j(t) - q_sim,j(t))^2   (rad^2)
///     j over the joints of F (`<joint>/q_rad` both logs have, or the motion's joints), S_k the
///     window's simulated samples inside the reference's span; the reference is read at the
///     simulated sample times (exact at equal times, else linear interpolation);
///   a window that falls (IMU tilt over the model's threshold inside it) or diverges scores
///     e_k = max(e_k, P^2), P = ObjectiveSettings::fall_penalty_rad: bounded, so one bad window
///     does not make the scenario's score infinite; only a scenario whose windows all diverge is
///     +inf (a divergence error);
///   R_s = sqrt((1/K) sum_k e_k) (rad);  resync = (1/n) sum_s w_s R_s (rad).
///
/// What is re-synchronised at t_k (k >= 1): only what a log records, and only by the residual
/// "logged minus simulated" of the same quantity, so a state that already matches the log is left
/// bit for bit (the model against its own log scores exactly 0):
///   - joint angles: q_j += q_ref,j(t_k) - q_enc,j(t_k) (encoder angles, as logged), for every
///     joint with a `<joint>/q_rad` column; a mimic joint without its own column follows its
///     master's change times its multiplier;
///   - joint rates: qd_j += the same residual's backward difference over one log period,
///     [dq_ref - dq_sim] / p, dq = q(t_k) - q(t_k - p), both from logged angles (a log holds no
///     rate a real robot measures well; a diverged previous window has no simulated samples, so
///     then the simulated term is the true rate times p);
///   - root attitude, if the reference has `<imu>/pitch_rad` and `<imu>/roll_rad`: the IMU's ZYX
///     pitch and roll move by their residuals, its yaw stays;
///   - root placement: the body poses follow from the new angles by forward kinematics
///     (sim/kinematics.h) with the lowest foot (model.foot_contacts) as anchor: its x and y stay,
///     and the whole robot moves vertically so that its lowest collision point is as high as
///     before (a foot in contact stays in contact, with the same penetration). Body velocities
///     get the rate residual's contribution with that foot at rest (a central difference of the
///     anchored kinematics). Without foot contacts the root link is the anchor; a fixed base is
///     not moved.
/// Not re-synchronised (kept from the simulation): the root's horizontal position and yaw, the
/// bodies' velocities apart from the rate residual's contribution, the drives' internal states
/// (currents, filters, delay lines, backlash), the targets, the controller's state (the motion
/// player and the ankle balance run on across windows), the compliant ground. The fall record
/// is cleared at every window start so that each window's fall is its own.
/// Bodies move with their link's rigid change (new minus old forward-kinematics pose): a soft
/// link's segments keep their bending relative to each other; a link after a bent soft link is
/// placed as if it were straight, so the joint between them opens by the bend's offset (a fraction
/// of a millimetre at the Nao's D_B), which the solver's error reduction (ERP) closes within tens of steps.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "sim/ankle_balance.h"
#include "sim/log_writer.h"
#include "sim/motion.h"
#include "sim/simulation.h"

namespace gapsim::calib {

/// What a re-synchronised run measured.
struct ResyncScore {
  double rms_rad = 0;  ///< R_s
  int windows = 0;     ///< K
  int fallen = 0;      ///< windows scored at the penalty because they fell
  int diverged = 0;    ///< windows scored at the penalty because they diverged
  std::string error;   ///< every window diverged (R_s = +inf), or no joint to compare
};

struct ResyncSettings {
  double horizon_s = 1.0;         ///< H
  double log_period_s = 0.01;     ///< simulated log period (and the backward difference's p)
  double fall_penalty_rad = 0.5;  ///< P
};

/// The residuals of one window start, applied to `sim` (the file comment's rules). `dq_rad` and
/// `dqd_rad_s` have one value per model joint (0 where the log has no column); `d_attitude_rad`
/// (pitch, roll) is the IMU's residual if the log has attitude columns. All zero: nothing changes.
void applyResync(Simulation& sim, std::vector<double> dq_rad, std::vector<double> dqd_rad_s,
                 const std::optional<Eigen::Vector2d>& d_attitude_rad);

/// Plays `motion` (with `balance` if set) on `sim` for `duration_s` in re-synchronised windows
/// against `ref`, appending every window's rows to `log` (may be null; the window starts' rows
/// after re-synchronisation are left out, so times increase). `joints`: F's joint selection.
ResyncScore runResynchronised(Simulation& sim, const Motion* motion, const std::optional<BalanceParams>& balance,
                              double duration_s, const Log& ref, const ResyncSettings& s,
                              const std::vector<std::string>* joints, Log* log);

}  // namespace gapsim::calib
