// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// MABEL's two-legged hopping controller (MABEL report shared/papers/003_*, Sec. VIII-B and
/// Appendix D, eqs. 41-53). Every T_s = 1 ms it reads quantised encoders, differentiates them
/// numerically, runs the phase machine I -> II -> III -> IV_a/IV_b/V -> V -> I and writes the four
/// motor commands through each leg's MabelLegDrive::setMotorCommands_Nm (sim/mabel_legs.h):
///
///   h = (q_LA_L, q_mLS_L, q_LA_R, q_mLS_R)                                          (42)
///   u = Kp (h_ref - h) - Kd h_dot                                                  (41)
///   x_d = (pi - d_LA/2 - h_Tor, gamma h_LS_L, pi + d_LA/2 - h_Tor, gamma h_LS_R)    (44)
///   I  flight:    h_ref = x_d;  -> II when both toes touch
///   II touchdown: h_ref = (q_Tor + q_LA_R - h_Tor - d_LA, x2, q_Tor + q_LA_R - h_Tor, x4);
///                 -> III when |phi_v'| < 0.01 (boom vertical rate, rad/s)
///   III kickoff:  as II with x2 - gamma d-_LS_L, x4 - gamma d-_LS_R; -> IV_a (left off), IV_b
///                 (right off) or V (both off)
///   IV_a, IV_b, V: leg angles frozen at their III value, the lifted leg(s) retract by d+_LS;
///                 V lasts 50 ms, then I.
///   Torso update (51), at every I -> II: h_Tor = h_Tor0 + K_Tor (dphi_h[k] - dphi_h_d), dphi_h[k]
///   the boom's horizontal angle travelled since the previous touchdown.
///
/// Conventions (CHOICE, docs/mabel.md; Fig. 2 is not in the text): the paper's q_LA = pi + hip +
/// knee/2 grows when the leg swings backward relative to the torso and q_Tor = torso pitch (nose
/// down positive), so that q_LA + q_Tor - pi is the leg's absolute angle (backward positive) as
/// eq. (44) requires (legs at +-d_LA/2 about the vertical when q_Tor = h_Tor): set (53) then puts
/// the left leg in front (as the shipped standing pose), leans the torso 8 deg forward and pushes
/// harder with the rear (right) leg. phi_h = -boom_yaw, so the paper's d phi_h_d = -6.9 deg per
/// hop is forward travel; phi_v = boom_pitch (+ = hip down). mirror = 1 reads Fig. 2 the other
/// way (q_LA = pi - hip - knee/2, q_Tor = -pitch, phi_h = +boom_yaw).
/// Gains, K_Tor, limits, filter and drop height: a random search (900 runs of the CLI) for the
/// longest hopping with set (53) fixed; the defaults hop 60 s without a fall (docs/mabel.md).
/// S_II->III also fires when phi_v' has already turned upward, after at least min_touchdown_s.
/// The LA channel's PD is a torque on q_LA, sent to the leg-angle motor as u = K_T tau / gamma.
/// Gains, limits and encoder resolutions are not in the paper: CHOICES, see Params.

#include <cmath>
#include <numbers>
#include <span>
#include <string>

#include "motorgear/param_access.h"
#include "sim/simulation.h"

