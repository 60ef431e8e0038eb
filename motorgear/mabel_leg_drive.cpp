// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/mabel_leg_drive.h"

#include <numbers>

namespace gapsim::motorgear {
namespace {}  // namespace

MabelTransmission::LinkState MabelLegDrive::linkState(double hip_rad, double hipd_rad_s, double knee_rad,
                                                      double kneed_rad_s) {
  return {std::numbers::pi - hip_rad, -hipd_rad_s, std::numbers::pi - hip_rad - knee_rad, -(hipd_rad_s + kneed_rad_s)};
}

MabelLegDrive::MabelLegDrive(const Params& p, double hip0_rad, double knee0_rad) : p_(p), tr_(p.transmission) {
  tr_.reset(linkState(hip0_rad, 0.0, knee0_rad, 0.0));
}

void MabelLegDrive::setMotorCommands_Nm(double u_mLA_Nm, double u_mLS_Nm) {
  u_mLA_Nm_ = u_mLA_Nm;
  u_mLS_Nm_ = u_mLS_Nm;
  commanded_ = true;
}

void MabelLegDrive::step(double dt_s, std::span<const DriveInput> in, std::span<double> torque_Nm) {
  const DriveInput& hip = in[0];
  const DriveInput& knee = in[1];
  const auto link = linkState(hip.q_rad, hip.qd_rad_s, knee.q_rad, knee.qd_rad_s);
  if (!commanded_) {
    const auto tgt = linkState(hip.target_rad, 0.0, knee.target_rad, 0.0);
    const double q_LA = MabelTransmission::legAngle_rad(tgt.q_Th_rad, tgt.q_Sh_rad);
    const double q_LS = MabelTransmission::legShape_rad(tgt.q_Th_rad, tgt.q_Sh_rad);
    const auto& st = tr_.state();
    u_mLA_Nm_ = p_.kp_mLA * (p_.transmission.mLA.gamma * q_LA - st.q_mLA_rad) - p_.kd_mLA * st.qd_mLA_rad_s;
    u_mLS_Nm_ = p_.kp_mLS * (p_.transmission.mLS.gamma * q_LS - st.q_mLS_rad) - p_.kd_mLS * st.qd_mLS_rad_s;
  }
  const auto out = tr_.step(dt_s, u_mLA_Nm_, u_mLS_Nm_, link);
  commanded_ = false;
  torque_Nm[0] = -(out.tau_Th_Nm + out.tau_Sh_Nm);
  torque_Nm[1] = -out.tau_Sh_Nm;
}

}  // namespace gapsim::motorgear
