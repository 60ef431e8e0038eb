// SPDX-License-Identifier: BSD-3-Clause
#include "sim/mabel_hop_controller.h"

#include <algorithm>
#include <numbers>
#include <stdexcept>

#include "sim/input_error.h"
#include "sim/key_values.h"
#include "sim/mabel_legs.h"

namespace gapsim {

MabelHopController::MabelHopController(const Simulation& sim, const Params& p) : p_(p), h_Tor_(p.h_Tor0_rad) {
  const RobotModel& m = sim.model();
  auto joint = [&](const char* n) {
    const int j = m.jointIndex(n);
    if (j < 0) throw std::invalid_argument(std::string("hop controller: the robot has no joint '") + n + "'");
    return j;
  };
  hip_[0] = joint("hip_L");
  knee_[0] = joint("knee_L");
  hip_[1] = joint("hip_R");
  knee_[1] = joint("knee_R");
  boom_yaw_ = joint("boom_yaw");
  boom_pitch_ = joint("boom_pitch");
  if (mabelLegCount(sim) != 2 || sim.toeCount() != 2)
    throw std::invalid_argument("hop controller: needs two <mabel_leg> (left, right) and two compliant-ground toes");
  for (int l = 0; l < 2; ++l) {
    const auto& tp = mabelLeg(sim, l).transmission().params();
    gamma_LA_[l] = tp.mLA.gamma;
    gamma_LS_[l] = tp.mLS.gamma;
    K_T_LA_[l] = tp.mLA.K_T;
    if (m.mabel_legs[l].hip != hip_[l] || m.mabel_legs[l].knee != knee_[l])
      throw std::invalid_argument("hop controller: <mabel_leg> " + std::to_string(l) + " must drive hip_" +
                                  (l ? "R" : "L") + " and knee_" + (l ? "R" : "L"));
  }
  if (!(p.T_s > 0)) throw std::invalid_argument("hop controller: T_s must be > 0");
  phi_star_prev_ = (p.mirror ? 1 : -1) * sim.jointAngle_rad(boom_yaw_);
}

double MabelHopController::differentiate(Diff& d, double v) {
  if (!d.init) {
    d = {v, 0.0, true};
    return 0.0;
  }
  const double raw = (v - d.last) / p_.T_s;
  d.last = v;
  const double a = p_.velocity_filter_s > 0 ? p_.T_s / (p_.T_s + p_.velocity_filter_s) : 1.0;
  d.rate += a * (raw - d.rate);
  return d.rate;
}

// Phase transitions (45)-(50); t_phase_ is the time the current phase began.
void MabelHopController::advancePhase(double t, const bool on[2], double phi_h, double phi_v_rate) {
  const Phase before = phase_;
  switch (phase_) {
    case Phase::I:
      if (on[0] && on[1]) {
        phase_ = Phase::II;
        ++touchdowns_;
        // (51): event-based torso update from the horizontal distance of the last hop.
        const double dphi = phi_h - phi_star_prev_;
        phi_star_prev_ = phi_h;
        if (p_.torso_update && touchdowns_ > 1) h_Tor_ = p_.h_Tor0_rad + p_.K_Tor * (dphi - p_.dphi_h_d_rad);
      }
      break;
    case Phase::II:
      // Bottom of the compression: the boom's vertical rate near zero, or already reversed (a
      // 1 ms sample can step over the +-0.01 rad/s window).
      if (t - t_phase_ >= p_.min_touchdown_s && (std::abs(phi_v_rate) < p_.dphi_v_threshold_rad_s || phi_v_rate < 0))
        phase_ = Phase::III;
      break;
    case Phase::III:
      if (!on[0] && !on[1])
        phase_ = Phase::V;
      else if (!on[0])
        phase_ = Phase::IVa;
      else if (!on[1])
        phase_ = Phase::IVb;
      break;
    case Phase::IVa:
      if (!on[1]) phase_ = Phase::V;
      break;
    case Phase::IVb:
      if (!on[0]) phase_ = Phase::V;
      break;
    case Phase::V:
      if (t - t_phase_ >= p_.retract_s - 1e-9) phase_ = Phase::I;
      break;
  }
  if (phase_ != before) t_phase_ = t;
}

// References (44)-(50) of h = (q_LA_L, q_mLS_L, q_LA_R, q_mLS_R) in the current phase.
void MabelHopController::references(double q_Tor, double q_LA_right, double ref[4]) {
  const double g0 = gamma_LS_[0], g1 = gamma_LS_[1];
  const double x[4] = {std::numbers::pi - 0.5 * p_.delta_LA_rad - h_Tor_, g0 * p_.h_LS_L_rad,
                       std::numbers::pi + 0.5 * p_.delta_LA_rad - h_Tor_, g1 * p_.h_LS_R_rad};
  for (int i = 0; i < 4; ++i) ref[i] = x[i];
  const double la_R = q_Tor + q_LA_right - h_Tor_;
  const double ext[2] = {g0 * p_.delta_minus_LS_L_rad, g1 * p_.delta_minus_LS_R_rad};
  const double ret[2] = {g0 * p_.delta_plus_LS_L_rad, g1 * p_.delta_plus_LS_R_rad};
  switch (phase_) {
    case Phase::I:
      break;
    case Phase::II:
    case Phase::III:
      ref[0] = la_R - p_.delta_LA_rad;
      ref[2] = la_R;
      if (phase_ == Phase::III) {
        ref[1] = x[1] - ext[0];
        ref[3] = x[3] - ext[1];
      }
      la_frozen_[0] = ref[0];  // h_III^ref(t_III->IV): the last value before leaving III
      la_frozen_[1] = ref[2];
      break;
    case Phase::IVa:
    case Phase::IVb:
    case Phase::V:
      ref[0] = la_frozen_[0];
      ref[2] = la_frozen_[1];
      ref[1] = phase_ == Phase::IVb ? x[1] - ext[0] : x[1] + ret[0];
      ref[3] = phase_ == Phase::IVa ? x[3] - ext[1] : x[3] + ret[1];
      break;
  }
}

void MabelHopController::update(Simulation& sim) {
  const double t = sim.time_s();
  if (t + 1e-9 < next_t_) {  // zero-order hold between controller periods
    for (int l = 0; l < 2; ++l) mabelLeg(sim, l).setMotorCommands_Nm(last_u_[2 * l], last_u_[2 * l + 1]);
    return;
  }
  next_t_ += p_.T_s;

  // --- sensors: quantised encoders, numerically differentiated ---
  double q_LA[2], q_mLS[2], h[4], hd[4];
  for (int l = 0; l < 2; ++l) {
    const double hip = quant(sim.jointAngle_rad(hip_[l]), p_.encoder_rad);
    const double knee = quant(sim.jointAngle_rad(knee_[l]), p_.encoder_rad);
    // The paper's leg angle: grows backward (see the header); mirror: grows forward.
    q_LA[l] = p_.mirror ? std::numbers::pi - hip - 0.5 * knee : std::numbers::pi + hip + 0.5 * knee;
    q_mLS[l] = quant(mabelLeg(sim, l).transmission().state().q_mLS_rad, p_.encoder_rad);
    h[2 * l] = q_LA[l];
    h[2 * l + 1] = q_mLS[l];
  }
  for (int i = 0; i < 4; ++i) hd[i] = differentiate(d_[i], h[i]);
  const double q_Tor = (p_.mirror ? -1 : 1) * quant(sim.imu().pitch_rad, p_.encoder_rad);
  // mirror reads the whole sagittal plane mirrored (the robot facing -x): its forward travel
  // is then -boom_yaw, so phi_h = +boom_yaw keeps d phi_h_d < 0 as forward travel.
  const double phi_h = (p_.mirror ? 1 : -1) * quant(sim.jointAngle_rad(boom_yaw_), p_.boom_encoder_rad);
  const double phi_v_rate = differentiate(d_phi_v_, quant(sim.jointAngle_rad(boom_pitch_), p_.boom_encoder_rad));
  const bool on[2] = {sim.toeContact(0).contact, sim.toeContact(1).contact};

  advancePhase(t, on, phi_h, phi_v_rate);
  double ref[4];
  references(q_Tor, q_LA[1], ref);

  // --- PD (41) and the motor commands ---
  for (int l = 0; l < 2; ++l) {
    const double tau_LA = p_.Kp_LA_Nm_rad * (ref[2 * l] - h[2 * l]) - p_.Kd_LA_Nms_rad * hd[2 * l];
    // tau_LA acts on the paper's q_LA; the transmission's q_LA = pi - hip - knee/2 is its mirror.
    const double u_LA =
        std::clamp((p_.mirror ? 1 : -1) * K_T_LA_[l] * tau_LA / gamma_LA_[l], -p_.u_max_mLA_Nm, p_.u_max_mLA_Nm);
    const double u_LS =
        std::clamp(p_.Kp_mLS_Nm_rad * (ref[2 * l + 1] - h[2 * l + 1]) - p_.Kd_mLS_Nms_rad * hd[2 * l + 1],
                   -p_.u_max_mLS_Nm, p_.u_max_mLS_Nm);
    last_u_[2 * l] = u_LA;
    last_u_[2 * l + 1] = u_LS;
  }
  for (int l = 0; l < 2; ++l) mabelLeg(sim, l).setMotorCommands_Nm(last_u_[2 * l], last_u_[2 * l + 1]);
}

namespace {

using motorgear::memberField;
using H = MabelHopController::Params;
constexpr double kDeg_rad = std::numbers::pi / 180;

#define GAPSIM_HOP_DEG(key, member, what)                                                                             \
  {                                                                                                                   \
    key, "deg", what, [](const H& p) { return p.member / kDeg_rad; }, [](H& p, double v) { p.member = v * kDeg_rad; } \
  }

constexpr motorgear::Field<H> kHopFields[]{
    GAPSIM_HOP_DEG("delta_LA_deg", delta_LA_rad, "leg angle at touchdown, delta_LA"),
    GAPSIM_HOP_DEG("h_LS_L_deg", h_LS_L_rad, "leg shape of the left leg in flight"),
    GAPSIM_HOP_DEG("h_LS_R_deg", h_LS_R_rad, "leg shape of the right leg in flight"),
    GAPSIM_HOP_DEG("dminus_LS_L_deg", delta_minus_LS_L_rad, "left leg shape change in compression"),
    GAPSIM_HOP_DEG("dminus_LS_R_deg", delta_minus_LS_R_rad, "right leg shape change in compression"),
    GAPSIM_HOP_DEG("dplus_LS_L_deg", delta_plus_LS_L_rad, "left leg shape change in thrust"),
    GAPSIM_HOP_DEG("dplus_LS_R_deg", delta_plus_LS_R_rad, "right leg shape change in thrust"),
    GAPSIM_HOP_DEG("h_Tor0_deg", h_Tor0_rad, "nominal torso angle"),
    GAPSIM_HOP_DEG("dphi_h_d_deg", dphi_h_d_rad, "desired hip angle change per hop"),
    memberField<H, &H::K_Tor>("K_Tor", "-", "torso update gain, eq. (51)"),
    memberField<H, &H::Kp_LA_Nm_rad>("Kp_LA", "N m/rad", "leg angle PD: proportional gain"),
    memberField<H, &H::Kd_LA_Nms_rad>("Kd_LA", "N m s/rad", "leg angle PD: derivative gain"),
    memberField<H, &H::Kp_mLS_Nm_rad>("Kp_mLS", "N m/rad", "leg shape motor PD: proportional gain"),
    memberField<H, &H::Kd_mLS_Nms_rad>("Kd_mLS", "N m s/rad", "leg shape motor PD: derivative gain"),
    memberField<H, &H::u_max_mLA_Nm>("u_max_mLA", "N m", "leg angle motor command limit"),
    memberField<H, &H::u_max_mLS_Nm>("u_max_mLS", "N m", "leg shape motor command limit"),
    memberField<H, &H::velocity_filter_s>("velocity_filter_s", "s", "first-order filter on the encoder differences"),
    memberField<H, &H::drop_m>("drop_m", "m", "run setup: the hip starts this much higher (boom tilted up)"),
    memberField<H, &H::min_touchdown_s>("min_touchdown_s", "s", "shortest phase II"),
    {"torso_update", "-", "1: eq. (51) updates the torso angle; 0: the nominal controller",
     [](const H& p) { return p.torso_update ? 1.0 : 0.0; },
     [](H& p, double v) { p.torso_update = motorgear::toBool(v, "torso_update"); }},
    {"mirror", "-", "1: the other reading of the paper's Fig. 2", [](const H& p) { return p.mirror ? 1.0 : 0.0; },
     [](H& p, double v) { p.mirror = v != 0; }},
};

#undef GAPSIM_HOP_DEG

}  // namespace

void MabelHopController::Params::validate(const std::string& source) const {
  for (const auto& f : kHopFields)
    if (!std::isfinite(f.get(*this)))
      throw InputError(source, 0, std::string(f.name), sixDigits(f.get(*this)) + " is not a finite number");
  auto atLeast = [&](const char* key, double v, double lo, bool open) {
    if (open ? v > lo : v >= lo) return;
    throw InputError(source, 0, key,
                     sixDigits(v) + " is out of range: must be " + (open ? "> " : ">= ") + sixDigits(lo));
  };
  atLeast("Kp_LA", Kp_LA_Nm_rad, 0, false);
  atLeast("Kd_LA", Kd_LA_Nms_rad, 0, false);
  atLeast("Kp_mLS", Kp_mLS_Nm_rad, 0, false);
  atLeast("Kd_mLS", Kd_mLS_Nms_rad, 0, false);
  atLeast("u_max_mLA", u_max_mLA_Nm, 0, true);
  atLeast("u_max_mLS", u_max_mLS_Nm, 0, true);
  atLeast("velocity_filter_s", velocity_filter_s, 0, false);
  atLeast("drop_m", drop_m, 0, false);
  atLeast("min_touchdown_s", min_touchdown_s, 0, false);
}

std::span<const motorgear::Field<MabelHopController::Params>> hopParamFields() { return kHopFields; }

MabelHopController::Params parseHopParams(const std::string& text, MabelHopController::Params p) {
  const std::string keys = fieldKeys(hopParamFields());
  applyKeyValues(hopParamFields(), parseKeyValues(text, "--hop", keys), p, "--hop", "hopping");
  p.validate("--hop");
  return p;
}

}  // namespace gapsim
