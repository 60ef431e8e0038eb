// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify: system identification from real-robot logs, one sub-subcommand per
// experiment. `identify servo`: the adapter of the servo identification workflows
// (calib/servo_id_workflow.h): the voltage-domain servo models M1..M6 fitted to step tests by
// simulation with held-out validation, or with --log the paper's method, the gains kp, kd, kc of a
// square-wave step test by linear least squares (BIOLOID paper 000).
// `identify chirp|bias|transmission|spring`: MABEL's transmission (paper 003,
// calib/mabel_identification.h); `identify leg-friction|leg-bias`: its legs on the stand
// (app/cli/identify_leg.cpp). New experiments add an entry to kExperiments below.
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/identify_leg.h"
#include "app/cli/output_paths.h"
#include "calib/mabel_identification.h"
#include "calib/output_error_fit.h"
#include "calib/servo_id_workflow.h"
#include "sim/csv_table.h"
#include "sim/input_error.h"

namespace gapsim::cli {

namespace {

struct ServoArgs {
  std::string method;  // "paper" or "sim"; empty: paper with --log, sim otherwise
  calib::ServoPaperIdOptions paper;  // --robot, --joint and --out live here and serve both methods
  calib::ServoModelsOptions models;
  bool no_polish = false;
  bool force = false;
};

std::string fmt(double v, int prec = 4) {
  std::ostringstream s;
  s << std::setprecision(prec) << v;
  return s.str();
}

int runServoPaper(const calib::ServoPaperIdOptions& o, bool force) {
  if (o.log.empty()) throw InputError("", 0, "--log", "the paper's method needs one step-test log (--log FILE)");
  claimOutputDir(o.out_dir, {stemOf(o.log) + "_servo_id.csv", stemOf(o.log) + "_servo_id.png"}, force);
  const calib::ServoPaperIdResult r = calib::identifyServoByPaper(o, &std::cout);
  std::cout << "kp_Nm_rad=" << fmt(r.kp_Nm_rad.value, 6) << " kd_Nm_s_rad=" << fmt(r.kd_Nm_s_rad.value, 6)
            << " kc_Nm=" << fmt(r.kc_Nm.value, 6) << " residual_rms_Nm=" << fmt(r.residual_rms_Nm, 6)
            << " replay_rms_rad=" << fmt(r.replay_rms_rad, 6) << std::endl;
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
            << " heldout_rms_rad=" << fmt(best.test_rms_rad, 6)
            << " worst_heldout_rms_rad=" << fmt(best.worst_test_rms_rad, 6) << std::endl;
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
  app.add_option("--method", a->method, "sim: fit the voltage-domain models M1..M6 to --logs by simulation "
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

// ---- MABEL (paper 003) ----------------------------------------------------------------------

struct ChirpArgs {
  std::string log;
  bool refine = false;
  double confidence = 0.95;
};

int runFirstOrder(const ChirpArgs& a, bool with_bias) {
  const calib::ChirpLog log = calib::ChirpLog::read(a.log);
  const calib::FirstOrderFit f = with_bias ? calib::fitFirstOrderWithBias(log.u_Nm, log.omega_rad_s, log.sample_time_s)
                                           : calib::fitFirstOrder(log.u_Nm, log.omega_rad_s, log.sample_time_s);
  std::cout << (with_bias ? "amplifier bias, two-input ARX (paper 003, Appendix A, eqs. 31-33): "
                          : "first-order model J omega_dot + mu omega = u, ARX(1,1) (paper 003, eq. 7): ")
            << a.log << "\n";
  std::cout << "  samples: " << log.time_s.size() << ", T_s = " << fmt(log.sample_time_s, 6) << " s\n";
  std::cout << "  omega_k = a omega_{k-1} + b u_{k-1}" << (with_bias ? " + b2" : "") << ":  a = " << fmt(f.a, 8)
            << ", b = " << fmt(f.b, 6) << (with_bias ? ", b2 = " + fmt(f.bias_coefficient, 6) : "") << "\n";
  std::cout << "  J  = -mu T_s / ln a = " << fmt(f.J_kgm2, 6) << " kg m^2\n"
            << "  mu = (1 - a) / b    = " << fmt(f.mu_Nms, 6) << " N m s\n";
  if (with_bias) std::cout << "  bias = b2 / b1 = " << fmt(f.bias_Nm, 6) << " N m (the plant sees u + bias)\n";
  std::cout << "  one-step prediction rms " << fmt(f.residual_rms, 4) << " rad/s (omega rms " << fmt(f.output_rms, 4)
            << " rad/s)\n";
  if (!a.refine) {
    std::cout << "J_kgm2=" << fmt(f.J_kgm2, 6) << " mu_Nms=" << fmt(f.mu_Nms, 6);
    if (with_bias) std::cout << " bias_Nm=" << fmt(f.bias_Nm, 6);
    std::cout << std::endl;
    return kExitOk;
  }
  // Output-error refinement (Ceres): unbiased under measurement noise, with intervals.
  calib::OutputErrorOptions o;
  o.fit_bias = with_bias;
  o.confidence = a.confidence;
  const calib::OutputErrorFit r = calib::refineFirstOrderOutputError(log.u_Nm, log.omega_rad_s, log.sample_time_s, f, o);
  const std::string pct = fmt(100 * a.confidence, 3) + "%";
  std::cout << "  output-error refinement (Ceres, " << r.iterations << " iterations, "
            << (r.converged ? "converged" : "NOT converged") << "), " << pct << " intervals:\n"
            << "  J  = " << fmt(r.J_kgm2, 6) << " +- " << fmt(r.J_half_width_kgm2, 3) << " kg m^2\n"
            << "  mu = " << fmt(r.mu_Nms, 6) << " +- " << fmt(r.mu_half_width_Nms, 3) << " N m s\n";
  if (with_bias) std::cout << "  bias = " << fmt(r.bias_Nm, 6) << " +- " << fmt(r.bias_half_width_Nm, 3) << " N m\n";
  std::cout << "  simulated-response rms " << fmt(r.residual_rms, 4) << " rad/s (ARX start: " << fmt(r.initial_rms, 4)
            << " rad/s)\n";
  std::cout << "J_kgm2=" << fmt(r.J_kgm2, 6) << " mu_Nms=" << fmt(r.mu_Nms, 6);
  if (with_bias) std::cout << " bias_Nm=" << fmt(r.bias_Nm, 6);
  std::cout << std::endl;
  return r.converged ? kExitOk : kExitFailure;
}

Action addChirpLog(CLI::App& app, bool with_bias) {
  auto a = std::make_shared<ChirpArgs>();
  app.add_option("--log", a->log, "CSV with time_s, u_Nm (commanded torque), omega_rad_s (motor velocity), "
                                  "uniformly sampled (`gapsim-cli excite chirp` writes the input)")
      ->required();
  app.add_flag("--refine", a->refine, "refine the ARX estimate by output-error least squares (Ceres) and print "
                                      "confidence intervals; unbiased when the speed is measured with noise");
  app.add_option("--confidence", a->confidence, "level of the --refine intervals")->capture_default_str();
  return [a, with_bias] { return runFirstOrder(*a, with_bias); };
}
Action addChirp(CLI::App& app) { return addChirpLog(app, false); }
Action addBias(CLI::App& app) { return addChirpLog(app, true); }

struct TransmissionArgs {
  std::string table;
  double J_rotor_man = 0.0;
};

/// A table without a time column; throws InputError naming the file if a column is missing.
CsvTable readTable(const std::string& path) {
  CsvReadOptions opt;
  opt.time_column = "";
  return CsvTable::read(path, opt);
}

int runTransmission(const TransmissionArgs& a) {
  if (!(a.J_rotor_man > 0)) throw InputError("", 0, "--rotor-inertia", "must be > 0 kg m^2");
  const CsvTable t = readTable(a.table);
  const auto Je = t.column("J_exp_kgm2"), Jp = t.column("J_pulley_kgm2"), Jc = t.column("J_cable_kgm2");
  std::vector<calib::PulleyExperiment> e;
  for (std::size_t i = 0; i < Je.size(); ++i) e.push_back({Je[i], Jp[i], Jc[i]});
  if (e.size() < 2) throw InputError(a.table, 0, "", "need at least two pulley combinations (the paper: three)");
  const calib::TorqueConstantFit r = calib::fitTorqueConstant(e, a.J_rotor_man);
  std::cout << "K_T and alpha from " << e.size() << " pulley combinations (paper 003, eqs. 10-12): " << a.table << "\n"
            << "  K_T = " << fmt(r.K_T, 6) << ", alpha = " << fmt(r.alpha, 6) << " (J_rotor = " << fmt(r.J_rotor_kgm2, 6)
            << " kg m^2 for the manufacturer's " << fmt(a.J_rotor_man, 6) << "), residual rms " << fmt(r.residual_rms_kgm2, 4)
            << " kg m^2\n";
  std::cout << "K_T=" << fmt(r.K_T, 6) << " alpha=" << fmt(r.alpha, 6) << std::endl;
  return kExitOk;
}

Action addTransmission(CLI::App& app) {
  auto a = std::make_shared<TransmissionArgs>();
  app.add_option("--table", a->table, "CSV, one row per pulley combination: J_exp_kgm2, J_pulley_kgm2, J_cable_kgm2")
      ->required();
  app.add_option("--rotor-inertia", a->J_rotor_man, "the manufacturer's rotor inertia J_rotor_man (kg m^2)")->required();
  return [a] { return runTransmission(*a); };
}

struct SpringArgs {
  std::string table;
  double weight_N = 0.0;
  double ratio = 5.18043;
};

int runSpring(const SpringArgs& a) {
  if (!(a.weight_N > 0)) throw InputError("", 0, "--weight", "must be > 0 N");
  if (!(a.ratio > 0)) throw InputError("", 0, "--ratio", "must be > 0");
  const CsvTable t = readTable(a.table);
  const auto qls = t.column("q_LS_rad"), qb = t.column("q_Bsp_rad");
  std::vector<calib::SpringTest> tests;
  for (std::size_t i = 0; i < qls.size(); ++i) tests.push_back({qls[i], qb[i]});
  const calib::SpringStiffnessFit r = calib::fitSpringStiffness(tests, a.weight_N, a.ratio);
  std::cout << "spring stiffness from " << tests.size() << " static tests (paper 003, eqs. 21-24): " << a.table << "\n";
  for (std::size_t i = 0; i < tests.size(); ++i)
    std::cout << "  q_LS " << fmt(tests[i].q_LS_rad) << " rad, q_Bsp " << fmt(tests[i].q_Bsp_rad) << " rad: tau_Bsp "
              << fmt(r.tau_Bsp_Nm[i]) << " N m, (24) K_B " << fmt(r.K_B_each[i]) << " N m/rad\n";
  std::cout << "  least-squares K_B = " << fmt(r.K_B_Nm_rad, 6) << " N m/rad (residual rms " << fmt(r.residual_rms_Nm, 4)
            << " N m)\nK_B_Nm_rad=" << fmt(r.K_B_Nm_rad, 6) << std::endl;
  return kExitOk;
}

Action addSpring(CLI::App& app) {
  auto a = std::make_shared<SpringArgs>();
  app.add_option("--table", a->table, "CSV, one row per static test: q_LS_rad, q_Bsp_rad")->required();
  app.add_option("--weight", a->weight_N, "W_robot measured by the scale (N)")->required();
  app.add_option("--ratio", a->ratio, "constant of eq. 24 (2 x 2.59061 by eq. 23)")->capture_default_str();
  return [a] { return runSpring(*a); };
}

/// The experiments: name, help, registration. Add new ones here.
struct Experiment {
  const char* name;
  const char* help;
  Action (*add)(CLI::App&);
};
constexpr Experiment kExperiments[] = {
    {"servo", "servo models M1..M6 fitted to step tests by simulation with held-out validation (--logs); "
              "with --log the paper's method: kp, kd, kc by least squares (BIOLOID paper 000)", addServo},
    {"chirp", "J and mu of J omega_dot + mu omega = u from a chirp log, ARX(1,1) (MABEL paper 003)", addChirp},
    {"bias", "amplifier bias b2/b1 by the two-input ARX of MABEL paper 003, Appendix A", addBias},
    {"transmission", "K_T and rotor-inertia factor alpha from pulley combinations (MABEL paper 003, eqs. 10-12)",
     addTransmission},
    {"spring", "spring stiffness K_B from static tests (MABEL paper 003, eqs. 21-24)", addSpring},
    {"leg-friction", "viscous friction mu of a leg motor from a SISO stand experiment, fitted by simulation "
                     "(MABEL paper 003, eq. 19)", addLegFriction},
    {"leg-bias", "motor biases b of a leg from a MIMO stand experiment, fitted by simulation (MABEL paper 003, eq. 20)",
     addLegBias},
};

}  // namespace

Action addIdentify(CLI::App& app) {
  app.require_subcommand(1);
  auto actions = std::make_shared<std::map<CLI::App*, Action>>();
  for (const Experiment& e : kExperiments) {
    CLI::App* sub = app.add_subcommand(e.name, e.help);
    (*actions)[sub] = e.add(*sub);
  }
  return [actions] {
    for (auto& [sub, action] : *actions)
      if (sub->parsed()) return action();
    return kExitBadInput;
  };
}

}  // namespace gapsim::cli
