// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli export --robot R [--params P] --format urdf|mjcf --out FILE: the robot with its
// (calibrated) parameters for other simulators (sim/robot_export.h says what each format keeps).
#include <cstdio>
#include <fstream>

#include "app/cli/commands.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/robot_export.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::cli {

Action addExport(CLI::App& app) {
  struct Args {
    std::string robot, params, format, out;
  };
  auto a = std::make_shared<Args>();
  app.add_option("--robot", a->robot, "nao, bioloid, mabel or a path to a robot file")->required();
  app.add_option("--params", a->params, "parameter file (CSV name,value, e.g. a calibration's best) applied first");
  app.add_option("--format", a->format, "urdf or mjcf (MuJoCo 2.2)")
      ->required()
      ->check(CLI::IsMember({"urdf", "mjcf"}));
  app.add_option("--out", a->out, "file to write")->required();
  return [a] {
    RobotModel m = loadRobotFile(resolveRobotFile(a->robot));
    if (!a->params.empty()) loadParameterFile(m, a->params);
    const std::string text = a->format == "urdf" ? writeUrdf(m) : writeMjcf(m).xml;
    std::ofstream f(a->out);
    if (!(f << text)) throw InputError(a->out, 0, "--out", "cannot write the file");
    std::printf("wrote %s (%s, %zu links, %zu joints, %.6f kg)\n", a->out.c_str(), a->format.c_str(), m.links.size(),
                m.joints.size(), m.totalMass_kg());
    return kExitOk;
  };
}

}  // namespace gapsim::cli
