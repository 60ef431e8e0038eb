// SPDX-License-Identifier: BSD-3-Clause
#include "calib/servo_id_workflow.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "calib/json_fields.h"
#include "calib/servo_model_fit.h"
#include "motorgear/servo_datasheet.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::motorgear {

// A friction model is named in JSON as on the command line (M1..M6); another name is refused.
void to_json(nlohmann::json& j, FrictionModel m) { j = frictionModelName(m); }
void from_json(const nlohmann::json& j, FrictionModel& m) { m = parseFrictionModel(j.get<std::string>()); }

}  // namespace gapsim::motorgear

namespace gapsim::calib {

namespace fs = std::filesystem;
using motorgear::FrictionModel;

namespace {

/// The model a step test's joint belongs to (InputError naming --joint if it has no such joint).
RobotModel loadJointModel(const std::string& robot, const std::string& joint) {
  RobotModel model = loadRobotFile(resolveRobotFile(robot));
  if (model.jointIndex(joint) < 0)
    throw InputError("", 0, "--joint", "robot '" + robot + "' has no joint '" + joint + "'");
  return model;
}

/// The paper's Fig. 2 (left: goal, measured and simulated angle; right: the error q - qbar,
/// measured and simulated) plus the torque balance I qdd against the identified law.
std::string paperFigureScript(const std::string& csv, const std::string& png, const std::string& title) {
  std::ostringstream g;
  g << "set terminal pngcairo size 1200,1000 font ',10'\n"
    << "set output '" << png << "'\n"
    << "set termoption noenhanced\n"
    << "set datafile separator ','\n"
    << "set key autotitle columnhead\n"
    << "set multiplot layout 3,1 title '" << title << "'\n"
    << "set grid\nset xlabel 'time (s)'\n"
    << "set ylabel 'angle (rad)'\n"
    << "plot '" << csv
    << "' using 1:2 with lines lw 2 title 'goal qbar', '' using 1:3 with points pt 7 ps 0.2 "
       "title 'measured q', '' using 1:10 with lines lw 1.5 title 'simulated q (identified gains)'\n"
    << "set ylabel 'q - qbar (rad)'\n"
    << "plot '" << csv
    << "' using 1:($3-$2) with points pt 7 ps 0.2 title 'measured error', '' using "
       "1:($10-$2) with lines lw 1.5 title 'simulated error'\n"
    << "set ylabel 'torque (N m)'\n"
    << "plot '" << csv
    << "' using 1:8 with lines title 'I qdd (smoothed measurement)', '' using 1:9 with lines "
       "title '-kp (q - qbar) - kd qd - kc sgn(qd) (identified)'\n"
    << "unset multiplot\n";
  return g.str();
}

/// Measured against predicted, the data of Fig. 2: every used sample with the simulated angle at
/// its time.
void writePaperCsv(const std::string& csv, const ServoIdResult& r, const ServoReplay& rep) {
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
      << s.qdd_rad_s2 << ',' << s.q_rad - s.q_target_rad << ',' << s.tau_measured_Nm << ',' << s.tau_predicted_Nm << ','
      << qs << ',' << qs - s.q_target_rad << ',' << s.tau_measured_Nm - s.tau_predicted_Nm << '\n';
  }
}

/// The fit's numbers, without its samples.
void copyFit(const ServoIdResult& r, ServoPaperIdResult& out) {
  out.switches = static_cast<int>(r.switches.size());
  out.pieces = r.pieces;
  out.samples = static_cast<int>(r.samples.size());
  out.smoothing_rms_rad = r.smoothing_rms_rad;
  out.kp_Nm_rad = r.kp_Nm_rad;
  out.kd_Nm_s_rad = r.kd_Nm_s_rad;
  out.kc_Nm = r.kc_Nm;
  out.clustered = r.clustered;
  out.interval_dof = r.interval_dof;
  out.t_quantile = r.t_quantile;
  out.residual_rms_Nm = r.residual_rms_Nm;
  out.measured_rms_Nm = r.measured_rms_Nm;
  out.r_squared = r.r_squared;
  out.term_rms_Nm = r.term_rms_Nm;
}

// Paper 000's gains for the AX-18 (one experiment; the paper names no compliance slope).
constexpr double kPaperKp = 9.272, kPaperKd = 0.3069, kPaperKc = 0.03;

std::string interval(const GainEstimate& g) {
  return significant(g.value, 4) + "  [" + significant(g.value - g.half_width, 4) + ", " +
         significant(g.value + g.half_width, 4) + "]";
}

/// The figure's line: where it is, or why there is none.
void reportFigure(std::ostream& os, FigureStatus s, const std::string& png, const std::string& label) {
  if (s == FigureStatus::kNoGnuplot)
    os << "  figure: skipped, gnuplot is not installed (Debian: apt-get install gnuplot-nox; scripts/setup.sh "
          "installs it)\n";
  else if (s == FigureStatus::kWritten)
    os << "  " << label << png << "\n";
  else
    os << "  figure: gnuplot failed, no PNG written\n";
}

void reportPaperGains(std::ostream& os, const ServoPaperIdOptions& a, const ServoPaperIdResult& r) {
  const double I = r.inertia_kgm2;
  os << "servo identification, the paper's method (paper 000: linear least squares on smoothed step "
        "responses; `--method sim` fits the voltage-domain models M1..M6): "
     << a.log << "\n";
  if (r.inertia_given)
    os << "  inertia I = " << significant(I, 4) << " kg m^2 (--inertia; the model's " << a.joint
       << " link: " << significant(r.model_inertia_kgm2, 4) << ")\n";
  else
    os << "  inertia I = " << significant(I, 4) << " kg m^2: the model's inertia about the " << a.joint
       << " axis of everything beyond it (" << r.model_source
       << "); the paper does not give I, so the gains below are only as good as this value\n";
  os << "  switching instants: " << r.switches << ", polynomials of degree " << a.degree << ": " << r.pieces
     << (a.piece_s > 0 ? " (pieces of ~" + significant(a.piece_s, 4) + " s)" : " (one per segment, as the paper)")
     << ", samples: " << r.samples << ", smoothing rms " << significant(r.smoothing_rms_rad, 3) << " rad\n";
  os << "  kp = " << interval(r.kp_Nm_rad) << " N m/rad\n"
     << "  kd = " << interval(r.kd_Nm_s_rad) << " N m s/rad\n"
     << "  kc = " << interval(r.kc_Nm) << " N m\n";
  os << "  [..] = 95% confidence interval: Student-t quantile t(0.975, dof " << r.interval_dof
     << ") = " << significant(r.t_quantile, 5)
     << (r.clustered
             ? " times the standard error of the cluster-robust covariance, one cluster per polynomial piece\n"
               "        (the residuals of a piece are correlated); it still ignores the model error of the fit\n"
             : " times sqrt of diag(sigma^2 (A^T A)^-1), sigma^2 = RSS/dof; it assumes independent residuals, "
               "which\n        residuals of smoothed data are not, so it understates the uncertainty\n");
  os << "  residual rms = " << significant(r.residual_rms_Nm, 4) << " N m (rms of I qdd "
     << significant(r.measured_rms_Nm, 4) << " N m, R^2 = " << significant(r.r_squared, 3) << ")\n";
  os << "  rms of the identified terms: kp (q - qbar) " << significant(r.term_rms_Nm[0], 4) << ", kd qd "
     << significant(r.term_rms_Nm[1], 4) << ", kc sgn(qd) " << significant(r.term_rms_Nm[2], 4) << " N m\n";
  os << "  independent of I: kp/kd = " << significant(r.kp_Nm_rad.value / r.kd_Nm_s_rad.value, 4)
     << " 1/s, kc/kp = " << significant(r.kc_Nm.value / r.kp_Nm_rad.value, 4) << " rad;  paper 000: kp " << kPaperKp
     << ", kd " << kPaperKd << ", kc " << kPaperKc << " (kp/kd " << significant(kPaperKp / kPaperKd, 4)
     << " 1/s, kc/kp " << significant(kPaperKc / kPaperKp, 4)
     << " rad); I that would give the paper's kp: " << significant(I * kPaperKp / r.kp_Nm_rad.value, 4) << " kg m^2\n";
}

void reportInertiaSweep(std::ostream& os, const ServoPaperIdResult& r) {
  os << "  gains against the assumed inertia (identified again for each I):\n"
     << "      I factor   I (kg m^2)        kp          kd          kc\n";
  for (const ServoInertiaRow& s : r.inertia_sweep)
    os << "      " << std::setw(8) << s.factor << "   " << std::setw(10) << significant(s.inertia_kgm2, 4) << "  "
       << std::setw(10) << significant(s.kp_Nm_rad, 4) << "  " << std::setw(10) << significant(s.kd_Nm_s_rad, 4) << "  "
       << std::setw(10) << significant(s.kc_Nm, 4) << "\n";
  os << "      all three scale exactly linearly with I (the data determine kp/I, kd/I, kc/I); the share of\n"
        "      the inertial term does not matter for that, only for how well I qdd is explained (R^2)\n";
}

void reportPaperCheck(std::ostream& os, const ServoPaperIdResult& r) {
  os << "  simulated experiment (" << r.replay_robot << ", one joint, I = " << significant(r.replay_inertia_kgm2, 4)
     << " kg m^2, gains scaled by " << significant(r.replay_inertia_kgm2 / r.inertia_kgm2, 4)
     << "): rms(q_sim - q) = " << significant(r.replay_rms_rad, 4) << " rad over " << r.replay_samples
     << " samples from the first switch\n";
  for (const auto& n : r.replay_notes) os << "    note: " << n << "\n";
}

}  // namespace

