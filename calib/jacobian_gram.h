// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// G^T G of a Ceres problem's residual Jacobian at its current parameters: the Gauss-Newton
/// information matrix behind the confidence intervals of the output-error fits.

#include <ceres/ceres.h>

#include <Eigen/Dense>

namespace gapsim::calib {

/// G^T G with G = d r / d x evaluated by Ceres (its own derivatives, numeric or automatic), in the
/// order of the problem's parameters.
Eigen::MatrixXd jacobianGram(ceres::Problem& problem);

}  // namespace gapsim::calib
