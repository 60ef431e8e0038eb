// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// MabelSpring: MABEL's unilateral fibreglass spring with its hard stop, eq. (30) of Park, Sreenath,
// Hurst, Grizzle (MABEL identification report, shared/papers/003_*), torque on the B_Spring
// pulley coordinate q_Bsp [rad] (q_Bsp > 0: spring deflected):
//
//   tau_Bsp = -K_B q - Kd_B qd                                   q > 0             (free spring)
//           = -K_B q - Kd_1 q^3 - K_vd1 qd                       q <= 0, qd >= 0   (hard stop)
//           = -K_B q - Kd_1 q^3 - K_vd1 qd - K_vd2 sqrt|qd| sgn qd   q <= 0, qd < 0  (hard stop, closing)
//
// K_B = 115.1 N m/rad left, 111.7 right (Fig. 22); Kd_B 1.5, Kd_1 100, K_vd1 1000, K_vd2 50
// (Table VII; units as printed: N m s/rad, N m/rad^3, N m s/rad, N m s^0.5/rad^0.5).
// The paper's static fit also has an offset (tau = 115.1 q + 2.214, i.e. a preload of about
// 2 N m); it is not in eq. (30) and is not modelled.
//
// Derivatives for a (linearly) implicit integrator: d tau/dq and d tau/dqd. The sqrt term has an
// infinite slope at qd = 0; its derivative is evaluated at max(|qd|, v_eps) (v_eps = 1e-3 rad/s by
// default), which keeps the implicit step finite and only changes how fast the last 1e-3 rad/s
// of closing speed is removed.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class MabelSpring {
 public:
  struct Params : FieldParams<Params> {
    double K_B_Nm_rad = 115.1;      ///< spring stiffness (left 115.1, right 111.7), Fig. 22
    double Kd_B_Nms_rad = 1.5;      ///< damping of the free spring, Table VII
    double Kd_1_Nm_rad3 = 100.0;    ///< cubic stiffness of the hard stop, Table VII
    double K_vd1_Nms_rad = 1000.0;  ///< viscous damping of the hard stop, Table VII
    double K_vd2 = 50.0;            ///< square-root damping of the closing hard stop [N m (s/rad)^0.5]
    double v_eps_rad_s = 1e-3;      ///< floor of |qd| for the sqrt term's derivative

    void validate() const;  ///< all finite and >= 0, K_B and v_eps > 0 (throws std::invalid_argument)
    /// The field table behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "MABEL spring";
  };

  enum class Branch { Free = 0, Stop = 1, StopClosing = 2 };

  struct Output {
    double tau_Nm = 0.0;    ///< torque on q_Bsp
    double dtau_dq = 0.0;   ///< N m/rad
    double dtau_dqd = 0.0;  ///< N m s/rad
    Branch branch = Branch::Free;
  };

  /// Eq. (30) and its partial derivatives. Pure.
  static Output torque(const Params& p, double q_rad, double qd_rad_s);
};

}  // namespace gapsim::motorgear
