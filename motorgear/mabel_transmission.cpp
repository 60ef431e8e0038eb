// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/mabel_transmission.h"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

// Table IX (kg m^2).
constexpr double kJ_mLS = 9.0144e-4, kJ_mLA = 4.4928e-4, kJ_Ath = 1.6680e-3, kJ_Bth = 2.2181e-3, kJ_Dth = 1.0826e-3,
                 kJ_Ash = 1.6974e-3, kJ_Bsh = 2.2181e-3, kJ_Dsh = 2.0542e-3, kJ_Asp = 2.3464e-3, kJ_Bsp = 1.8686e-3,
                 kJ_Dsp = 1.9313e-3, kJ_mLSsd = 2.7117e-3, kJ_mLAsd = 1.0950e-3;
constexpr double kSdLA = 11.77, kSdLS = 9.647;  // step-down ratios (Sec. II-B, Figs. 6-7)

// Pulleys turning with the leg-angle motor when q_mLS and q_Bsp are held (Fig. 6): the motor
// pulley; the step-down pulley, B_Thigh and B_Shin at omega/11.77; the D idlers of the thigh and
// shin differentials at omega/23.53 ((A - B)/2 with A held).
constexpr double lumpedLA() {
  return kJ_mLA + (kJ_mLAsd + kJ_Bth + kJ_Bsh) / (kSdLA * kSdLA) + (kJ_Dth + kJ_Dsh) / (23.53 * 23.53);
}
// Leg-shape motor with q_mLA and q_Bsp held (Fig. 7): motor pulley; step-down and A_Spring at
// omega/9.647; D_Spring at half of that; A_Thigh and A_Shin at 2 omega/31.42 (C = A/2 = q_LS');
// D_Thigh and D_Shin at omega/31.42.
constexpr double lumpedLS() {
  return kJ_mLS + (kJ_mLSsd + kJ_Asp) / (kSdLS * kSdLS) + kJ_Dsp / (4 * kSdLS * kSdLS) +
         (kJ_Ath + kJ_Ash) / ((31.42 / 2) * (31.42 / 2)) + (kJ_Dth + kJ_Dsh) / (31.42 * 31.42);
}
// J_rotor,man such that alpha J_rotor,man + J_pulley = J_3^exp / K_T (Table III, all pulleys of
// the path identified as one inertia). Table III prints 1.112e-04 for mLS_L, i = 3, which is
// smaller than i = 1 and 2 (8.8e-4, 1.1e-3): read as 1.112e-03.
constexpr double rotorMan(double J3exp, double K_T, double alpha, double J_pulley) {
  return (J3exp / K_T - J_pulley) / alpha;
}

MabelTransmission::Motor makeMotor(double gamma, double K_T, double b, double mu, double alpha, double J3exp,
                                   double J_pulley, double K_C, double Kd_C) {
  MabelTransmission::Motor m;
  m.gamma = gamma;
  m.K_T = K_T;
  m.b_Nm = b;
  m.mu_Nms_rad = mu;
  m.alpha = alpha;
  m.J_pulley_kgm2 = J_pulley;
  m.J_rotor_man_kgm2 = rotorMan(J3exp, K_T, alpha, J_pulley);
  m.K_C_Nm_rad = K_C;
  m.Kd_C_Nms_rad = Kd_C;
  return m;
}

using P = MabelTransmission::Params;
using Motor = MabelTransmission::Motor;

