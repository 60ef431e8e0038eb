// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A drive that moves several joints at once (a cable differential, a belt, a parallel linkage):
/// given those joints' measured states and targets, the explicit torque on each for the next
/// step. The single-joint drives are motorgear::Drive (drive.h); a joint driven by a coupled drive
/// has the torque-input drive (DriveKind::Torque) so that nothing else acts on it as well.
/// Sign convention and units as drive.h. Coupled drives own their state and never throw in step().
///
/// Implementations: MabelLegDrive (mabel_leg_drive.h). The simulation builds them in one place
/// (makeCoupledDrives, sim/drive_registry.cpp).

#include <memory>
#include <span>

#include "motorgear/drive.h"

namespace gapsim::motorgear {

class CoupledDrive {
 public:
  virtual ~CoupledDrive() = default;
  /// How many joints it drives; step() takes and fills that many entries, in the order the drive
  /// was declared with.
  virtual int jointCount() const = 0;
  /// One step of dt_s: reads `in` (one entry per joint), writes the torque about each joint's axis.
  virtual void step(double dt_s, std::span<const DriveInput> in, std::span<double> torque_Nm) = 0;
  /// Snapshots as Drive::clone / Drive::restore (drive.h): a copy with its state, and that state
  /// put back in place.
  virtual std::unique_ptr<CoupledDrive> clone() const = 0;
  virtual void restore(const CoupledDrive& snapshot) = 0;
};

}  // namespace gapsim::motorgear
