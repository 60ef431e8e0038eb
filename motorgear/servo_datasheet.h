// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// From a servo's datasheet to its DC motor, and the datasheet presets of common Dynamixels.
///
/// Datasheet helper. A voltage-driven DC motor behind a gear of ratio N (motor turns per output
/// turn) gives at the output, at supply voltage V (steady state, L irrelevant):
///   tau = N K_t (V - K_e N w) / R                    [N m]
/// so stall torque tau_s = N K_t V / R and no-load speed w_0 = V / (N K_e). Hence
///   K_e = V / (N w_0)                                 [V s/rad, motor side]
///   with a stall current I_s:   R = V / I_s,  K_t = tau_s / (N I_s)
///   without one:                K_t = K_e (SI, lossless),  R = N K_t V / tau_s
/// With I_s the difference K_t / K_e < 1 is the gear's efficiency at stall (AX-18A: 0.69).
/// Joint-side back-EMF damping b = N^2 K_t K_e / R = tau_s / w_0 [N m s/rad]. Datasheets give no
/// inductance; L is set to R x 10 us (quasi-static at a 1 ms step, servo_drive.h).
/// The friction of the real servo makes its measured no-load speed a little lower than w_0 of
/// the motor alone; the presets take the datasheet numbers as the motor's (identification then
/// corrects them, calib/servo_identification.h).
///
/// Presets (ROBOTIS e-Manual, emanual.robotis.com, specification tables; fetched 2026-11):
///   AX-12A  docs/en/dxl/ax/ax-12a : 254:1, stall 1.5 N m at 12 V 1.5 A, 59 rpm at 12 V
///   AX-18A  docs/en/dxl/ax/ax-18a : 254:1, stall 1.8 N m at 12 V 2.2 A, 97 rpm at 12 V
///   MX-28   docs/en/dxl/mx/mx-28  : 193:1, stall 2.5 N m at 12 V 1.4 A, 55 rpm at 12 V
///   MX-64   docs/en/dxl/mx/mx-64  : 200:1, stall 6.0 N m at 12 V 4.1 A, 63 rpm at 12 V
///   MX-106  docs/en/dxl/mx/mx-106 : 225:1, stall 8.4 N m at 12 V 5.2 A, 45 rpm at 12 V
///   XL330-M288-T docs/en/dxl/x/xl330-m288 : 288.4:1, stall 0.52 N m at 5 V 1.47 A, 103 rpm at 5 V
/// Firmware defaults from the same control tables: AX compliance margin 1, slope 32, punch 32,
/// 1024 ticks over 300 deg; MX P = 32 (I = D = 0), 4096 ticks per turn, d_max 0.9625 (BAM);
/// XL330 Position P Gain 400 (I = D = 0), 4096 ticks per turn, PWM limit 885 x 0.113 % = 100 %.
/// MX-28/64/106 backlash 20 arcmin = 0.0058 rad (e-Manual); AX and XL330 give none.

#include <string>
#include <vector>

#include "motorgear/dc_motor.h"
#include "motorgear/dynamixel_firmware.h"

namespace gapsim::motorgear {

struct ServoDatasheet {
  double stall_torque_Nm = 0.0;      ///< at voltage_V, output side
  double no_load_speed_rad_s = 0.0;  ///< at voltage_V, output side
  double voltage_V = 0.0;
  double stall_current_A = 0.0;  ///< 0: not given (then K_t = K_e)
  double gear_ratio = 1.0;       ///< N = motor speed / output speed
  void validate() const;         ///< throws std::invalid_argument with the numbers
};

/// R, K_t, K_e (motor side) of the datasheet (file comment); S = 1, B_v = 0, L = R x 1e-5 s.
DcMotor::Params motorFromDatasheet(const ServoDatasheet& d);
/// Output-side stall torque N K_t V / R and no-load speed V / (N K_e) of a motor at V.
double stallTorque_Nm(const DcMotor::Params& m, double gear_ratio, double voltage_V);
double noLoadSpeed_rad_s(const DcMotor::Params& m, double gear_ratio, double voltage_V);

struct DynamixelPreset {
  std::string name;  ///< "AX-12", "AX-18", "MX-28", "MX-64", "MX-106", "XL-330"
  ServoDatasheet datasheet;
  DynamixelFirmware::Params firmware;
  double backlash_rad = 0.0;  ///< published backlash (0: none published)
  std::string source;         ///< citation of the figures
};

/// The presets above; names are matched case-insensitively, with or without '-' and a suffix
/// letter ("ax18a", "AX-18A", "AX-18" are one). Throws std::invalid_argument listing the names.
DynamixelPreset dynamixelPreset(const std::string& name);
std::vector<std::string> dynamixelPresetNames();

}  // namespace gapsim::motorgear
