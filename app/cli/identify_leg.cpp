// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify leg-friction|leg-bias and excite leg (MABEL paper 003, Section V): the
// command-line adapters of the leg identification on the test stand (calib/leg_id_workflow.h:
// the viscous friction, eq. 19, SISO, and the motor biases, eq. 20, MIMO, fitted by simulating
// the stand experiment) and of a synthetic experiment to try it.
#include "app/cli/identify_leg.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "app/cli/output_paths.h"
#include "calib/leg_id_workflow.h"
#include "calib/mabel_leg_identification.h"
#include "sim/input_error.h"

namespace gapsim::cli {

namespace {

using calib::LegSide;
using Params = motorgear::MabelTransmission::Params;

std::string fmt(double v, int prec = 4) {
  std::ostringstream s;
  s << std::setprecision(prec) << v;
  return s.str();
}

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
    std::cout << e[0].param << "=" << fmt(e[0].value, 6) << " half_width=" << fmt(e[0].half_width, 4);
    if (a.fit_bias)
      std::cout << " " << e[1].param << "=" << fmt(e[1].value, 6) << " half_width_b=" << fmt(e[1].half_width, 4);
  } else {
    std::cout << "b_mLA=" << fmt(e[0].value, 6) << " b_mLS=" << fmt(e[1].value, 6)
              << " half_width_mLA=" << fmt(e[0].half_width, 4) << " half_width_mLS=" << fmt(e[1].half_width, 4);
  }
  std::cout << " J_rad=" << fmt(r.cost_J_rad, 6) << " rms_rad=" << fmt(r.rms_rad, 6) << std::endl;
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
  std::string side = "left", stand;
  std::vector<std::string> set;
  std::string out;
  bool force = false;
  std::string dof = "mLS";
  std::optional<double> mu_mLA, mu_mLS, b_mLA, b_mLS;
  calib::ChirpOptions chirp;
  std::optional<double> amplitude_mLA, amplitude_mLS, offset, offset_mLA, offset_mLS;
  double encoder_bits = 0;
  double noise_rad = 0;
  std::uint64_t seed = 1;
};

