// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The sample time of a uniformly sampled log (identification inputs: chirps, leg experiments).

#include <string>
#include <vector>

#include "sim/csv_table.h"

namespace gapsim::calib {

/// The median step of `time_s` (one gap or jitter does not shift it, so the error names the odd
/// row). InputError(path, the row's line, "time_s", ...) for a step more than 1 % off the median;
/// `why` ends that message, e.g. "the ARX fit needs a constant sample time". Needs >= 2 samples.
double uniformSampleTime_s(const CsvTable& table, const std::vector<double>& time_s, const std::string& path,
                           const std::string& why);

}  // namespace gapsim::calib