// The JSON keys are the members' names (calib/json_fields.h).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GainEstimate, value, std_error, half_width)
GAPSIM_CALIB_JSON_FIELDS(ServoPaperIdOptions, log, inertia_kgm2, robot, joint, replay_robot, out_dir, degree, piece_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ServoInertiaRow, factor, inertia_kgm2, kp_Nm_rad, kd_Nm_s_rad, kc_Nm)
GAPSIM_CALIB_JSON_FIELDS(ServoPaperIdResult, inertia_kgm2, model_inertia_kgm2, inertia_given, model_source, switches,
                         pieces, samples, smoothing_rms_rad, kp_Nm_rad, kd_Nm_s_rad, kc_Nm, clustered, interval_dof,
                         t_quantile, residual_rms_Nm, measured_rms_Nm, r_squared, term_rms_Nm, inertia_sweep,
                         replay_robot, replay_inertia_kgm2, replay_rms_rad, replay_samples, replay_notes, csv, png,
                         figure)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ServoModelsOptions, logs, models, evaluations, polish, seed, time_scale, robot,
                                   joint, out_dir)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ServoHeldOutRow, test_log, values, train_mae_rad, train_rms_rad, test_mae_rad,
                                   test_rms_rad)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ServoModelSummary, model, params, runs, train_rms_rad, test_rms_rad,
                                   worst_test_rms_rad)
