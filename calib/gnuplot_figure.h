// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Figures of the identification workflows, drawn by gnuplot (an optional program: Debian's
/// gnuplot-nox, which scripts/setup.sh installs). A workflow without gnuplot still writes its CSV
/// and says the figure was skipped.

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace gapsim::calib {

enum class FigureStatus {
  kWritten,    ///< the PNG exists
  kNoGnuplot,  ///< gnuplot is not installed: nothing drawn
  kFailed,     ///< gnuplot ran and failed: no PNG
};

/// Whether a `gnuplot` program is on the PATH.
bool haveGnuplot();

/// Runs the gnuplot `script` (which writes `png`) from the file png + ".gp", removed afterwards;
/// gnuplot's messages go to standard output. kNoGnuplot without running anything when gnuplot is
/// missing.
FigureStatus plotWithGnuplot(const std::string& script, const std::string& png);

/// "written", "no_gnuplot", "failed" (the JSON form); figureStatusFromName throws
/// std::invalid_argument for another name.
std::string figureStatusName(FigureStatus s);
FigureStatus figureStatusFromName(const std::string& name);
/// The same names in a workflow's JSON (calib/json_fields.h).
void to_json(nlohmann::json& j, FigureStatus s);
void from_json(const nlohmann::json& j, FigureStatus& s);

}  // namespace gapsim::calib
