// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/dynamixel_firmware.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = DynamixelFirmware::Params;

constexpr Field<P> kFields[]{
    {"law", "-", "0: compliance margin/slope (AX, RX); 1: PID (MX, X)",
     [](const P& p) { return static_cast<double>(static_cast<int>(p.law)); },
     [](P& p, double v) { p.law = static_cast<DynamixelFirmware::Law>(toInt(v, 0, 1, "DynamixelFirmware: law")); }},
    memberField<P, &P::tick_rad>("tick", "rad", "encoder and goal resolution (0: not quantised)"),
    memberField<P, &P::supply_V>("supply", "V", "supply voltage"),
    memberField<P, &P::torque_limit>("torque_limit", "-", "torque limit, fraction of full PWM"),
    memberField<P, &P::max_duty>("max_duty", "-", "largest PWM duty of the H-bridge"),
    memberField<P, &P::cw_margin>("cw_margin", "tick", "CW compliance margin"),
    memberField<P, &P::ccw_margin>("ccw_margin", "tick", "CCW compliance margin"),
    memberField<P, &P::cw_slope>("cw_slope", "-", "CW compliance slope register"),
    memberField<P, &P::ccw_slope>("ccw_slope", "-", "CCW compliance slope register"),
    memberField<P, &P::punch>("punch", "1/1023", "punch: duty at the margin's edge"),
    memberField<P, &P::kp_duty_rad>("kp", "1/rad", "PID: duty per rad of error"),
    memberField<P, &P::ki_duty_rad_s>("ki", "1/(rad*s)", "PID: duty per rad s of integrated error"),
    memberField<P, &P::kd_duty_s_rad>("kd", "s/rad", "PID: duty per rad/s of error rate"),
    memberField<P, &P::moving_speed_rad_s>("moving_speed", "rad/s",
                                           "moving speed cap on the commanded speed (0: none)"),
};

// BAM (Rhoban/bam, bam/actuator.py): duty per rad of error per unit of the P register.
constexpr double kMxDutyPerRadPerP = 0.158;
constexpr double kXDutyPerRadPerP = 0.00575504;

}  // namespace

void DynamixelFirmware::Params::validate() const {
  using detail::num;
  auto nonneg = [](double v) { return std::isfinite(v) && v >= 0; };
  if (!nonneg(tick_rad) || !(supply_V > 0) || !std::isfinite(supply_V))
    throw std::invalid_argument("DynamixelFirmware: need tick >= 0 and supply > 0, got tick = " + num(tick_rad) +
                                " rad, supply = " + num(supply_V) + " V");
  if (!(torque_limit >= 0 && torque_limit <= 1) || !(max_duty > 0 && max_duty <= 1))
    throw std::invalid_argument("DynamixelFirmware: torque_limit in [0, 1] and max_duty in (0, 1], got " +
                                num(torque_limit) + ", " + num(max_duty));
  if (!nonneg(cw_margin) || !nonneg(ccw_margin) || !nonneg(punch) || punch > 1023 || !nonneg(cw_slope) ||
      !nonneg(ccw_slope))
    throw std::invalid_argument("DynamixelFirmware: margins, slopes >= 0 and punch in [0, 1023], got margins " +
                                num(cw_margin) + "/" + num(ccw_margin) + ", slopes " + num(cw_slope) + "/" +
                                num(ccw_slope) + ", punch " + num(punch));
  if (!nonneg(kp_duty_rad) || !nonneg(ki_duty_rad_s) || !nonneg(kd_duty_s_rad) || !nonneg(moving_speed_rad_s))
    throw std::invalid_argument("DynamixelFirmware: kp, ki, kd, moving_speed must be >= 0, got " + num(kp_duty_rad) +
                                ", " + num(ki_duty_rad_s) + ", " + num(kd_duty_s_rad) + ", " + num(moving_speed_rad_s));
}

const std::vector<std::string>& DynamixelFirmware::Params::registersOf(Law law) {
  static const std::vector<std::string> pid = {"kp", "ki", "kd"};
  static const std::vector<std::string> compliance = {"cw_margin", "ccw_margin", "cw_slope", "ccw_slope", "punch"};
  return law == Law::Pid ? pid : compliance;
}

