// SPDX-License-Identifier: BSD-3-Clause
#include "calib/dense_fit.h"

namespace gapsim::calib {

ceres::Solver::Summary solveDense(ceres::Problem& problem, int max_iterations, double function_tolerance,
                                  double parameter_tolerance, std::optional<double> gradient_tolerance) {
  ceres::Solver::Options so;
  so.linear_solver_type = ceres::DENSE_QR;
  so.max_num_iterations = max_iterations;
  so.function_tolerance = function_tolerance;
  so.parameter_tolerance = parameter_tolerance;
  if (gradient_tolerance) so.gradient_tolerance = *gradient_tolerance;
  so.num_threads = 1;
  so.logging_type = ceres::SILENT;
  ceres::Solver::Summary summary;
  ceres::Solve(so, &problem, &summary);
  return summary;
}

}  // namespace gapsim::calib