GAPSIM_CALIB_JSON_FIELDS(ServoModelsResult, logs, models, best, csv, png, figure, all_logs_rms_rad, link_inertia_kgm2,
                         robot_source, drivetrain)

void ServoPaperIdOptions::validate() const {
  if (inertia_kgm2 && !(*inertia_kgm2 > 0)) throw InputError("", 0, "--inertia", "must be > 0 kg m^2");
  if (degree < 2 || degree > 10) throw InputError("", 0, "--degree", "must be in 2..10");
  if (!(piece_s >= 0)) throw InputError("", 0, "--piece", "must be >= 0 s");
}

ServoPaperIdResult identifyServoByPaper(const ServoPaperIdOptions& a, std::ostream* report) {
  const ServoStepLog log = ServoStepLog::read(a.log);
  // I: given, or the model's inertia beyond the joint (the paper does not give it).
  const RobotModel model = loadJointModel(a.robot, a.joint);
  ServoPaperIdResult out;
  out.model_inertia_kgm2 = inertiaBeyondJoint_kgm2(model, a.joint);
  out.model_source = model.source_file;
  a.validate();
  out.inertia_given = a.inertia_kgm2.has_value();
  out.inertia_kgm2 = a.inertia_kgm2.value_or(out.model_inertia_kgm2);
  ServoIdOptions opt;
  opt.inertia_kgm2 = out.inertia_kgm2;
  opt.poly_degree = a.degree;
  opt.piece_s = a.piece_s;
  const ServoIdResult r = identifyServo(log, opt);
  copyFit(r, out);
  if (report) reportPaperGains(*report, a, out);
  // The gains against I: y = I qdd is linear in I and A is not, so theta is exactly linear in I.
  for (double f : {0.5, 1.0, 2.0}) {
    ServoIdOptions o = opt;
    o.inertia_kgm2 = out.inertia_kgm2 * f;
    const ServoIdResult s = identifyServo(log, o);
    out.inertia_sweep.push_back({f, o.inertia_kgm2, s.kp_Nm_rad.value, s.kd_Nm_s_rad.value, s.kc_Nm.value});
  }
  if (report) reportInertiaSweep(*report, out);

  // The paper's check: the same experiment simulated with the identified gains.
  out.replay_robot =
      a.replay_robot.empty() ? robotsDirectory() + "/bioloid/identification/ankle_r_foot.urdf" : a.replay_robot;
  const RobotModel rig = loadRobotFile(out.replay_robot);
  if (rig.jointIndex(a.joint) < 0)
    throw InputError(out.replay_robot, 0, "--joint", "the replay robot has no joint '" + a.joint + "'");
  out.replay_inertia_kgm2 = inertiaBeyondJoint_kgm2(rig, a.joint);
  const ServoReplay rep = replayServoExperiment(log, rig, a.joint, out.replay_inertia_kgm2, out.inertia_kgm2,
                                                r.kp_Nm_rad.value, r.kd_Nm_s_rad.value, r.kc_Nm.value);
  out.replay_rms_rad = rep.rms_rad;
  out.replay_samples = static_cast<int>(rep.q_rad.size());
  out.replay_notes = rep.notes;
  if (report) reportPaperCheck(*report, out);

  fs::create_directories(a.out_dir);
  const std::string stem = fs::path(a.log).stem().string();
  out.csv = (fs::path(a.out_dir) / (stem + "_servo_id.csv")).string();
  writePaperCsv(out.csv, r, rep);
  if (report) *report << "  measured vs predicted (CSV): " << out.csv << "\n";
  out.png = (fs::path(a.out_dir) / (stem + "_servo_id.png")).string();
  out.figure = plotWithGnuplot(paperFigureScript(out.csv, out.png, "servo identification: " + stem), out.png);
  if (report) reportFigure(*report, out.figure, out.png, "figure (paper's Fig. 2): ");
  return out;
}

}  // namespace gapsim::calib

