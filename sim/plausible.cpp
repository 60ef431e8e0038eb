// SPDX-License-Identifier: BSD-3-Clause
#include "sim/plausible.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

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
  // range spans the shipped robots' values (Nao, BIOLOID, MABEL) with orders of magnitude to
  // spare; a unit is written as in the parameter tables, with '*' as ' '.
  struct MagnitudeRange {
    double lo, hi;
    std::vector<std::string_view> units;
  };
  static const MagnitudeRange kMagnitudes[] = {
      {1e-15, 1e6, {"kg m^2"}},                                   // rotor and gear inertias
      {kMass_kg.lo, kMass_kg.hi, {"kg"}},                         // link masses
      {1e-12, 1e3, {"rad"}},                                      // hull length (Nao 1.3e-5)
      {1e-9, 1e3, {"H"}},                                         // armature inductance (Nao 3e-4)
      {1e-6, 1e3, {"N m/A", "V s/rad"}},                          // torque and back-EMF constants
      {1e-6, 1e6, {"Ohm", "V"}},                                  // armature resistance, battery
      {1e-12, 1e9, {"N m s/rad", "s/rad", "N m s^2/rad^2"}},      // viscous friction, damping, kd
      {1e-9, 1e12, {"N m/rad", "N m/rad^3", "N m (s/rad)^0.5"}},  // stiffness, kp (gear D_g 1e6)
      {1e-6, 1e12, {"N/m^n", "N s/m^(n+1)"}},                     // Hunt-Crossley ground
      // torques, friction, clamps; bristle stiffness; PID gains; the voltage-domain Dynamixel's load friction
      {1e-9, 1e9, {"N m", "1/m", "V/rad", "V/(rad s)", "1/rad", "1/(rad s)", "1/(N m)"}},
      // speeds, times, rates; ratios, exponents, counts, switches; firmware margins (1 tick)
      {1e-9, 1e6, {"m/s", "rad/s", "s", "s/m", "1/s", "-", "tick"}},
      {1e-9, 1023, {"1/1023"}},  // firmware punch (BIOLOID 32/1023)
  };
  const std::string u = normalisedUnit(unit);
  // Positions are signed (a pose or an origin), not a magnitude.
  if (u == kPosition_m.unit) return kPosition_m;
  for (const MagnitudeRange& r : kMagnitudes)
    for (std::string_view name : r.units)
      if (u == name) return {r.lo, r.hi, u == "-" ? "" : name.data(), false, true};
  return kAnyNumber;
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
