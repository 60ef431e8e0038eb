// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The one question every joint drive answers each step: given the joint's measured state and its
/// target, what enters the solver? A drive is ODE-free; the simulation applies its answer:
///   - explicit_torque_Nm: a torque about the joint axis (child +, parent -), when has_explicit_torque;
///   - the joint's own motor row: target velocity motor_velocity_rad_s with force bound
///     motor_fmax_Nm (an ideal servo's velocity constraint, or dry friction: target 0,
///     bound = friction torque);
///   - the implicit damper row, present when damping_Nm_s_rad() > 0: a second motor row with
///     CFM = 1 / b, target velocity damper_velocity_rad_s and bound damper_fmax_Nm, which gives the
///     torque b (v - qd_end) with qd at the end of the step (implicit Euler, stable for any b/J).
/// Sign convention: positive torque and velocity increase the joint angle q (URDF: child relative
/// to parent about the axis). Units SI. Drives own their state (chains, delay lines) and never throw
/// in step().
///
/// Implementations: motorgear/drives.h (ideal servo, MoToFlex chain, Dynamixel servo, friction
/// only), motorgear/servo_drive.h (voltage-domain Dynamixel; the gear-friction and backlash
/// wrappers that go around any drive). The simulation picks one per joint in one place (makeDrive,
/// sim/drive_registry.cpp).
///
/// Snapshots (sim/sim_state.h): clone() copies a drive with its state (chains, delay lines, filter
/// states); restore() puts a clone's state back into the drive it was taken from, in place, so
/// that references to the drive stay valid. Drives whose members are values get both from
/// CopyableDrive<Self>; a wrapper that owns an inner drive gets them from WrappingDrive<Self>.

#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace gapsim::motorgear {

/// The joint as the drive sees it before the step.
struct DriveInput {
  double target_rad = 0;     ///< commanded position (after any controller)
  double q_rad = 0;          ///< true joint angle
  double q_encoder_rad = 0;  ///< angle quantised to the encoder resolution
  double qd_rad_s = 0;       ///< joint rate
  /// External torque on the joint (gravity, springs, contacts), + increases q; what the
  /// load-dependent friction models read (friction.h). 0 where the caller does not estimate it.
  double load_torque_Nm = 0;
};

/// What enters the solver this step (see the file comment).
struct SolverTerms {
  bool has_explicit_torque = false;
  double explicit_torque_Nm = 0;
  double motor_velocity_rad_s = 0;
  double motor_fmax_Nm = 0;
  double damper_velocity_rad_s = 0;
  double damper_fmax_Nm = 1e4;
};

class Drive {
 public:
  virtual ~Drive() = default;
  /// Viscous coefficient b of the implicit damper row (N m s/rad); 0: the joint gets no such row.
  /// Constant over a run (the row's CFM is set once).
  virtual double damping_Nm_s_rad() const { return 0.0; }
  virtual SolverTerms step(double dt_s, const DriveInput& in) = 0;
  /// A copy of this drive, state included.
  virtual std::unique_ptr<Drive> clone() const = 0;
  /// Copies the state of `snapshot` (a clone() of a drive of the same type) into this drive.
  /// Throws std::invalid_argument for a snapshot of another type.
  virtual void restore(const Drive& snapshot) = 0;
  /// The drive a wrapper goes around (servo_drive.h); nullptr for a drive that wraps none.
  virtual const Drive* wrapped() const { return nullptr; }
};

/// The snapshot of a drive of another type than the one restored (a programming error).
inline std::invalid_argument wrongSnapshot(const char* who, const std::type_info& got) {
  return std::invalid_argument(std::string(who) + "::restore: a snapshot of another drive type (" + got.name() + ")");
}

/// clone() and restore() by copying the whole object: for drives whose members are values.
template <class Self>
class CopyableDrive : public Drive {
 public:
  std::unique_ptr<Drive> clone() const override { return std::make_unique<Self>(static_cast<const Self&>(*this)); }
  void restore(const Drive& snapshot) override {
    const auto* s = dynamic_cast<const Self*>(&snapshot);
    if (!s) throw wrongSnapshot("Drive", typeid(snapshot));
    static_cast<Self&>(*this) = *s;
  }
};

/// A drive around another one (a reality effect around the model's drive), which it owns.
/// clone() copies the wrapper's members and clones the inner drive; restore() copies them back
/// and restores the inner drive in place, so that references into it stay valid.
template <class Self>
class WrappingDrive : public Drive {
 public:
  double damping_Nm_s_rad() const override { return inner_->damping_Nm_s_rad(); }
  const Drive* wrapped() const override { return inner_.get(); }
  std::unique_ptr<Drive> clone() const override { return std::make_unique<Self>(static_cast<const Self&>(*this)); }
  void restore(const Drive& snapshot) override {
    const auto* s = dynamic_cast<const Self*>(&snapshot);
    if (!s) throw wrongSnapshot(typeid(Self).name(), typeid(snapshot));
    static_cast<Self&>(*this) = *s;
  }

 protected:
  /// std::invalid_argument naming `who` if `inner` is null.
  WrappingDrive(std::unique_ptr<Drive> inner, const char* who) : inner_(std::move(inner)) {
    if (!inner_) throw std::invalid_argument(std::string(who) + ": no inner drive");
  }
  WrappingDrive(const WrappingDrive& o) : Drive(o), inner_(o.inner_->clone()) {}
  WrappingDrive& operator=(const WrappingDrive& o) {
    if (this != &o) inner_->restore(*o.inner_);
    return *this;
  }
  std::unique_ptr<Drive> inner_;
};

}  // namespace gapsim::motorgear
