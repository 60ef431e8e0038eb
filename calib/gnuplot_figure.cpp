// SPDX-License-Identifier: BSD-3-Clause
#include "calib/gnuplot_figure.h"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include <utility>

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

namespace {

/// Every status with its JSON name, once, for both directions.
constexpr std::array<std::pair<FigureStatus, std::string_view>, 3> kStatusNames{
    {{FigureStatus::kWritten, "written"}, {FigureStatus::kNoGnuplot, "no_gnuplot"}, {FigureStatus::kFailed, "failed"}}};

}  // namespace

std::string figureStatusName(FigureStatus s) {
  for (const auto& [status, name] : kStatusNames)
    if (status == s) return std::string(name);
  return "failed";
}

FigureStatus figureStatusFromName(const std::string& name) {
  for (const auto& [status, named] : kStatusNames)
    if (named == name) return status;
  throw std::invalid_argument("unknown figure status '" + name + "'");
}

void to_json(nlohmann::json& j, FigureStatus s) { j = figureStatusName(s); }
void from_json(const nlohmann::json& j, FigureStatus& s) { s = figureStatusFromName(j.get<std::string>()); }

}  // namespace gapsim::calib