// The same nine leaves for each motor, under its prefix.
#define GAPSIM_MOTOR_FIELDS(M)                                                                                      \
  memberField<P, &P::M, &Motor::gamma>(#M "/gamma", "-", "gear ratio link -> motor (eqs. 5-6)"),                    \
      memberField<P, &P::M, &Motor::K_T>(#M "/K_T", "-", "torque = (u + b)/K_T (Table IV)"),                        \
      memberField<P, &P::M, &Motor::b_Nm>(#M "/b", "N m", "amplifier bias (Table IV)"),                             \
      memberField<P, &P::M, &Motor::mu_Nms_rad>(#M "/mu", "N m s/rad", "viscous friction, motor side (Table V)"),   \
      memberField<P, &P::M, &Motor::alpha>(#M "/alpha", "-", "rotor inertia factor (Table IV)"),                    \
      memberField<P, &P::M, &Motor::J_rotor_man_kgm2>(#M "/J_rotor_man", "kg m^2", "manufacturer's rotor inertia"), \
      memberField<P, &P::M, &Motor::J_pulley_kgm2>(#M "/J_pulley", "kg m^2",                                        \
                                                   "lumped pulleys seen from the motor (Table IX)"),                \
      memberField<P, &P::M, &Motor::K_C_Nm_rad>(#M "/K_C", "N m/rad", "cable stretch stiffness (Table VII)"),       \
      memberField<P, &P::M, &Motor::Kd_C_Nms_rad>(#M "/Kd_C", "N m s/rad", "cable stretch damping (Table VII)")

/// 0 or 1 only: anything else is a typo, not "locked a bit".
bool lockValue(const char* name, double v) {
  if (v != 0.0 && v != 1.0)
    throw std::invalid_argument(std::string("MABEL transmission: ") + name + " = " + detail::num(v) +
                                " must be 0 or 1");
  return v == 1.0;
}

constexpr Field<P> kFields[]{
    GAPSIM_MOTOR_FIELDS(mLA),
    GAPSIM_MOTOR_FIELDS(mLS),
    memberField<P, &P::gamma_Bsp>("Bsp/gamma", "-", "gamma_LS->Bsp (eq. 6)"),
    memberField<P, &P::J_Bsp_kgm2>("Bsp/J", "kg m^2", "B_Spring pulley inertia (Table IX)"),
    memberField<P, &P::max_step_s>("numerics/max_step", "s", "longest internal step"),
    memberField<P, &P::J_link_min_kgm2>("numerics/J_link_min", "kg m^2",
                                        "smallest link-side inertia for the stability bound"),
    {"lock/mLA", "-", "1: the leg-angle motor is mechanically locked (test stand, Sec. V)",
     [](const P& p) { return p.lock_mLA ? 1.0 : 0.0; }, [](P& p, double v) { p.lock_mLA = lockValue("lock/mLA", v); }},
    {"lock/mLS", "-", "1: the leg-shape motor is mechanically locked (test stand, Sec. V)",
     [](const P& p) { return p.lock_mLS ? 1.0 : 0.0; }, [](P& p, double v) { p.lock_mLS = lockValue("lock/mLS", v); }},
    {"lock/Bsp", "-", "1: the B_Spring pulley is fixed (no spring compliance, Sec. V)",
     [](const P& p) { return p.lock_Bsp ? 1.0 : 0.0; }, [](P& p, double v) { p.lock_Bsp = lockValue("lock/Bsp", v); }},
};
#undef GAPSIM_MOTOR_FIELDS

bool springName(std::string_view n, std::string_view& leaf) {
  constexpr std::string_view pre = "spring/";
  if (n.substr(0, pre.size()) != pre) return false;
  leaf = n.substr(pre.size());
  return true;
}

using Pr = MabelTransmission::Probes;
constexpr Probe<Pr> kProbes[]{
    GAPSIM_PROBE_ROW(Pr, q_LA_rad),
    GAPSIM_PROBE_ROW(Pr, q_LS_rad),
    GAPSIM_PROBE_ROW(Pr, q_mLA_rad),
    GAPSIM_PROBE_ROW(Pr, q_mLS_rad),
    GAPSIM_PROBE_ROW(Pr, q_Bsp_rad),
    GAPSIM_PROBE_ROW(Pr, qd_mLA_rad_s),
    GAPSIM_PROBE_ROW(Pr, qd_mLS_rad_s),
    GAPSIM_PROBE_ROW(Pr, qd_Bsp_rad_s),
    GAPSIM_PROBE_ROW(Pr, u_mLA_Nm),
    GAPSIM_PROBE_ROW(Pr, u_mLS_Nm),
    GAPSIM_PROBE_ROW(Pr, motor_torque_mLA_Nm),
    GAPSIM_PROBE_ROW(Pr, motor_torque_mLS_Nm),
    GAPSIM_PROBE_ROW(Pr, stretch_mLA_rad),
    GAPSIM_PROBE_ROW(Pr, stretch_mLS_rad),
    GAPSIM_PROBE_ROW(Pr, cable_torque_mLA_Nm),
    GAPSIM_PROBE_ROW(Pr, cable_torque_mLS_Nm),
    GAPSIM_PROBE_ROW(Pr, spring_torque_Nm),
    GAPSIM_PROBE_ROW(Pr, spring_branch),
    GAPSIM_PROBE_ROW(Pr, tau_LA_Nm),
    GAPSIM_PROBE_ROW(Pr, tau_LS_Nm),
    GAPSIM_PROBE_ROW(Pr, tau_Th_Nm),
    GAPSIM_PROBE_ROW(Pr, tau_Sh_Nm),
};

void checkMotor(const MabelTransmission::Motor& m, const char* name) {
  auto bad = [&](const char* field, double v, const char* rule) {
    throw std::invalid_argument(std::string("MABEL transmission: ") + name + "/" + field + " = " + detail::num(v) +
                                " " + rule);
  };
  if (!std::isfinite(m.gamma) || m.gamma == 0) bad("gamma", m.gamma, "must be finite and non-zero");
  if (!std::isfinite(m.K_T) || m.K_T <= 0) bad("K_T", m.K_T, "must be > 0");
  if (!std::isfinite(m.b_Nm)) bad("b", m.b_Nm, "must be finite");
  if (!std::isfinite(m.mu_Nms_rad) || m.mu_Nms_rad < 0) bad("mu", m.mu_Nms_rad, "must be >= 0");
  if (!std::isfinite(m.alpha) || m.alpha < 0) bad("alpha", m.alpha, "must be >= 0");
  if (!std::isfinite(m.J_rotor_man_kgm2) || m.J_rotor_man_kgm2 < 0)
    bad("J_rotor_man", m.J_rotor_man_kgm2, "must be >= 0");
  if (!std::isfinite(m.J_pulley_kgm2) || m.J_pulley_kgm2 < 0) bad("J_pulley", m.J_pulley_kgm2, "must be >= 0");
  if (!(m.inertia_kgm2() > 0))
    bad("J_pulley", m.J_pulley_kgm2, "(with alpha J_rotor_man) must give a motor inertia > 0");
  if (!std::isfinite(m.K_C_Nm_rad) || m.K_C_Nm_rad <= 0) bad("K_C", m.K_C_Nm_rad, "must be > 0");
  if (!std::isfinite(m.Kd_C_Nms_rad) || m.Kd_C_Nms_rad < 0) bad("Kd_C", m.Kd_C_Nms_rad, "must be >= 0");
}

}  // namespace

MabelTransmission::Params MabelTransmission::Params::left() {
  Params p;
  // Table IV (K_T, alpha, b), Table V (mu), Table III (J_3^exp), Table VII (K_C, Kd_C).
  p.mLA = makeMotor(-23.53, 1.332, -0.04652, 4.316e-3, 0.741, 7.436e-4, lumpedLA(), 3.5000, 0.0889);
  p.mLS = makeMotor(31.42, 0.995, -0.1076, 9.844e-3, 0.934, 1.112e-3, lumpedLS(), 2.9565, 0.0402);
  p.gamma_Bsp = 5.18;
  // B_Spring, and D_Spring at half its speed ((A - B)/2 with A held).
  p.J_Bsp_kgm2 = kJ_Bsp + kJ_Dsp / 4;
  p.spring.K_B_Nm_rad = 115.1;
  return p;
}

MabelTransmission::Params MabelTransmission::Params::right() {
  Params p = left();
  // Table VII prints no mLA_R column for the cable: the left leg-angle cable is used.
  p.mLA = makeMotor(-23.53, 1.269, -0.001672, 4.615e-3, 0.763, 7.328e-4, lumpedLA(), 3.5000, 0.0889);
  p.mLS = makeMotor(31.42, 1.287, 0.02995, 9.027e-3, 0.930, 1.431e-3, lumpedLS(), 2.9565, 0.0804);
  p.spring.K_B_Nm_rad = 111.7;
  return p;
}

void MabelTransmission::Params::validate() const {
  checkMotor(mLA, "mLA");
  checkMotor(mLS, "mLS");
  if (!std::isfinite(gamma_Bsp) || gamma_Bsp == 0)
    throw std::invalid_argument("MABEL transmission: Bsp/gamma = " + detail::num(gamma_Bsp) + " must be non-zero");
  if (!std::isfinite(J_Bsp_kgm2) || J_Bsp_kgm2 <= 0)
    throw std::invalid_argument("MABEL transmission: Bsp/J = " + detail::num(J_Bsp_kgm2) + " must be > 0");
  spring.validate();
  if (!std::isfinite(max_step_s) || max_step_s <= 0)
    throw std::invalid_argument("MABEL transmission: numerics/max_step = " + detail::num(max_step_s) + " must be > 0");
  if (!std::isfinite(J_link_min_kgm2) || J_link_min_kgm2 <= 0)
    throw std::invalid_argument("MABEL transmission: numerics/J_link_min = " + detail::num(J_link_min_kgm2) +
                                " must be > 0");
  // Explicit link coupling: h sqrt(K_C gamma^2 / J_link) <= 1 (see the header).
  for (const auto* m : {&mLA, &mLS}) {
    const double w = std::sqrt(m->K_C_Nm_rad * m->gamma * m->gamma / J_link_min_kgm2);
    if (max_step_s * w > 1.0)
      throw std::invalid_argument(
          std::string("MABEL transmission: numerics/max_step = ") + detail::num(max_step_s) +
          " s is too long for the cable " + (m == &mLA ? "mLA" : "mLS") + " (K_C = " + detail::num(m->K_C_Nm_rad) +
          ", gamma = " + detail::num(m->gamma) + ", J_link_min = " + detail::num(J_link_min_kgm2) +
          "): need max_step sqrt(K_C gamma^2 / J_link_min) <= 1, i.e. max_step <= " + detail::num(1.0 / w) + " s");
  }
}

std::vector<ParamInfo> MabelTransmission::Params::paramInfo() {
  std::vector<ParamInfo> out = fieldInfo<P>(kFields);
  for (auto info : MabelSpring::Params::paramInfo()) {
    info.name = "spring/" + info.name;
    out.push_back(std::move(info));
  }
  return out;
}

double MabelTransmission::Params::get(std::string_view name) const {
  std::string_view leaf;
  if (springName(name, leaf)) return spring.get(leaf);
  return getField<P>(kFields, *this, "MABEL transmission", name);
}

void MabelTransmission::Params::set(std::string_view name, double value) {
  std::string_view leaf;
  if (springName(name, leaf)) return spring.set(leaf, value);
  setField<P>(kFields, *this, "MABEL transmission", name, value);
}

std::vector<std::string> MabelTransmission::Probes::names() { return probeNames<Pr>(kProbes); }

double MabelTransmission::Probes::get(std::string_view name) const {
  return probeValue<Pr>(kProbes, *this, "MABEL transmission probes", name);
}

MabelTransmission::MabelTransmission(const Params& p) : p_(p) { p_.validate(); }

void MabelTransmission::reset(const LinkState& l) {
  const double q_LA = legAngle_rad(l.q_Th_rad, l.q_Sh_rad), q_LS = legShape_rad(l.q_Th_rad, l.q_Sh_rad);
  const double qd_LA = legAngle_rad(l.qd_Th_rad_s, l.qd_Sh_rad_s), qd_LS = legShape_rad(l.qd_Th_rad_s, l.qd_Sh_rad_s);
  s_ = {};
  s_.q_mLA_rad = p_.mLA.gamma * q_LA;
  s_.qd_mLA_rad_s = p_.mLA.gamma * qd_LA;
  s_.q_mLS_rad = p_.mLS.gamma * q_LS;
  s_.qd_mLS_rad_s = p_.mLS.gamma * qd_LS;
  if (p_.lock_mLA) s_.qd_mLA_rad_s = 0;
  if (p_.lock_mLS) s_.qd_mLS_rad_s = 0;
  fillProbes(0, 0, q_LA, qd_LA, q_LS, qd_LS);
}

MabelTransmission::Output MabelTransmission::step(double dt, double u_A, double u_S, const LinkState& l) {
  const double q_LA = legAngle_rad(l.q_Th_rad, l.q_Sh_rad), q_LS = legShape_rad(l.q_Th_rad, l.q_Sh_rad);
  const double qd_LA = legAngle_rad(l.qd_Th_rad_s, l.qd_Sh_rad_s), qd_LS = legShape_rad(l.qd_Th_rad_s, l.qd_Sh_rad_s);
  const int n = std::max(1, static_cast<int>(std::ceil(dt / p_.max_step_s - 1e-9)));
  const double h = dt / n;
  // The links get the mean of the cable torques each substep ended with (the torques the implicit
  // motor steps felt), so the exchange conserves momentum exactly.
  double tcA = 0, tcS = 0;
  for (int k = 0; k < n; ++k) {
    substep(h, u_A, u_S, q_LA + k * h * qd_LA, qd_LA, q_LS + k * h * qd_LS, qd_LS);
    fillProbes(u_A, u_S, q_LA + (k + 1) * h * qd_LA, qd_LA, q_LS + (k + 1) * h * qd_LS, qd_LS);
    tcA += probes_.cable_torque_mLA_Nm / n;
    tcS += probes_.cable_torque_mLS_Nm / n;
  }
  Probes& o = probes_;
  o.tau_LA_Nm = p_.mLA.gamma * tcA;
  o.tau_LS_Nm = p_.mLS.gamma * tcS;
  o.tau_Th_Nm = 0.5 * (o.tau_LA_Nm + o.tau_LS_Nm);
  o.tau_Sh_Nm = 0.5 * (o.tau_LA_Nm - o.tau_LS_Nm);
  return {o.tau_Th_Nm, o.tau_Sh_Nm};
}

void MabelTransmission::substep(double h, double u_A, double u_S, double q_LA, double qd_LA, double q_LS,
                                double qd_LS) {
  const Motor& A = p_.mLA;
  const Motor& S = p_.mLS;
  const double r = S.gamma / p_.gamma_Bsp;  // d lambda_S / d q_Bsp
  Eigen::Vector3d x(s_.q_mLA_rad, s_.q_mLS_rad, s_.q_Bsp_rad), v(s_.qd_mLA_rad_s, s_.qd_mLS_rad_s, s_.qd_Bsp_rad_s);
  const bool locked[3] = {p_.lock_mLA, p_.lock_mLS, p_.lock_Bsp};
  for (int i = 0; i < 3; ++i)
    if (locked[i]) v(i) = 0.0;
  const double lamA = x(0) - A.gamma * q_LA, lamAd = v(0) - A.gamma * qd_LA;
  const double lamS = x(1) - S.gamma * q_LS + r * x(2), lamSd = v(1) - S.gamma * qd_LS + r * v(2);
  const double tcA = A.K_C_Nm_rad * lamA + A.Kd_C_Nms_rad * lamAd;
  const double tcS = S.K_C_Nm_rad * lamS + S.Kd_C_Nms_rad * lamSd;
  const MabelSpring::Output sp = MabelSpring::torque(p_.spring, x(2), v(2));
  const Eigen::Vector3d f((u_A + A.b_Nm) / A.K_T - A.mu_Nms_rad * v(0) - tcA,
                          (u_S + S.b_Nm) / S.K_T - S.mu_Nms_rad * v(1) - tcS, sp.tau_Nm - r * tcS);
  Eigen::Matrix3d K = Eigen::Matrix3d::Zero(), D = Eigen::Matrix3d::Zero();
  K(0, 0) = -A.K_C_Nm_rad;
  D(0, 0) = -A.mu_Nms_rad - A.Kd_C_Nms_rad;
  K(1, 1) = -S.K_C_Nm_rad;
  K(1, 2) = K(2, 1) = -r * S.K_C_Nm_rad;
  K(2, 2) = sp.dtau_dq - r * r * S.K_C_Nm_rad;
  D(1, 1) = -S.mu_Nms_rad - S.Kd_C_Nms_rad;
  D(1, 2) = D(2, 1) = -r * S.Kd_C_Nms_rad;
  D(2, 2) = sp.dtau_dqd - r * r * S.Kd_C_Nms_rad;
  // The links move on at their speed: d f / d q_link * qd_link.
  const Eigen::Vector3d fl(A.K_C_Nm_rad * A.gamma * qd_LA, S.K_C_Nm_rad * S.gamma * qd_LS,
                           r * S.K_C_Nm_rad * S.gamma * qd_LS);
  const Eigen::Matrix3d M = Eigen::Vector3d(A.inertia_kgm2(), S.inertia_kgm2(), p_.J_Bsp_kgm2).asDiagonal();
  Eigen::Matrix3d Ms = M - h * D - h * h * K;
  Eigen::Vector3d rhs = h * (f + h * K * v + h * fl);
  // A locked coordinate has v = 0 and keeps it: its row becomes dv_i = 0 (its column then
  // multiplies zero and drops out of the other rows).
  for (int i = 0; i < 3; ++i)
    if (locked[i]) {
      Ms.row(i).setZero();
      Ms.col(i).setZero();
      Ms(i, i) = 1.0;
      rhs(i) = 0.0;
    }
  const Eigen::Vector3d dv = Ms.partialPivLu().solve(rhs);
  v += dv;
  x += h * v;
  s_ = {x(0), v(0), x(1), v(1), x(2), v(2)};
}

void MabelTransmission::fillProbes(double u_A, double u_S, double q_LA, double qd_LA, double q_LS, double qd_LS) {
  const Motor& A = p_.mLA;
  const Motor& S = p_.mLS;
  const double r = S.gamma / p_.gamma_Bsp;
  Probes& o = probes_;
  o.q_LA_rad = q_LA;
  o.q_LS_rad = q_LS;
  o.q_mLA_rad = s_.q_mLA_rad;
  o.q_mLS_rad = s_.q_mLS_rad;
  o.q_Bsp_rad = s_.q_Bsp_rad;
  o.qd_mLA_rad_s = s_.qd_mLA_rad_s;
  o.qd_mLS_rad_s = s_.qd_mLS_rad_s;
  o.qd_Bsp_rad_s = s_.qd_Bsp_rad_s;
  o.u_mLA_Nm = u_A;
  o.u_mLS_Nm = u_S;
  o.motor_torque_mLA_Nm = (u_A + A.b_Nm) / A.K_T;
  o.motor_torque_mLS_Nm = (u_S + S.b_Nm) / S.K_T;
  o.stretch_mLA_rad = s_.q_mLA_rad - A.gamma * q_LA;
  o.stretch_mLS_rad = s_.q_mLS_rad - S.gamma * q_LS + r * s_.q_Bsp_rad;
  o.cable_torque_mLA_Nm = A.K_C_Nm_rad * o.stretch_mLA_rad + A.Kd_C_Nms_rad * (s_.qd_mLA_rad_s - A.gamma * qd_LA);
  o.cable_torque_mLS_Nm =
      S.K_C_Nm_rad * o.stretch_mLS_rad + S.Kd_C_Nms_rad * (s_.qd_mLS_rad_s - S.gamma * qd_LS + r * s_.qd_Bsp_rad_s);
  const MabelSpring::Output sp = MabelSpring::torque(p_.spring, s_.q_Bsp_rad, s_.qd_Bsp_rad_s);
  o.spring_torque_Nm = sp.tau_Nm;
  o.spring_branch = static_cast<double>(sp.branch);
  o.tau_LA_Nm = A.gamma * o.cable_torque_mLA_Nm;
  o.tau_LS_Nm = S.gamma * o.cable_torque_mLS_Nm;
  o.tau_Th_Nm = 0.5 * (o.tau_LA_Nm + o.tau_LS_Nm);
  o.tau_Sh_Nm = 0.5 * (o.tau_LA_Nm - o.tau_LS_Nm);
}

}  // namespace gapsim::motorgear
