// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// JSON of the workflows' option and result structs (checkpoints, `--json` results). Each struct
/// lists its members once, with nlohmann's NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE in the file that
/// owns it: the JSON keys are the members' names, and from_json requires every key. This header
/// adds what the field lists need beyond nlohmann's own conversions: an unset std::optional is null;
/// and, for the structs that list their keys by hand, a 64-bit seed as a decimal string.
#include <cstdint>
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

/// A 64-bit seed in JSON: a decimal string, since a reader that takes every number as a double
/// (53 bits) would change it.
inline nlohmann::json seedToJson(std::uint64_t seed) { return std::to_string(seed); }
inline std::uint64_t seedFromJson(const nlohmann::json& j) { return std::stoull(j.get<std::string>()); }

}  // namespace gapsim::calib
