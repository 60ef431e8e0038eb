// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli drive-curve --robot R --joint J --out F.png: the torque-speed envelope and the
// drive/backdrive diagram of one joint, asked of the drive that runs for it (calib/drive_curve.h);
// the data as CSV (F.csv unless --csv), the figure with gnuplot.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/cli/commands.h"
#include "app/cli/output_paths.h"
#include "app/cli/run_setup.h"
#include "calib/drive_curve.h"
#include "sim/input_error.h"

namespace gapsim::cli {

Action addDriveCurve(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  auto o = std::make_shared<calib::DriveCurveOptions>();
  auto png = std::make_shared<std::string>();
  auto csv = std::make_shared<std::string>();
  app.add_option("--robot", a->robot, "nao, bioloid, mabel or a path to a robot file")->required();
  app.add_option("--joint", o->joint, "the joint (gapsim-cli info ROBOT lists them)")->required();
  app.add_option("--out", *png, "the figure (PNG, drawn by gnuplot)")->required();
  app.add_option("--csv", *csv, "the data (default: --out with .csv)");
  app.add_option("--params", a->params_file, "apply this parameter file first");
  app.add_option("--set", a->sets, "name=value (repeatable)");
  app.add_option("--points", o->points, "rates evenly over [-max, max]")->capture_default_str();
  app.add_option("--max-speed", o->max_speed_rad_s, "sweep range +-max rad/s (0: 1.25 x the no-load rate)")
      ->capture_default_str();
  app.add_option("--error", o->error_rad, "position error that saturates the law (rad)")->capture_default_str();
  app.add_option("--settle", o->settle_s, "stepping per point before its torque counts (s)")->capture_default_str();
  addForceOption(app, a->force);
  return [a, o, png, csv] {
    if (csv->empty()) *csv = std::filesystem::path(*png).replace_extension(".csv").string();
    if (*csv == *png) throw InputError(*png, 0, "--csv", "the CSV and the figure must be different files");
    claimOutputFile(*png, a->force);
    claimOutputFile(*csv, a->force, "--csv");
    auto model = loadConfiguredModel(*a);
    const calib::DriveCurve c = calib::driveCurve(*model, *o);
    calib::writeDriveCurveCsv(*csv, c);
    std::printf("joint %s: %s, dt %g s, %zu rates\n", c.joint.c_str(), c.drive.c_str(), c.dt_s, c.points.size());
    std::printf("  stall torque (qd = 0): pushing up %.6g N m, pushing down %.6g N m\n", c.stall_max_Nm,
                c.stall_min_Nm);
    auto rate = [](double v) {
      return std::isnan(v) ? std::string("none below 1000 rad/s") : std::to_string(v) + " rad/s";
    };
    std::printf("  no-load rate (torque 0): up %s, down %s\n", rate(c.no_load_max_rad_s).c_str(),
                rate(c.no_load_min_rad_s).c_str());
    if (c.unsettled > 0)
      std::printf("  note: %d points did not settle within the step limit (marked settled=0 in the CSV)\n",
                  c.unsettled);
    std::printf("  data (CSV): %s\n", csv->c_str());
    const calib::FigureStatus fs = calib::plotWithGnuplot(calib::driveCurveFigureScript(c, *csv, *png), *png);
    if (fs == calib::FigureStatus::kWritten)
      std::printf("  figure: %s\n", png->c_str());
    else if (fs == calib::FigureStatus::kNoGnuplot)
      std::printf("  figure skipped: gnuplot is not installed (the CSV is complete)\n");
    else
      std::printf("  figure failed: gnuplot did not write %s (the CSV is complete)\n", png->c_str());
    std::printf("stall_max_Nm=%.17g stall_min_Nm=%.17g no_load_max_rad_s=%.17g no_load_min_rad_s=%.17g unsettled=%d\n",
                c.stall_max_Nm, c.stall_min_Nm, c.no_load_max_rad_s, c.no_load_min_rad_s, c.unsettled);
    return fs == calib::FigureStatus::kFailed ? kExitFailure : kExitOk;
  };
}

}  // namespace gapsim::cli
