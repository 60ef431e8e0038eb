// SPDX-License-Identifier: BSD-3-Clause
#include "calib/drive_curve.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "calib/calibration.h"
#include "sim/compile.h"
#include "sim/input_error.h"

namespace gapsim::calib {
namespace {

constexpr double kNoLoadSearchLimit_rad_s = 1000.0;
constexpr double kFallbackRange_rad_s = 10.0;

std::string movableJointList(const RobotModel& m) {
  std::string s;
  for (int ji : m.movableJoints()) s += (s.empty() ? "" : " ") + m.joints[static_cast<std::size_t>(ji)].name;
  return s;
}

void checkOptions(const RobotModel& m, const DriveCurveOptions& o) {
  const std::string& f = m.source_file;
  if (o.points < 2 || o.points > 100000)
    throw InputError(f, 0, "--points", "must be in [2, 100000], got " + std::to_string(o.points));
  if (!(o.max_speed_rad_s >= 0) || !std::isfinite(o.max_speed_rad_s))
    throw InputError(f, 0, "--max-speed",
                     "must be >= 0 rad/s (0: from the no-load rates), got " + sixDigits(o.max_speed_rad_s));
  if (!(o.error_rad > 0) || !std::isfinite(o.error_rad))
    throw InputError(f, 0, "--error", "must be > 0 rad, got " + sixDigits(o.error_rad));
  if (!(o.settle_s >= 0 && o.settle_s <= 10))
    throw InputError(f, 0, "--settle", "must be in [0, 10] s, got " + sixDigits(o.settle_s));
}

}  // namespace

DriveCurve driveCurve(const RobotModel& model, const DriveCurveOptions& o) {
  checkOptions(model, o);
  const std::string& f = model.source_file;
  const int ji = model.jointIndex(o.joint);
  if (ji < 0)
    throw InputError(f, 0, "--joint", "no joint '" + o.joint + "'; movable joints: " + movableJointList(model));
  if (model.joints[static_cast<std::size_t>(ji)].type == JointType::Prismatic)
    throw InputError(f, 0, "--joint",
                     "'" + o.joint + "' is prismatic: the envelope is drawn for hinges (N m against rad/s)");
  const CompiledModel cm = compile(model);
  for (const auto& cd : cm.coupled_drives)
    if (std::find(cd.joints.begin(), cd.joints.end(), ji) != cd.joints.end())
      throw InputError(f, cd.line, "--joint",
                       "'" + o.joint + "' is moved by the coupled drive <" + cd.element +
                           "> (several joints at once): no envelope of one joint");
  const CompiledModel::Joint& cj = cm.joints[static_cast<std::size_t>(ji)];
  if (cj.mimic)
    throw InputError(f, 0, "--joint", "'" + o.joint + "' is a mimic joint: it follows its master, no drive of its own");
  if (!cj.prototype)
    throw InputError(f, 0, "--joint",
                     "'" + o.joint + "' has no drive (fixed or welded); movable joints: " + movableJointList(model));

  DriveCurve c;
  c.robot_file = f;
  c.joint = o.joint;
  c.drive = cj.drive;
  c.dt_s = cm.dt_s;
  motorgear::EnvelopeOptions eo;
  eo.dt_s = cm.dt_s;
  eo.q0_rad = model.initial_q[static_cast<std::size_t>(ji)];
  eo.error_rad = o.error_rad;
  eo.settle_s = o.settle_s;
  const motorgear::Drive& d = *cj.prototype;
  c.no_load_max_rad_s = motorgear::noLoadSpeed_rad_s(d, eo, kNoLoadSearchLimit_rad_s);
  c.no_load_min_rad_s = motorgear::noLoadSpeed_rad_s(d, eo, kNoLoadSearchLimit_rad_s, -1);
  double vmax = o.max_speed_rad_s;
  if (vmax == 0) {
    double v = 0;
    for (double n : {c.no_load_max_rad_s, c.no_load_min_rad_s})
      if (std::isfinite(n)) v = std::max(v, std::abs(n));
    vmax = v > 0 ? 1.25 * v : kFallbackRange_rad_s;
  }
  std::vector<double> extra;
  for (double n : {c.no_load_max_rad_s, c.no_load_min_rad_s})
    if (std::isfinite(n) && n != 0) extra.push_back(n);
  c.points = motorgear::torqueSpeedEnvelope(d, motorgear::envelopeSpeeds(vmax, o.points, extra), eo);
  for (const auto& p : c.points) {
    if (p.qd_rad_s == 0) {
      c.stall_max_Nm = p.upper.tau_Nm;
      c.stall_min_Nm = p.lower.tau_Nm;
    }
    c.unsettled += !p.upper.converged + !p.lower.converged;
  }
  return c;
}

void writeDriveCurveCsv(const std::string& path, const DriveCurve& c) {
  std::ostringstream out;
  out.precision(17);
  out << "qd_rad_s,tau_max_Nm,tau_min_Nm,power_max_W,power_min_W,quadrant_max,quadrant_min,settled\n";
  for (const auto& p : c.points) {
    const double v = p.qd_rad_s, up = p.upper.tau_Nm, lo = p.lower.tau_Nm;
    out << v << ',' << up << ',' << lo << ',' << up * v << ',' << lo * v << ',' << motorgear::quadrantName(v, up) << ','
        << motorgear::quadrantName(v, lo) << ',' << (p.upper.converged && p.lower.converged ? 1 : 0) << '\n';
  }
  try {
    writeFileAtomically(path, out.str());
  } catch (const std::exception& e) {
    throw InputError(path, 0, "--csv", e.what());
  }
}

std::string driveCurveFigureScript(const DriveCurve& c, const std::string& csv, const std::string& png) {
  double tmax = 0, vmax = 0;
  for (const auto& p : c.points) {
    tmax = std::max({tmax, std::abs(p.upper.tau_Nm), std::abs(p.lower.tau_Nm)});
    vmax = std::max(vmax, std::abs(p.qd_rad_s));
  }
  const double ty = tmax > 0 ? 1.1 * tmax : 1.0, vx = vmax > 0 ? vmax : 1.0;
  std::ostringstream g;
  g.precision(10);
  g << "set terminal pngcairo size 1100,800 font ',11'\n"
    << "set output '" << png << "'\n"
    << "set termoption noenhanced\n"
    << "set datafile separator ','\n"
    << "set title '" << c.joint << ": " << c.drive << " (torque-speed envelope, dt " << c.dt_s << " s)'\n"
    << "set grid\n"
    << "set xlabel 'joint rate qd (rad/s)'\nset ylabel 'joint torque (N m)'\n"
    << "set xrange [" << -vx << ":" << vx << "]\nset yrange [" << -ty << ":" << ty << "]\n"
    << "set xzeroaxis lw 1.5\nset yzeroaxis lw 1.5\n"
    // The backdriven quadrants (II: qd < 0, tau > 0; IV: qd > 0, tau < 0) shaded.
    << "set object 1 rect from " << -vx << ",0 to 0," << ty
    << " behind fillcolor rgb '#fde8d8' fillstyle solid 1.0 noborder\n"
    << "set object 2 rect from 0," << -ty << " to " << vx
    << ",0 behind fillcolor rgb '#fde8d8' fillstyle solid 1.0 noborder\n"
    << "set style textbox opaque noborder\n"
    << "set label 1 'drive (I)' at graph 0.75,0.75 center front boxed\n"
    << "set label 2 'backdrive (II)' at graph 0.25,0.75 center front boxed\n"
    << "set label 3 'drive (III)' at graph 0.25,0.25 center front boxed\n"
    << "set label 4 'backdrive (IV)' at graph 0.75,0.25 center front boxed\n"
    << "set key below\n"
    << "plot '" << csv << "' skip 1 using 1:2 with lines lw 2.5 lc rgb '#1f4e9c' title 'tau_max(qd): pushing up', "
    << "'' skip 1 using 1:3 with lines lw 2.5 lc rgb '#b02418' title 'tau_min(qd): pushing down', "
    << "'-' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title 'stall torque, no-load rate'\n";
  g << "0," << c.stall_max_Nm << "\n0," << c.stall_min_Nm << "\n";
  if (std::isfinite(c.no_load_max_rad_s)) g << c.no_load_max_rad_s << ",0\n";
  if (std::isfinite(c.no_load_min_rad_s)) g << c.no_load_min_rad_s << ",0\n";
  g << "e\n";
  return g.str();
}

}  // namespace gapsim::calib
