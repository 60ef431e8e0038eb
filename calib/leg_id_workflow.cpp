// SPDX-License-Identifier: BSD-3-Clause
#include "calib/leg_id_workflow.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "calib/json_fields.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {

namespace fs = std::filesystem;
using Params = motorgear::MabelTransmission::Params;

namespace {

/// One override NAME=VALUE on the leg's transmission (InputError naming --set).
void applyOverride(Params& p, const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos) throw InputError("", 0, "--set", "expected NAME=VALUE, got '" + kv + "'");
  double v = 0;
  try {
    std::size_t used = 0;
    v = std::stod(kv.substr(eq + 1), &used);
    if (used != kv.size() - eq - 1) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw InputError("", 0, "--set", "not a number in '" + kv + "'");
  }
  try {
    p.set(kv.substr(0, eq), v);
  } catch (const std::invalid_argument& e) {
    throw InputError("", 0, "--set", e.what());
  }
}

void reportExperiment(std::ostream& os, const LegIdOptions& a, const LegIdResult& r) {
  if (a.fit == LegIdOptions::Fit::kFriction) {
    const bool mLA = r.actuated_mLA;
    os << "leg friction, eq. (19) (paper 003, Sec. V-C), SISO " << (mLA ? "mLA" : "mLS") << " " << a.side << ": "
       << a.log << "\n"
       << "  " << r.samples << " samples, T_s = " << significant(r.sample_time_s, 6) << " s; stand " << r.stand_source
       << "; " << (mLA ? "mLS" : "mLA") << " and B_Spring locked\n"
       << (a.fit_bias ? "  b (Table IV, fitted as well: --fit-bias) = " : "  fixed: b = ") << significant(r.b_Nm, 4)
       << " N m, K_T = " << significant(r.K_T, 4) << ", J = " << significant(r.J_kgm2, 4)
       << " kg m^2 (--set to change)\n";
    return;
  }
  os << "leg motor biases, eq. (20) (paper 003, Sec. V-C), MIMO " << a.side << ": " << a.log << "\n"
     << "  " << r.samples << " samples, T_s = " << significant(r.sample_time_s, 6) << " s; stand " << r.stand_source
     << "; B_Spring locked\n"
     << "  fixed: mu_mLA = " << significant(r.mu_mLA_Nms_rad, 4) << ", mu_mLS = " << significant(r.mu_mLS_Nms_rad, 4)
     << " N m s/rad (" << (a.mu_mLA_Nms_rad || a.mu_mLS_Nms_rad ? "--mu-mLA/--mu-mLS" : "the stand's: Table V")
     << ")\n";
}

/// The estimates with their intervals and the paper's values.
void reportFit(std::ostream& os, const LegIdOptions& a, const LegIdResult& r) {
  os << "  " << r.iterations << " iterations, " << r.simulations << " simulations of the experiment, "
     << (r.converged ? "converged" : "NOT converged") << "; " << r.residuals << " residuals\n";
  for (const auto& est : r.estimates) {
    const bool mu = est.param.starts_with("mu");
    os << "  " << est.param << " = " << significant(est.value, 6) << " +- " << significant(est.half_width, 3)
       << (mu ? " N m s/rad" : " N m") << " (" << significant(100 * a.confidence, 3) << "% interval; start "
       << significant(est.start, 4) << "; Table V " << significant(est.table_v, 4) << ")\n";
  }
  if (r.actuated_mLA || r.actuated_mLS)
    os << "  start angle fitted as well (nuisance): "
       << (r.actuated_mLA ? "mLA " + significant(1e3 * r.start_offset_mLA_rad, 3) + " mrad " : "")
       << (r.actuated_mLS ? "mLS " + significant(1e3 * r.start_offset_mLS_rad, 3) + " mrad " : "")
       << "from the first sample (0 with --fixed-start)\n";
  os << "  J = sqrt(sum (q_exp - q_sim)^2) = " << significant(r.cost_J_rad, 6) << " rad (start "
     << significant(r.initial_cost_J_rad, 6) << " rad), rms " << significant(r.rms_rad, 4)
     << " rad per sample (motor angle)\n";
}

void reportFigure(std::ostream& os, FigureStatus s, const std::string& png) {
  if (s == FigureStatus::kNoGnuplot)
    os << "  figure: skipped, gnuplot is not installed (Debian: apt-get install gnuplot-nox)\n";
  else if (s == FigureStatus::kWritten)
    os << "  figure (as the paper's Figs. 16-17, motor angles): " << png << "\n";
  else
    os << "  figure: gnuplot failed, no PNG written\n";
}

