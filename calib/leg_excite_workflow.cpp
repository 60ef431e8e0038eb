// SPDX-License-Identifier: BSD-3-Clause
#include "calib/leg_excite_workflow.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <ostream>
#include <sstream>

#include "calib/json_fields.h"
#include "calib/leg_id_workflow.h"
#include "sim/input_error.h"

namespace gapsim::calib {

namespace {

using Params = motorgear::MabelTransmission::Params;

/// The leg as simulated: the stand's with the overrides, then the paper's mu and b unless given.
Params simulatedLeg(const LegExciteOptions& a, const RobotModel& stand, const LegExperiment& e) {
  Params leg = legWithOverrides(stand, e.side, a.sets);
  if (e.mimo()) {
    leg.mLA.b_Nm = tableVBias_Nm(e.side, true);
    leg.mLS.b_Nm = tableVBias_Nm(e.side, false);
  }
  if (a.mu_mLA_Nms_rad) leg.mLA.mu_Nms_rad = *a.mu_mLA_Nms_rad;
  if (a.mu_mLS_Nms_rad) leg.mLS.mu_Nms_rad = *a.mu_mLS_Nms_rad;
  if (a.b_mLA_Nm) leg.mLA.b_Nm = *a.b_mLA_Nm;
  if (a.b_mLS_Nm) leg.mLS.b_Nm = *a.b_mLS_Nm;
  leg.validate();
  return leg;
}

/// The chirps (sample time in whole steps of the stand's dt), the offsets (the hold commands of
/// `pose` unless given) and the encoder.
LegExcitation excitation(const LegExciteOptions& a, const RobotModel& stand, const Params& leg, const LegPose& pose,
                         LegSide side) {
  LegExcitation x;
  x.mLA = x.mLS = a.chirp;
  x.mLA.sample_time_s = x.mLS.sample_time_s =
      stand.solver.dt_s * std::max(1.0, std::round(a.chirp.sample_time_s / stand.solver.dt_s));
  if (a.amplitude_mLA_Nm) {
    x.mLA.amplitude_start_Nm = *a.amplitude_mLA_Nm;
    x.mLA.amplitude_end_Nm = *a.amplitude_mLA_Nm * 10;
  }
  if (a.amplitude_mLS_Nm) {
    x.mLS.amplitude_start_Nm = *a.amplitude_mLS_Nm;
    x.mLS.amplitude_end_Nm = *a.amplitude_mLS_Nm * 10;
  }
  const LegHold hold = legHoldCommands(stand, side, leg, pose);
  x.mLA.offset_Nm = a.offset_mLA_Nm.value_or(a.offset_Nm.value_or(hold.u_mLA_Nm));
  x.mLS.offset_Nm = a.offset_mLS_Nm.value_or(a.offset_Nm.value_or(hold.u_mLS_Nm));
  x.encoder_rad = a.encoder_bits > 0 ? 2 * std::numbers::pi / std::pow(2.0, a.encoder_bits) : 0.0;
  x.noise_rad = a.noise_rad;
  x.seed = a.seed;
  return x;
}

/// The log's first line: what was simulated.
std::string logComment(const LegExciteOptions& a, const LegExperiment& e, const Params& leg, const LegExcitation& x) {
  std::ostringstream c;
  c << "synthetic MABEL leg experiment on the stand (gapsim-cli excite leg), " << a.side << " "
    << (e.mimo() ? "MIMO" : "SISO " + a.dof) << ": mu_mLA " << leg.mLA.mu_Nms_rad << " mu_mLS " << leg.mLS.mu_Nms_rad
    << " N m s/rad, b_mLA " << leg.mLA.b_Nm << " b_mLS " << leg.mLS.b_Nm << " N m; encoder "
    << (x.encoder_rad > 0 ? significant(x.encoder_rad, 6) + " rad" : std::string("exact")) << ", noise " << x.noise_rad
    << " rad, seed " << x.seed;
  return c.str();
}

void range(const std::vector<double>& v, double& lo, double& hi) {
  const auto [l, h] = std::minmax_element(v.begin(), v.end());
  lo = *l;
  hi = *h;
}

void report(std::ostream& os, const LegExciteOptions& a, const LegExciteResult& r) {
  os << "excite leg: " << r.samples << " samples, " << significant(r.duration_s, 5) << " s at T_s = " << r.sample_time_s
     << " s; " << (r.mimo ? "MIMO" : "SISO " + a.dof) << " " << a.side << "\n"
     << "  simulated with mu_mLA = " << significant(r.mu_mLA_Nms_rad, 4)
     << ", mu_mLS = " << significant(r.mu_mLS_Nms_rad, 4) << " N m s/rad, b_mLA = " << significant(r.b_mLA_Nm, 4)
     << ", b_mLS = " << significant(r.b_mLS_Nm, 4) << " N m\n"
     << "  input offsets: mLA " << significant(r.offset_mLA_Nm, 4) << ", mLS " << significant(r.offset_mLS_Nm, 4)
     << " N m\n";
  os << "  q_mLA " << significant(r.q_mLA_min_rad, 5) << " .. " << significant(r.q_mLA_max_rad, 5) << " rad, q_mLS "
     << significant(r.q_mLS_min_rad, 5) << " .. " << significant(r.q_mLS_max_rad, 5) << " rad (motor)\n"
     << "  written: " << r.out << "\n";
}

}  // namespace

LegExciteResult exciteLeg(const LegExciteOptions& a, std::ostream* os, const std::function<void()>& before_write) {
  const LegSide side = parseLegSide(a.side);
  const LegExperiment e = legExperiment(side, a.dof);
  const RobotModel stand = loadLegStand(a.stand);
  const Params leg = simulatedLeg(a, stand, e);
  if (a.encoder_bits < 0 || a.encoder_bits > 40)
    throw InputError("", 0, "--encoder-bits", "must be in 0..40 (0: exact)");
  const LegPose pose = standInitialPose(stand, side);
  const LegExcitation x = excitation(a, stand, leg, pose, side);
  const LegExperimentLog log = synthesizeLegExperiment(stand, e, leg, pose, x);
  if (before_write) before_write();
  log.write(a.out, logComment(a, e, leg, x));
  LegExciteResult r;
  r.samples = static_cast<int>(log.time_s.size());
  r.duration_s = log.time_s.back();
  r.sample_time_s = x.mLA.sample_time_s;
  r.mimo = e.mimo();
  r.mu_mLA_Nms_rad = leg.mLA.mu_Nms_rad;
  r.mu_mLS_Nms_rad = leg.mLS.mu_Nms_rad;
  r.b_mLA_Nm = leg.mLA.b_Nm;
  r.b_mLS_Nm = leg.mLS.b_Nm;
  r.offset_mLA_Nm = x.mLA.offset_Nm;
  r.offset_mLS_Nm = x.mLS.offset_Nm;
  r.encoder_rad = x.encoder_rad;
  range(log.q_mLA_rad, r.q_mLA_min_rad, r.q_mLA_max_rad);
  range(log.q_mLS_rad, r.q_mLS_min_rad, r.q_mLS_max_rad);
  r.out = a.out;
  if (os) report(*os, a, r);
  return r;
}

// The JSON keys are the members' names (calib/json_fields.h).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ChirpOptions, f_start_Hz, f_end_Hz, steps, periods, amplitude_start_Nm,
                                   amplitude_end_Nm, offset_Nm, sample_time_s)
GAPSIM_CALIB_JSON_FIELDS(LegExciteOptions, out, side, stand, sets, dof, mu_mLA_Nms_rad, mu_mLS_Nms_rad, b_mLA_Nm,
                         b_mLS_Nm, chirp, amplitude_mLA_Nm, amplitude_mLS_Nm, offset_Nm, offset_mLA_Nm, offset_mLS_Nm,
                         encoder_bits, noise_rad, seed)
GAPSIM_CALIB_JSON_FIELDS(LegExciteResult, samples, duration_s, sample_time_s, mimo, mu_mLA_Nms_rad, mu_mLS_Nms_rad,
                         b_mLA_Nm, b_mLS_Nm, offset_mLA_Nm, offset_mLS_Nm, encoder_rad, q_mLA_min_rad, q_mLA_max_rad,
                         q_mLS_min_rad, q_mLS_max_rad, out)

}  // namespace gapsim::calib
