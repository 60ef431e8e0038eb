// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// JointDrivetrain: one Nao joint's actuator chain, MoToFlex Algorithms 1 and 2 in series:
//     U   = clamp(PID(q_target, q), -U_bat, U_bat)                    Pid       (Alg. 1, 1-4)
//     U_R += (U - U_R)(1 - exp(-dt R/L)),  T_M = S K_t U_R/R - B_v qd DcMotor   (Alg. 1, 5-6)
//     T_j = Gear(sigma T_M; q, qd)                                    Gear      (Alg. 2)
// returning the joint torque T_j [N m] (positive increases q) for the simulator to apply over the
// next frame. Dry joint friction is NOT here: the simulator applies it as an ODE joint motor with
// target velocity 0 and FMax = jointFriction (motoflex_nao_parameters.csv), as MoToFlex does.
//
// Stage switches (Params::enable_*):
//   enable_pid = false           U = 0: the motor is unpowered (limp joint; friction, back-EMF
//                                and the gear still act).
//   enable_battery_clamp = false the PID output is not limited (U_bat = +inf for the PID).
//   enable_motor = false         no RL circuit and no speed friction: T_M = (S K_t / R) * U, the
//                                motor's static gain [N m/V, motor side; 2.12e-3 for MoToFlex],
//                                so the PID output acts as a torque directly (joint side:
//                                sigma S K_t / R = 0.427 N m/V for type A, 0.277 for type B).
//   enable_gear = false          T_j = sigma T_M (rigid, backlash-free reduction).
// Speed friction routing: with Gear::Variant::kMotoflex2011 (or the gear off) B_v multiplies the
// joint speed qd inside DcMotor, as in the paper. With kCoupled, B_v belongs to the motor side of
// the compliant gear: DcMotor gets omega_joint = 0 and the gear mass gets the extra implicit
// friction sigma * B_v (added to gear.B_m), so the joint only feels it through the gear.
// A true back-EMF (motor.K_e > 0) uses omega_motor = sigma * qd (kCoupled: sigma * gear mass speed).
// With Params::back_emf_external the host applies it instead (implicitly; see the field).
//
// Defaults = MoToFlex gear type A (sigma 201.3; HipYawPitch, HipRoll, AnkleRoll); typeB() gives
// type B (130.85; HipPitch, KneePitch, AnklePitch). Source: robot-data/motoflex_nao_parameters.csv
// (KianRK/MoToFlex config/Normal.gnm). Reflected rotor inertia sigma^2 J_rotor is NOT integrated
// here: the simulator adds reflectedInertia_kgm2() to the joint (0 with the MoToFlex defaults).
//
// Explicit-torque stability at the joint (the simulator's concern, stated here because the
// numbers come from these params): the speed term sigma*B_v*qd applied as a constant torque over a
// frame dt is stable only if jointDamping_Nm_s_rad() * dt / J_joint < 2, J_joint the inertia about
// the joint axis including the armature: type A 10.76 N m s/rad -> J_joint > 5.4e-3 kg m^2 at 1 ms,
// type B 5.08 -> J_joint > 2.5e-3 kg m^2. A swinging Nao foot (~3e-4 kg m^2 about the ankle)
// violates this unless the armature (sigma^2 J_rotor) is added or the term is applied implicitly.
//
// Parameter names (prefix with "<joint or group>/"): "pid/<Pid name>", "motor/<DcMotor name>",
// "gear/<Gear name>", "enable/pid", "enable/battery_clamp", "enable/motor", "enable/gear".
// step() never throws; non-finite values propagate.

#include <string>
#include <string_view>
#include <vector>

#include "motorgear/dc_motor.h"
#include "motorgear/gear.h"
#include "motorgear/param_access.h"
#include "motorgear/pid.h"

