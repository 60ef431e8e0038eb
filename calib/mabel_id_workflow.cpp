// SPDX-License-Identifier: BSD-3-Clause
#include "calib/mabel_id_workflow.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "calib/json_fields.h"
#include "sim/csv_table.h"
#include "sim/input_error.h"

namespace gapsim::calib {

namespace {

/// A table without a time column; throws InputError naming the file if a column is missing.
CsvTable readTable(const std::string& path) {
  CsvReadOptions opt;
  opt.time_column = "";
  return CsvTable::read(path, opt);
}

void reportArx(std::ostream& os, const FirstOrderIdOptions& o, const FirstOrderIdResult& r) {
  const FirstOrderFit& f = r.arx;
  const bool b = o.with_bias;
  os << (b ? "amplifier bias, two-input ARX (paper 003, Appendix A, eqs. 31-33): "
           : "first-order model J omega_dot + mu omega = u, ARX(1,1) (paper 003, eq. 7): ")
     << o.log << "\n";
  os << "  samples: " << r.samples << ", T_s = " << significant(r.sample_time_s, 6) << " s\n";
  os << "  omega_k = a omega_{k-1} + b u_{k-1}" << (b ? " + b2" : "") << ":  a = " << significant(f.a, 8)
     << ", b = " << significant(f.b, 6) << (b ? ", b2 = " + significant(f.bias_coefficient, 6) : "") << "\n";
  os << "  J  = -mu T_s / ln a = " << significant(f.J_kgm2, 6) << " kg m^2\n"
     << "  mu = (1 - a) / b    = " << significant(f.mu_Nms, 6) << " N m s\n";
  if (b) os << "  bias = b2 / b1 = " << significant(f.bias_Nm, 6) << " N m (the plant sees u + bias)\n";
  os << "  one-step prediction rms " << significant(f.residual_rms, 4) << " rad/s (omega rms "
     << significant(f.output_rms, 4) << " rad/s)\n";
}

void reportRefinement(std::ostream& os, const FirstOrderIdOptions& o, const OutputErrorFit& r) {
  const std::string pct = significant(100 * o.confidence, 3) + "%";
  os << "  output-error refinement (Ceres, " << r.iterations << " iterations, "
     << (r.converged ? "converged" : "NOT converged") << "), " << pct << " intervals:\n"
     << "  J  = " << significant(r.J_kgm2, 6) << " +- " << significant(r.J_half_width_kgm2, 3) << " kg m^2\n"
     << "  mu = " << significant(r.mu_Nms, 6) << " +- " << significant(r.mu_half_width_Nms, 3) << " N m s\n";
  if (o.with_bias)
    os << "  bias = " << significant(r.bias_Nm, 6) << " +- " << significant(r.bias_half_width_Nm, 3) << " N m\n";
  os << "  simulated-response rms " << significant(r.residual_rms, 4)
     << " rad/s (ARX start: " << significant(r.initial_rms, 4) << " rad/s)\n";
}

}  // namespace

// The JSON keys are the members' names: one field list per struct (nlohmann's macro defines
// to_json and from_json; from_json requires every key).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FirstOrderFit, a, b, bias_coefficient, bias_Nm, J_kgm2, mu_Nms, residual_rms,
                                   output_rms, rows)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OutputErrorFit, J_kgm2, mu_Nms, bias_Nm, J_half_width_kgm2, mu_half_width_Nms,
                                   bias_half_width_Nm, residual_rms, initial_rms, iterations, converged, samples)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TorqueConstantFit, K_T, alpha, K_T_alpha, J_rotor_kgm2, residual_rms_kgm2)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SpringTest, q_LS_rad, q_Bsp_rad)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SpringStiffnessFit, K_B_Nm_rad, tau_Bsp_Nm, K_B_each, residual_rms_Nm)
GAPSIM_CALIB_JSON_FIELDS(FirstOrderIdOptions, log, with_bias, refine, confidence)
GAPSIM_CALIB_JSON_FIELDS(FirstOrderIdResult, samples, sample_time_s, arx, refined, refinement, J_kgm2, mu_Nms, bias_Nm,
                         converged)
GAPSIM_CALIB_JSON_FIELDS(TransmissionIdOptions, table, J_rotor_man_kgm2)
GAPSIM_CALIB_JSON_FIELDS(SpringIdOptions, table, weight_N, ratio)

// The transmission and spring results keep their fit's keys beside their own, in one flat object.
nlohmann::json TransmissionIdResult::toJson() const {
  nlohmann::json j = fit;
  j["combinations"] = combinations;
  return j;
}

TransmissionIdResult TransmissionIdResult::fromJson(const nlohmann::json& j) {
  return {j.at("combinations").get<int>(), j.get<TorqueConstantFit>()};
}

nlohmann::json SpringIdResult::toJson() const {
  nlohmann::json j = fit;
  j["tests"] = tests;
  return j;
}