/// Measured against simulated motor angles (start and estimate), one panel per actuated motor.
std::string legFigureScript(const std::string& csv, const std::string& png, const std::string& title,
                            const LegExperiment& e) {
  const int panels = e.mimo() ? 2 : 1;
  std::ostringstream g;
  g << "set terminal pngcairo size 1400," << 450 * panels << " font ',10'\n"
    << "set output '" << png << "'\nset termoption noenhanced\nset datafile separator ','\n"
    << "set multiplot layout " << panels << ",1 title '" << title << "'\nset grid\nset xlabel 'time (s)'\n";
  // Columns: 1 time, 2 u_mLA, 3 u_mLS, 4 q_mLA, 5 q_mLA_start, 6 q_mLA_fit, 7 q_mLS, 8 q_mLS_start, 9 q_mLS_fit.
  auto panel = [&](const char* name, int c) {
    g << "set ylabel '" << name << " (rad)'\n"
      << "plot '" << csv << "' using 1:" << c
      << " every ::1 with points pt 7 ps 0.2 title 'measured', '' using 1:" << c + 1
      << " with lines lw 1 title 'simulated, start', '' using 1:" << c + 2
      << " with lines lw 1.5 title 'simulated, estimate'\n";
  };
  if (e.actuated_mLA) panel("q_mLA", 4);
  if (e.actuated_mLS) panel("q_mLS", 7);
  g << "unset multiplot\n";
  return g.str();
}

void writeLegCsv(const std::string& csv, const LegExperimentLog& log, const LegFitResult& r,
                 const LegResponse& start_sim) {
  std::ofstream f(csv);
  if (!f) throw InputError(csv, 0, "--out", "cannot write");
  f << "time_s,u_mLA_Nm,u_mLS_Nm,q_mLA_rad,q_mLA_sim_start_rad,q_mLA_sim_rad,q_mLS_rad,q_mLS_sim_start_rad,"
       "q_mLS_sim_rad\n"
    << std::setprecision(10);
  for (std::size_t k = 0; k < log.time_s.size(); ++k) {
    auto q = [&](const std::vector<double>& v) { return v.empty() ? NAN : v[k]; };
    f << log.time_s[k] << ',' << log.u_mLA_Nm[k] << ',' << log.u_mLS_Nm[k] << ',' << q(log.q_mLA_rad) << ','
      << start_sim.q_mLA_rad[k] << ',' << r.simulated.q_mLA_rad[k] << ',' << q(log.q_mLS_rad) << ','
      << start_sim.q_mLS_rad[k] << ',' << r.simulated.q_mLS_rad[k] << '\n';
  }
}

/// What the fit found, with the paper's values beside it.
void copyFit(const LegFitResult& r, LegSide side, LegIdResult& out) {
  out.iterations = r.iterations;
  out.simulations = r.simulations;
  out.residuals = static_cast<int>(r.residuals);
  out.converged = r.converged;
  for (const LegFitEstimate& est : r.estimates) {
    const bool mLA = est.param == LegParam::mu_mLA || est.param == LegParam::b_mLA;
    const bool mu = est.param == LegParam::mu_mLA || est.param == LegParam::mu_mLS;
    out.estimates.push_back({legParamName(est.param), est.value, est.half_width, est.start,
                             mu ? tableVFriction_Nms(side, mLA) : tableVBias_Nm(side, mLA)});
  }
  out.start_offset_mLA_rad = r.start_offset_mLA_rad;
  out.start_offset_mLS_rad = r.start_offset_mLS_rad;
  out.cost_J_rad = r.cost_J_rad;
  out.initial_cost_J_rad = r.initial_cost_J_rad;
  out.rms_rad = r.rms_rad;
}

/// The inputs both fits read: stand, transmission, log.
struct LegInputs {
  LegSide side{};
  LegExperiment e;
  RobotModel stand;
  Params leg;
  LegExperimentLog log;
};

void describeExperiment(const LegInputs& in, LegIdResult& out) {
  out.samples = static_cast<int>(in.log.time_s.size());
  out.sample_time_s = in.log.sample_time_s;
  out.stand_source = in.stand.source_file;
  out.actuated_mLA = in.e.actuated_mLA;
  out.actuated_mLS = in.e.actuated_mLS;
}

}  // namespace

