// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/servo_datasheet.h"

#include <cctype>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace gapsim::motorgear {
namespace {

constexpr double kRpm = 2.0 * std::numbers::pi / 60.0;

std::string normalised(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

DynamixelFirmware::Params axFirmware() {
  DynamixelFirmware::Params f;  // defaults are the AX control table's
  f.law = DynamixelFirmware::Law::Compliance;
  f.tick_rad = 300.0 / 1024.0 * std::numbers::pi / 180.0;
  f.supply_V = 12.0;
  return f;
}

DynamixelFirmware::Params mxFirmware() {
  DynamixelFirmware::Params f;
  f.tick_rad = 2.0 * std::numbers::pi / 4096.0;
  f.supply_V = 12.0;
  f.max_duty = 0.9625;
  DynamixelFirmware::setMxPid(f, 32, 0, 0);
  return f;
}

std::vector<DynamixelPreset> presets() {
  const std::string em = "ROBOTIS e-Manual, emanual.robotis.com/docs/en/dxl/";
  // The AX series: the AX firmware (compliance law), no published backlash; `figures` is the
  // e-Manual page and what it states.
  const auto ax = [&](std::string name, ServoDatasheet datasheet, const std::string& figures) {
    return DynamixelPreset{std::move(name), datasheet, axFirmware(), 0.0, em + figures};
  };
  const DynamixelPreset ax12 = ax("AX-12", {1.5, 59 * kRpm, 12.0, 1.5, 254.0},
                                  "ax/ax-12a/ (stall 1.5 N m at 12 V 1.5 A, 59 rpm at 12 V, 254:1)");
  const DynamixelPreset ax18 = ax("AX-18", {1.8, 97 * kRpm, 12.0, 2.2, 254.0},
                                  "ax/ax-18a/ (stall 1.8 N m at 12 V 2.2 A, 97 rpm at 12 V, 254:1)");
  // The MX series shares its firmware, the published 20 arcmin backlash and the source of the
  // duty scale; `figures` is the e-Manual page and what it states up to the backlash.
  const auto mx = [&](std::string name, ServoDatasheet datasheet, const std::string& figures) {
    return DynamixelPreset{std::move(name), datasheet, mxFirmware(), 20.0 / 60.0 * std::numbers::pi / 180.0,
                           em + figures + ", backlash 20 arcmin); duty scale: Rhoban BAM bam/actuator.py"};
  };
  const DynamixelPreset mx28 =
      mx("MX-28", {2.5, 55 * kRpm, 12.0, 1.4, 193.0}, "mx/mx-28/ (stall 2.5 N m at 12 V 1.4 A, 55 rpm at 12 V, 193:1");
  const DynamixelPreset mx64 =
      mx("MX-64", {6.0, 63 * kRpm, 12.0, 4.1, 200.0}, "mx/mx-64/ (stall 6.0 N m at 12 V 4.1 A, 63 rpm at 12 V, 200:1");
  const DynamixelPreset mx106 = mx("MX-106", {8.4, 45 * kRpm, 12.0, 5.2, 225.0},
                                   "mx/mx-106/ (stall 8.4 N m at 12 V 5.2 A, 45 rpm at 12 V, 225:1");
  DynamixelFirmware::Params xf;
  xf.tick_rad = 2.0 * std::numbers::pi / 4096.0;
  xf.supply_V = 5.0;
  DynamixelFirmware::setXPid(xf, 400, 0, 0);
  DynamixelPreset xl330{"XL-330",
                        {0.52, 103 * kRpm, 5.0, 1.47, 288.4},
                        xf,
                        0.0,
                        em + "x/xl330-m288/ (XL330-M288-T: stall 0.52 N m at 5 V 1.47 A, 103 rpm at 5 V, 288.4:1, "
                             "Position P Gain 400); duty scale: Rhoban BAM XC330 (bam/actuator.py)"};
  return {ax12, ax18, mx28, mx64, mx106, xl330};
}

}  // namespace

void ServoDatasheet::validate() const {
  using detail::num;
  auto pos = [](double v) { return std::isfinite(v) && v > 0; };
  if (!pos(stall_torque_Nm) || !pos(no_load_speed_rad_s) || !pos(voltage_V) || !pos(gear_ratio) ||
      !(std::isfinite(stall_current_A) && stall_current_A >= 0))
    throw std::invalid_argument(
        "ServoDatasheet: stall torque, no-load speed, voltage, gear ratio must be > 0 and the "
        "stall current >= 0, got " +
        num(stall_torque_Nm) + " N m, " + num(no_load_speed_rad_s) + " rad/s, " + num(voltage_V) + " V, ratio " +
        num(gear_ratio) + ", " + num(stall_current_A) + " A");
}

DcMotor::Params motorFromDatasheet(const ServoDatasheet& d) {
  d.validate();
  DcMotor::Params m;
  const double N = d.gear_ratio;
  m.K_e_V_s_rad = d.voltage_V / (N * d.no_load_speed_rad_s);
  if (d.stall_current_A > 0) {
    m.R_Ohm = d.voltage_V / d.stall_current_A;
    m.K_t_Nm_A = d.stall_torque_Nm / (N * d.stall_current_A);
  } else {
    m.K_t_Nm_A = m.K_e_V_s_rad;
    m.R_Ohm = N * m.K_t_Nm_A * d.voltage_V / d.stall_torque_Nm;
  }
  m.L_H = m.R_Ohm * 1e-5;
  m.S = 1.0;
  m.B_v_Nm_s_rad = 0.0;
  return m;
}

double stallTorque_Nm(const DcMotor::Params& m, double N, double V) { return N * m.K_t_Nm_A * V / m.R_Ohm; }
double noLoadSpeed_rad_s(const DcMotor::Params& m, double N, double V) { return V / (N * m.K_e_V_s_rad); }

DynamixelPreset dynamixelPreset(const std::string& name) {
  const std::string n = normalised(name);
  for (const DynamixelPreset& p : presets()) {
    const std::string pn = normalised(p.name);  // "AX18"
    if (n == pn || (n.size() == pn.size() + 1 && n.compare(0, pn.size(), pn) == 0 && std::isalpha(n.back())) ||
        (pn == "XL330" && n.rfind("XL330", 0) == 0))
      return p;
  }
  std::string known;
  for (const auto& k : dynamixelPresetNames()) known += " " + k;
  throw std::invalid_argument("Dynamixel preset: unknown '" + name + "' (known:" + known + ")");
}

std::vector<std::string> dynamixelPresetNames() {
  std::vector<std::string> out;
  for (const auto& p : presets()) out.push_back(p.name);
  return out;
}

}  // namespace gapsim::motorgear
