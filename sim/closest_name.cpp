// SPDX-License-Identifier: BSD-3-Clause
#include "sim/closest_name.h"

#include <algorithm>

namespace gapsim {

std::string closestName(std::string_view n, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_d = n.size() >= 8 ? 3 : 2;
  for (const std::string& s : names) {
    std::vector<std::size_t> row(s.size() + 1);
    for (std::size_t j = 0; j <= s.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= n.size(); ++i) {
      std::size_t diag = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= s.size(); ++j) {
        const std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (n[i - 1] == s[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    if (row[s.size()] < best_d) best_d = row[s.size()], best = s;
  }
  return best;
}

}  // namespace gapsim
