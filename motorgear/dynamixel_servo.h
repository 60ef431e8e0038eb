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
// Two optional limits of the real servo (both off by default, so the paper's law is unchanged):
//  - speed_max (rad/s): the drive term -kp (q - q_bar) is limited to +-kd speed_max, so the torque
//    in the direction of motion falls to zero at qdot = speed_max: the motor's torque-speed line
//    (back-EMF) with slope kd through the no-load speed. The real BIOLOID's hips extend at about
//    8 rad/s under load whatever the ramp they are given (real-data/bioloid lean-to-stand trials;
//    AX-18A no-load speed 97 rpm = 10.16 rad/s at 12 V), while the plain law reaches 13+ rad/s.
//  - delay_s (s): dead time between a goal position and the servo acting on it (command bus and
//    firmware latency; the real trials move about 50 ms after the first new command). Applied by
//    the Simulation to the goal (a delay line of whole steps); the static law here has no time.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/component.h"
#include "motorgear/drive.h"
#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class DynamixelServo : public Component<DynamixelServo> {
 public:
  struct Params : FieldParams<Params> {
    double kp_Nm_rad = 9.272;      ///< "kp"
    double kd_Nm_s_rad = 0.3069;   ///< "kd"
    double kc_Nm = 0.03;           ///< Coulomb friction "kc"
    double tau_min_Nm = -0.75;     ///< "tau_min"
    double tau_max_Nm = 0.75;      ///< "tau_max"
    double speed_max_rad_s = 0.0;  ///< "speed_max": no-load speed of the drive term (0: no limit)
    double delay_s = 0.0;          ///< "delay_s": goal-position dead time (Simulation only)

    void validate() const;
    /// The field table (names kp, kd, kc, tau_min, tau_max, speed_max, delay_s) behind paramNames, paramInfo, get and
    /// set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "DynamixelServo";
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
  /// The same law as the solver runs it (DynamixelDrive), with qd taken at the end of the step:
  /// with kd > 0 the drive and damping terms are one implicit damper row, target velocity
  /// -kp (q - q_bar) / kd (clamped to +-speed_max) and force bound tau_max or -tau_min on the
  /// side the law pushes to (`qd_rad_s`, the rate before the step, picks the side); with kd = 0
  /// the clamped drive term is an explicit torque. The Coulomb term kc is the joint motor's
  /// friction bound (motor_fmax at zero velocity).
  static SolverTerms solverTerms(const Params& p, double q_bar_rad, double q_rad, double qd_rad_s);

 private:
  friend class Component<DynamixelServo>;
  Params params_{};
  State state_{};
};

}  // namespace gapsim::motorgear