// ---- the models M1..M6 fitted by simulation -------------------------------------------------------

namespace gapsim::calib {

namespace {

std::vector<FrictionModel> parseModels(const std::vector<std::string>& names) {
  std::vector<FrictionModel> models;
  for (const std::string& m : names) {
    try {
      models.push_back(motorgear::parseFrictionModel(m));
    } catch (const std::invalid_argument& e) {
      throw InputError("", 0, "--models", e.what());
    }
  }
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  return models;
}

std::vector<ServoTestLog> readTestLogs(const ServoModelsOptions& a) {
  std::vector<ServoTestLog> logs;
  for (const std::string& path : a.logs) {
    ServoTestLog l;
    l.log = ServoStepLog::read(path);
    l.slope = ServoTestLog::slopeFromName(fs::path(path).filename().string());
    if (l.slope <= 0)
      throw InputError(path, 0, "--logs",
                       "no 'slope<N>' in the file name: the compliance slope of the test is unknown");
    l.name = "slope" + significant(l.slope, 4);
    l.time_scale = a.time_scale;
    logs.push_back(std::move(l));
  }
  return logs;
}

/// Model m on every held-out permutation; `m1_fits` (the M1 fits, when M1 ran first) warm-start it.
ServoModelSummary heldOutSummary(FrictionModel m, const std::vector<ServoTestLog>& logs, const ServoFitOptions& o,
                                 std::vector<ServoModelSpec>& m1_fits, std::vector<HeldOutResult>& runs) {
  runs = heldOutValidation(m, logs, o, m1_fits.empty() ? nullptr : &m1_fits);
  if (m == FrictionModel::M1)
    for (const auto& r : runs) m1_fits.push_back(r.fit.spec);
  ServoModelSummary s;
  s.model = m;
  for (const ServoFitParam& p : runs.front().fit.params) s.params.push_back(p.name);
  for (const HeldOutResult& r : runs) {
    ServoHeldOutRow row{r.test_log, {}, r.train_mae_rad, r.train_rms_rad, r.test_mae_rad, r.test_rms_rad};
    for (const ServoFitParam& p : r.fit.params) row.values.push_back(p.value);
    s.runs.push_back(std::move(row));
    s.train_rms_rad += r.train_rms_rad / runs.size();
    s.test_rms_rad += r.test_rms_rad / runs.size();
    s.worst_test_rms_rad = std::max(s.worst_test_rms_rad, r.test_rms_rad);
  }
  return s;
}

/// The best model's held-out predictions: every log simulated with the fit that did not see it.
void writeHeldOutCsv(const std::string& csv, const std::vector<HeldOutResult>& runs,
                     const std::vector<ServoTestLog>& logs, const ServoSimOptions& sim_options) {
  std::ofstream f(csv);
  if (!f) throw InputError(csv, 0, "--out", "cannot write");
  f << "log,time_s,q_target_rad,q_rad,q_sim_rad\n" << std::setprecision(9);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const ServoSimulation sim = simulateServoLog(runs[k].fit.spec, logs[k], sim_options);
    for (std::size_t i = 0; i < sim.time_s.size(); ++i)
      f << k << ',' << sim.time_s[i] << ',' << sim.q_target_rad[i] << ',' << sim.q_rad[i] << ',' << sim.q_sim_rad[i]
        << '\n';
  }
}

std::string heldOutFigureScript(const std::string& csv, const std::string& png, const ServoModelSummary& best) {
  std::ostringstream g;
  g << "set terminal pngcairo size 1200," << 350 * best.runs.size() << " font ',10'\nset output '" << png
    << "'\nset termoption noenhanced\nset datafile separator ','\nset grid\nset xlabel 'time (s)'\n"
    << "set ylabel 'angle (rad)'\nset multiplot layout " << best.runs.size() << ",1 title 'held-out predictions, "
    << motorgear::frictionModelName(best.model) << "'\n";
  for (std::size_t k = 0; k < best.runs.size(); ++k)
    g << "set title '" << best.runs[k].test_log << " predicted by the fit on the others: RMS "
      << significant(best.runs[k].test_rms_rad, 3) << " rad'\nplot '" << csv << "' every ::1 using ($1==" << k
      << "?$2:1/0):3 with lines title 'goal', '' every ::1 using ($1==" << k
      << "?$2:1/0):4 with points pt 7 ps 0.2 title 'measured', '' every ::1 using ($1==" << k
      << "?$2:1/0):5 with lines lw 1.5 title 'simulated'\n";
  g << "unset multiplot\n";
  return g.str();
}

/// fitServoModel with the budget of a fit of `free` when the options leave it open.
ServoFitResult fitWithBudget(const ServoModelSpec& start, const std::vector<ServoFitParam>& free,
                             const std::vector<const ServoTestLog*>& logs, ServoFitOptions o) {
  if (o.max_evaluations == 0) o.max_evaluations = 400 * static_cast<int>(free.size());
  return fitServoModel(start, free, logs, o);
}

/// The best model fitted on every log, as robot-file lines (docs/servo_models.md).
void fitOnAllLogs(const ServoModelsOptions& a, const std::vector<ServoTestLog>& logs, const ServoFitOptions& o,
                  bool have_m1, ServoModelsResult& out) {
  const FrictionModel m = out.bestModel().model;
  std::vector<const ServoTestLog*> all;
  for (const auto& l : logs) all.push_back(&l);
  ServoModelSpec start = ax18StepTestSpec(m);
  if (m != FrictionModel::M1 && have_m1) {  // nested start again: M1 on all logs first
    const ServoModelSpec s1 = ax18StepTestSpec(FrictionModel::M1);
    start = nestedStart(fitWithBudget(s1, defaultServoFitParams(FrictionModel::M1, s1), all, o).spec, m);
  }
  const ServoFitResult fa = fitWithBudget(start, defaultServoFitParams(m, start), all, o);
  const RobotModel model = loadJointModel(a.robot, a.joint);
  out.all_logs_rms_rad = fa.cost_rad;
  out.link_inertia_kgm2 = inertiaBeyondJoint_kgm2(model, a.joint);
  out.robot_source = model.source_file;
  const auto& sv = fa.spec.servo;
  out.drivetrain = {{"armature", std::max(0.0, fa.spec.rig.inertia_kgm2 - out.link_inertia_kgm2)},
                    {"no_load_speed", sv.get("no_load_speed")},
                    {"delay_s", sv.drive.delay_s},
                    {"friction/model", static_cast<double>(static_cast<int>(m))}};
  for (const std::string& n : motorgear::GearFriction::Params::modelParamNames(m))
    if (n != "b_v") out.drivetrain.emplace_back("friction/" + n, sv.friction.get(n));
}

void reportModelsHeader(std::ostream& os, const ServoModelsOptions& a, const ServoModelsResult& r) {
  const motorgear::DynamixelPreset preset = motorgear::dynamixelPreset("AX-18");
  os << "servo models fitted by simulation (calib/servo_model_fit.h): AX-18 firmware compliance law -> PWM duty "
        "x "
     << significant(preset.firmware.supply_V, 4) << " V -> DC motor (datasheet start: " << preset.source << ") -> "
     << significant(preset.datasheet.gear_ratio, 4) << ":1 gear -> friction M1..M6 (Rhoban BAM) -> one link;\n"
     << "  CMA-ES (" << (a.evaluations > 0 ? std::to_string(a.evaluations) : "400 x free parameters")
     << " simulations per fit)" << (a.polish ? " + Ceres polish" : "")
     << "; held-out validation: fit on all logs but one, predict that one, every permutation;\n"
     << "  M2..M6 start from the M1 fit of the same logs (nested: their training error can only go down)\n  logs:";
  for (const auto& [name, samples] : r.logs) os << " " << name << " (" << samples << " samples)";
  os << "\n";
}

void reportModelTable(std::ostream& os, const ServoModelSummary& s) {
  os << "\nmodel " << motorgear::frictionModelName(s.model) << " (" << motorgear::frictionModelTitle(s.model) << ")\n";
  os << "  " << std::left << std::setw(22) << "held out:";
  for (const auto& r : s.runs) os << std::right << std::setw(12) << r.test_log;
  os << "\n";
  for (std::size_t i = 0; i < s.params.size(); ++i) {
    os << "  " << std::left << std::setw(22) << s.params[i];
    for (const auto& r : s.runs) os << std::right << std::setw(12) << significant(r.values[i], 4);
    os << "\n";
  }
  auto row = [&](const char* label, double ServoHeldOutRow::*field) {
    os << "  " << std::left << std::setw(22) << label;
    for (const auto& r : s.runs) os << std::right << std::setw(12) << significant(r.*field, 3);
    os << "\n";
  };
  row("train MAE (rad)", &ServoHeldOutRow::train_mae_rad);
  row("train RMS (rad)", &ServoHeldOutRow::train_rms_rad);
  row("held-out MAE (rad)", &ServoHeldOutRow::test_mae_rad);
  row("held-out RMS (rad)", &ServoHeldOutRow::test_rms_rad);
  os << "  mean held-out RMS " << significant(s.test_rms_rad, 3) << " rad, worst "
     << significant(s.worst_test_rms_rad, 3) << " rad\n";
}

void reportModelsSummary(std::ostream& os, const ServoModelsResult& r) {
  os << "\nsummary (RMS over the samples of each log, mean over the permutations)\n"
     << "  model  train RMS (rad)  held-out RMS (rad)  worst held-out (rad)\n";
  for (const ServoModelSummary& s : r.models)
    os << "  " << std::left << std::setw(5) << motorgear::frictionModelName(s.model) << std::right << std::setw(17)
       << significant(s.train_rms_rad, 3) << std::setw(20) << significant(s.test_rms_rad, 3) << std::setw(22)
       << significant(s.worst_test_rms_rad, 3) << "\n";
}

void reportAllLogsFit(std::ostream& os, const ServoModelsOptions& a, const ServoModelsResult& r) {
  os << "  " << motorgear::frictionModelName(r.bestModel().model) << " fitted on all logs: RMS "
     << significant(r.all_logs_rms_rad, 3) << " rad; as drivetrain parameters (armature = J - "
     << significant(r.link_inertia_kgm2, 3) << " kg m^2, the inertia of '" << a.joint << "' and beyond in "
     << r.robot_source << "):\n";
  for (const auto& [name, value] : r.drivetrain)
    os << "    <param name=\"servo/" << name << "\" value=\"" << significant(value, 6) << "\"/>\n";
}

}  // namespace

