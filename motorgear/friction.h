// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// GearFriction: the six friction models M1..M6 of Rhoban's BAM ("Better Actuator Models",
/// Duclusaud, Passault et al., arXiv:2410.08650, 2024; reference implementation Rhoban/bam,
/// bam/model.py, `Model.compute_frictions`), as one component usable by every drive.
///
/// A friction model here is a *budget*, not a torque: it returns the largest torque the gearbox
/// can dissipate this step, and the solver applies the friction that stops the joint within that
/// budget (BAM's "stopping torque clipped to [-tau_f, tau_f]"; in gapsim the joint's motor row with
/// target velocity 0 and FMax = tau_f, drive.h). Viscous friction b_v is the implicit damper row
/// (target 0, CFM 1/b_v), so neither term can reverse the motion or go unstable at any b/J.
///
/// Inputs (all about the joint axis, joint side, SI, positive = increases q):
///   tau_m  [N m]   motor torque delivered to the gearbox output (what the drive pushes with)
///   tau_e  [N m]   external torque on the joint (gravity, springs, contacts; the "bias" torque of
///                  BAM's simulator: J qdd = tau_m + tau_e + friction)
///   qd     [rad/s] joint rate
/// Stribeck coefficient (1 at rest, -> 0 when moving):  s(qd) = exp(-|qd / v_s|^alpha)
///
/// Budget tau_f [N m] of each model (BAM's parameter names in brackets):
///   M1 Coulomb-viscous:        tau_f = tau_c                                       [friction_base]
///   M2 Stribeck:               tau_f = tau_c + s tau_s                          [friction_stribeck]
///   M3 load-dependent:         tau_f = tau_c + k_l |tau_e - tau_m|             [load_friction_base]
///   M4 Stribeck load-dep.:     tau_f = tau_c + s tau_s + (k_l + s k_ls) |tau_e - tau_m|
///                                                                          [load_friction_stribeck]
///   M5 directional (drive vs backdrive efficiency):
///                              tau_f = tau_c + s tau_s + |k_e tau_e - k_m tau_m|
///                                      + s |k_es tau_e - k_ms tau_m|
///                    [load_friction_{external,motor}, load_friction_{external,motor}_stribeck]
///   M6 quadratic (in the load torques): M5 + s q(tau_m, tau_e), where, only when tau_m and tau_e
///      have opposite signs (the motor works against the load),
///        q = q_d tau_e^2  if |tau_e| < |tau_m|  (the motor drives the load)
///        q = q_b tau_m^2  if |tau_e| > |tau_m|  (the load backdrives the motor)
///      [q_d = load_friction_external_quad, q_b = load_friction_motor_quad in BAM]
/// Every model adds the viscous term b_v qd                                    [friction_viscous].
/// M1 is the model of MuJoCo / Isaac (frictionloss + damping). M3-M6 make the gearbox friction grow
/// with the torque it transmits; M5 makes driving (motor pushes the load) and backdriving (the
/// load pushes the motor) differ, the efficiency asymmetry of worm and high-ratio spur gears.
/// The paper reports >50 % lower simulation error than M1 on 2R arms (MX-64, MX-106, eRob).
///
/// Note on naming: BAM's M6 is quadratic in the *load torques*, not in speed; a drag quadratic in
/// speed is the separate optional term b_2 qd |qd| (explicit: it is not linear in qd), 0 by
/// default and not part of any M-model.
///
/// Validity: all coefficients >= 0, v_s > 0, alpha > 0. budget() never throws; the stored model
/// enum decides which coefficients are read (the others are ignored, so one Params can be
/// switched between models).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/param_access.h"

namespace gapsim::motorgear {

enum class FrictionModel { M1 = 1, M2, M3, M4, M5, M6 };

/// "M1".."M6"; parseFrictionModel accepts "M1".."M6" or "m1".."m6" and throws otherwise.
std::string frictionModelName(FrictionModel m);
FrictionModel parseFrictionModel(std::string_view s);
/// BAM's titles: "Coulomb-viscous", "Stribeck", "load-dependent", ...
std::string frictionModelTitle(FrictionModel m);

class GearFriction {
 public:
  struct Params : FieldParams<Params> {
    FrictionModel model = FrictionModel::M1;  ///< "model": index 1..6
    double tau_c_Nm = 0.0;                    ///< "tau_c": Coulomb friction
    double tau_s_Nm = 0.0;                    ///< "tau_s": Stribeck (static) excess, M2 M4 M5 M6
    double v_s_rad_s = 0.2;                   ///< "v_s": Stribeck velocity
    double alpha = 1.35;                      ///< "alpha": Stribeck exponent
    double k_l = 0.0;                         ///< "k_l": load friction per N m through the gearbox, M3 M4
    double k_ls = 0.0;                        ///< "k_ls": its Stribeck part, M4
    double k_m = 0.0;                         ///< "k_m": motor-torque load coefficient, M5 M6
    double k_e = 0.0;                         ///< "k_e": external-torque load coefficient, M5 M6
    double k_ms = 0.0;                        ///< "k_ms": Stribeck part of k_m, M5 M6
    double k_es = 0.0;                        ///< "k_es": Stribeck part of k_e, M5 M6
    double q_d_1_Nm = 0.0;                    ///< "q_d": quadratic coefficient while driving, M6 [1/(N m)]
    double q_b_1_Nm = 0.0;                    ///< "q_b": quadratic coefficient while backdriven, M6 [1/(N m)]
    double b_v_Nm_s_rad = 0.0;                ///< "b_v": viscous friction (the implicit damper row)
    double b_2_Nm_s2_rad2 = 0.0;              ///< "b_2": optional drag b_2 qd |qd| (explicit), any model

    void validate() const;  ///< throws std::invalid_argument with the numbers
    /// The names a model reads, in a fixed order (tau_c first, b_v last; b_2 not included).
    static std::vector<std::string> modelParamNames(FrictionModel m);
    /// The field table behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "GearFriction";
  };

  /// What the solver gets: Coulomb bound (motor row, target 0) and viscous coefficient (damper row).
  struct Budget {
    double coulomb_Nm = 0.0;        ///< tau_f of the model, >= 0
    double viscous_Nm_s_rad = 0.0;  ///< b_v
  };

  GearFriction() = default;
  explicit GearFriction(const Params& p);  ///< validates

  /// The Stribeck coefficient s(qd) = exp(-|qd / v_s|^alpha).
  static double stribeck(const Params& p, double qd_rad_s);
  /// The budget of the model for this state (see the file comment).
  static Budget budget(const Params& p, double tau_m_Nm, double tau_e_Nm, double qd_rad_s);
  Budget budget(double tau_m_Nm, double tau_e_Nm, double qd_rad_s) const {
    return budget(p_, tau_m_Nm, tau_e_Nm, qd_rad_s);
  }
  /// The friction torque a smooth evaluation would apply when the joint moves (qd != 0):
  /// -sgn(qd) tau_f - b_v qd - b_2 qd |qd|. At qd = 0 it returns 0 (stiction is the solver's job).
  static double slidingTorque_Nm(const Params& p, double tau_m_Nm, double tau_e_Nm, double qd_rad_s);

  const Params& params() const { return p_; }

 private:
  Params p_{};
};

}  // namespace gapsim::motorgear
