// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Name-based access to the scalar fields of a parameter struct: the field table, the one form
// every parameter of gapsim takes (motorgear's Params here; the robot model's links, soft links,
// solver and contact, and the controllers' options in sim/ use the same table).
//
// The simulator, CLI, GUI and calibration address parameters by name, e.g.
// `legs/typeA/gear/D_g` or `LKneePitch/motor/B_v`: the owner adds `<joint or group>/<component>/`,
// each Params only knows its own leaf names (`D_g`, `B_v`). Every value is a double; integer,
// boolean and enum fields are set from exactly representable doubles (enums by their index, which
// each Params documents) and anything else throws std::invalid_argument.

#include <cmath>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gapsim::motorgear {

/// One addressable parameter: leaf name, SI unit (or "-" for non-dimensional), one-line meaning.
struct ParamInfo {
  std::string name;
  std::string unit;
  std::string description;
  /// A derived view: computed from other leaves of the same part, and setting it sets this one
  /// (a servo's stall torque N K_t V / R sets K_t). Empty: the leaf is a field of its own.
  std::string sets = {};
};

/// One row of a field table: captureless lambdas convert to the pointers. `set` may throw
/// std::invalid_argument for a value the field cannot hold (a fraction for an integer); range
/// checks that involve several fields belong to the struct's validate().
template <class P>
struct Field {
  std::string_view name;
  std::string_view unit;
  std::string_view description;
  double (*get)(const P&);
  void (*set)(P&, double);
};

/// A field row for a plain double member of P, reached by one member pointer or a path of them
/// into a nested struct (`memberField<P, &P::mLA, &Motor::gamma>`): the accessors are written
/// once here, so a table row names its member once and cannot read one member and write another.
template <class P, auto... Path>
constexpr Field<P> memberField(std::string_view name, std::string_view unit, std::string_view description) {
  static_assert(
      std::is_same_v<std::remove_cv_t<std::remove_reference_t<decltype((std::declval<P&>().*....*Path))>>, double>,
      "memberField is for double members; other types need their own conversion");
  return {name, unit, description, [](const P& p) { return (p.*....*Path); },
          [](P& p, double v) { (p.*....*Path) = v; }};
}

/// The names of a table's rows (a field or a probe table).
template <class Row>
std::vector<std::string> rowNames(std::span<const Row> table) {
  std::vector<std::string> out;
  out.reserve(table.size());
  for (const auto& f : table) out.emplace_back(f.name);
  return out;
}

template <class P>
std::vector<std::string> fieldNames(std::span<const Field<P>> table) {
  return rowNames(table);
}

template <class P>
std::vector<ParamInfo> fieldInfo(std::span<const Field<P>> table) {
  std::vector<ParamInfo> out;
  out.reserve(table.size());
  for (const auto& f : table) out.push_back({std::string(f.name), std::string(f.unit), std::string(f.description)});
  return out;
}

/// Throws std::invalid_argument naming the component, the unknown name and the known ones.
[[noreturn]] inline void throwUnknown(std::string_view component, std::string_view name,
                                      const std::vector<std::string>& known) {
  std::string msg = std::string(component) + ": unknown parameter '" + std::string(name) + "' (known:";
  for (const auto& k : known) msg += " " + k;
  msg += ")";
  throw std::invalid_argument(msg);
}

template <class P>
double getField(std::span<const Field<P>> table, const P& p, std::string_view component, std::string_view name) {
  for (const auto& f : table)
    if (f.name == name) return f.get(p);
  throwUnknown(component, name, fieldNames(table));
}

template <class P>
void setField(std::span<const Field<P>> table, P& p, std::string_view component, std::string_view name, double value) {
  for (const auto& f : table)
    if (f.name == name) {
      f.set(p, value);
      return;
    }
  throwUnknown(component, name, fieldNames(table));
}

/// The by-name accessors of a Params struct, written once over its field table (CRTP):
/// `struct Params : FieldParams<Params>` declares `static std::span<const Field<Params>> fields()`
/// (its table) and `static constexpr std::string_view kComponent` (the name its errors start
/// with), and has paramNames(), paramInfo(), get() and set(). The base is empty: no member, no
/// virtual, Params keeps its layout.
template <class P>
struct FieldParams {
  static std::vector<std::string> paramNames() { return fieldNames<P>(P::fields()); }
  static std::vector<ParamInfo> paramInfo() { return fieldInfo<P>(P::fields()); }
  double get(std::string_view name) const {
    return getField<P>(P::fields(), static_cast<const P&>(*this), P::kComponent, name);
  }
  void set(std::string_view name, double value) {
    setField<P>(P::fields(), static_cast<P&>(*this), P::kComponent, name, value);
  }
};

/// One row of a probe table: a named value of a drive's last step, read from its Probes struct
/// (logs and plots ask for probes by name, as for parameters).
template <class S>
struct Probe {
  std::string_view name;
  double (*get)(const S&);
};

/// A probe row for the member `field` of the Probes struct `S`, named as the member.
#define GAPSIM_PROBE_ROW(S, field)                                  \
  ::gapsim::motorgear::Probe<S> {                                   \
#field, [](const S& s) { return static_cast<double>(s.field); } \
  }

template <class S>
std::vector<std::string> probeNames(std::span<const Probe<S>> table) {
  return rowNames(table);
}

template <class S>
double probeValue(std::span<const Probe<S>> table, const S& s, std::string_view component, std::string_view name) {
  for (const auto& f : table)
    if (f.name == name) return f.get(s);
  throwUnknown(component, name, probeNames(table));
}

/// Converts a double to an integer in [lo, hi] or throws with the number.
inline int toInt(double v, int lo, int hi, std::string_view what) {
  if (!std::isfinite(v) || v != std::floor(v) || v < lo || v > hi)
    throw std::invalid_argument(std::string(what) + ": expected an integer in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "], got " + std::to_string(v));
  return static_cast<int>(v);
}

inline bool toBool(double v, std::string_view what) { return toInt(v, 0, 1, what) == 1; }

namespace detail {

/// "name = value" with full precision, for validate() messages.
inline std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace detail

/// Throws std::invalid_argument "<component>: <name> = <value> must be finite and >= 0" for the
/// first row of `table` whose value in `p` is negative or not finite: the common floor of a part
/// whose every parameter is a stiffness, damping or length (the further bounds are its own).
template <class P>
void requireFiniteNonNegative(std::span<const Field<P>> table, const P& p, std::string_view component) {
  for (const auto& f : table) {
    const double v = f.get(p);
    if (!std::isfinite(v) || v < 0)
      throw std::invalid_argument(std::string(component) + ": " + std::string(f.name) + " = " + detail::num(v) +
                                  " must be finite and >= 0");
  }
}

}  // namespace gapsim::motorgear
