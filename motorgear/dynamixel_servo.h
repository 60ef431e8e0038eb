// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// DynamixelServo: the identified actuator law of the BIOLOID GP's ROBOTIS Dynamixel AX-18
// (Tan et al., paper 000, eq. "torqueErrorRelationSimple"):
//     tau = clamp(-kp (q - q_bar) - kd qdot - kc sgn(qdot), tau_min, tau_max)     [N m]
// q, q_bar [rad] joint and desired angle, qdot [rad/s]; sgn(0) = 0. Positive tau increases q.
// Defaults: kp = 9.272 N m/rad, kd = 0.3069 N m s/rad, kc = 0.03 N m (paper 000), clamp
// +-0.75 N m ("25 % of stall", robot-data/ax18a_specs.csv, stall 1.8 N m at 12 V).
// kp, kd, kc are not PID gains (the AX series has none); they lump the servo's internal
// compliance-slope controller, motor and gear. Stateless; step() never throws.

#include <string>
#include <string_view>
#include <vector>

#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class DynamixelServo {
 public:
  struct Params {
    double kp_Nm_rad = 9.272;     ///< "kp"
    double kd_Nm_s_rad = 0.3069;  ///< "kd"
    double kc_Nm = 0.03;          ///< Coulomb friction "kc"
    double tau_min_Nm = -0.75;    ///< "tau_min"
    double tau_max_Nm = 0.75;     ///< "tau_max"

    void validate() const;
    /// Names: kp, kd, kc, tau_min, tau_max.
    static std::vector<std::string> paramNames();
    static std::vector<ParamInfo> paramInfo();
    double get(std::string_view name) const;
    void set(std::string_view name, double value);
  };

  struct State {
    double torque_unclamped_Nm = 0.0;  ///< last law value before the clamp
    double torque_Nm = 0.0;            ///< last output
  };

  DynamixelServo() = default;
  explicit DynamixelServo(const Params& params);  ///< validates

  /// dt_s is unused (the law is static); kept for the common step signature.
  double step(double dt_s, double q_bar_rad, double q_rad, double qd_rad_s);
  /// The pure law without state.
  static double torque_Nm(const Params& p, double q_bar_rad, double q_rad, double qd_rad_s);

  const Params& params() const { return params_; }
  const State& state() const { return state_; }

 private:
  Params params_{};
  State state_{};
};

}  // namespace gapsim::motorgear
