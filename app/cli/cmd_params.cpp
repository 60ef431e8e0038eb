// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli params ROBOT: every drivetrain and soft-body parameter by name, with its value,
// unit and meaning; optionally written as a parameter file that --params and the GUI load.
#include <cstdio>
#include <fnmatch.h>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "sim/parameters.h"
#include "sim/recorder.h"

namespace gapsim::cli {

Action addParams(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  auto out = std::make_shared<std::string>();
  auto filter = std::make_shared<std::string>("*");
  auto probes = std::make_shared<bool>(false);
  app.add_option("robot", a->robot, "nao, bioloid, mabel or a path to a robot file")->required();
  app.add_option("--params", a->params_file, "apply this parameter file first");
  app.add_option("--set", a->sets, "name=value (repeatable)");
  app.add_flag("--plain", a->plain, "show the plain-ODE model (ideal servos, rigid links)");
  app.add_option("--filter", *filter, "glob on the names, e.g. 'legs/*' or '*/gear/*'")->capture_default_str();
  app.add_option("--out", *out, "write the parameters as a parameter file (CSV name,value)");
  app.add_flag("--probes", *probes, "list the probe columns --probe can log instead");
  addForceOption(app, a->force);
  return [a, out, filter, probes] {
    claimOutputFile(*out, a->force);
    auto model = loadConfiguredModel(*a);
    if (*probes) {
      for (const auto& c : Recorder::probeColumns(*model))
        if (fnmatch(filter->c_str(), c.c_str(), 0) == 0) std::printf("%s\n", c.c_str());
      return kExitOk;
    }
    std::printf("%-44s %14s  %-10s %s\n", "name", "value", "unit", "meaning");
    for (const auto& e : listParameters(*model))
      if (fnmatch(filter->c_str(), e.name.c_str(), 0) == 0)
        std::printf("%-44s %14.8g  %-10s %s\n", e.name.c_str(), e.value, e.unit.c_str(), e.description.c_str());
    if (!out->empty()) {
      writeParameterFile(*model, *out);
      std::fprintf(stderr, "wrote %s\n", out->c_str());
    }
    return kExitOk;
  };
}

}  // namespace gapsim::cli
