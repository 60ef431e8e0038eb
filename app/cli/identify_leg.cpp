// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify leg-friction|leg-bias and excite leg (MABEL paper 003, Section V): the
// command-line adapters of the leg identification on the test stand (calib/leg_id_workflow.h:
// the viscous friction, eq. 19, SISO, and the motor biases, eq. 20, MIMO, fitted by simulating
// the stand experiment) and of a synthetic experiment to try it (calib/leg_excite_workflow.h).
#include "app/cli/identify_leg.h"

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "app/cli/output_paths.h"
#include "calib/leg_excite_workflow.h"
#include "calib/leg_id_workflow.h"
#include "sim/input_error.h"

namespace gapsim::cli {

namespace {

/// Options every leg command shares: the stand, the side, parameter overrides of the leg.
void addCommon(CLI::App& app, std::string& side, std::string& stand, std::vector<std::string>& set) {
  app.add_option("--side", side, "left or right (Tables IV, V: each side has its own motors)")->capture_default_str();
  app.add_option("--stand", stand,
                 "test-stand robot file (default robots/mabel/identification/leg_stand.urdf: "
                 "torso and B_Spring fixed)");
  app.add_option("--set", set,
                 "NAME=VALUE: a transmission parameter of the leg, e.g. mLS/K_T=1.0 (names as "
                 "`gapsim-cli params mabel` without mabel/<side>/); repeatable");
}

/// Runs the fit with its report and prints the machine line; exit 1 when the fit did not converge.
int runLegFit(const calib::LegIdOptions& a, bool force) {
  claimOutputDir(a.out_dir, a.outputNames(), force);
  const calib::LegIdResult r = calib::identifyLeg(a, &std::cout);
  const auto& e = r.estimates;
  if (a.fit == calib::LegIdOptions::Fit::kFriction) {
    std::cout << e[0].param << "=" << significant(e[0].value, 6) << " half_width=" << significant(e[0].half_width, 4);
    if (a.fit_bias)
      std::cout << " " << e[1].param << "=" << significant(e[1].value, 6)
                << " half_width_b=" << significant(e[1].half_width, 4);
  } else {
    std::cout << "b_mLA=" << significant(e[0].value, 6) << " b_mLS=" << significant(e[1].value, 6)
              << " half_width_mLA=" << significant(e[0].half_width, 4)
              << " half_width_mLS=" << significant(e[1].half_width, 4);
  }
  std::cout << " J_rad=" << significant(r.cost_J_rad, 6) << " rms_rad=" << significant(r.rms_rad, 6) << std::endl;
  return r.converged ? kExitOk : kExitFailure;
}

struct FitArgs {
  calib::LegIdOptions o;
  bool force = false;
};

void addFitCommon(CLI::App& app, FitArgs& a) {
  app.add_option("--log", a.o.log,
                 "experiment log: time_s, u_mLA_Nm, u_mLS_Nm, q_mLA_rad, q_mLS_rad (motor angles, "
                 "rigid-cable convention q_m = gamma q_link; `gapsim-cli excite leg` writes one)")
      ->required();
  addCommon(app, a.o.side, a.o.stand, a.o.sets);
  app.add_option("--out", a.o.out_dir, "directory for <log>_leg_*.csv and .png")->capture_default_str();
  addForceOption(app, a.force);
  app.add_option("--confidence", a.o.confidence, "level of the intervals")->capture_default_str();
  app.add_flag("--fixed-start", a.o.fixed_start,
               "start the simulation exactly at the first logged sample instead of "
               "fitting the start angle too");
}

struct ExciteArgs {
  calib::LegExciteOptions o;
  bool force = false;
};

}  // namespace

Action addLegFriction(CLI::App& app) {
  auto a = std::make_shared<FitArgs>();
  addFitCommon(app, *a);
  app.add_option("--dof", a->o.dof, "the actuated motor of the SISO experiment: mLA or mLS (the other is locked)")
      ->capture_default_str();
  app.add_option("--mu-start", a->o.mu_start_Nms_rad,
                 "starting mu (N m s/rad); default Table III mu_3 / K_T of the motor");
  app.add_flag("--fit-bias", a->o.fit_bias,
               "fit the motor's bias b together with mu (the paper holds b at Table IV "
               "in SISO; its footnote: the bias changes from trial to trial)");
  return [a] { return runLegFit(a->o, a->force); };
}

Action addLegBias(CLI::App& app) {
  auto a = std::make_shared<FitArgs>();
  a->o.fit = calib::LegIdOptions::Fit::kBias;
  addFitCommon(app, *a);
  app.add_option("--mu-mLA", a->o.mu_mLA_Nms_rad,
                 "fixed mu of mLA (N m s/rad), e.g. from leg-friction; default the stand's (Table V)");
  app.add_option("--mu-mLS", a->o.mu_mLS_Nms_rad, "fixed mu of mLS (N m s/rad); default the stand's (Table V)");
  app.add_option("--b-start-mLA", a->o.b_start_mLA_Nm,
                 "starting b of mLA (N m); default: the static estimate (hold "
                 "command of the mean pose minus the mean command)");
  app.add_option("--b-start-mLS", a->o.b_start_mLS_Nm, "starting b of mLS (N m); default: the static estimate");
  return [a] { return runLegFit(a->o, a->force); };
}

Action addExciteLeg(CLI::App& app) {
  auto a = std::make_shared<ExciteArgs>();
  app.add_option("--out", a->o.out, "log to write: time_s, u_mLA_Nm, u_mLS_Nm, q_mLA_rad, q_mLS_rad")->required();
  addForceOption(app, a->force);
  addCommon(app, a->o.side, a->o.stand, a->o.sets);
  app.add_option("--dof", a->o.dof, "mLA or mLS (SISO, the other locked) or both (MIMO)")->capture_default_str();
  app.add_option("--mu-mLA", a->o.mu_mLA_Nms_rad, "simulated mu of mLA (N m s/rad); default Table V");
  app.add_option("--mu-mLS", a->o.mu_mLS_Nms_rad, "simulated mu of mLS (N m s/rad); default Table V");
  app.add_option("--b-mLA", a->o.b_mLA_Nm, "simulated bias of mLA (N m); default Table IV (SISO) or Table V (MIMO)");
  app.add_option("--b-mLS", a->o.b_mLS_Nm, "simulated bias of mLS (N m); default Table IV (SISO) or Table V (MIMO)");
  app.add_option("--amplitude", a->o.chirp.amplitude_start_Nm, "amplitude of the first step (N m), both motors")
      ->capture_default_str();
  app.add_option("--amplitude-end", a->o.chirp.amplitude_end_Nm, "amplitude of the last step (N m)")
      ->capture_default_str();
  app.add_option("--amplitude-mLA", a->o.amplitude_mLA_Nm, "mLA's first-step amplitude (N m; last = 10x)");
  app.add_option("--amplitude-mLS", a->o.amplitude_mLS_Nm, "mLS's first-step amplitude (N m; last = 10x)");
  app.add_option("--offset", a->o.offset_Nm,
                 "constant added to the input (N m), both motors; default: the commands that "
                 "hold the start pose against gravity and the bias");
  app.add_option("--offset-mLA", a->o.offset_mLA_Nm, "mLA's offset (N m)");
  app.add_option("--offset-mLS", a->o.offset_mLS_Nm, "mLS's offset (N m)");
  app.add_option("--f-start", a->o.chirp.f_start_Hz, "first frequency (Hz)")->capture_default_str();
  app.add_option("--f-end", a->o.chirp.f_end_Hz, "last frequency (Hz)")->capture_default_str();
  app.add_option("--steps", a->o.chirp.steps, "logarithmic frequency steps")->capture_default_str();
  app.add_option("--periods", a->o.chirp.periods, "periods per step")->capture_default_str();
  app.add_option("--ts", a->o.chirp.sample_time_s, "sample time (s), rounded to a whole number of the stand's dt")
      ->capture_default_str();
  app.add_option("--encoder-bits", a->o.encoder_bits, "motor encoder resolution 2 pi / 2^bits (0: exact; MABEL: 14)")
      ->capture_default_str();
  app.add_option("--noise", a->o.noise_rad, "white Gaussian noise on the motor angles (rad)")->capture_default_str();
  app.add_option("--seed", a->o.seed, "noise seed")->capture_default_str();
  return [a] {
    calib::exciteLeg(a->o, &std::cout, [&] { claimOutputFile(a->o.out, a->force); });
    return kExitOk;
  };
}

}  // namespace gapsim::cli