int runExciteLeg(const ExciteArgs& a) {
  const LegSide side = calib::parseLegSide(a.side);
  const calib::LegExperiment e = calib::legExperiment(side, a.dof);
  const RobotModel stand = calib::loadLegStand(a.stand);
  Params leg = calib::legWithOverrides(stand, side, a.set);
  // The paper's values: Table V mu; b of Table IV in SISO (the stand's preset), of Table V in MIMO.
  if (e.mimo()) {
    leg.mLA.b_Nm = calib::tableVBias_Nm(side, true);
    leg.mLS.b_Nm = calib::tableVBias_Nm(side, false);
  }
  if (a.mu_mLA) leg.mLA.mu_Nms_rad = *a.mu_mLA;
  if (a.mu_mLS) leg.mLS.mu_Nms_rad = *a.mu_mLS;
  if (a.b_mLA) leg.mLA.b_Nm = *a.b_mLA;
  if (a.b_mLS) leg.mLS.b_Nm = *a.b_mLS;
  leg.validate();
  if (a.encoder_bits < 0 || a.encoder_bits > 40) throw InputError("", 0, "--encoder-bits", "must be in 0..40 (0: exact)");
  calib::LegExcitation x;
  x.mLA = x.mLS = a.chirp;
  x.mLA.sample_time_s = x.mLS.sample_time_s = stand.solver.dt_s * std::max(1.0, std::round(a.chirp.sample_time_s / stand.solver.dt_s));
  if (a.amplitude_mLA) {
    x.mLA.amplitude_start_Nm = *a.amplitude_mLA;
    x.mLA.amplitude_end_Nm = *a.amplitude_mLA * 10;
  }
  if (a.amplitude_mLS) {
    x.mLS.amplitude_start_Nm = *a.amplitude_mLS;
    x.mLS.amplitude_end_Nm = *a.amplitude_mLS * 10;
  }
  // The paper picks the offset "to keep the links within the robot's work space": by default the
  // commands that hold the start pose against gravity and the bias (without them gravity pulls
  // the knee of a SISO mLS leg into its stop within a second).
  const calib::LegPose pose = calib::standInitialPose(stand, side);
  const calib::LegHold hold = calib::legHoldCommands(stand, side, leg, pose);
  x.mLA.offset_Nm = a.offset_mLA.value_or(a.offset.value_or(hold.u_mLA_Nm));
  x.mLS.offset_Nm = a.offset_mLS.value_or(a.offset.value_or(hold.u_mLS_Nm));
  x.encoder_rad = a.encoder_bits > 0 ? 2 * M_PI / std::pow(2.0, a.encoder_bits) : 0.0;
  x.noise_rad = a.noise_rad;
  x.seed = a.seed;
  const calib::LegExperimentLog log = calib::synthesizeLegExperiment(stand, e, leg, pose, x);
  claimOutputFile(a.out, a.force);
  std::ostringstream c;
  c << "synthetic MABEL leg experiment on the stand (gapsim-cli excite leg), " << a.side << " "
    << (e.mimo() ? "MIMO" : "SISO " + a.dof) << ": mu_mLA " << leg.mLA.mu_Nms_rad << " mu_mLS " << leg.mLS.mu_Nms_rad
    << " N m s/rad, b_mLA " << leg.mLA.b_Nm << " b_mLS " << leg.mLS.b_Nm << " N m; encoder "
    << (x.encoder_rad > 0 ? fmt(x.encoder_rad, 6) + " rad" : std::string("exact")) << ", noise " << x.noise_rad
    << " rad, seed " << x.seed;
  log.write(a.out, c.str());
  std::cout << "excite leg: " << log.time_s.size() << " samples, " << fmt(log.time_s.back(), 5)
            << " s at T_s = " << x.mLA.sample_time_s << " s; " << (e.mimo() ? "MIMO" : "SISO " + a.dof) << " " << a.side
            << "\n"
            << "  simulated with mu_mLA = " << fmt(leg.mLA.mu_Nms_rad, 4) << ", mu_mLS = " << fmt(leg.mLS.mu_Nms_rad, 4)
            << " N m s/rad, b_mLA = " << fmt(leg.mLA.b_Nm, 4) << ", b_mLS = " << fmt(leg.mLS.b_Nm, 4) << " N m\n"
            << "  input offsets: mLA " << fmt(x.mLA.offset_Nm, 4) << ", mLS " << fmt(x.mLS.offset_Nm, 4) << " N m\n";
  auto range = [](const std::vector<double>& v) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return fmt(*lo, 5) + " .. " + fmt(*hi, 5);
  };
  std::cout << "  q_mLA " << range(log.q_mLA_rad) << " rad, q_mLS " << range(log.q_mLS_rad) << " rad (motor)\n"
            << "  written: " << a.out << std::endl;
  return kExitOk;
}

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
  app.add_option("--out", a->out, "log to write: time_s, u_mLA_Nm, u_mLS_Nm, q_mLA_rad, q_mLS_rad")->required();
  addForceOption(app, a->force);
  addCommon(app, a->side, a->stand, a->set);
  app.add_option("--dof", a->dof, "mLA or mLS (SISO, the other locked) or both (MIMO)")->capture_default_str();
  app.add_option("--mu-mLA", a->mu_mLA, "simulated mu of mLA (N m s/rad); default Table V");
  app.add_option("--mu-mLS", a->mu_mLS, "simulated mu of mLS (N m s/rad); default Table V");
  app.add_option("--b-mLA", a->b_mLA, "simulated bias of mLA (N m); default Table IV (SISO) or Table V (MIMO)");
  app.add_option("--b-mLS", a->b_mLS, "simulated bias of mLS (N m); default Table IV (SISO) or Table V (MIMO)");
  app.add_option("--amplitude", a->chirp.amplitude_start_Nm, "amplitude of the first step (N m), both motors")
      ->capture_default_str();
  app.add_option("--amplitude-end", a->chirp.amplitude_end_Nm, "amplitude of the last step (N m)")->capture_default_str();
  app.add_option("--amplitude-mLA", a->amplitude_mLA, "mLA's first-step amplitude (N m; last = 10x)");
  app.add_option("--amplitude-mLS", a->amplitude_mLS, "mLS's first-step amplitude (N m; last = 10x)");
  app.add_option("--offset", a->offset, "constant added to the input (N m), both motors; default: the commands that "
                                       "hold the start pose against gravity and the bias");
  app.add_option("--offset-mLA", a->offset_mLA, "mLA's offset (N m)");
  app.add_option("--offset-mLS", a->offset_mLS, "mLS's offset (N m)");
  app.add_option("--f-start", a->chirp.f_start_Hz, "first frequency (Hz)")->capture_default_str();
  app.add_option("--f-end", a->chirp.f_end_Hz, "last frequency (Hz)")->capture_default_str();
  app.add_option("--steps", a->chirp.steps, "logarithmic frequency steps")->capture_default_str();
  app.add_option("--periods", a->chirp.periods, "periods per step")->capture_default_str();
  app.add_option("--ts", a->chirp.sample_time_s, "sample time (s), rounded to a whole number of the stand's dt")
      ->capture_default_str();
  app.add_option("--encoder-bits", a->encoder_bits, "motor encoder resolution 2 pi / 2^bits (0: exact; MABEL: 14)")
      ->capture_default_str();
  app.add_option("--noise", a->noise_rad, "white Gaussian noise on the motor angles (rad)")->capture_default_str();
  app.add_option("--seed", a->seed, "noise seed")->capture_default_str();
  return [a] { return runExciteLeg(*a); };
}

}  // namespace gapsim::cli
