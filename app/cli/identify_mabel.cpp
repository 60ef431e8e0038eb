// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify chirp|bias|transmission|spring (MABEL paper 003): the command-line adapters
// of the transmission identification workflows (calib/mabel_id_workflow.h). Each parses, calls
// the workflow with std::cout for its report and prints the machine line.
#include "app/cli/identify_mabel.h"

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "calib/mabel_id_workflow.h"
#include "sim/input_error.h"

namespace gapsim::cli {

namespace {

int runFirstOrder(const calib::FirstOrderIdOptions& o) {
  const calib::FirstOrderIdResult r = calib::identifyFirstOrder(o, &std::cout);
  std::cout << "J_kgm2=" << significant(r.J_kgm2, 6) << " mu_Nms=" << significant(r.mu_Nms, 6);
  if (o.with_bias) std::cout << " bias_Nm=" << significant(r.bias_Nm, 6);
  std::cout << std::endl;
  return r.converged ? kExitOk : kExitFailure;
}

Action addChirpLog(CLI::App& app, bool with_bias) {
  auto o = std::make_shared<calib::FirstOrderIdOptions>();
  o->with_bias = with_bias;
  app.add_option("--log", o->log,
                 "CSV with time_s, u_Nm (commanded torque), omega_rad_s (motor velocity), "
                 "uniformly sampled (`gapsim-cli excite chirp` writes the input)")
      ->required();
  app.add_flag("--refine", o->refine,
               "refine the ARX estimate by output-error least squares (Ceres) and print "
               "confidence intervals; unbiased when the speed is measured with noise");
  app.add_option("--confidence", o->confidence, "level of the --refine intervals")->capture_default_str();
  return [o] { return runFirstOrder(*o); };
}

}  // namespace

Action addIdentifyChirp(CLI::App& app) { return addChirpLog(app, false); }
Action addIdentifyBias(CLI::App& app) { return addChirpLog(app, true); }

Action addIdentifyTransmission(CLI::App& app) {
  auto o = std::make_shared<calib::TransmissionIdOptions>();
  app.add_option("--table", o->table, "CSV, one row per pulley combination: J_exp_kgm2, J_pulley_kgm2, J_cable_kgm2")
      ->required();
  app.add_option("--rotor-inertia", o->J_rotor_man_kgm2, "the manufacturer's rotor inertia J_rotor_man (kg m^2)")
      ->required();
  return [o] {
    const calib::TransmissionIdResult r = calib::identifyTransmission(*o, &std::cout);
    std::cout << "K_T=" << significant(r.fit.K_T, 6) << " alpha=" << significant(r.fit.alpha, 6) << std::endl;
    return kExitOk;
  };
}

Action addIdentifySpring(CLI::App& app) {
  auto o = std::make_shared<calib::SpringIdOptions>();
  app.add_option("--table", o->table, "CSV, one row per static test: q_LS_rad, q_Bsp_rad")->required();
  app.add_option("--weight", o->weight_N, "W_robot measured by the scale (N)")->required();
  app.add_option("--ratio", o->ratio, "constant of eq. 24 (2 x 2.59061 by eq. 23)")->capture_default_str();
  return [o] {
    const calib::SpringIdResult r = calib::identifySpring(*o, &std::cout);
    std::cout << "K_B_Nm_rad=" << significant(r.fit.K_B_Nm_rad, 6) << std::endl;
    return kExitOk;
  };
}

}  // namespace gapsim::cli
