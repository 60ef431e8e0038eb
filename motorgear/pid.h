// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Pid: the joint position controller of MoToFlex Algorithm 1, line 1-4 (U = PID(q_T, q_A),
// clamped to the battery voltage U_bat).
//
// Error and sign:  e = q_target - q_measured  [rad]; a positive e gives a positive voltage, which
// (through DcMotor and Gear) gives a positive joint torque, i.e. one that increases q.
//
// Discrete law of the MoToFlex implementation that identified the parameter set
// (motoflex_nao_parameters.csv: p = 319.47, i = 14.186, d = 163.56, maxVolt = 21.6), one call per
// control period dt_ref = 1/controllerFreq = 1 ms (controllerFreq 1000 Hz = the physics rate,
// frameLen 1 ms):
//     u_k = p e_k + i dt_ref sum_{j<=k} e_j + d (e_k - e_{k-1})                [V]
//     U_k = clamp(u_k, -U_bat, +U_bat)
// i.e. the integral is integrated in time (i * frameLen * errorSum in KianRK/MoToFlex
// Simulator/simulation/pidcontroller.cpp, with frameLen = 1/controllerFreq set in
// Simulator/nao/nao.cpp), while the derivative is a plain difference per step ("d should be
// d/frameLen, but that doesnt matter", same file). The paper (004, Algorithm 1) prints only
// U = PID(q_T, q_A). So i is already a continuous gain, Ki = i = 14.186 V/(rad s); reading it as
// "per control step" (Ki = i/dt = 14186 V/(rad s)) is 1000x too large and makes the standing Nao
// hunt at ~2 Hz. The paper prints only the upper clamp (U > U_bat -> U_bat); the lower one is the
// obvious symmetric counterpart (an H-bridge drives both ways).
//
// Continuous equivalent (what step() actually evaluates, so that other control periods dt keep
// the same dynamics):
//     Kp = p [V/rad],   Ki = i [V/(rad s)],   Kd = d * dt_ref [V s/rad]
//     u = Kp e + Ki * integral(e dt) + Kd * (e_k - e_{k-1}) / dt
// With dt == dt_ref this is the discrete law above up to rounding (tested). For the MoToFlex set:
// Kp = 319.47 V/rad, Ki = 14.186 V/(rad s), Kd = 0.16356 V s/rad. The PI zero Ki/Kp = 0.044 rad/s
// lies far below the ~13 rad/s closed-loop bandwidth: the integral only trims the static error.
//
// Anti-windup (the paper does not specify one):
//   kNone         plain integration (integral can wind up while U is clamped).
//   kConditional  (default) the error is not integrated in a step where the unclamped output
//                 exceeds U_bat and the error would push it further into saturation.
//   kClamp        the integral term Ki*integral is clipped to [-U_bat, U_bat].
// The first step has no previous error: its derivative term is 0 (no kick from a zero history).
//
// Validity: any finite inputs; gains >= 0, U_bat > 0 (+infinity disables the clamp), dt > 0. step() never throws; a
// non-finite input propagates to the output (the simulator detects it).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/component.h"
#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class Pid : public Component<Pid> {
 public:
  enum class AntiWindup { kNone = 0, kConditional = 1, kClamp = 2 };

  struct Params : FieldParams<Params> {
    double p_V_rad = 319.47;                            ///< discrete proportional gain p = Kp [V/rad]
    double i_V_rad_s = 14.186;                          ///< integral gain Ki (MoToFlex integrates e dt) [V/(rad s)]
    double d_V_rad = 163.56;                            ///< discrete derivative gain per control period [V/rad]
    double dt_ref_s = 1e-3;                             ///< control period at which d is defined [s]
    double U_bat_V = 21.6;                              ///< battery voltage, output clamp +-U_bat [V]
    AntiWindup anti_windup = AntiWindup::kConditional;  ///< name "anti_windup": 0 none, 1 cond., 2 clamp

    /// Throws std::invalid_argument naming the offending values.
    void validate() const;

    double Kp_V_rad() const { return p_V_rad; }
    double Ki_V_rad_s() const { return i_V_rad_s; }
    double Kd_V_s_rad() const { return d_V_rad * dt_ref_s; }
    /// Discrete gains for continuous ones at control period dt_ref_s.
    static Params fromContinuous(double Kp_V_rad, double Ki_V_rad_s, double Kd_V_s_rad, double dt_ref_s,
                                 double U_bat_V = 21.6);

    /// The field table (names p, i, d, dt_ref, U_bat, anti_windup) behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "Pid";
  };

  struct State {
    double integral_rad_s = 0.0;  ///< integral of e dt [rad s]
    double e_prev_rad = 0.0;      ///< error of the previous step [rad]
    bool has_prev = false;        ///< false until the first step
    // Last outputs, for probes.
    double u_unclamped_V = 0.0;
    double U_V = 0.0;
    bool saturated = false;
  };

  Pid() = default;
  /// Validates params (throws std::invalid_argument).
  explicit Pid(const Params& params);

  /// One control period of length dt_s > 0; returns the clamped voltage U [V].
  double step(double dt_s, double q_target_rad, double q_measured_rad);

 private:
  friend class Component<Pid>;
  Params params_{};
  State state_{};
};

}  // namespace gapsim::motorgear
