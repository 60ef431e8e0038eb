// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// DynamixelFirmware: the position law inside a ROBOTIS Dynamixel, from goal and present position
/// to the PWM duty d in [-d_max, d_max] that the H-bridge applies (motor voltage U = d V_supply).
/// Positions are quantised to the encoder tick first (goal and present are integer registers).
///
/// AX / RX series ("compliance", no PID; ROBOTIS e-Manual AX-12A / AX-18A control table, addresses
/// 26-29 and 48, and the RX-64 manual's worked example of the compliance figure). With the
/// position error in ticks e = goal - present (integers) and, on the side e points to (CCW for
/// e > 0: margin/slope addresses 27/29; CW: 26/28),
///     |e| <= margin                 d = 0                            (no torque inside the margin)
///     margin < |e|                  d = sgn(e) [p + (l - p) min(1, (|e| - margin) / slope)]
/// p = punch / 1023 (address 48, "minimum current", default 32), l = torque limit (address 34,
/// fraction of full PWM, default 1). The torque "is continuously reduced to the Punch value" over
/// the slope region (RX-64 manual); `slope` is the register's representative value: the firmware
/// knows 7 levels, data 0-3 -> 2, 4-7 -> 4, ..., 64-127 -> 64, 128-254 -> 128 (AX e-Manual), i.e.
/// 2^floor(log2(max(data, 2))). So slope 32 means full duty beyond 32 + margin ticks
/// (0.164 rad on an AX), slope 128 beyond 0.654 rad: a larger slope is a softer servo.
///
/// MX (protocol 1) and X series ("PID"): d = clamp(K_P e + K_I int e dt + K_D de/dt, -d_max, d_max)
/// with e = goal - present [rad] and de/dt = -qd (the goal is constant between commands).
/// The duty gains come from the registers through the e-Manual formulas (MX: K_P = P/8,
/// K_I = I 1000/2048, K_D = D 4/1000; X: K_P = P/128, K_I = I/65536, K_D = D/16) times one
/// duty-per-(rad x unit) scale that Rhoban's BAM measured with an oscilloscope (bam/actuator.py:
/// MX-64/106 0.158 per rad per P unit, d_max 0.9625; XC330 0.00575504 per rad per P unit). The
/// I and D scales relative to P are the e-Manual's and are not verified on hardware here. The
/// integral is clamped so that |K_I int e dt| <= d_max (anti-windup).
///
/// Moving speed (AX address 32, 0.111 rpm per unit; 0 = "maximum speed without speed control")
/// is not part of the duty: the drive applies it as a cap on the commanded no-load speed
/// (servo_drive.h). Sign: d > 0 drives q up. A joint whose ticks run against q (the BIOLOID's
/// swap = 1) sees the same law with both positions negated; it is odd in e for CW = CCW settings.
///
/// step() never throws; validate() throws std::invalid_argument with the numbers.

#include <numbers>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/component.h"
#include "motorgear/param_access.h"

namespace gapsim::motorgear {

class DynamixelFirmware : public Component<DynamixelFirmware> {
 public:
  enum class Law { Compliance = 0, Pid = 1 };

  struct Params : FieldParams<Params> {
    Law law = Law::Compliance;                                ///< "law": 0 compliance (AX/RX), 1 PID (MX/X)
    double tick_rad = 5.0 * std::numbers::pi / 3.0 / 1024.0;  ///< "tick": resolution (AX: 300 deg / 1024); 0 = none
    double supply_V = 12.0;                                   ///< "supply": V_supply
    double torque_limit = 1.0;  ///< "torque_limit": l, fraction of full PWM (AX address 34)
    double max_duty = 1.0;      ///< "max_duty": d_max of the H-bridge (MX: 0.9625, BAM)
    // Compliance (AX): registers as integers.
    double cw_margin = 1, ccw_margin = 1;  ///< "cw_margin", "ccw_margin" [ticks]
    double cw_slope = 32, ccw_slope = 32;  ///< "cw_slope", "ccw_slope" [register data]
    double punch = 32;                     ///< "punch" [1/1023 of full PWM]
    // PID (MX/X): duty per rad, per rad s, per rad/s.
    double kp_duty_rad = 5.056;       ///< "kp": K_P (MX P = 32: 32 x 0.158)
    double ki_duty_rad_s = 0.0;       ///< "ki": K_I
    double kd_duty_s_rad = 0.0;       ///< "kd": K_D
    double moving_speed_rad_s = 0.0;  ///< "moving_speed": cap on the commanded speed, 0 = none

    void validate() const;
    /// Each law reads only its own registers: a value given to the other law's would be accepted
    /// and change nothing, so a gain set on the wrong firmware (an AX's "kp") is refused, not
    /// ignored. Checked when the firmware is built, after every parameter is set, so that the
    /// order of `law` and the registers in a parameter file does not matter.
    void checkLawRegisters() const;
    /// The registers only `law` reads, by parameter name: the PID gains kp, ki, kd (Pid); the
    /// compliance margins, slopes and punch (Compliance).
    static const std::vector<std::string>& registersOf(Law law);
    /// The field table behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "DynamixelFirmware";
  };

  /// The slope register's representative value: 2^floor(log2(max(data, 2))), capped at 128.
  static int effectiveSlope(double data);
  /// MX protocol-1 registers P, I, D -> duty gains (e-Manual formulas x BAM's 0.158 scale).
  static void setMxPid(Params& p, double P, double I, double D);
  /// X-series registers (Position P/I/D Gain, addresses 84/82/80) -> duty gains (BAM's XC330 scale).
  static void setXPid(Params& p, double P, double I, double D);

  struct State {
    double integral_rad_s = 0.0;  ///< int e dt (PID)
    double duty = 0.0;            ///< last output
    double error_rad = 0.0;       ///< last quantised error
  };

  DynamixelFirmware() = default;
  explicit DynamixelFirmware(const Params& p);  ///< validates

  /// Quantises to the tick (round to nearest; identity when tick = 0).
  static double quantise(double q_rad, double tick_rad);
  /// The compliance law alone (no state), e in ticks.
  static double complianceDuty(const Params& p, double e_ticks);
  /// One control period: duty from goal and present position (both quantised here), qd for the D term.
  double step(double dt_s, double goal_rad, double present_rad, double qd_rad_s);

 private:
  friend class Component<DynamixelFirmware>;
  Params params_{};
  State state_{};
};

}  // namespace gapsim::motorgear
