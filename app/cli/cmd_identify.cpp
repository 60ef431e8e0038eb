// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify: system identification from real-robot logs, one sub-subcommand per
// experiment. `identify servo`: the voltage-domain servo models M1..M6 fitted to step tests by
// simulation with held-out validation (calib/servo_model_fit.h), or with --log the paper's method,
// the gains kp, kd, kc of a square-wave step test by linear least squares (BIOLOID paper 000,
// calib/servo_identification.h). `identify chirp|bias|transmission|spring`:
// MABEL's transmission (paper 003, calib/mabel_identification.h); `identify leg-friction|leg-bias`:
// its legs on the stand (app/cli/identify_leg.cpp). New experiments add an entry to
// kExperiments below.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/identify_leg.h"
#include "app/cli/output_paths.h"
#include "calib/mabel_identification.h"
#include "calib/output_error_fit.h"
#include "calib/servo_identification.h"
#include "calib/servo_model_fit.h"
#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::cli {

namespace {

// Paper 000's gains for the AX-18 (one experiment; the paper names no compliance slope).
constexpr double kPaperKp = 9.272, kPaperKd = 0.3069, kPaperKc = 0.03;

struct ServoArgs {
  std::string method;  // "paper" or "sim"; empty: paper with --log, sim otherwise
  std::vector<std::string> logs;
  std::vector<std::string> models{"M1", "M2", "M3", "M4", "M5", "M6"};
  int evaluations = 0;  // 0: 400 per free parameter
  bool no_polish = false;
  std::uint64_t seed = 1;
  double time_scale = 1.0;
  std::string log;
  std::optional<double> inertia_kgm2;
  std::string robot = "bioloid";
  std::string joint = "r_foot";
  std::string replay_robot;  // default robots/bioloid/identification/ankle_r_foot.urdf
  std::string out = ".";
  int degree = 4;
  double piece_s = 0.0;
  bool force = false;
};

std::string fmt(double v, int prec = 4) {
  std::ostringstream s;
  s << std::setprecision(prec) << v;
  return s.str();
}

std::string interval(const calib::GainEstimate& g) {
  return fmt(g.value) + "  [" + fmt(g.value - g.half_width) + ", " + fmt(g.value + g.half_width) + "]";
}

bool haveGnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

/// The paper's Fig. 2 (left: goal, measured and simulated angle; right: the error q - qbar,
/// measured and simulated) plus the torque balance I qdd against the identified law.
bool writeFigure(const std::string& csv, const std::string& png, const std::string& title) {
  const std::string script = png + ".gp";
  {
    std::ofstream g(script);
    g << "set terminal pngcairo size 1200,1000 font ',10'\n"
      << "set output '" << png << "'\n"
      << "set termoption noenhanced\n"
      << "set datafile separator ','\n"
      << "set key autotitle columnhead\n"
      << "set multiplot layout 3,1 title '" << title << "'\n"
      << "set grid\nset xlabel 'time (s)'\n"
      << "set ylabel 'angle (rad)'\n"
      << "plot '" << csv << "' using 1:2 with lines lw 2 title 'goal qbar', '' using 1:3 with points pt 7 ps 0.2 "
         "title 'measured q', '' using 1:10 with lines lw 1.5 title 'simulated q (identified gains)'\n"
      << "set ylabel 'q - qbar (rad)'\n"
      << "plot '" << csv << "' using 1:($3-$2) with points pt 7 ps 0.2 title 'measured error', '' using "
         "1:($10-$2) with lines lw 1.5 title 'simulated error'\n"
      << "set ylabel 'torque (N m)'\n"
      << "plot '" << csv << "' using 1:8 with lines title 'I qdd (smoothed measurement)', '' using 1:9 with lines "
         "title '-kp (q - qbar) - kd qd - kc sgn(qd) (identified)'\n"
      << "unset multiplot\n";
  }
  const int rc = std::system(("gnuplot '" + script + "' 2>&1").c_str());
  std::filesystem::remove(script);
  return rc == 0 && std::filesystem::exists(png);
}

int runServoModels(const ServoArgs& a);

int runServo(const ServoArgs& a) {
  const std::string method = a.method.empty() ? (a.log.empty() ? "sim" : "paper") : a.method;
  if (method == "sim") return runServoModels(a);
  if (method != "paper") throw InputError("", 0, "--method", "must be 'paper' or 'sim', got '" + method + "'");
  if (a.log.empty()) throw InputError("", 0, "--log", "the paper's method needs one step-test log (--log FILE)");
  claimOutputDir(a.out, {stemOf(a.log) + "_servo_id.csv", stemOf(a.log) + "_servo_id.png"}, a.force);
  const calib::ServoStepLog log = calib::ServoStepLog::read(a.log);
  // I: given, or the model's inertia beyond the joint (the paper does not give it).
  const RobotModel model = loadRobotFile(resolveRobotFile(a.robot));
  if (model.jointIndex(a.joint) < 0) throw InputError("", 0, "--joint", "robot '" + a.robot + "' has no joint '" + a.joint + "'");
  const double model_I = calib::inertiaBeyondJoint_kgm2(model, a.joint);
  if (a.inertia_kgm2 && !(*a.inertia_kgm2 > 0)) throw InputError("", 0, "--inertia", "must be > 0 kg m^2");
  if (a.degree < 2 || a.degree > 10) throw InputError("", 0, "--degree", "must be in 2..10");
  if (!(a.piece_s >= 0)) throw InputError("", 0, "--piece", "must be >= 0 s");
  const double I = a.inertia_kgm2.value_or(model_I);

  calib::ServoIdOptions opt;
  opt.inertia_kgm2 = I;
  opt.poly_degree = a.degree;
  opt.piece_s = a.piece_s;
  const calib::ServoIdResult r = calib::identifyServo(log, opt);

  std::cout << "servo identification, the paper's method (paper 000: linear least squares on smoothed step "
               "responses; `--method sim` fits the voltage-domain models M1..M6): " << a.log << "\n";
  if (a.inertia_kgm2)
    std::cout << "  inertia I = " << fmt(I) << " kg m^2 (--inertia; the model's " << a.joint << " link: " << fmt(model_I)
              << ")\n";
  else
    std::cout << "  inertia I = " << fmt(I) << " kg m^2: the model's inertia about the " << a.joint
              << " axis of everything beyond it (" << model.source_file
              << "); the paper does not give I, so the gains below are only as good as this value\n";
  std::cout << "  switching instants: " << r.switches.size() << ", polynomials of degree " << a.degree << ": "
            << r.pieces << (a.piece_s > 0 ? " (pieces of ~" + fmt(a.piece_s) + " s)" : " (one per segment, as the paper)")
            << ", samples: " << r.samples.size() << ", smoothing rms " << fmt(r.smoothing_rms_rad, 3) << " rad\n";
  std::cout << "  kp = " << interval(r.kp_Nm_rad) << " N m/rad\n"
            << "  kd = " << interval(r.kd_Nm_s_rad) << " N m s/rad\n"
            << "  kc = " << interval(r.kc_Nm) << " N m\n";
  if (r.clustered)
    std::cout << "  [..] = 95% confidence interval: Student-t quantile t(0.975, dof " << r.interval_dof << ") = "
              << fmt(r.t_quantile, 5)
              << " times the standard error of the cluster-robust covariance, one cluster per polynomial piece\n"
                 "        (the residuals of a piece are correlated); it still ignores the model error of the fit\n";
  else
    std::cout << "  [..] = 95% confidence interval: Student-t quantile t(0.975, dof " << r.interval_dof << ") = "
              << fmt(r.t_quantile, 5)
              << " times sqrt of diag(sigma^2 (A^T A)^-1), sigma^2 = RSS/dof; it assumes independent residuals, which\n"
                 "        residuals of smoothed data are not, so it understates the uncertainty\n";
  std::cout << "  residual rms = " << fmt(r.residual_rms_Nm) << " N m (rms of I qdd " << fmt(r.measured_rms_Nm)
            << " N m, R^2 = " << fmt(r.r_squared, 3) << ")\n";
  std::cout << "  rms of the identified terms: kp (q - qbar) " << fmt(r.term_rms_Nm[0]) << ", kd qd " << fmt(r.term_rms_Nm[1])
            << ", kc sgn(qd) " << fmt(r.term_rms_Nm[2]) << " N m\n";
  std::cout << "  independent of I: kp/kd = " << fmt(r.kp_Nm_rad.value / r.kd_Nm_s_rad.value) << " 1/s, kc/kp = "
            << fmt(r.kc_Nm.value / r.kp_Nm_rad.value) << " rad;  paper 000: kp " << kPaperKp << ", kd " << kPaperKd
            << ", kc " << kPaperKc << " (kp/kd " << fmt(kPaperKp / kPaperKd) << " 1/s, kc/kp " << fmt(kPaperKc / kPaperKp)
            << " rad); I that would give the paper's kp: " << fmt(I * kPaperKp / r.kp_Nm_rad.value) << " kg m^2\n";
  // The gains against I: y = I qdd is linear in I and A is not, so theta is exactly linear in I.
  std::cout << "  gains against the assumed inertia (identified again for each I):\n"
            << "      I factor   I (kg m^2)        kp          kd          kc\n";
  for (double f : {0.5, 1.0, 2.0}) {
    calib::ServoIdOptions o = opt;
    o.inertia_kgm2 = I * f;
    const calib::ServoIdResult s = calib::identifyServo(log, o);
    std::cout << "      " << std::setw(8) << f << "   " << std::setw(10) << fmt(o.inertia_kgm2) << "  " << std::setw(10)
              << fmt(s.kp_Nm_rad.value) << "  " << std::setw(10) << fmt(s.kd_Nm_s_rad.value) << "  " << std::setw(10)
              << fmt(s.kc_Nm.value) << "\n";
  }
  std::cout << "      all three scale exactly linearly with I (the data determine kp/I, kd/I, kc/I); the share of\n"
               "      the inertial term does not matter for that, only for how well I qdd is explained (R^2)\n";

  // The paper's check: the same experiment simulated with the identified gains.
  const std::string replay_file =
      a.replay_robot.empty() ? robotsDirectory() + "/bioloid/identification/ankle_r_foot.urdf" : a.replay_robot;
  const RobotModel rig = loadRobotFile(replay_file);
  if (rig.jointIndex(a.joint) < 0) throw InputError(replay_file, 0, "--joint", "the replay robot has no joint '" + a.joint + "'");
  const double rig_I = calib::inertiaBeyondJoint_kgm2(rig, a.joint);
  const calib::ServoReplay rep = calib::replayServoExperiment(log, rig, a.joint, rig_I, I, r.kp_Nm_rad.value,
                                                              r.kd_Nm_s_rad.value, r.kc_Nm.value);
  std::cout << "  simulated experiment (" << replay_file << ", one joint, I = " << fmt(rig_I)
            << " kg m^2, gains scaled by " << fmt(rig_I / I) << "): rms(q_sim - q) = " << fmt(rep.rms_rad, 4) << " rad over "
            << rep.q_rad.size() << " samples from the first switch\n";
  for (const auto& n : rep.notes) std::cout << "    note: " << n << "\n";

  // Measured against predicted, the data of Fig. 2.
  std::filesystem::create_directories(a.out);
  const std::string stem = std::filesystem::path(a.log).stem().string();
  const std::string csv = (std::filesystem::path(a.out) / (stem + "_servo_id.csv")).string();
  {
    std::map<double, double> sim_at;  // several samples share a time stamp: same simulated value
    for (std::size_t k = 0; k < rep.time_s.size(); ++k) sim_at[rep.time_s[k]] = rep.q_sim_rad[k];
    std::ofstream f(csv);
    if (!f) throw InputError(csv, 0, "--out", "cannot write");
    f << "time_s,q_target_rad,q_rad,q_smooth_rad,qd_rad_s,qdd_rad_s2,e_rad,tau_measured_Nm,tau_predicted_Nm,q_sim_rad,"
         "e_sim_rad,tau_error_Nm\n";
    f << std::setprecision(9);
    for (const auto& s : r.samples) {
      const auto it = sim_at.find(s.time_s);
      const double qs = it == sim_at.end() ? NAN : it->second;
      f << s.time_s << ',' << s.q_target_rad << ',' << s.q_rad << ',' << s.q_smooth_rad << ',' << s.qd_rad_s << ','
        << s.qdd_rad_s2 << ',' << s.q_rad - s.q_target_rad << ',' << s.tau_measured_Nm << ',' << s.tau_predicted_Nm
        << ',' << qs << ',' << qs - s.q_target_rad << ',' << s.tau_measured_Nm - s.tau_predicted_Nm << '\n';
    }
  }
  std::cout << "  measured vs predicted (CSV): " << csv << "\n";
  const std::string png = (std::filesystem::path(a.out) / (stem + "_servo_id.png")).string();
  if (!haveGnuplot())
    std::cout << "  figure: skipped, gnuplot is not installed (Debian: apt-get install gnuplot-nox; scripts/setup.sh "
                 "installs it)\n";
  else if (writeFigure(csv, png, "servo identification: " + stem))
    std::cout << "  figure (paper's Fig. 2): " << png << "\n";
  else
    std::cout << "  figure: gnuplot failed, no PNG written\n";
  std::cout << "kp_Nm_rad=" << fmt(r.kp_Nm_rad.value, 6) << " kd_Nm_s_rad=" << fmt(r.kd_Nm_s_rad.value, 6)
            << " kc_Nm=" << fmt(r.kc_Nm.value, 6) << " residual_rms_Nm=" << fmt(r.residual_rms_Nm, 6)
            << " replay_rms_rad=" << fmt(rep.rms_rad, 6) << std::endl;
  return kExitOk;
}

/// `identify servo --method sim`: every model, every held-out permutation, one table per model.
int runServoModels(const ServoArgs& a) {
  using motorgear::FrictionModel;
  if (a.logs.empty())
    throw InputError("", 0, "--logs", "give the step-test logs to fit, e.g. --logs ankle_r_foot_slope32.csv,"
                                      "ankle_r_foot_slope64.csv,ankle_r_foot_slope128.csv (real-data/bioloid/actuator)");
  if (a.evaluations < 0) throw InputError("", 0, "--evals", "must be >= 0");
  if (!(a.time_scale > 0.5 && a.time_scale < 2)) throw InputError("", 0, "--time-scale", "must be in (0.5, 2)");
  std::vector<FrictionModel> models;
  for (const std::string& m : a.models) {
    try {
      models.push_back(motorgear::parseFrictionModel(m));
    } catch (const std::invalid_argument& e) {
      throw InputError("", 0, "--models", e.what());
    }
  }
  std::vector<calib::ServoTestLog> logs;
  for (const std::string& path : a.logs) {
    calib::ServoTestLog l;
    l.log = calib::ServoStepLog::read(path);
    l.slope = calib::ServoTestLog::slopeFromName(std::filesystem::path(path).filename().string());
    if (l.slope <= 0) throw InputError(path, 0, "--logs", "no 'slope<N>' in the file name: the compliance slope of the test is unknown");
    l.name = "slope" + fmt(l.slope);
    l.time_scale = a.time_scale;
    logs.push_back(std::move(l));
  }
  claimOutputDir(a.out, {"servo_models_heldout.csv", "servo_models_heldout.png"}, a.force);
  calib::ServoFitOptions o;
  o.max_evaluations = a.evaluations;
  o.polish = !a.no_polish;
  o.seed = a.seed;
  const motorgear::DynamixelPreset preset = motorgear::dynamixelPreset("AX-18");
  std::cout << "servo models fitted by simulation (calib/servo_model_fit.h): AX-18 firmware compliance law -> PWM duty "
               "x " << fmt(preset.firmware.supply_V) << " V -> DC motor (datasheet start: " << preset.source
            << ") -> " << fmt(preset.datasheet.gear_ratio) << ":1 gear -> friction M1..M6 (Rhoban BAM) -> one link;\n"
            << "  CMA-ES (" << (a.evaluations > 0 ? std::to_string(a.evaluations) : "400 x free parameters")
            << " simulations per fit)" << (o.polish ? " + Ceres polish" : "")
            << "; held-out validation: fit on all logs but one, predict that one, every permutation;\n"
            << "  M2..M6 start from the M1 fit of the same logs (nested: their training error can only go down)\n  logs:";
  for (const auto& l : logs) std::cout << " " << l.name << " (" << l.log.time_s.size() << " samples)";
  std::cout << "\n";

  struct Summary {
    FrictionModel m;
    double train_rms = 0, test_rms = 0, worst_test = 0;
    std::vector<calib::HeldOutResult> runs;
  };
  std::vector<Summary> summaries;
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  std::vector<calib::ServoModelSpec> m1_fits;  // warm starts of the richer models
  for (FrictionModel m : models) {
    Summary s{m};
    s.runs = calib::heldOutValidation(m, logs, o, m1_fits.empty() ? nullptr : &m1_fits);
    if (m == FrictionModel::M1)
      for (const auto& r : s.runs) m1_fits.push_back(r.fit.spec);
    std::cout << "\nmodel " << motorgear::frictionModelName(m) << " (" << motorgear::frictionModelTitle(m) << ")\n";
    std::cout << "  " << std::left << std::setw(22) << "held out:";
    for (const auto& r : s.runs) std::cout << std::right << std::setw(12) << r.test_log;
    std::cout << "\n";
    for (std::size_t i = 0; i < s.runs.front().fit.params.size(); ++i) {
      std::cout << "  " << std::left << std::setw(22) << s.runs.front().fit.params[i].name;
      for (const auto& r : s.runs) std::cout << std::right << std::setw(12) << fmt(r.fit.params[i].value, 4);
      std::cout << "\n";
    }
    auto row = [&](const char* label, auto get) {
      std::cout << "  " << std::left << std::setw(22) << label;
      for (const auto& r : s.runs) std::cout << std::right << std::setw(12) << fmt(get(r), 3);
      std::cout << "\n";
    };
    row("train MAE (rad)", [](const calib::HeldOutResult& r) { return r.train_mae_rad; });
    row("train RMS (rad)", [](const calib::HeldOutResult& r) { return r.train_rms_rad; });
    row("held-out MAE (rad)", [](const calib::HeldOutResult& r) { return r.test_mae_rad; });
    row("held-out RMS (rad)", [](const calib::HeldOutResult& r) { return r.test_rms_rad; });
    for (const auto& r : s.runs) {
      s.train_rms += r.train_rms_rad / s.runs.size();
      s.test_rms += r.test_rms_rad / s.runs.size();
      s.worst_test = std::max(s.worst_test, r.test_rms_rad);
    }
    std::cout << "  mean held-out RMS " << fmt(s.test_rms, 3) << " rad, worst " << fmt(s.worst_test, 3) << " rad\n";
    summaries.push_back(std::move(s));
  }

  std::cout << "\nsummary (RMS over the samples of each log, mean over the permutations)\n"
            << "  model  train RMS (rad)  held-out RMS (rad)  worst held-out (rad)\n";
  const Summary* best = nullptr;
  for (const Summary& s : summaries) {
    std::cout << "  " << std::left << std::setw(5) << motorgear::frictionModelName(s.m) << std::right << std::setw(17)
              << fmt(s.train_rms, 3) << std::setw(20) << fmt(s.test_rms, 3) << std::setw(22) << fmt(s.worst_test, 3)
              << "\n";
    if (!best || s.worst_test < best->worst_test) best = &s;
  }

  // The best model's held-out predictions: CSV and figure.
  std::filesystem::create_directories(a.out);
  const std::string csv = (std::filesystem::path(a.out) / "servo_models_heldout.csv").string();
  {
    std::ofstream f(csv);
    if (!f) throw InputError(csv, 0, "--out", "cannot write");
    f << "log,time_s,q_target_rad,q_rad,q_sim_rad\n" << std::setprecision(9);
    for (std::size_t k = 0; k < best->runs.size(); ++k) {
      const calib::ServoSimulation sim = calib::simulateServoLog(best->runs[k].fit.spec, logs[k], o.sim);
      for (std::size_t i = 0; i < sim.time_s.size(); ++i)
        f << k << ',' << sim.time_s[i] << ',' << sim.q_target_rad[i] << ',' << sim.q_rad[i] << ',' << sim.q_sim_rad[i]
          << '\n';
    }
  }
  std::cout << "  best model " << motorgear::frictionModelName(best->m) << ": held-out predictions (CSV) " << csv << "\n";
  const std::string png = (std::filesystem::path(a.out) / "servo_models_heldout.png").string();
  if (haveGnuplot()) {
    const std::string script = png + ".gp";
    {
      std::ofstream g(script);
      g << "set terminal pngcairo size 1200," << 350 * best->runs.size() << " font ',10'\nset output '" << png
        << "'\nset termoption noenhanced\nset datafile separator ','\nset grid\nset xlabel 'time (s)'\n"
        << "set ylabel 'angle (rad)'\nset multiplot layout " << best->runs.size() << ",1 title 'held-out predictions, "
        << motorgear::frictionModelName(best->m) << "'\n";
      for (std::size_t k = 0; k < best->runs.size(); ++k)
        g << "set title '" << best->runs[k].test_log << " predicted by the fit on the others: RMS "
          << fmt(best->runs[k].test_rms_rad, 3) << " rad'\nplot '" << csv << "' every ::1 using ($1==" << k
          << "?$2:1/0):3 with lines title 'goal', '' every ::1 using ($1==" << k
          << "?$2:1/0):4 with points pt 7 ps 0.2 title 'measured', '' every ::1 using ($1==" << k
          << "?$2:1/0):5 with lines lw 1.5 title 'simulated'\n";
      g << "unset multiplot\n";
    }
    const int rc = std::system(("gnuplot '" + script + "' 2>&1").c_str());
    std::filesystem::remove(script);
    if (rc == 0) std::cout << "  figure: " << png << "\n";
  }
  // The best model fitted on every log, as robot-file lines (docs/servo_models.md).
  {
    std::vector<const calib::ServoTestLog*> all;
    for (const auto& l : logs) all.push_back(&l);
    calib::ServoModelSpec start = calib::ax18StepTestSpec(best->m);
    if (best->m != FrictionModel::M1 && !m1_fits.empty()) {
      // nested start again: M1 on all logs first
      const calib::ServoModelSpec s1 = calib::ax18StepTestSpec(FrictionModel::M1);
      calib::ServoFitOptions o1 = o;
      const auto f1 = calib::defaultServoFitParams(FrictionModel::M1, s1);
      if (o1.max_evaluations == 0) o1.max_evaluations = 400 * static_cast<int>(f1.size());
      start = calib::nestedStart(calib::fitServoModel(s1, f1, all, o1).spec, best->m);
    }
    const auto free = calib::defaultServoFitParams(best->m, start);
    calib::ServoFitOptions oa = o;
    if (oa.max_evaluations == 0) oa.max_evaluations = 400 * static_cast<int>(free.size());
    const calib::ServoFitResult fa = calib::fitServoModel(start, free, all, oa);
    const RobotModel model = loadRobotFile(resolveRobotFile(a.robot));
    if (model.jointIndex(a.joint) < 0) throw InputError("", 0, "--joint", "robot '" + a.robot + "' has no joint '" + a.joint + "'");
    const double I_link = calib::inertiaBeyondJoint_kgm2(model, a.joint);
    const double J = fa.spec.rig.inertia_kgm2;
    std::cout << "  " << motorgear::frictionModelName(best->m) << " fitted on all logs: RMS " << fmt(fa.cost_rad, 3)
              << " rad; as drivetrain parameters (armature = J - " << fmt(I_link, 3) << " kg m^2, the inertia of '"
              << a.joint << "' and beyond in " << model.source_file << "):\n";
    const auto& sv = fa.spec.servo;
    auto line = [](const std::string& n, double v) {
      std::cout << "    <param name=\"servo/" << n << "\" value=\"" << fmt(v, 6) << "\"/>\n";
    };
    line("armature", std::max(0.0, J - I_link));
    line("no_load_speed", sv.get("no_load_speed"));
    line("delay_s", sv.drive.delay_s);
    line("friction/model", static_cast<int>(best->m));
    for (const std::string& n : motorgear::GearFriction::Params::modelParamNames(best->m))
      if (n != "b_v") line("friction/" + n, sv.friction.get(n));
  }
  std::cout << "best_model=" << motorgear::frictionModelName(best->m) << " heldout_rms_rad=" << fmt(best->test_rms, 6)
            << " worst_heldout_rms_rad=" << fmt(best->worst_test, 6) << std::endl;
  return kExitOk;
}

Action addServo(CLI::App& app) {
  auto a = std::make_shared<ServoArgs>();
  app.add_option("--method", a->method, "sim: fit the voltage-domain models M1..M6 to --logs by simulation "
                                        "(held-out validation); paper: paper 000's linear least squares on --log. "
                                        "Default: paper with --log, sim otherwise");
  app.add_option("--logs", a->logs, "sim: step-test logs (CSV time_s, q_target_rad, q_rad); the AX compliance "
                                    "slope of each is read from 'slope<N>' in its name, e.g. the BIOLOID "
                                    "ankle_r_foot_slope{32,64,128}.csv")
      ->delimiter(',');
  app.add_option("--models", a->models, "sim: friction models to fit (M1..M6)")->delimiter(',')->capture_default_str();
  app.add_option("--evals", a->evaluations, "sim: CMA-ES simulations per fit (0: 400 per free parameter)")
      ->capture_default_str();
  app.add_flag("--no-polish", a->no_polish, "sim: skip the Ceres polish after CMA-ES");
  app.add_option("--seed", a->seed, "sim: CMA-ES seed")->capture_default_str();
  app.add_option("--time-scale", a->time_scale, "sim: true seconds per logged second (the AX logs' counter: "
                                                "1.0042, real-data README)")
      ->capture_default_str();
  app.add_option("--log", a->log, "paper: step-test log: CSV with time_s, q_target_rad, q_rad (e.g. "
                                  "ankle_r_foot_slope32.csv of the BIOLOID data)");
  app.add_option("--inertia", a->inertia_kgm2, "inertia I (kg m^2) of the moving link about the axis; default: the "
                                               "model's, computed from --robot and --joint");
  app.add_option("--robot", a->robot, "robot whose link inertia is used when --inertia is not given")->capture_default_str();
  app.add_option("--joint", a->joint, "the joint of the step test")->capture_default_str();
  app.add_option("--replay-robot", a->replay_robot, "fixed-base one-joint robot file for the simulated check "
                                                    "(default robots/bioloid/identification/ankle_r_foot.urdf)");
  app.add_option("--out", a->out, "directory for <log>_servo_id.csv and .png")->capture_default_str();
  addForceOption(app, a->force);
  app.add_option("--degree", a->degree, "degree of the smoothing polynomial (the paper: 4)")->capture_default_str();
  app.add_option("--piece", a->piece_s, "fit one polynomial per piece of ~this length (s) instead of per segment "
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
