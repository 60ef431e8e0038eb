// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The Ceres solve every least-squares fit of the identification toolbox runs: dense QR (a
/// handful of parameters), one thread (bit-identical results run to run), nothing printed.

#include <ceres/ceres.h>

#include <optional>

namespace gapsim::calib {

/// Solves `problem` in place (its parameter blocks hold the result) and returns Ceres' summary.
/// The stopping rules are Ceres' own, under its names; no gradient tolerance keeps Ceres' default.
ceres::Solver::Summary solveDense(ceres::Problem& problem, int max_iterations, double function_tolerance,
                                  double parameter_tolerance, std::optional<double> gradient_tolerance = std::nullopt);

}  // namespace gapsim::calib
