// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli excite: input signals for identification experiments, one sub-subcommand per signal.
// `excite chirp`: MABEL's chirp (paper 003, Section IV-C; calib/mabel_identification.h).
// `excite leg`: that chirp simulated on the leg test stand (calib/leg_excite_workflow.h; its
// adapter: app/cli/identify_leg.cpp). New signals add an entry to kSignals below.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/identify_leg.h"
#include "app/cli/output_paths.h"
#include "app/cli/subcommands.h"
#include "calib/mabel_identification.h"
#include "sim/input_error.h"

namespace gapsim::cli {

namespace {

struct ChirpArgs {
  std::string out;
  bool force = false;
  calib::ChirpOptions opt;
};

int runChirp(const ChirpArgs& a) {
  const calib::ChirpSignal s = calib::chirpExcitation(a.opt);  // std::invalid_argument -> exit 2
  claimOutputFile(a.out, a.force);
  std::ofstream f(a.out);
  if (!f) throw InputError(a.out, 0, "--out", "cannot write");
  f << "# chirp (MABEL paper 003, Section IV-C): " << a.opt.steps << " logarithmic steps from " << a.opt.f_start_Hz
    << " to " << a.opt.f_end_Hz << " Hz, " << a.opt.periods << " periods each; amplitude " << a.opt.amplitude_start_Nm
    << " N m growing geometrically to " << a.opt.amplitude_end_Nm << " N m, offset " << a.opt.offset_Nm << " N m\n";
  f << "time_s,u_Nm\n" << std::setprecision(10);
  for (std::size_t k = 0; k < s.time_s.size(); ++k) f << s.time_s[k] << ',' << s.u_Nm[k] << '\n';
  f.close();
  if (!f) throw InputError(a.out, 0, "--out", "write failed");
  std::cout << "chirp: " << s.time_s.size() << " samples, " << s.time_s.size() * a.opt.sample_time_s
            << " s at T_s = " << a.opt.sample_time_s << " s\n  step  f (Hz)    amplitude (N m)\n";
  for (std::size_t j = 0; j < s.step_frequency_Hz.size(); ++j)
    std::cout << "  " << std::setw(4) << j + 1 << "  " << std::setw(8) << std::setprecision(4) << s.step_frequency_Hz[j]
              << "  " << std::setw(8) << s.step_amplitude_Nm[j] << "\n";
  std::cout << "  written: " << a.out << std::endl;
  return kExitOk;
}

Action addChirp(CLI::App& app) {
  auto a = std::make_shared<ChirpArgs>();
  app.add_option("--out", a->out, "CSV to write: time_s, u_Nm")->required();
  addForceOption(app, a->force);
  app.add_option("--ts", a->opt.sample_time_s, "sample time T_s (s)")->capture_default_str();
  app.add_option("--amplitude", a->opt.amplitude_start_Nm, "amplitude of the first (slowest) step (N m)")
      ->capture_default_str();
  app.add_option("--amplitude-end", a->opt.amplitude_end_Nm,
                 "amplitude of the last step (N m); geometric growth in between")
      ->capture_default_str();
  app.add_option("--offset", a->opt.offset_Nm, "constant added to the input (N m)")->capture_default_str();
  app.add_option("--f-start", a->opt.f_start_Hz, "first frequency (Hz)")->capture_default_str();
  app.add_option("--f-end", a->opt.f_end_Hz, "last frequency (Hz)")->capture_default_str();
  app.add_option("--steps", a->opt.steps, "number of logarithmic frequency steps")->capture_default_str();
  app.add_option("--periods", a->opt.periods, "periods held at each frequency")->capture_default_str();
  return [a] { return runChirp(*a); };
}

constexpr Subcommand kSignals[] = {
    {"chirp", "stepped-frequency chirp of MABEL paper 003 (0.5-50 Hz, 17 steps, 10 periods, growing amplitude)",
     addChirp},
    {"leg", "a synthetic MABEL leg experiment on the test stand (chirp in, motor angles out; known mu and b)",
     addExciteLeg},
};

}  // namespace

Action addExcite(CLI::App& app) { return addSubcommands(app, kSignals); }

}  // namespace gapsim::cli
