// SPDX-License-Identifier: BSD-3-Clause
#include "sim/plausible.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "sim/input_error.h"
#include "sim/text.h"

namespace gapsim::plausible {
namespace {

/// "%g" for the ends of a range: 1000, 1e+06, 1e-12.
std::string boundText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string normalisedUnit(std::string_view unit) {
  std::string u(unit);
  for (char& c : u)
    if (c == '*') c = ' ';
  return u;
}

}  // namespace

Range parameterRange(std::string_view unit) {
  // Magnitudes, 0 accepted: the lower end keeps reciprocals (1/b as a CFM, 1/R, 1/L) finite and
  // the upper end keeps products with the other quantities of a step far from overflow. Each
  // pair spans the shipped robots' values (Nao, BIOLOID, MABEL) with orders of magnitude to spare.
  static const std::map<std::string, Range, std::less<>> table = {
      {"H", {1e-9, 1e3, "H", false, true}},                   // armature inductance (Nao 3e-4)
      {"Ohm", {1e-6, 1e6, "Ohm", false, true}},               // armature resistance
      {"N m/A", {1e-6, 1e3, "N m/A", false, true}},           // torque constant
      {"V s/rad", {1e-6, 1e3, "V s/rad", false, true}},       // back-EMF constant
      {"N m s/rad", {1e-12, 1e9, "N m s/rad", false, true}},  // viscous friction, damping, kd
      {"N m/rad", {1e-9, 1e12, "N m/rad", false, true}},      // stiffness, kp (gear D_g 1e6)
      {"N m/rad^3", {1e-9, 1e12, "N m/rad^3", false, true}},
      {"N m (s/rad)^0.5", {1e-9, 1e12, "N m (s/rad)^0.5", false, true}},
      {"N m", {1e-9, 1e9, "N m", false, true}},         // torques, friction, clamps
      {"kg m^2", {1e-15, 1e6, "kg m^2", false, true}},  // rotor and gear inertias
      {"kg", {kMass_kg.lo, kMass_kg.hi, "kg", false, true}},
      {"m", kPosition_m},
      {"m/s", {1e-9, 1e6, "m/s", false, true}},
      {"rad", {1e-12, 1e3, "rad", false, true}},  // hull length (Nao 1.3e-5)
      {"rad/s", {1e-9, 1e6, "rad/s", false, true}},
      {"s", {1e-9, 1e6, "s", false, true}},
      {"s/m", {1e-9, 1e6, "s/m", false, true}},
      {"1/s", {1e-9, 1e6, "1/s", false, true}},
      {"1/m", {1e-9, 1e9, "1/m", false, true}},
      {"V", {1e-6, 1e6, "V", false, true}},
      {"V/rad", {1e-9, 1e9, "V/rad", false, true}},
      {"V/(rad s)", {1e-9, 1e9, "V/(rad s)", false, true}},
      {"N/m^n", {1e-6, 1e12, "N/m^n", false, true}},  // Hunt-Crossley ground stiffness
      {"N s/m^(n+1)", {1e-6, 1e12, "N s/m^(n+1)", false, true}},
      {"-", {1e-9, 1e6, "", false, true}},  // ratios, exponents, counts, switches
      // The voltage-domain Dynamixel's firmware registers and load friction (BIOLOID: margins 1
      // tick, punch 32/1023, PID kp 5 duty/rad).
      {"tick", {1e-9, 1e6, "tick", false, true}},
      {"1/1023", {1e-9, 1023, "1/1023", false, true}},
      {"1/rad", {1e-9, 1e9, "1/rad", false, true}},
      {"1/(rad s)", {1e-9, 1e9, "1/(rad s)", false, true}},
      {"s/rad", {1e-12, 1e9, "s/rad", false, true}},
      {"1/(N m)", {1e-9, 1e9, "1/(N m)", false, true}},
      {"N m s^2/rad^2", {1e-12, 1e9, "N m s^2/rad^2", false, true}},
  };
  const auto it = table.find(normalisedUnit(unit));
  return it != table.end() ? it->second : kAnyNumber;
}

bool accepts(const Range& r, double v) {
  if (r.magnitude) {
    const double a = std::abs(v);
    return v == 0 || (a >= r.lo && a <= r.hi);
  }
  return (r.lo_open ? v > r.lo : v >= r.lo) && v <= r.hi;
}

std::string describe(const Range& r) {
  const std::string unit = r.unit && *r.unit ? std::string(" ") + r.unit : std::string();
  if (r.magnitude) return "0 or |v| in [" + boundText(r.lo) + ", " + boundText(r.hi) + "]" + unit;
  return (r.lo_open ? "(" : "[") + boundText(r.lo) + ", " + boundText(r.hi) + "]" + unit;
}

void check(double v, const Range& r, const std::string& file, int line, const std::string& field,
           const std::string& what) {
  if (accepts(r, v)) return;
  throw InputError(
      file, line, field,
      (what.empty() ? std::string() : what + " ") + shortestText(v) + " is outside the accepted range " + describe(r));
}

}  // namespace gapsim::plausible
