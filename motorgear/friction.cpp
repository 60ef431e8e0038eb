// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/friction.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

/// BAM's titles of M1..M6, in the enum's order; their number bounds every model index below.
constexpr std::array<std::string_view, 6> kModelTitles{"Coulomb-viscous",
                                                       "Stribeck",
                                                       "load-dependent",
                                                       "Stribeck load-dependent",
                                                       "Stribeck load-dependent directional",
                                                       "Stribeck load-dependent directional quadratic"};
constexpr int kModelCount = static_cast<int>(kModelTitles.size());

using P = GearFriction::Params;

constexpr Field<P> kFields[]{
    {"model", "-", "friction model 1..6 (M1 Coulomb-viscous ... M6 quadratic), BAM",
     [](const P& p) { return static_cast<double>(static_cast<int>(p.model)); },
     [](P& p, double v) { p.model = static_cast<FrictionModel>(toInt(v, 1, kModelCount, "GearFriction: model")); }},
    memberField<P, &P::tau_c_Nm>("tau_c", "N*m", "Coulomb friction"),
    memberField<P, &P::tau_s_Nm>("tau_s", "N*m", "Stribeck excess at rest"),
    memberField<P, &P::v_s_rad_s>("v_s", "rad/s", "Stribeck velocity"),
    memberField<P, &P::alpha>("alpha", "-", "Stribeck exponent"),
    memberField<P, &P::k_l>("k_l", "-", "load friction per N m through the gearbox (M3, M4)"),
    memberField<P, &P::k_ls>("k_ls", "-", "Stribeck part of k_l (M4)"),
    memberField<P, &P::k_m>("k_m", "-", "load friction per N m of motor torque (M5, M6)"),
    memberField<P, &P::k_e>("k_e", "-", "load friction per N m of external torque (M5, M6)"),
    memberField<P, &P::k_ms>("k_ms", "-", "Stribeck part of k_m (M5, M6)"),
    memberField<P, &P::k_es>("k_es", "-", "Stribeck part of k_e (M5, M6)"),
    memberField<P, &P::q_d_1_Nm>("q_d", "1/(N*m)", "quadratic load friction while the motor drives (M6)"),
    memberField<P, &P::q_b_1_Nm>("q_b", "1/(N*m)", "quadratic load friction while the load backdrives (M6)"),
    memberField<P, &P::b_v_Nm_s_rad>("b_v", "N*m*s/rad", "viscous friction (implicit damper row)"),
    memberField<P, &P::b_2_Nm_s2_rad2>("b_2", "N*m*s^2/rad^2",
                                       "optional drag quadratic in speed, b_2 qd |qd| (explicit)"),
};

bool hasStribeck(FrictionModel m) { return m == FrictionModel::M2 || m >= FrictionModel::M4; }

}  // namespace

std::string frictionModelName(FrictionModel m) { return "M" + std::to_string(static_cast<int>(m)); }

FrictionModel parseFrictionModel(std::string_view s) {
  if (s.size() == 2 && (s[0] == 'M' || s[0] == 'm') && s[1] >= '1' && s[1] < '1' + kModelCount)
    return static_cast<FrictionModel>(s[1] - '0');
  throw std::invalid_argument("friction model: expected M1..M6, got '" + std::string(s) + "'");
}

std::string frictionModelTitle(FrictionModel m) {
  const int i = static_cast<int>(m);
  return i >= 1 && i <= kModelCount ? std::string(kModelTitles[static_cast<size_t>(i - 1)]) : "?";
}

void GearFriction::Params::validate() const {
  using detail::num;
  const int mi = static_cast<int>(model);
  if (mi < 1 || mi > kModelCount)
    throw std::invalid_argument("GearFriction: model must be 1..6, got " + std::to_string(mi));
  for (const auto& f : kFields) {
    if (f.name == "model") continue;
    const double v = f.get(*this);
    if (!std::isfinite(v) || v < 0)
      throw std::invalid_argument("GearFriction: " + std::string(f.name) + " must be finite and >= 0, got " + num(v));
  }
  if (!(v_s_rad_s > 0)) throw std::invalid_argument("GearFriction: v_s must be > 0 rad/s, got " + num(v_s_rad_s));
  if (!(alpha > 0)) throw std::invalid_argument("GearFriction: alpha must be > 0, got " + num(alpha));
}

std::vector<std::string> GearFriction::Params::modelParamNames(FrictionModel m) {
  std::vector<std::string> n{"tau_c"};
  if (hasStribeck(m)) n.insert(n.end(), {"tau_s", "v_s", "alpha"});
  switch (m) {
    case FrictionModel::M3:
      n.push_back("k_l");
      break;
    case FrictionModel::M4:
      n.insert(n.end(), {"k_l", "k_ls"});
      break;
    case FrictionModel::M5:
      n.insert(n.end(), {"k_m", "k_e", "k_ms", "k_es"});
      break;
    case FrictionModel::M6:
      n.insert(n.end(), {"k_m", "k_e", "k_ms", "k_es", "q_d", "q_b"});
      break;
    default:
      break;
  }
  n.push_back("b_v");
  return n;
}

std::span<const Field<P>> GearFriction::Params::fields() { return kFields; }

GearFriction::GearFriction(const Params& p) : p_(p) { p_.validate(); }

double GearFriction::stribeck(const Params& p, double qd_rad_s) {
  return std::exp(-std::pow(std::abs(qd_rad_s / p.v_s_rad_s), p.alpha));
}

GearFriction::Budget GearFriction::budget(const Params& p, double tau_m, double tau_e, double qd) {
  const FrictionModel m = p.model;
  const double s = hasStribeck(m) ? stribeck(p, qd) : 0.0;
  double f = p.tau_c_Nm + s * p.tau_s_Nm;
  switch (m) {
    case FrictionModel::M3:
      f += p.k_l * std::abs(tau_e - tau_m);
      break;
    case FrictionModel::M4:
      f += (p.k_l + s * p.k_ls) * std::abs(tau_e - tau_m);
      break;
    case FrictionModel::M5:
    case FrictionModel::M6:
      f += std::abs(p.k_e * tau_e - p.k_m * tau_m) + s * std::abs(p.k_es * tau_e - p.k_ms * tau_m);
      if (m == FrictionModel::M6 && ((tau_e > 0 && tau_m < 0) || (tau_e < 0 && tau_m > 0))) {
        const double ae = std::abs(tau_e), am = std::abs(tau_m);
        if (ae < am)
          f += s * p.q_d_1_Nm * ae * ae;  // the motor drives the load
        else if (ae > am)
          f += s * p.q_b_1_Nm * am * am;  // the load backdrives the motor
      }
      break;
    default:
      break;
  }
  return {f, p.b_v_Nm_s_rad};
}

double GearFriction::slidingTorque_Nm(const Params& p, double tau_m, double tau_e, double qd) {
  if (qd == 0) return 0.0;
  const Budget b = budget(p, tau_m, tau_e, qd);
  const double sg = qd > 0 ? 1.0 : -1.0;
  return -sg * b.coulomb_Nm - b.viscous_Nm_s_rad * qd - p.b_2_Nm_s2_rad2 * qd * std::abs(qd);
}

}  // namespace gapsim::motorgear
