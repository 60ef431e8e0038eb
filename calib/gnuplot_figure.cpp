// SPDX-License-Identifier: BSD-3-Clause
#include "calib/gnuplot_figure.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gapsim::calib {

bool haveGnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

FigureStatus plotWithGnuplot(const std::string& script, const std::string& png) {
  if (!haveGnuplot()) return FigureStatus::kNoGnuplot;
  const std::string path = png + ".gp";
  std::ofstream(path) << script;
  const int rc = std::system(("gnuplot '" + path + "' 2>&1").c_str());
  std::filesystem::remove(path);
  return rc == 0 && std::filesystem::exists(png) ? FigureStatus::kWritten : FigureStatus::kFailed;
}

std::string figureStatusName(FigureStatus s) {
  switch (s) {
    case FigureStatus::kWritten:
      return "written";
    case FigureStatus::kNoGnuplot:
      return "no_gnuplot";
    case FigureStatus::kFailed:
      break;
  }
  return "failed";
}

FigureStatus figureStatusFromName(const std::string& name) {
  for (FigureStatus s : {FigureStatus::kWritten, FigureStatus::kNoGnuplot, FigureStatus::kFailed})
    if (figureStatusName(s) == name) return s;
  throw std::invalid_argument("unknown figure status '" + name + "'");
}

void to_json(nlohmann::json& j, FigureStatus s) { j = figureStatusName(s); }
void from_json(const nlohmann::json& j, FigureStatus& s) { s = figureStatusFromName(j.get<std::string>()); }

}  // namespace gapsim::calib
