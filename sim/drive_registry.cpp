// SPDX-License-Identifier: BSD-3-Clause
#include "sim/drive_registry.h"

#include "motorgear/drives.h"
#include "motorgear/mabel_leg_drive.h"

namespace gapsim {

std::unique_ptr<motorgear::Drive> makeDrive(const Joint& j, bool hinge, double dt_s, double q0_rad,
                                            const CompiledChain& chain) {
  using namespace motorgear;
  const Drivetrain& d = j.drive;
  const IdealServo::Params ideal{j.servo.gain_1_s, j.servo.max_velocity_rad_s, j.servo.fmax_Nm};
  const bool chain_or_servo =
      d.kind == DriveKind::MoToFlex || d.kind == DriveKind::Dynamixel || d.kind == DriveKind::DynamixelVoltage;
  switch (!hinge && chain_or_servo ? DriveKind::Ideal : d.kind) {
    case DriveKind::MoToFlex:
      return std::make_unique<MotoflexDrive>(chain.params, d.dry_friction_Nm, chain.damping_Nm_s_rad, q0_rad);
    case DriveKind::Dynamixel: return std::make_unique<DynamixelDrive>(d.dynamixel, dt_s, q0_rad);
    case DriveKind::DynamixelVoltage: return makeDynamixelServoDrive(d.voltage_servo, dt_s, q0_rad);
    case DriveKind::Torque: return std::make_unique<FrictionDrive>(d.dry_friction_Nm);
    case DriveKind::Ideal: break;
  }
  return std::make_unique<IdealServoDrive>(ideal);
}

std::vector<CoupledDriveSlot> makeCoupledDrives(const RobotModel& m) {
  std::vector<CoupledDriveSlot> out;
  for (const MabelLegSpec& s : m.mabel_legs) {
    const motorgear::MabelLegDrive::Params p{s.params, s.kp_mLA, s.kd_mLA, s.kp_mLS, s.kd_mLS};
    out.push_back({std::make_unique<motorgear::MabelLegDrive>(p, m.initial_q[static_cast<size_t>(s.hip)],
                                                             m.initial_q[static_cast<size_t>(s.knee)]),
                   {s.hip, s.knee},
                   "mabel_leg",
                   s.line});
  }
  return out;
}

}  // namespace gapsim
