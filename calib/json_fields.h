// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// JSON of the workflows' option and result structs (checkpoints, `--json` results). Each struct
/// lists its members once, with nlohmann's NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE in the file that
/// owns it: the JSON keys are the members' names, and from_json requires every key. This header
/// adds what the field lists need beyond nlohmann's own conversions: an unset std::optional is null;
/// a 64-bit seed as a decimal string; and defaults for the keys that files written before a member
/// existed lack.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace nlohmann {

template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v)
      j = *v;
    else
      j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null())
      v.reset();
    else
      v = j.get<T>();
  }
};

}  // namespace nlohmann

namespace gapsim::calib {

/// A struct's JSON by its field list, for the file that owns the struct (at namespace scope): the
/// to_json and from_json of NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE, and the struct's own toJson() and
/// fromJson(), which are just those. A struct whose JSON needs more (seeds as strings, defaults
/// for old files) lists its fields with nlohmann's macro and writes toJson/fromJson itself.
#define GAPSIM_CALIB_JSON_FIELDS(Type, ...)             \
  NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Type, __VA_ARGS__) \
  nlohmann::json Type::toJson() const { return *this; } \
  Type Type::fromJson(const nlohmann::json& j) { return j.get<Type>(); }

/// A 64-bit seed in JSON: a decimal string, since a reader that takes every number as a double
/// (53 bits) would change it.
inline nlohmann::json seedToJson(std::uint64_t seed) { return std::to_string(seed); }
inline std::uint64_t seedFromJson(const nlohmann::json& j) { return std::stoull(j.get<std::string>()); }

/// `v` by its field list, the members named in `seeds` as decimal strings (seedToJson).
template <class T>
nlohmann::json toJsonWithSeeds(const T& v, std::initializer_list<const char*> seeds) {
  nlohmann::json j = v;
  for (const char* k : seeds) j[k] = seedToJson(j.at(k).get<std::uint64_t>());
  return j;
}

/// The inverse of toJsonWithSeeds. A key of `defaults` that `j` lacks takes its value there (the
/// value a file written before the member existed meant); every other key is required.
template <class T>
T fromJsonWithSeeds(nlohmann::json j, std::initializer_list<const char*> seeds,
                    const nlohmann::json& defaults = nlohmann::json::object()) {
  for (const auto& [key, value] : defaults.items())
    if (!j.contains(key)) j[key] = value;
  for (const char* k : seeds) j[k] = seedFromJson(j.at(k));
  return j.get<T>();
}

}  // namespace gapsim::calib
