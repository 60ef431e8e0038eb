// SPDX-License-Identifier: BSD-3-Clause
#include "sim/mabel_hop_controller.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "sim/mabel_legs.h"

namespace gapsim {

const char* phaseName(MabelHopController::Phase p) {
  switch (p) {
    case MabelHopController::Phase::I: return "I";
    case MabelHopController::Phase::II: return "II";
    case MabelHopController::Phase::III: return "III";
    case MabelHopController::Phase::IVa: return "IVa";
    case MabelHopController::Phase::IVb: return "IVb";
    case MabelHopController::Phase::V: return "V";
  }
  return "?";
}

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
      throw std::invalid_argument("hop controller: <mabel_leg> " + std::to_string(l) +
                                  " must drive hip_" + (l ? "R" : "L") + " and knee_" + (l ? "R" : "L"));
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
      if (!on[0] && !on[1]) phase_ = Phase::V;
      else if (!on[0]) phase_ = Phase::IVa;
      else if (!on[1]) phase_ = Phase::IVb;
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
  const double x[4] = {M_PI - 0.5 * p_.delta_LA_rad - h_Tor_, g0 * p_.h_LS_L_rad, M_PI + 0.5 * p_.delta_LA_rad - h_Tor_,
                       g1 * p_.h_LS_R_rad};
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
    q_LA[l] = p_.mirror ? M_PI - hip - 0.5 * knee : M_PI + hip + 0.5 * knee;
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
    const double u_LS = std::clamp(p_.Kp_mLS_Nm_rad * (ref[2 * l + 1] - h[2 * l + 1]) - p_.Kd_mLS_Nms_rad * hd[2 * l + 1],
                                   -p_.u_max_mLS_Nm, p_.u_max_mLS_Nm);
    last_u_[2 * l] = u_LA;
    last_u_[2 * l + 1] = u_LS;
  }
  for (int l = 0; l < 2; ++l) mabelLeg(sim, l).setMotorCommands_Nm(last_u_[2 * l], last_u_[2 * l + 1]);
}

MabelHopController::Params parseHopParams(const std::string& text, MabelHopController::Params p) {
  using P = MabelHopController::Params;
  const double d = M_PI / 180;
  const std::map<std::string, std::pair<double P::*, double>> keys = {
      {"delta_LA_deg", {&P::delta_LA_rad, d}},       {"h_LS_L_deg", {&P::h_LS_L_rad, d}},
      {"h_LS_R_deg", {&P::h_LS_R_rad, d}},           {"dminus_LS_L_deg", {&P::delta_minus_LS_L_rad, d}},
      {"dminus_LS_R_deg", {&P::delta_minus_LS_R_rad, d}}, {"dplus_LS_L_deg", {&P::delta_plus_LS_L_rad, d}},
      {"dplus_LS_R_deg", {&P::delta_plus_LS_R_rad, d}}, {"h_Tor0_deg", {&P::h_Tor0_rad, d}},
      {"dphi_h_d_deg", {&P::dphi_h_d_rad, d}},       {"K_Tor", {&P::K_Tor, 1}},
      {"Kp_LA", {&P::Kp_LA_Nm_rad, 1}},              {"Kd_LA", {&P::Kd_LA_Nms_rad, 1}},
      {"Kp_mLS", {&P::Kp_mLS_Nm_rad, 1}},            {"Kd_mLS", {&P::Kd_mLS_Nms_rad, 1}},
      {"u_max_mLA", {&P::u_max_mLA_Nm, 1}},          {"u_max_mLS", {&P::u_max_mLS_Nm, 1}},
      {"velocity_filter_s", {&P::velocity_filter_s, 1}}, {"drop_m", {&P::drop_m, 1}},
      {"min_touchdown_s", {&P::min_touchdown_s, 1}}};
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("--hop: expected key=value, got '" + item + "'");
    const std::string key = item.substr(0, eq);
    double v = 0;
    try {
      size_t used = 0;
      v = std::stod(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw std::invalid_argument("--hop: '" + key + "' needs a number, got '" + item.substr(eq + 1) + "'");
    }
    if (key == "mirror") {
      p.mirror = v != 0;
      continue;
    }
    if (key == "torso_update") {
      if (v != 0 && v != 1) throw std::invalid_argument("--hop: torso_update must be 0 or 1");
      p.torso_update = v == 1;
      continue;
    }
    const auto it = keys.find(key);
    if (it == keys.end()) {
      std::string known = "torso_update";
      for (const auto& [k, _] : keys) known += " " + k;
      throw std::invalid_argument("--hop: unknown key '" + key + "' (known: " + known + ")");
    }
    p.*(it->second.first) = v * it->second.second;
  }
  return p;
}

}  // namespace gapsim