namespace gapsim::motorgear {

class JointDrivetrain {
 public:
  struct Params {
    Pid::Params pid{};
    DcMotor::Params motor{};
    Gear::Params gear{};
    bool enable_pid = true;
    bool enable_battery_clamp = true;
    bool enable_motor = true;
    bool enable_gear = true;
    /// Not a parameter: set by a host that applies the back-EMF damping jointDamping_Nm_s_rad()
    /// itself, implicitly (the simulator's damper row). step() then leaves sigma^2 S K_t K_e qd / R
    /// out of the torque, and the current and U_R probes still show the back-EMF. Only with
    /// Gear::Variant::kMotoflex2011, where the back-EMF uses the joint speed.
    bool back_emf_external = false;

    void validate() const;  ///< validates every stage; the message names the stage

    static Params typeA();  ///< MoToFlex gear type A (201.3), motor B_v 5.346e-2
    static Params typeB();  ///< MoToFlex gear type B (130.85), motor B_v 3.883e-2

    static std::vector<std::string> paramNames();
    static std::vector<ParamInfo> paramInfo();
    double get(std::string_view name) const;
    void set(std::string_view name, double value);
  };

  /// Every internal signal of the last step (for recording, plotting, tests).
  struct Probes {
    double q_target_rad = 0.0;
    double error_rad = 0.0;      ///< q_target - q
    double U_unclamped_V = 0.0;  ///< PID output before the battery clamp
    double U_V = 0.0;            ///< voltage applied to the motor
    bool pid_saturated = false;
    double U_R_V = 0.0;  ///< voltage across R
    double current_A = 0.0;
    double motor_friction_Nm = 0.0;       ///< B_v * omega (motor side)
    double motor_torque_Nm = 0.0;         ///< T_M (motor side)
    double gear_input_torque_Nm = 0.0;    ///< T' = sigma T_M (joint side)
    double gear_mass_position_rad = 0.0;  ///< p_m (radius 1: also metres)
    double gear_mass_speed_rad_s = 0.0;   ///< pd_m
    double gear_deflection_rad = 0.0;     ///< kMotoflex2011: p_m; kCoupled: p_m - q
    double spring_rad = 0.0;              ///< p_h, compression beyond the hull
    bool hull_contact = false;
    double spring_torque_Nm = 0.0;  ///< T_s, last substep
    double joint_torque_Nm = 0.0;   ///< T_j returned by step()

    /// Names of the fields above (same spelling), booleans as 0/1.
    static std::vector<std::string> names();
    double get(std::string_view name) const;  ///< throws std::invalid_argument if unknown
  };

  struct State {
    Pid::State pid{};
    DcMotor::State motor{};
    Gear::State gear{};
    Probes probes{};
  };

  JointDrivetrain() : JointDrivetrain(Params{}) {}
  explicit JointDrivetrain(const Params& params);  ///< validates (throws std::invalid_argument)

  /// One frame: returns the joint torque T_j [N m] to apply over the next dt_s.
  double step(double dt_s, double q_target_rad, double q_rad, double qd_rad_s);

  /// Zeroes all stage states; a coupled gear is centred on q_rad.
  void reset(double q_rad = 0.0, double qd_rad_s = 0.0);

  State state() const;
  void setState(const State& s);
  const Probes& probes() const { return probes_; }
  const Params& params() const { return params_; }

  /// sigma^2 J_rotor: inertia to add about the joint axis [kg m^2].
  double reflectedInertia_kgm2() const { return params_.gear.reflectedInertia_kgm2(); }
  /// Viscous damping the drivetrain puts on the joint speed at steady state [N m s/rad]
  /// (sigma B_v + sigma^2 S K_t K_e / R; 0 with the motor off).
  double jointDamping_Nm_s_rad() const;
  /// Stall torque at the joint with the full battery voltage, sigma S K_t U_bat / R [N m].
  double jointStallTorque_Nm() const;

 private:
  Params params_;
  Pid pid_;
  DcMotor motor_;
  Gear gear_;
  Probes probes_{};
};

}  // namespace gapsim::motorgear