LegSide parseLegSide(const std::string& side) {
  if (side == "left") return LegSide::Left;
  if (side == "right") return LegSide::Right;
  throw InputError("", 0, "--side", "expected left or right, got '" + side + "'");
}

RobotModel loadLegStand(const std::string& stand) {
  return loadRobotFile(stand.empty() ? robotsDirectory() + "/mabel/identification/leg_stand.urdf" : stand);
}

Params legWithOverrides(const RobotModel& stand, LegSide side, const std::vector<std::string>& sets) {
  Params p = stand.mabel_legs[static_cast<std::size_t>(standLegIndex(stand, side))].params;
  for (const std::string& kv : sets) applyOverride(p, kv);
  p.validate();
  return p;
}

LegExperiment legExperiment(LegSide side, const std::string& dof) {
  LegExperiment e;
  e.side = side;
  if (dof == "mLA")
    e.actuated_mLS = false;
  else if (dof == "mLS")
    e.actuated_mLA = false;
  else if (dof != "both")
    throw InputError("", 0, "--dof", "expected mLA, mLS or both, got '" + dof + "'");
  return e;
}

std::vector<std::string> LegIdOptions::outputNames() const {
  const std::string stem = fs::path(log).stem().string() + "_" + what();
  return {stem + ".csv", stem + ".png"};
}

namespace {

/// The fit and the response at its start.
struct LegFit {
  LegFitResult r;
  LegResponse start;
};

/// Eq. (19): mu (and b with fit_bias) of the actuated motor of a SISO experiment.
LegFit fitFriction(const LegIdOptions& a, const LegInputs& in, LegIdResult& out, std::ostream* report) {
  const bool mLA = in.e.actuated_mLA;
  const LegParam p = mLA ? LegParam::mu_mLA : LegParam::mu_mLS;
  const LegParam pb = mLA ? LegParam::b_mLA : LegParam::b_mLS;
  const double start = a.mu_start_Nms_rad.value_or(tableIIIFriction_Nms(in.side, mLA));
  if (!(start > 0)) throw InputError("", 0, "--mu-start", "must be > 0 N m s/rad");
  out.b_Nm = legParamValue(in.leg, pb);
  out.K_T = mLA ? in.leg.mLA.K_T : in.leg.mLS.K_T;
  out.J_kgm2 = mLA ? in.leg.mLA.inertia_kgm2() : in.leg.mLS.inertia_kgm2();
  if (report) reportExperiment(*report, a, out);
  LegFitOptions o;
  o.confidence = a.confidence;
  o.fit_start = !a.fixed_start;
  std::vector<LegParam> ps{p};
  std::vector<double> st{start};
  if (a.fit_bias) {
    ps.push_back(pb);
    const LegHold b0 = staticBiasEstimate(in.stand, in.e, in.leg, in.log);
    st.push_back(mLA ? b0.u_mLA_Nm : b0.u_mLS_Nm);
  }
  LegFit f{fitLegParameters(in.stand, in.e, in.leg, in.log, ps, st, o), {}};
  Params at_start = in.leg;
  setLegParam(at_start, p, start);
  if (a.fit_bias) setLegParam(at_start, pb, st[1]);
  const LegPose pose = logStartPose(in.stand, in.e, in.log);
  f.start = simulateLegExperiment(in.stand, in.e, at_start, pose.q_mLA_rad, pose.q_mLS_rad, in.log.u_mLA_Nm,
                                  in.log.u_mLS_Nm, in.log.sample_time_s);
  return f;
}

/// Eq. (20): b of both motors of a MIMO experiment, the friction fixed.
LegFit fitBias(const LegIdOptions& a, const LegInputs& in, LegIdResult& out, std::ostream* report) {
  if (report) reportExperiment(*report, a, out);
  LegFitOptions o;
  o.confidence = a.confidence;
  o.fit_start = !a.fixed_start;
  const std::vector<LegParam> ps{LegParam::b_mLA, LegParam::b_mLS};
  const LegHold b0 = staticBiasEstimate(in.stand, in.e, in.leg, in.log);
  const std::vector<double> st{a.b_start_mLA_Nm.value_or(b0.u_mLA_Nm), a.b_start_mLS_Nm.value_or(b0.u_mLS_Nm)};
  LegFit f{fitLegParameters(in.stand, in.e, in.leg, in.log, ps, st, o), {}};
  Params at_start = in.leg;
  at_start.mLA.b_Nm = st[0];
  at_start.mLS.b_Nm = st[1];
  f.start = simulateLegExperiment(in.stand, in.e, at_start, in.log.q_mLA_rad[0], in.log.q_mLS_rad[0], in.log.u_mLA_Nm,
                                  in.log.u_mLS_Nm, in.log.sample_time_s);
  return f;
}

/// Stand, transmission and log, in the order their errors are reported.
LegInputs readLegInputs(const LegIdOptions& a) {
  LegInputs in;
  in.side = parseLegSide(a.side);
  const bool friction = a.fit == LegIdOptions::Fit::kFriction;
  in.e = legExperiment(in.side, friction ? a.dof : "both");
  if (friction && in.e.mimo()) throw InputError("", 0, "--dof", "eq. (19) fits a SISO experiment: mLA or mLS");
  in.stand = loadLegStand(a.stand);
  in.leg = legWithOverrides(in.stand, in.side, a.sets);
  if (!friction) {
    if (a.mu_mLA_Nms_rad) in.leg.mLA.mu_Nms_rad = *a.mu_mLA_Nms_rad;
    if (a.mu_mLS_Nms_rad) in.leg.mLS.mu_Nms_rad = *a.mu_mLS_Nms_rad;
    if (!(in.leg.mLA.mu_Nms_rad >= 0) || !(in.leg.mLS.mu_Nms_rad >= 0))
      throw InputError("", 0, "--mu-mLA/--mu-mLS", "must be >= 0");
  }
  in.log = LegExperimentLog::read(a.log, in.e);
  return in;
}

}  // namespace

