// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/mabel_ground.h"

#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = CompliantGround::Params;

constexpr Field<P> kFields[]{
    memberField<P, &P::lambda_a>("lambda_a", "N s/m^(n+1)", "normal damping while penetrating (Table VII lambda_v^a)"),
    memberField<P, &P::lambda_b>("lambda_b", "N s/m^(n+1)", "normal damping while rebounding (Table VII lambda_v^b)"),
    memberField<P, &P::n>("n", "-", "Marhefka-Orin exponent (Table VII)"),
    memberField<P, &P::k>("k", "N/m^n", "normal stiffness (Table VII)"),
    memberField<P, &P::sigma_h0>("sigma_h0", "1/m", "bristle stiffness per unit normal force (Table VII)"),
    memberField<P, &P::sigma_h1>("sigma_h1", "s/m", "bristle damping per unit normal force (Table VII)"),
    memberField<P, &P::alpha_h0>("alpha_h0", "-", "breakaway friction coefficient (Table VII)"),
    memberField<P, &P::alpha_h2>("alpha_h2", "s/m", "viscous friction per unit normal force (Table VII)"),
    memberField<P, &P::alpha_h3>("alpha_h3", "-", "sliding friction coefficient (Table VII)"),
    memberField<P, &P::v_s>("v_s", "m/s", "Stribeck speed (not in the paper)"),
};

}  // namespace

void CompliantGround::Params::validate() const {
  requireFiniteNonNegative<P>(kFields, *this, kComponent);
  if (k <= 0) throw std::invalid_argument("compliant ground: k = " + detail::num(k) + " must be > 0");
  if (n < 1) throw std::invalid_argument("compliant ground: n = " + detail::num(n) + " must be >= 1");
  if (alpha_h3 <= 0 || alpha_h0 <= 0 || v_s <= 0)
    throw std::invalid_argument("compliant ground: alpha_h0 = " + detail::num(alpha_h0) + ", alpha_h3 = " +
                                detail::num(alpha_h3) + " and v_s = " + detail::num(v_s) + " must be > 0");
}

std::span<const Field<P>> CompliantGround::Params::fields() { return kFields; }

double CompliantGround::normalForce_N(const Params& p, double z, double zd) {
  if (z <= 0) return 0.0;
  const double zn = std::pow(z, p.n);
  const double lambda = zd >= 0 ? p.lambda_a : p.lambda_b;
  return std::max(lambda * zn * zd + p.k * zn, 0.0);
}

namespace {
double stribeck(const CompliantGround::Params& p, double v) {
  return p.alpha_h3 + (p.alpha_h0 - p.alpha_h3) * std::exp(-(v / p.v_s) * (v / p.v_s));
}
}  // namespace

CompliantGround::SpringDamper CompliantGround::normalSpringDamper(const Params& p, double z, double zd) {
  if (z <= 0) return {};
  const double zn1 = std::pow(z, p.n - 1);
  return {p.k * zn1, (zd >= 0 ? p.lambda_a : p.lambda_b) * zn1 * z};
}

CompliantGround::Tangential CompliantGround::tangential(const Params& p, const State& s, double fn,
                                                        const Eigen::Vector2d& v) {
  Tangential t;
  t.c_Ns_m = fn * (p.sigma_h1 + p.alpha_h2);
  if (t.c_Ns_m <= 0) return t;
  for (int a = 0; a < 2; ++a) {
    const double f = -fn * p.sigma_h0 * s.bristle_m(a) * (1.0 - p.sigma_h1 * std::abs(v(a)) / stribeck(p, v(a)));
    t.v_star_m_s(a) = f / t.c_Ns_m;
  }
  return t;
}

void CompliantGround::updateBristle(const Params& p, State& s, double h, bool contact, const Eigen::Vector2d& v) {
  if (!contact) {
    s.bristle_m.setZero();
    return;
  }
  for (int a = 0; a < 2; ++a)
    s.bristle_m(a) = (s.bristle_m(a) + h * v(a)) / (1.0 + h * p.sigma_h0 * std::abs(v(a)) / stribeck(p, v(a)));
}

CompliantGround::Output CompliantGround::step(const Params& p, State& s, double h, double height,
                                              const Eigen::Vector3d& vel) {
  Output o;
  const double z = -height;
  if (z <= 0) {
    s.bristle_m.setZero();
    return o;
  }
  o.contact = true;
  o.penetration_m = z;
  o.normal_N = normalForce_N(p, z, -vel.z());
  Eigen::Vector2d ft = Eigen::Vector2d::Zero();
  for (int a = 0; a < 2; ++a) {
    const double v = vel(a);
    const double g = p.alpha_h3 + (p.alpha_h0 - p.alpha_h3) * std::exp(-(v / p.v_s) * (v / p.v_s));
    const double z0 = s.bristle_m(a);
    const double z1 = (z0 + h * v) / (1.0 + h * p.sigma_h0 * std::abs(v) / g);
    const double zdot = (z1 - z0) / h;
    s.bristle_m(a) = z1;
    ft(a) = -o.normal_N * (p.sigma_h0 * z1 + p.sigma_h1 * zdot + p.alpha_h2 * v);
  }
  o.force_N = Eigen::Vector3d(ft(0), ft(1), o.normal_N);
  return o;
}

}  // namespace gapsim::motorgear