SpringIdResult SpringIdResult::fromJson(const nlohmann::json& j) {
  return {j.at("tests").get<std::vector<SpringTest>>(), j.get<SpringStiffnessFit>()};
}

FirstOrderIdResult identifyFirstOrder(const FirstOrderIdOptions& o, std::ostream* report) {
  const ChirpLog log = ChirpLog::read(o.log);
  FirstOrderIdResult r;
  r.samples = static_cast<int>(log.time_s.size());
  r.sample_time_s = log.sample_time_s;
  r.arx = o.with_bias ? fitFirstOrderWithBias(log.u_Nm, log.omega_rad_s, log.sample_time_s)
                      : fitFirstOrder(log.u_Nm, log.omega_rad_s, log.sample_time_s);
  if (report) reportArx(*report, o, r);
  r.J_kgm2 = r.arx.J_kgm2;
  r.mu_Nms = r.arx.mu_Nms;
  r.bias_Nm = o.with_bias ? r.arx.bias_Nm : 0.0;
  if (!o.refine) return r;
  // Output-error refinement (Ceres): unbiased under measurement noise, with intervals.
  OutputErrorOptions oe;
  oe.fit_bias = o.with_bias;
  oe.confidence = o.confidence;
  r.refinement = refineFirstOrderOutputError(log.u_Nm, log.omega_rad_s, log.sample_time_s, r.arx, oe);
  r.refined = true;
  if (report) reportRefinement(*report, o, r.refinement);
  r.J_kgm2 = r.refinement.J_kgm2;
  r.mu_Nms = r.refinement.mu_Nms;
  r.bias_Nm = o.with_bias ? r.refinement.bias_Nm : 0.0;
  r.converged = r.refinement.converged;
  return r;
}

TransmissionIdResult identifyTransmission(const TransmissionIdOptions& o, std::ostream* report) {
  if (!(o.J_rotor_man_kgm2 > 0)) throw InputError("", 0, "--rotor-inertia", "must be > 0 kg m^2");
  const CsvTable t = readTable(o.table);
  const auto Je = t.column("J_exp_kgm2"), Jp = t.column("J_pulley_kgm2"), Jc = t.column("J_cable_kgm2");
  std::vector<PulleyExperiment> e;
  for (std::size_t i = 0; i < Je.size(); ++i) e.push_back({Je[i], Jp[i], Jc[i]});
  if (e.size() < 2) throw InputError(o.table, 0, "", "need at least two pulley combinations (the paper: three)");
  TransmissionIdResult r;
  r.combinations = static_cast<int>(e.size());
  r.fit = fitTorqueConstant(e, o.J_rotor_man_kgm2);
  if (report)
    *report << "K_T and alpha from " << e.size() << " pulley combinations (paper 003, eqs. 10-12): " << o.table << "\n"
            << "  K_T = " << significant(r.fit.K_T, 6) << ", alpha = " << significant(r.fit.alpha, 6)
            << " (J_rotor = " << significant(r.fit.J_rotor_kgm2, 6) << " kg m^2 for the manufacturer's "
            << significant(o.J_rotor_man_kgm2, 6) << "), residual rms " << significant(r.fit.residual_rms_kgm2, 4)
            << " kg m^2\n";
  return r;
}

SpringIdResult identifySpring(const SpringIdOptions& o, std::ostream* report) {
  if (!(o.weight_N > 0)) throw InputError("", 0, "--weight", "must be > 0 N");
  if (!(o.ratio > 0)) throw InputError("", 0, "--ratio", "must be > 0");
  const CsvTable t = readTable(o.table);
  const auto qls = t.column("q_LS_rad"), qb = t.column("q_Bsp_rad");
  SpringIdResult r;
  for (std::size_t i = 0; i < qls.size(); ++i) r.tests.push_back({qls[i], qb[i]});
  r.fit = fitSpringStiffness(r.tests, o.weight_N, o.ratio);
  if (!report) return r;
  std::ostream& os = *report;
  os << "spring stiffness from " << r.tests.size() << " static tests (paper 003, eqs. 21-24): " << o.table << "\n";
  for (std::size_t i = 0; i < r.tests.size(); ++i)
    os << "  q_LS " << significant(r.tests[i].q_LS_rad, 4) << " rad, q_Bsp " << significant(r.tests[i].q_Bsp_rad, 4)
       << " rad: tau_Bsp " << significant(r.fit.tau_Bsp_Nm[i], 4) << " N m, (24) K_B "
       << significant(r.fit.K_B_each[i], 4) << " N m/rad\n";
  os << "  least-squares K_B = " << significant(r.fit.K_B_Nm_rad, 6) << " N m/rad (residual rms "
     << significant(r.fit.residual_rms_Nm, 4) << " N m)\n";
  return r;
}

}  // namespace gapsim::calib