LegIdResult identifyLeg(const LegIdOptions& a, std::ostream* report) {
  const LegInputs in = readLegInputs(a);
  LegIdResult out;
  describeExperiment(in, out);
  out.mu_mLA_Nms_rad = in.leg.mLA.mu_Nms_rad;
  out.mu_mLS_Nms_rad = in.leg.mLS.mu_Nms_rad;
  const LegFit f =
      a.fit == LegIdOptions::Fit::kFriction ? fitFriction(a, in, out, report) : fitBias(a, in, out, report);
  copyFit(f.r, in.side, out);
  if (report) reportFit(*report, a, out);
  fs::create_directories(a.out_dir);
  const std::string stem = fs::path(in.log.source).stem().string();
  out.csv = (fs::path(a.out_dir) / (stem + "_" + a.what() + ".csv")).string();
  writeLegCsv(out.csv, in.log, f.r, f.start);
  if (report) *report << "  measured vs simulated (CSV): " << out.csv << "\n";
  out.png = (fs::path(a.out_dir) / (stem + "_" + a.what() + ".png")).string();
  out.figure =
      plotWithGnuplot(legFigureScript(out.csv, out.png, a.what() + " (paper 003, Sec. V): " + stem, in.e), out.png);
  if (report) reportFigure(*report, out.figure, out.png);
  return out;
}

// A fit is named by what() in JSON; another name is refused.
void to_json(nlohmann::json& j, LegIdOptions::Fit f) {
  j = f == LegIdOptions::Fit::kFriction ? "leg_friction" : "leg_bias";
}
void from_json(const nlohmann::json& j, LegIdOptions::Fit& f) {
  const std::string name = j.get<std::string>();
  if (name != "leg_friction" && name != "leg_bias") throw std::invalid_argument("unknown leg fit '" + name + "'");
  f = name == "leg_friction" ? LegIdOptions::Fit::kFriction : LegIdOptions::Fit::kBias;
}

// The JSON keys are the members' names (calib/json_fields.h).
GAPSIM_CALIB_JSON_FIELDS(LegIdOptions, fit, log, stand, side, sets, dof, mu_start_Nms_rad, fit_bias, mu_mLA_Nms_rad,
                         mu_mLS_Nms_rad, b_start_mLA_Nm, b_start_mLS_Nm, out_dir, confidence, fixed_start)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LegIdEstimate, param, value, half_width, start, table_v)
GAPSIM_CALIB_JSON_FIELDS(LegIdResult, samples, sample_time_s, stand_source, actuated_mLA, actuated_mLS, b_Nm, K_T,
                         J_kgm2, mu_mLA_Nms_rad, mu_mLS_Nms_rad, estimates, iterations, simulations, residuals,
                         converged, start_offset_mLA_rad, start_offset_mLS_rad, cost_J_rad, initial_cost_J_rad, rms_rad,
                         csv, png, figure)

}  // namespace gapsim::calib
