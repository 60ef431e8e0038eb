// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// JSON of the workflows' option and result structs (checkpoints, `--json` results). Each struct
/// lists its members once, with nlohmann's NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE in the file that
/// owns it: the JSON keys are the members' names, and from_json requires every key. This header
/// adds what the field lists need beyond nlohmann's own conversions: an unset std::optional is null.
#include <nlohmann/json.hpp>
#include <optional>

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