nlohmann::json ServoModelsOptions::toJson() const { return toJsonWithSeeds(*this, {"seed"}); }

ServoModelsOptions ServoModelsOptions::fromJson(const nlohmann::json& j) {
  return fromJsonWithSeeds<ServoModelsOptions>(j, {"seed"});
}

ServoModelsResult identifyServoModels(const ServoModelsOptions& a, std::ostream* report,
                                      const std::function<void(const ServoModelsResult&)>& on_logs_read) {
  if (a.logs.empty())
    throw InputError("", 0, "--logs",
                     "give the step-test logs to fit, e.g. --logs ankle_r_foot_slope32.csv,"
                     "ankle_r_foot_slope64.csv,ankle_r_foot_slope128.csv (real-data/bioloid/actuator)");
  if (a.evaluations < 0) throw InputError("", 0, "--evals", "must be >= 0");
  if (!(a.time_scale > 0.5 && a.time_scale < 2)) throw InputError("", 0, "--time-scale", "must be in (0.5, 2)");
  const std::vector<FrictionModel> models = parseModels(a.models);
  const std::vector<ServoTestLog> logs = readTestLogs(a);
  ServoModelsResult out;
  for (const auto& l : logs) out.logs.emplace_back(l.name, static_cast<int>(l.log.time_s.size()));
  if (on_logs_read) on_logs_read(out);
  if (report) reportModelsHeader(*report, a, out);
  ServoFitOptions o;
  o.max_evaluations = a.evaluations;
  o.polish = a.polish;
  o.seed = a.seed;
  std::vector<ServoModelSpec> m1_fits;  // warm starts of the richer models
  std::vector<HeldOutResult> runs, best_runs;
  for (FrictionModel m : models) {
    out.models.push_back(heldOutSummary(m, logs, o, m1_fits, runs));
    if (report) reportModelTable(*report, out.models.back());
    if (out.best < 0 || out.models.back().worst_test_rms_rad < out.bestModel().worst_test_rms_rad) {
      out.best = static_cast<int>(out.models.size()) - 1;
      best_runs = std::move(runs);
    }
  }
  if (report) reportModelsSummary(*report, out);
  fs::create_directories(a.out_dir);
  out.csv = (fs::path(a.out_dir) / "servo_models_heldout.csv").string();
  writeHeldOutCsv(out.csv, best_runs, logs, o.sim);
  if (report)
    *report << "  best model " << motorgear::frictionModelName(out.bestModel().model) << ": held-out predictions (CSV) "
            << out.csv << "\n";
  out.png = (fs::path(a.out_dir) / "servo_models_heldout.png").string();
  out.figure = plotWithGnuplot(heldOutFigureScript(out.csv, out.png, out.bestModel()), out.png);
  if (report && out.figure == FigureStatus::kWritten) *report << "  figure: " << out.png << "\n";
  fitOnAllLogs(a, logs, o, !m1_fits.empty(), out);
  if (report) reportAllLogsFit(*report, a, out);
  return out;
}

}  // namespace gapsim::calib
