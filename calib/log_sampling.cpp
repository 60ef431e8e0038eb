// SPDX-License-Identifier: BSD-3-Clause
#include "calib/log_sampling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/input_error.h"

namespace gapsim::calib {

double uniformSampleTime_s(const CsvTable& table, const std::vector<double>& time_s, const std::string& path,
                           const std::string& why) {
  const std::size_t n = time_s.size();
  if (n < 2) throw InputError(path, 0, "time_s", "a log needs at least two samples");
  std::vector<double> steps(n - 1);
  for (std::size_t k = 1; k < n; ++k) steps[k - 1] = time_s[k] - time_s[k - 1];
  std::nth_element(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(steps.size() / 2), steps.end());
  const double T_s = steps[steps.size() / 2];
  for (std::size_t k = 1; k < n; ++k) {
    const double dt = time_s[k] - time_s[k - 1];
    if (std::abs(dt - T_s) > 0.01 * T_s)
      throw InputError(
          path, table.lineOfRow(k), "time_s",
          "not uniformly sampled: step " + sixDigits(dt) + " s, median " + sixDigits(T_s) + " s (" + why + ")");
  }
  return T_s;
}

}  // namespace gapsim::calib
