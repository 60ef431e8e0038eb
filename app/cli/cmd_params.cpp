// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli params ROBOT: every parameter of a robot by name (sim/param_tree.h), with its value,
// unit and meaning; optionally written as a parameter file that --params and the GUI load.
// gapsim-cli params --controller walk|balance|hop: a controller's options with their defaults.
#include <fnmatch.h>

#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "sim/ankle_balance.h"
#include "sim/input_error.h"
#include "sim/mabel_hop_controller.h"
#include "sim/parameters.h"
#include "sim/recorder.h"
#include "sim/walk_generator.h"

namespace gapsim::cli {

namespace {

/// One row of the listing: aligned columns for a terminal, or a Markdown table row (the docs'
/// parameter tables are this output, scripts/param_tables.sh).
void printRow(bool markdown, const std::string& name, double value, const std::string& unit,
              const std::string& meaning) {
  if (markdown)
    std::printf("| `%s` | %.8g | %s | %s |\n", name.c_str(), value, unit.c_str(), meaning.c_str());
  else
    std::printf("%-44s %14.8g  %-10s %s\n", name.c_str(), value, unit.c_str(), meaning.c_str());
}

void printHeader(bool markdown, const char* value_column) {
  if (markdown)
    std::printf("| name | %s | unit | meaning |\n|---|---|---|---|\n", value_column);
  else
    std::printf("%-44s %14s  %-10s %s\n", "name", value_column, "unit", "meaning");
}

template <class P>
void printFields(std::span<const motorgear::Field<P>> table, const std::string& filter, bool markdown) {
  const P defaults{};
  printHeader(markdown, "default");
  for (const auto& f : table)
    if (fnmatch(filter.c_str(), std::string(f.name).c_str(), 0) == 0)
      printRow(markdown, std::string(f.name), f.get(defaults), std::string(f.unit), std::string(f.description));
}

void printControllerParams(const std::string& controller, const std::string& filter, bool markdown) {
  if (controller == "walk")
    printFields(walkParamFields(), filter, markdown);
  else if (controller == "balance")
    printFields(balanceParamFields(), filter, markdown);
  else
    printFields(hopParamFields(), filter, markdown);
}

}  // namespace

Action addParams(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  auto out = std::make_shared<std::string>();
  auto filter = std::make_shared<std::string>("*");
  auto probes = std::make_shared<bool>(false);
  auto controller = std::make_shared<std::string>();
  auto markdown = std::make_shared<bool>(false);
  auto* robot = app.add_option("robot", a->robot, "nao, bioloid, mabel or a path to a robot file");
  app.add_option("--controller", *controller,
                 "list a controller's options instead (walk: --walk; balance: --balance; hop: --hop)")
      ->check(CLI::IsMember({"walk", "balance", "hop"}));
  app.add_option("--params", a->params_file, "apply this parameter file first");
  app.add_option("--set", a->sets, "name=value (repeatable)");
  app.add_flag("--plain", a->plain, "show the plain-ODE model (ideal servos, rigid links)");
  app.add_option("--filter", *filter, "glob on the names, e.g. 'legs/*' or '*/gear/*'")->capture_default_str();
  app.add_option("--out", *out, "write the parameters as a parameter file (CSV name,value)");
  app.add_flag("--probes", *probes, "list the probe columns --probe can log instead");
  app.add_flag("--markdown", *markdown, "print the list as a Markdown table");
  addForceOption(app, a->force);
  return [a, out, filter, probes, controller, robot, markdown] {
    if (!controller->empty()) {
      if (robot->count() > 0 || !out->empty())
        throw InputError("", 0, "--controller", "lists a controller's options: give no robot and no --out");
      printControllerParams(*controller, *filter, *markdown);
      return kExitOk;
    }
    if (robot->count() == 0)
      throw InputError("", 0, "robot", "give a robot (nao, bioloid, mabel or a robot file) or --controller");
    claimOutputFile(*out, a->force);
    auto model = loadConfiguredModel(*a);
    if (*probes) {
      for (const auto& c : Recorder::probeColumns(*model))
        if (fnmatch(filter->c_str(), c.c_str(), 0) == 0) std::printf("%s\n", c.c_str());
      return kExitOk;
    }
    printHeader(*markdown, "value");
    for (const auto& e : listParameters(*model))
      if (fnmatch(filter->c_str(), e.name.c_str(), 0) == 0) printRow(*markdown, e.name, e.value, e.unit, e.description);
    if (!out->empty()) {
      writeParameterFile(*model, *out);
      std::fprintf(stderr, "wrote %s\n", out->c_str());
    }
    return kExitOk;
  };
}

}  // namespace gapsim::cli
