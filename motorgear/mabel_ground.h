// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CompliantGround: the ground MABEL's point toes hop on (MABEL report shared/papers/003_*,
// Sec. VIII-A and Table VII: "the compliant ground model in [18], [2], using the modifications
// proposed in [20]").
//
// Normal force, Marhefka & Orin [18] (robot-data/contact_marhefka_orin.txt), z = penetration
// depth >= 0 [m], zd = penetration rate [m/s], positive into the ground:
//   F_N = max(lambda z^n zd + k z^n, 0)
//   lambda = lambda_a (3.0e6) while penetrating (zd >= 0), lambda_b (4.5e6) while rebounding:
//   CHOICE -- Table VII lists lambda_v^a and lambda_v^b without saying which is which; more damping
//   on the way out keeps the coefficient of restitution lower, and the max(., 0) removes pull.
//   n = 1.5, k = 4.38e7 N/m^1.5.
// Tangential force, a LuGre bristle model (Canudas de Wit et al. [2]) scaled by the normal force as
// in the RABBIT/Plestan ground model [20] (CHOICE: the paper only names the coefficients):
//   zt' = v - sigma_h0 |v| zt / g(v),   g(v) = alpha_h3 + (alpha_h0 - alpha_h3) exp(-(v / v_s)^2)
//   F_T = -F_N (sigma_h0 zt + sigma_h1 zt' + alpha_h2 v)
//   v = tangential slip speed [m/s], zt = bristle deflection [m]; sigma_h0 260 1/m, sigma_h1
//   2.25 s/m, alpha_h2 0.54 s/m, alpha_h0 1.71 (breakaway coefficient), alpha_h3 0.9 (sliding
//   coefficient), v_s = 0.01 m/s (CHOICE: not in Table VII). At steady sliding |F_T| -> F_N
//   (alpha_h3 + alpha_h2 |v|); at rest the bristle holds up to alpha_h0 F_N.
//   The bristle is integrated implicitly, zt1 = (zt0 + h v) / (1 + h sigma_h0 |v| / g(v)),
//   stable for any h. Off the ground (z <= 0) F = 0 and the bristle relaxes to 0.
// One instance per contact point and tangential axis set; the simulator supplies the point's
// penetration, velocity and the ground normal (world z). Pure: no ODE types.

#include <Eigen/Core>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class CompliantGround {
 public:
  struct Params : FieldParams<Params> {
    double lambda_a = 3.0e6;  ///< N s/m^(n+1): damping while penetrating
    double lambda_b = 4.5e6;  ///< N s/m^(n+1): damping while rebounding
    double n = 1.5;           ///< exponent
    double k = 4.38e7;        ///< N/m^n stiffness
    double sigma_h0 = 260.0;  ///< 1/m bristle stiffness per unit normal force
    double sigma_h1 = 2.25;   ///< s/m bristle damping per unit normal force
    double alpha_h0 = 1.71;   ///< breakaway friction coefficient g(0)
    double alpha_h2 = 0.54;   ///< s/m viscous friction per unit normal force
    double alpha_h3 = 0.9;    ///< sliding friction coefficient g(inf)
    double v_s = 0.01;        ///< m/s Stribeck speed

    void validate() const;  ///< throws std::invalid_argument naming the field
    /// The field table behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "compliant ground";
  };

  struct State {
    Eigen::Vector2d bristle_m = Eigen::Vector2d::Zero();  ///< zt along world x and y
  };

  struct Output {
    Eigen::Vector3d force_N = Eigen::Vector3d::Zero();  ///< on the toe, world frame
    double normal_N = 0.0;
    double penetration_m = 0.0;
    bool contact = false;
  };

  /// The normal force law alone (pure).
  static double normalForce_N(const Params& p, double z_m, double zd_m_s);

  /// The normal law as a spring-damper about the current state, for a simulator that applies it
  /// implicitly (an ODE contact row with ERP = h kp/(h kp + kd), CFM = 1/(h kp + kd) gives
  /// F = kp z + kd zd at the end of the step): kp = k z^(n-1) (the secant: kp z = k z^n exactly),
  /// kd = lambda z^n with lambda chosen by the sign of zd.
  struct SpringDamper {
    double kp_N_m = 0, kd_Ns_m = 0;
  };
  static SpringDamper normalSpringDamper(const Params& p, double z_m, double zd_m_s);

  /// The tangential law split for a semi-implicit step: F_T = c (v_star - v) with the damping
  /// c = F_N (sigma_h1 + alpha_h2) taken implicitly and v_star = f_expl / c, f_expl =
  /// -F_N sigma_h0 zt (1 - sigma_h1 |v| / g(v)) per axis (substituting zt' into F_T).
  struct Tangential {
    double c_Ns_m = 0;
    Eigen::Vector2d v_star_m_s = Eigen::Vector2d::Zero();
  };
  static Tangential tangential(const Params& p, const State& s, double normal_N, const Eigen::Vector2d& v_m_s);

  /// Advances the bristle over h at slip speed v (implicit, see above); z <= 0 resets it.
  static void updateBristle(const Params& p, State& s, double dt_s, bool contact, const Eigen::Vector2d& v_m_s);

  /// One frame: `height_m` = toe height above the ground (z = -height), `vel` = toe velocity
  /// (world). Advances the bristle state and returns the force on the toe.
  static Output step(const Params& p, State& s, double dt_s, double height_m, const Eigen::Vector3d& vel_m_s);
};

}  // namespace gapsim::motorgear
