// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// IdealServo: the "plain ODE" position servo, i.e. what a rigid-body simulator without a motor
// model does. The law computed here:
//     omega_cmd = clamp(gain * (q_target - q), -max_velocity, +max_velocity)     [rad/s]
// The simulator applies omega_cmd as an ODE joint-motor target velocity (dParamVel) with the
// force limit fmax (dParamFMax) [N m]; the motor is a velocity constraint solved implicitly by
// ODE, so no stability limit applies here. Sign: positive error commands a positive speed.
// Defaults: what a movable joint of a robot file has until the file says otherwise (<servo>,
// <servo_defaults>, a URDF <limit>; docs/robot-format.md): gain 20 1/s (a 1 % error in ~0.23 s),
// max velocity 10 rad/s, fmax 10 N m (N on a prismatic joint). Stateless; never throws in
// velocity().

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class IdealServo {
 public:
  struct Params : FieldParams<Params> {
    double gain_1_s = 20.0;            ///< proportional velocity gain [1/s]  "gain"
    double max_velocity_rad_s = 10.0;  ///< velocity clamp [rad/s]            "max_velocity"
    double fmax_Nm = 10.0;             ///< ODE joint-motor force limit [N m] "fmax"

    void validate() const;
    /// The field table (names gain, max_velocity, fmax) behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "IdealServo";
  };

  IdealServo() = default;
  explicit IdealServo(const Params& params);  ///< validates

  /// Commanded joint-motor velocity [rad/s].
  double velocity_rad_s(double q_target_rad, double q_rad) const;
  /// Force limit the simulator passes to the joint motor [N m].
  double fmax_Nm() const { return params_.fmax_Nm; }
  const Params& params() const { return params_; }

 private:
  Params params_{};
};

}  // namespace gapsim::motorgear
