// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/subcommands.h"

#include <map>
#include <memory>

namespace gapsim::cli {

Action addSubcommands(CLI::App& app, std::span<const Subcommand> subcommands) {
  app.require_subcommand(1);
  auto actions = std::make_shared<std::map<CLI::App*, Action>>();
  for (const Subcommand& s : subcommands) {
    CLI::App* sub = app.add_subcommand(s.name, s.help);
    (*actions)[sub] = s.add(*sub);
  }
  return [actions] {
    for (auto& [sub, action] : *actions)
      if (sub->parsed()) return action();
    return kExitBadInput;
  };
}

}  // namespace gapsim::cli
