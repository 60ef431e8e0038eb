// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/mabel_spring.h"

#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = MabelSpring::Params;

constexpr Field<P> kFields[]{
    memberField<P, &P::K_B_Nm_rad>("K_B", "N m/rad", "spring stiffness on q_Bsp (Fig. 22)"),
    memberField<P, &P::Kd_B_Nms_rad>("Kd_B", "N m s/rad", "damping of the free spring (Table VII)"),
    memberField<P, &P::Kd_1_Nm_rad3>("Kd_1", "N m/rad^3", "cubic stiffness of the hard stop (Table VII)"),
    memberField<P, &P::K_vd1_Nms_rad>("K_vd1", "N m s/rad", "viscous damping of the hard stop (Table VII)"),
    memberField<P, &P::K_vd2>("K_vd2", "N m (s/rad)^0.5", "square-root damping of the closing hard stop (Table VII)"),
    memberField<P, &P::v_eps_rad_s>("v_eps", "rad/s", "floor of |qd| in the derivative of the sqrt term"),
};

}  // namespace

void MabelSpring::Params::validate() const {
  requireFiniteNonNegative<P>(kFields, *this, kComponent);
  if (K_B_Nm_rad <= 0) throw std::invalid_argument("MABEL spring: K_B = " + detail::num(K_B_Nm_rad) + " must be > 0");
  if (v_eps_rad_s <= 0)
    throw std::invalid_argument("MABEL spring: v_eps = " + detail::num(v_eps_rad_s) + " must be > 0");
}

std::span<const Field<P>> MabelSpring::Params::fields() { return kFields; }

MabelSpring::Output MabelSpring::torque(const Params& p, double q, double qd) {
  Output o;
  if (q > 0) {
    o.branch = Branch::Free;
    o.tau_Nm = -p.K_B_Nm_rad * q - p.Kd_B_Nms_rad * qd;
    o.dtau_dq = -p.K_B_Nm_rad;
    o.dtau_dqd = -p.Kd_B_Nms_rad;
    return o;
  }
  o.tau_Nm = -p.K_B_Nm_rad * q - p.Kd_1_Nm_rad3 * q * q * q - p.K_vd1_Nms_rad * qd;
  o.dtau_dq = -p.K_B_Nm_rad - 3.0 * p.Kd_1_Nm_rad3 * q * q;
  o.dtau_dqd = -p.K_vd1_Nms_rad;
  if (qd < 0) {
    o.branch = Branch::StopClosing;
    const double s = std::sqrt(-qd);
    o.tau_Nm += p.K_vd2 * s;  // -K_vd2 sqrt|qd| sgn(qd) with sgn = -1
    // d/dqd (K_vd2 sqrt(-qd)) = -K_vd2 / (2 sqrt(-qd)), slope floored at |qd| = v_eps
    o.dtau_dqd -= 0.5 * p.K_vd2 / std::sqrt(std::max(-qd, p.v_eps_rad_s));
  } else {
    o.branch = Branch::Stop;
  }
  return o;
}

}  // namespace gapsim::motorgear