void DynamixelFirmware::Params::checkLawRegisters() const {
  const Law other = law == Law::Compliance ? Law::Pid : Law::Compliance;
  const Params defaults{};
  const std::vector<std::string>& away = registersOf(other);
  if (std::none_of(away.begin(), away.end(), [&](const std::string& n) { return get(n) != defaults.get(n); })) return;
  auto lawName = [](Law l) { return l == Law::Compliance ? "compliance law (law 0, AX/RX)" : "PID law (law 1, MX/X)"; };
  std::string got, own;
  for (const std::string& n : away) got += (got.empty() ? "" : ", ") + n + " = " + detail::num(get(n));
  for (const std::string& n : registersOf(law)) own += n + ", ";
  throw std::invalid_argument(std::string("DynamixelFirmware: the ") + lawName(law) +
                              " does not read the registers of the " + lawName(other) + ", got " + got + "; set " +
                              own + "or law = " + std::to_string(static_cast<int>(other)));
}

std::span<const Field<P>> DynamixelFirmware::Params::fields() { return kFields; }

int DynamixelFirmware::effectiveSlope(double data) {
  const int d = std::max(2, static_cast<int>(std::floor(data)));
  int s = 2;
  while (s * 2 <= d && s < 128) s *= 2;
  return s;
}

void DynamixelFirmware::setMxPid(Params& p, double P_, double I, double D) {
  // e-Manual MX: K_P = P/8, K_I = I 1000/2048, K_D = D 4/1000; BAM's scale is per unit of P,
  // i.e. 8 x 0.158 per unit of K_P.
  const double per_k = 8.0 * kMxDutyPerRadPerP;
  p.law = Law::Pid;
  p.kp_duty_rad = per_k * P_ / 8.0;
  p.ki_duty_rad_s = per_k * I * 1000.0 / 2048.0;
  p.kd_duty_s_rad = per_k * D * 4.0 / 1000.0;
}

void DynamixelFirmware::setXPid(Params& p, double P_, double I, double D) {
  // e-Manual X series: K_P = P/128, K_I = I/65536, K_D = D/16.
  const double per_k = 128.0 * kXDutyPerRadPerP;
  p.law = Law::Pid;
  p.kp_duty_rad = per_k * P_ / 128.0;
  p.ki_duty_rad_s = per_k * I / 65536.0;
  p.kd_duty_s_rad = per_k * D / 16.0;
}

DynamixelFirmware::DynamixelFirmware(const Params& p) : params_(p) {
  params_.validate();
  params_.checkLawRegisters();
}

double DynamixelFirmware::quantise(double q, double tick) { return tick > 0 ? tick * std::round(q / tick) : q; }

double DynamixelFirmware::complianceDuty(const Params& p, double e) {
  if (e == 0) return 0.0;
  const bool ccw = e > 0;
  const double a = std::abs(e);
  const double margin = ccw ? p.ccw_margin : p.cw_margin;
  if (a <= margin) return 0.0;
  const double slope = effectiveSlope(ccw ? p.ccw_slope : p.cw_slope);
  const double punch = std::min(p.punch / 1023.0, p.torque_limit);
  const double d = punch + (p.torque_limit - punch) * std::min(1.0, (a - margin) / slope);
  return std::min(d, p.max_duty) * (ccw ? 1.0 : -1.0);
}

double DynamixelFirmware::step(double dt_s, double goal_rad, double present_rad, double qd_rad_s) {
  const Params& p = params_;
  const double g = quantise(goal_rad, p.tick_rad), q = quantise(present_rad, p.tick_rad);
  const double e = g - q;
  state_.error_rad = e;
  double d;
  if (p.law == Law::Compliance) {
    // The registers are in ticks; without a tick the law reads the error in AX ticks.
    const double tick = p.tick_rad > 0 ? p.tick_rad : 5.0 * std::numbers::pi / 3.0 / 1024.0;
    d = complianceDuty(p, std::round(e / tick * 1e9) / 1e9);
  } else {
    const double dmax = std::min(p.max_duty, p.torque_limit);
    if (p.ki_duty_rad_s > 0) {
      state_.integral_rad_s += e * dt_s;
      const double lim = dmax / p.ki_duty_rad_s;
      state_.integral_rad_s = std::clamp(state_.integral_rad_s, -lim, lim);
    }
    d = p.kp_duty_rad * e + p.ki_duty_rad_s * state_.integral_rad_s - p.kd_duty_s_rad * qd_rad_s;
    if (!std::isnan(d)) d = std::clamp(d, -dmax, dmax);
  }
  state_.duty = d;
  return d;
}

}  // namespace gapsim::motorgear
