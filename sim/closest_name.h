// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The "did you mean" of every message about a name that names nothing (a robot-file attribute,
/// a parameter): one rule, so every front end suggests alike.

#include <string>
#include <string_view>
#include <vector>

namespace gapsim {

/// The name in `names` closest to `n` by edit distance (Levenshtein), the likely intent of a typo:
/// at most one edit away, two for names of 8 characters or more ("" when none is). More would
/// suggest `name` for `frame`.
std::string closestName(std::string_view n, const std::vector<std::string>& names);

}  // namespace gapsim
