// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify: system identification from real-robot logs, one sub-subcommand per
// experiment. `identify servo`: the adapter of the servo identification workflows
// (calib/servo_id_workflow.h): the voltage-domain servo models M1..M6 fitted to step tests by
// simulation with held-out validation, or with --log the paper's method, the gains kp, kd, kc of a
// square-wave step test by linear least squares (BIOLOID paper 000).
// `identify chirp|bias|transmission|spring`: MABEL's transmission (paper 003,
// app/cli/identify_mabel.cpp); `identify leg-friction|leg-bias`: its legs on the stand
// (app/cli/identify_leg.cpp). New experiments add an entry to kExperiments below.
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/identify_leg.h"
#include "app/cli/identify_mabel.h"
#include "app/cli/output_paths.h"
#include "app/cli/subcommands.h"
#include "calib/servo_id_workflow.h"
#include "sim/input_error.h"

namespace gapsim::cli {

namespace {

struct ServoArgs {
  std::string method;                // "paper" or "sim"; empty: paper with --log, sim otherwise
  calib::ServoPaperIdOptions paper;  // --robot, --joint and --out live here and serve both methods
  calib::ServoModelsOptions models;
  bool no_polish = false;
  bool force = false;
};

int runServoPaper(const calib::ServoPaperIdOptions& o, bool force) {
  if (o.log.empty()) throw InputError("", 0, "--log", "the paper's method needs one step-test log (--log FILE)");
  claimOutputDir(o.out_dir, {stemOf(o.log) + "_servo_id.csv", stemOf(o.log) + "_servo_id.png"}, force);
  const calib::ServoPaperIdResult r = calib::identifyServoByPaper(o, &std::cout);
  std::cout << "kp_Nm_rad=" << significant(r.kp_Nm_rad.value, 6)
            << " kd_Nm_s_rad=" << significant(r.kd_Nm_s_rad.value, 6) << " kc_Nm=" << significant(r.kc_Nm.value, 6)
            << " residual_rms_Nm=" << significant(r.residual_rms_Nm, 6)
            << " replay_rms_rad=" << significant(r.replay_rms_rad, 6) << std::endl;
  return kExitOk;
}

/// `identify servo --method sim`: every model, every held-out permutation, one table per model.
int runServoModels(const ServoArgs& a) {
  calib::ServoModelsOptions o = a.models;
  o.polish = !a.no_polish;
  o.robot = a.paper.robot;
  o.joint = a.paper.joint;
  o.out_dir = a.paper.out_dir;
  const calib::ServoModelsResult r = calib::identifyServoModels(o, &std::cout, [&](const calib::ServoModelsResult&) {
    claimOutputDir(o.out_dir, {"servo_models_heldout.csv", "servo_models_heldout.png"}, a.force);
  });
  const calib::ServoModelSummary& best = r.bestModel();
  std::cout << "best_model=" << motorgear::frictionModelName(best.model)
            << " heldout_rms_rad=" << significant(best.test_rms_rad, 6)
            << " worst_heldout_rms_rad=" << significant(best.worst_test_rms_rad, 6) << std::endl;
  return kExitOk;
}

int runServo(const ServoArgs& a) {
  const std::string method = a.method.empty() ? (a.paper.log.empty() ? "sim" : "paper") : a.method;
  if (method == "sim") return runServoModels(a);
  if (method != "paper") throw InputError("", 0, "--method", "must be 'paper' or 'sim', got '" + method + "'");
  return runServoPaper(a.paper, a.force);
}

Action addServo(CLI::App& app) {
  auto a = std::make_shared<ServoArgs>();
  app.add_option("--method", a->method,
                 "sim: fit the voltage-domain models M1..M6 to --logs by simulation "
                 "(held-out validation); paper: paper 000's linear least squares on --log. "
                 "Default: paper with --log, sim otherwise");
  app.add_option("--logs", a->models.logs,
                 "sim: step-test logs (CSV time_s, q_target_rad, q_rad); the AX compliance "
                 "slope of each is read from 'slope<N>' in its name, e.g. the BIOLOID "
                 "ankle_r_foot_slope{32,64,128}.csv")
      ->delimiter(',');
  app.add_option("--models", a->models.models, "sim: friction models to fit (M1..M6)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--evals", a->models.evaluations, "sim: CMA-ES simulations per fit (0: 400 per free parameter)")
      ->capture_default_str();
  app.add_flag("--no-polish", a->no_polish, "sim: skip the Ceres polish after CMA-ES");
  app.add_option("--seed", a->models.seed, "sim: CMA-ES seed")->capture_default_str();
  app.add_option("--time-scale", a->models.time_scale,
                 "sim: true seconds per logged second (the AX logs' counter: "
                 "1.0042, real-data README)")
      ->capture_default_str();
  app.add_option("--log", a->paper.log,
                 "paper: step-test log: CSV with time_s, q_target_rad, q_rad (e.g. "
                 "ankle_r_foot_slope32.csv of the BIOLOID data)");
  app.add_option("--inertia", a->paper.inertia_kgm2,
                 "inertia I (kg m^2) of the moving link about the axis; default: the "
                 "model's, computed from --robot and --joint");
  app.add_option("--robot", a->paper.robot, "robot whose link inertia is used when --inertia is not given")
      ->capture_default_str();
  app.add_option("--joint", a->paper.joint, "the joint of the step test")->capture_default_str();
  app.add_option("--replay-robot", a->paper.replay_robot,
                 "fixed-base one-joint robot file for the simulated check "
                 "(default robots/bioloid/identification/ankle_r_foot.urdf)");
  app.add_option("--out", a->paper.out_dir, "directory for <log>_servo_id.csv and .png")->capture_default_str();
  addForceOption(app, a->force);
  app.add_option("--degree", a->paper.degree, "degree of the smoothing polynomial (the paper: 4)")
      ->capture_default_str();
  app.add_option("--piece", a->paper.piece_s,
                 "fit one polynomial per piece of ~this length (s) instead of per segment "
                 "(0 = per segment, as the paper)")
      ->capture_default_str();
  return [a] { return runServo(*a); };
}

/// The experiments: name, help, registration. Add new ones here.
constexpr Subcommand kExperiments[] = {
    {"servo",
     "servo models M1..M6 fitted to step tests by simulation with held-out validation (--logs); "
     "with --log the paper's method: kp, kd, kc by least squares (BIOLOID paper 000)",
     addServo},
    {"chirp", "J and mu of J omega_dot + mu omega = u from a chirp log, ARX(1,1) (MABEL paper 003)", addIdentifyChirp},
    {"bias", "amplifier bias b2/b1 by the two-input ARX of MABEL paper 003, Appendix A", addIdentifyBias},
    {"transmission", "K_T and rotor-inertia factor alpha from pulley combinations (MABEL paper 003, eqs. 10-12)",
     addIdentifyTransmission},
    {"spring", "spring stiffness K_B from static tests (MABEL paper 003, eqs. 21-24)", addIdentifySpring},
    {"leg-friction",
     "viscous friction mu of a leg motor from a SISO stand experiment, fitted by simulation "
     "(MABEL paper 003, eq. 19)",
     addLegFriction},
    {"leg-bias", "motor biases b of a leg from a MIMO stand experiment, fitted by simulation (MABEL paper 003, eq. 20)",
     addLegBias},
};

}  // namespace

Action addIdentify(CLI::App& app) { return addSubcommands(app, kExperiments); }

}  // namespace gapsim::cli
