// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The compile step: every decision about how a robot model runs in ODE, made once and written
/// down in a CompiledModel (sim/compiled_model.h) before any ODE object exists. A Simulation is
/// compile + instantiate. The decisions, each a named function (sim/compile*.cpp):
///   solver      dt, stepper, iterations (SimOptions override the file; the override is listed)
///   welds       joints whose subtree is a massless frame or lighter than solver weld_mass_ratio
///   bodies      rigid groups (links joined by fixed or welded joints), soft-link segments, mass
///               and inertia as ODE gets them: massless-link mass, zero-moment floor, armature
///               about the joint axis, the solver's inertia floor
///   light links a body lighter than solver light_link_mass_ratio of both bodies it joins gets its
///               lighter neighbour's smallest principal moment (QuickStep without a floor only)
///   joints      hinge or slider rows, stops, the drive (sim/drive_registry.h) and its damper row;
///               a MoToFlex chain's speed friction and back-EMF moved to the damper row, its gear
///               frame set to dt, the coupled gear's joint inertia
///   soft joints universal joints between segments, their stop ERP/CFM from D_B and the damping
///   planar base, coupled drives
/// Throws InputError / std::invalid_argument with context for a model that cannot run.

#include <cstdint>
#include <optional>

#include "sim/compiled_model.h"
#include "sim/reality.h"
#include "sim/robot_model.h"

namespace gapsim {

struct SimOptions {
  std::uint64_t seed = 0;         ///< seeds QuickStep's row shuffling (and anything random later)
  std::optional<double> dt_s;     ///< overrides the model's solver dt
  std::optional<int> iterations;  ///< overrides the model's QuickStep iterations
  std::optional<bool> quickstep;  ///< overrides the model's stepper
  bool profile = false;           ///< time the stages (collision, ODE step, the rest)
  /// What a real robot adds to the model (sim/reality.h; all off by default). Simulation applies
  /// the model effects before compiling, compile() wraps the drives, Simulation::imu() adds the
  /// IMU biases; the log's sensor delay is applyRealityToLog's.
  RealityEffects reality;
};

/// Decides everything about how `model` runs (see the file comment). Deterministic: the same
/// model and options give the same CompiledModel.
CompiledModel compile(const RobotModel& model, const SimOptions& options = {});

}  // namespace gapsim
