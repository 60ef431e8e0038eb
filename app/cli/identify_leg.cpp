// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify leg-friction|leg-bias and excite leg (MABEL paper 003, Section V): the
// viscous friction (eq. 19, SISO) and the motor biases (eq. 20, MIMO) fitted by simulating the
// test-stand experiment (calib/mabel_leg_identification.h), and a synthetic experiment to try it.
#include "app/cli/identify_leg.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "app/cli/output_paths.h"
#include "calib/mabel_leg_identification.h"
#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::cli {

namespace {

using calib::LegParam;
using calib::LegSide;
using Params = motorgear::MabelTransmission::Params;

std::string fmt(double v, int prec = 4) {
  std::ostringstream s;
  s << std::setprecision(prec) << v;
  return s.str();
}

std::string defaultStand() { return robotsDirectory() + "/mabel/identification/leg_stand.urdf"; }

/// Options every leg command shares: the stand, the side, parameter overrides of the leg.
struct LegCommon {
  std::string stand;
  std::string side = "left";
  std::vector<std::string> set;  // NAME=VALUE on the leg's transmission (names as `params mabel`, without mabel/<side>/)

  LegSide sideValue() const {
    if (side == "left") return LegSide::Left;
    if (side == "right") return LegSide::Right;
    throw InputError("", 0, "--side", "expected left or right, got '" + side + "'");
  }
  RobotModel loadStand() const { return loadRobotFile(stand.empty() ? defaultStand() : stand); }
  /// The stand's transmission of the side with the --set overrides.
  Params leg(const RobotModel& m) const {
    Params p = m.mabel_legs[static_cast<std::size_t>(calib::standLegIndex(m, sideValue()))].params;
    for (const std::string& kv : set) {
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
    p.validate();
    return p;
  }
};

void addCommon(CLI::App& app, LegCommon& c) {
  app.add_option("--side", c.side, "left or right (Tables IV, V: each side has its own motors)")->capture_default_str();
  app.add_option("--stand", c.stand, "test-stand robot file (default robots/mabel/identification/leg_stand.urdf: "
                                     "torso and B_Spring fixed)");
  app.add_option("--set", c.set, "NAME=VALUE: a transmission parameter of the leg, e.g. mLS/K_T=1.0 (names as "
                                 "`gapsim-cli params mabel` without mabel/<side>/); repeatable");
}

calib::LegExperiment experiment(LegSide side, const std::string& dof) {
  calib::LegExperiment e;
  e.side = side;
  if (dof == "mLA") e.actuated_mLS = false;
  else if (dof == "mLS") e.actuated_mLA = false;
  else if (dof != "both") throw InputError("", 0, "--dof", "expected mLA, mLS or both, got '" + dof + "'");
  return e;
}

bool haveGnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

/// Measured against simulated motor angles (start and estimate), one panel per actuated motor.
bool writeFigure(const std::string& csv, const std::string& png, const std::string& title,
                 const calib::LegExperiment& e) {
  const std::string script = png + ".gp";
  const int panels = e.mimo() ? 2 : 1;
  {
    std::ofstream g(script);
    g << "set terminal pngcairo size 1400," << 450 * panels << " font ',10'\n"
      << "set output '" << png << "'\nset termoption noenhanced\nset datafile separator ','\n"
      << "set multiplot layout " << panels << ",1 title '" << title << "'\nset grid\nset xlabel 'time (s)'\n";
    // Columns: 1 time, 2 u_mLA, 3 u_mLS, 4 q_mLA, 5 q_mLA_start, 6 q_mLA_fit, 7 q_mLS, 8 q_mLS_start, 9 q_mLS_fit.
    auto panel = [&](const char* name, int c) {
      g << "set ylabel '" << name << " (rad)'\n"
        << "plot '" << csv << "' using 1:" << c << " every ::1 with points pt 7 ps 0.2 title 'measured', '' using 1:"
        << c + 1 << " with lines lw 1 title 'simulated, start', '' using 1:" << c + 2
        << " with lines lw 1.5 title 'simulated, estimate'\n";
    };
    if (e.actuated_mLA) panel("q_mLA", 4);
    if (e.actuated_mLS) panel("q_mLS", 7);
    g << "unset multiplot\n";
  }
  const int rc = std::system(("gnuplot '" + script + "' 2>&1").c_str());
  std::filesystem::remove(script);
  return rc == 0 && std::filesystem::exists(png);
}

/// <stem of the log>_<what><ext>: the names report() writes.
std::string legOutputName(const std::string& log, const std::string& what, const std::string& ext) {
  return std::filesystem::path(log).stem().string() + "_" + what + ext;
}

/// Prints the estimates and writes <stem>_<what>.csv (+ .png).
void report(const std::string& what, const calib::LegExperimentLog& log, const calib::LegExperiment& e,
            const calib::LegFitResult& r, const calib::LegResponse& start_sim, const std::string& out_dir,
            double confidence) {
  const LegSide side = e.side;
  std::cout << "  " << r.iterations << " iterations, " << r.simulations << " simulations of the experiment, "
            << (r.converged ? "converged" : "NOT converged") << "; " << r.residuals << " residuals\n";
  for (const auto& est : r.estimates) {
    const bool mLA = est.param == LegParam::mu_mLA || est.param == LegParam::b_mLA;
    const bool mu = est.param == LegParam::mu_mLA || est.param == LegParam::mu_mLS;
    const double tab = mu ? calib::tableVFriction_Nms(side, mLA) : calib::tableVBias_Nm(side, mLA);
    std::cout << "  " << calib::legParamName(est.param) << " = " << fmt(est.value, 6) << " +- " << fmt(est.half_width, 3)
              << (mu ? " N m s/rad" : " N m") << " (" << fmt(100 * confidence, 3) << "% interval; start "
              << fmt(est.start, 4) << "; Table V " << fmt(tab, 4) << ")\n";
  }
  if (e.actuated_mLA || e.actuated_mLS)
    std::cout << "  start angle fitted as well (nuisance): " << (e.actuated_mLA ? "mLA " + fmt(1e3 * r.start_offset_mLA_rad, 3) + " mrad " : "")
              << (e.actuated_mLS ? "mLS " + fmt(1e3 * r.start_offset_mLS_rad, 3) + " mrad " : "")
              << "from the first sample (0 with --fixed-start)\n";
  std::cout << "  J = sqrt(sum (q_exp - q_sim)^2) = " << fmt(r.cost_J_rad, 6) << " rad (start " << fmt(r.initial_cost_J_rad, 6)
            << " rad), rms " << fmt(r.rms_rad, 4) << " rad per sample (motor angle)\n";

  std::filesystem::create_directories(out_dir);
  const std::string stem = std::filesystem::path(log.source).stem().string();
  const std::string csv = (std::filesystem::path(out_dir) / (stem + "_" + what + ".csv")).string();
  {
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
  std::cout << "  measured vs simulated (CSV): " << csv << "\n";
  const std::string png = (std::filesystem::path(out_dir) / (stem + "_" + what + ".png")).string();
  if (!haveGnuplot())
    std::cout << "  figure: skipped, gnuplot is not installed (Debian: apt-get install gnuplot-nox)\n";
  else if (writeFigure(csv, png, what + " (paper 003, Sec. V): " + stem, e))
    std::cout << "  figure (as the paper's Figs. 16-17, motor angles): " << png << "\n";
  else
    std::cout << "  figure: gnuplot failed, no PNG written\n";
}

struct FitArgs {
  LegCommon common;
  std::string log;
  std::string dof = "mLS";
  std::optional<double> mu_start;
  std::optional<double> mu_mLA, mu_mLS;          // leg-bias: fixed friction
  std::optional<double> b_start_mLA, b_start_mLS;  // leg-bias: start (default: staticBiasEstimate)
  std::string out = ".";
  bool force = false;
  double confidence = 0.95;
  bool fixed_start = false;
  bool fit_bias = false;  // leg-friction: fit b of the motor as well
};

int runLegFriction(const FitArgs& a) {
  claimOutputDir(a.out, {legOutputName(a.log, "leg_friction", ".csv"), legOutputName(a.log, "leg_friction", ".png")},
                 a.force);
  const LegSide side = a.common.sideValue();
  const calib::LegExperiment e = experiment(side, a.dof);
  if (e.mimo()) throw InputError("", 0, "--dof", "eq. (19) fits a SISO experiment: mLA or mLS");
  const RobotModel stand = a.common.loadStand();
  const Params leg = a.common.leg(stand);
  const calib::LegExperimentLog log = calib::LegExperimentLog::read(a.log, e);
  const bool mLA = e.actuated_mLA;
  const LegParam p = mLA ? LegParam::mu_mLA : LegParam::mu_mLS;
  const double start = a.mu_start.value_or(calib::tableIIIFriction_Nms(side, mLA));
  if (!(start > 0)) throw InputError("", 0, "--mu-start", "must be > 0 N m s/rad");
  std::cout << "leg friction, eq. (19) (paper 003, Sec. V-C), SISO " << (mLA ? "mLA" : "mLS") << " " << a.common.side
            << ": " << a.log << "\n"
            << "  " << log.time_s.size() << " samples, T_s = " << fmt(log.sample_time_s, 6) << " s; stand "
            << stand.source_file << "; " << (mLA ? "mLS" : "mLA") << " and B_Spring locked\n"
            << (a.fit_bias ? "  b (Table IV, fitted as well: --fit-bias) = " : "  fixed: b = ") << fmt(calib::legParamValue(leg, mLA ? LegParam::b_mLA : LegParam::b_mLS), 4)
            << " N m, K_T = " << fmt(mLA ? leg.mLA.K_T : leg.mLS.K_T, 4) << ", J = "
            << fmt(mLA ? leg.mLA.inertia_kgm2() : leg.mLS.inertia_kgm2(), 4) << " kg m^2 (--set to change)\n";
  calib::LegFitOptions o;
  o.confidence = a.confidence;
  o.fit_start = !a.fixed_start;
  const LegParam pb = mLA ? LegParam::b_mLA : LegParam::b_mLS;
  std::vector<LegParam> ps{p};
  std::vector<double> st{start};
  if (a.fit_bias) {
    ps.push_back(pb);
    const calib::LegHold b0 = calib::staticBiasEstimate(stand, e, leg, log);
    st.push_back(mLA ? b0.u_mLA_Nm : b0.u_mLS_Nm);
  }
  const calib::LegFitResult r = calib::fitLegParameters(stand, e, leg, log, ps, st, o);
  Params at_start = leg;
  calib::setLegParam(at_start, p, start);
  if (a.fit_bias) calib::setLegParam(at_start, pb, st[1]);
  const calib::LegPose pose = calib::logStartPose(stand, e, log);
  const calib::LegResponse y0 = calib::simulateLegExperiment(stand, e, at_start, pose.q_mLA_rad, pose.q_mLS_rad,
                                                             log.u_mLA_Nm, log.u_mLS_Nm, log.sample_time_s);
  report("leg_friction", log, e, r, y0, a.out, a.confidence);
  const auto& est = r.estimates[0];
  std::cout << legParamName(p) << "=" << fmt(est.value, 6) << " half_width=" << fmt(est.half_width, 4);
  if (a.fit_bias)
    std::cout << " " << legParamName(pb) << "=" << fmt(r.estimates[1].value, 6)
              << " half_width_b=" << fmt(r.estimates[1].half_width, 4);
  std::cout << " J_rad=" << fmt(r.cost_J_rad, 6) << " rms_rad=" << fmt(r.rms_rad, 6) << std::endl;
  return r.converged ? kExitOk : kExitFailure;
}

int runLegBias(const FitArgs& a) {
  claimOutputDir(a.out, {legOutputName(a.log, "leg_bias", ".csv"), legOutputName(a.log, "leg_bias", ".png")}, a.force);
  const LegSide side = a.common.sideValue();
  const calib::LegExperiment e = experiment(side, "both");
  const RobotModel stand = a.common.loadStand();
  Params leg = a.common.leg(stand);
  if (a.mu_mLA) leg.mLA.mu_Nms_rad = *a.mu_mLA;
  if (a.mu_mLS) leg.mLS.mu_Nms_rad = *a.mu_mLS;
  if (!(leg.mLA.mu_Nms_rad >= 0) || !(leg.mLS.mu_Nms_rad >= 0)) throw InputError("", 0, "--mu-mLA/--mu-mLS", "must be >= 0");
  const calib::LegExperimentLog log = calib::LegExperimentLog::read(a.log, e);
  std::cout << "leg motor biases, eq. (20) (paper 003, Sec. V-C), MIMO " << a.common.side << ": " << a.log << "\n"
            << "  " << log.time_s.size() << " samples, T_s = " << fmt(log.sample_time_s, 6) << " s; stand "
            << stand.source_file << "; B_Spring locked\n"
            << "  fixed: mu_mLA = " << fmt(leg.mLA.mu_Nms_rad, 4) << ", mu_mLS = " << fmt(leg.mLS.mu_Nms_rad, 4)
            << " N m s/rad (" << (a.mu_mLA || a.mu_mLS ? "--mu-mLA/--mu-mLS" : "the stand's: Table V") << ")\n";
  calib::LegFitOptions o;
  o.confidence = a.confidence;
  o.fit_start = !a.fixed_start;
  const std::vector<LegParam> ps{LegParam::b_mLA, LegParam::b_mLS};
  const calib::LegHold b0 = calib::staticBiasEstimate(stand, e, leg, log);
  const std::vector<double> st{a.b_start_mLA.value_or(b0.u_mLA_Nm), a.b_start_mLS.value_or(b0.u_mLS_Nm)};
  const calib::LegFitResult r = calib::fitLegParameters(stand, e, leg, log, ps, st, o);
  Params at_start = leg;
  at_start.mLA.b_Nm = st[0];
  at_start.mLS.b_Nm = st[1];
  const calib::LegResponse y0 = calib::simulateLegExperiment(stand, e, at_start, log.q_mLA_rad[0], log.q_mLS_rad[0],
                                                             log.u_mLA_Nm, log.u_mLS_Nm, log.sample_time_s);
  report("leg_bias", log, e, r, y0, a.out, a.confidence);
  std::cout << "b_mLA=" << fmt(r.estimates[0].value, 6) << " b_mLS=" << fmt(r.estimates[1].value, 6)
            << " half_width_mLA=" << fmt(r.estimates[0].half_width, 4) << " half_width_mLS="
            << fmt(r.estimates[1].half_width, 4) << " J_rad=" << fmt(r.cost_J_rad, 6) << " rms_rad=" << fmt(r.rms_rad, 6)
            << std::endl;
  return r.converged ? kExitOk : kExitFailure;
}

void addFitCommon(CLI::App& app, FitArgs& a) {
  app.add_option("--log", a.log, "experiment log: time_s, u_mLA_Nm, u_mLS_Nm, q_mLA_rad, q_mLS_rad (motor angles, "
                                 "rigid-cable convention q_m = gamma q_link; `gapsim-cli excite leg` writes one)")
      ->required();
  addCommon(app, a.common);
  app.add_option("--out", a.out, "directory for <log>_leg_*.csv and .png")->capture_default_str();
  addForceOption(app, a.force);
  app.add_option("--confidence", a.confidence, "level of the intervals")->capture_default_str();
  app.add_flag("--fixed-start", a.fixed_start, "start the simulation exactly at the first logged sample instead of "
                                               "fitting the start angle too");
}

struct ExciteArgs {
  LegCommon common;
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
  const LegSide side = a.common.sideValue();
  const calib::LegExperiment e = experiment(side, a.dof);
  const RobotModel stand = a.common.loadStand();
  Params leg = a.common.leg(stand);
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
  c << "synthetic MABEL leg experiment on the stand (gapsim-cli excite leg), " << a.common.side << " "
    << (e.mimo() ? "MIMO" : "SISO " + a.dof) << ": mu_mLA " << leg.mLA.mu_Nms_rad << " mu_mLS " << leg.mLS.mu_Nms_rad
    << " N m s/rad, b_mLA " << leg.mLA.b_Nm << " b_mLS " << leg.mLS.b_Nm << " N m; encoder "
    << (x.encoder_rad > 0 ? fmt(x.encoder_rad, 6) + " rad" : std::string("exact")) << ", noise " << x.noise_rad
    << " rad, seed " << x.seed;
  log.write(a.out, c.str());
  std::cout << "excite leg: " << log.time_s.size() << " samples, " << fmt(log.time_s.back(), 5) << " s at T_s = "
            << x.mLA.sample_time_s << " s; " << (e.mimo() ? "MIMO" : "SISO " + a.dof) << " " << a.common.side << "\n"
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
  app.add_option("--dof", a->dof, "the actuated motor of the SISO experiment: mLA or mLS (the other is locked)")
      ->capture_default_str();
  app.add_option("--mu-start", a->mu_start, "starting mu (N m s/rad); default Table III mu_3 / K_T of the motor");
  app.add_flag("--fit-bias", a->fit_bias, "fit the motor's bias b together with mu (the paper holds b at Table IV "
                                          "in SISO; its footnote: the bias changes from trial to trial)");
  return [a] { return runLegFriction(*a); };
}

Action addLegBias(CLI::App& app) {
  auto a = std::make_shared<FitArgs>();
  addFitCommon(app, *a);
  app.add_option("--mu-mLA", a->mu_mLA, "fixed mu of mLA (N m s/rad), e.g. from leg-friction; default the stand's (Table V)");
  app.add_option("--mu-mLS", a->mu_mLS, "fixed mu of mLS (N m s/rad); default the stand's (Table V)");
  app.add_option("--b-start-mLA", a->b_start_mLA, "starting b of mLA (N m); default: the static estimate (hold "
                                                  "command of the mean pose minus the mean command)");
  app.add_option("--b-start-mLS", a->b_start_mLS, "starting b of mLS (N m); default: the static estimate");
  return [a] { return runLegBias(*a); };
}

Action addExciteLeg(CLI::App& app) {
  auto a = std::make_shared<ExciteArgs>();
  app.add_option("--out", a->out, "log to write: time_s, u_mLA_Nm, u_mLS_Nm, q_mLA_rad, q_mLS_rad")->required();
  addForceOption(app, a->force);
  addCommon(app, a->common);
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