namespace gapsim {

class MabelHopController {
 public:
  struct Params {
    // Parameter set (53), radians.
    double delta_LA_rad = 30.0 * std::numbers::pi / 180;
    double h_LS_L_rad = 12.0 * std::numbers::pi / 180, h_LS_R_rad = 12.0 * std::numbers::pi / 180;
    double delta_minus_LS_L_rad = 5.0 * std::numbers::pi / 180, delta_minus_LS_R_rad = 13.0 * std::numbers::pi / 180;
    double delta_plus_LS_L_rad = 5.0 * std::numbers::pi / 180, delta_plus_LS_R_rad = 5.0 * std::numbers::pi / 180;
    double h_Tor0_rad = 8.0 * std::numbers::pi / 180;
    double dphi_h_d_rad = -6.9 * std::numbers::pi / 180;
    bool torso_update = true;  ///< eq. (51); false = the nominal controller
    bool mirror = false;       ///< the other reading of Fig. 2 (see below)
    double K_Tor = -2.0;       ///< CHOICE (the paper gives no value; found by search, see docs/mabel.md)
    // PD gains (CHOICE): leg angle as a torque on q_LA, leg shape on the motor angle.
    double Kp_LA_Nm_rad = 800, Kd_LA_Nms_rad = 300;
    double Kp_mLS_Nm_rad = 20, Kd_mLS_Nms_rad = 0.3;
    double u_max_mLA_Nm = 20, u_max_mLS_Nm = 40;              ///< amplifier command limits (CHOICE)
    double T_s = 1e-3;                                        ///< controller period
    double encoder_rad = 2 * std::numbers::pi / 16384;        ///< joint, torso and motor encoders (CHOICE)
    double boom_encoder_rad = 2 * std::numbers::pi / 131072;  ///< boom encoders (CHOICE)
    double velocity_filter_s = 0.005;                         ///< first-order filter on the differences (CHOICE)
    double dphi_v_threshold_rad_s = 0.01;                     ///< S_II->III
    double retract_s = 0.05;                                  ///< phase V duration
    double min_touchdown_s = 0.01;                            ///< shortest phase II (CHOICE)
    double drop_m = 0.15;  ///< run setup, not the controller: start with the hip this much higher (boom tilted up)

    /// Throws InputError(source, field) for a non-finite value, a negative gain or time, or a
    /// command limit <= 0.
    void validate(const std::string& source = "hop") const;
  };

  enum class Phase { I = 1, II = 2, III = 3, IVa = 4, IVb = 5, V = 6 };

  /// Finds the joints (hip_L, knee_L, hip_R, knee_R, boom_yaw, boom_pitch) and the two MABEL legs
  /// and toes; throws std::invalid_argument naming what is missing.
  MabelHopController(const Simulation& sim, const Params& p);

  /// Call before every sim.step(): acts when a controller period has elapsed.
  void update(Simulation& sim);

  Phase phase() const { return phase_; }
  int touchdowns() const { return touchdowns_; }  ///< I -> II transitions so far
  double hTor_rad() const { return h_Tor_; }
  const Params& params() const { return p_; }

 private:
  void advancePhase(double t, const bool on[2], double phi_h, double phi_v_rate);
  void references(double q_Tor, double q_LA_right, double ref[4]);

  struct Diff {  // numerical differentiation of a quantised signal
    double last = 0, rate = 0;
    bool init = false;
  };
  double quant(double v, double res) const { return res > 0 ? std::round(v / res) * res : v; }
  double differentiate(Diff& d, double v);

  Params p_;
  int hip_[2], knee_[2], boom_yaw_ = -1, boom_pitch_ = -1;
  double gamma_LA_[2], gamma_LS_[2], K_T_LA_[2];
  Phase phase_ = Phase::I;
  double next_t_ = 0;
  double t_phase_ = 0;  ///< time of entering the current phase
  double la_frozen_[2] = {0, 0};
  Diff d_[4], d_phi_v_;
  double h_Tor_;
  double phi_star_prev_ = 0;
  int touchdowns_ = 0;
  double last_u_[4] = {0, 0, 0, 0};
};

/// Parses "key=value,key=value" over p through hopParamFields() (angles in degrees) and validates
/// the result. Throws InputError(source "--hop", field = the key) for an unknown key, a value that
/// is not a number and a value out of range.
MabelHopController::Params parseHopParams(const std::string& text, MabelHopController::Params p = {});
/// The hopping controller's settable parameters as a field table (`gapsim-cli params
/// --controller hop`); angles in degrees.
std::span<const motorgear::Field<MabelHopController::Params>> hopParamFields();

}  // namespace gapsim
