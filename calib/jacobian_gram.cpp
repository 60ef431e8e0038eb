// SPDX-License-Identifier: BSD-3-Clause
#include "calib/jacobian_gram.h"

namespace gapsim::calib {

Eigen::MatrixXd jacobianGram(ceres::Problem& problem) {
  ceres::CRSMatrix G;  // compressed rows: G.rows[r]..G.rows[r+1] index the nonzeros of row r
  problem.Evaluate(ceres::Problem::EvaluateOptions(), nullptr, nullptr, nullptr, &G);
  Eigen::MatrixXd GtG = Eigen::MatrixXd::Zero(G.num_cols, G.num_cols);
  for (int r = 0; r < G.num_rows; ++r)
    for (int a = G.rows[r]; a < G.rows[r + 1]; ++a)
      for (int b = G.rows[r]; b < G.rows[r + 1]; ++b) GtG(G.cols[a], G.cols[b]) += G.values[a] * G.values[b];
  return GtG;
}

}  // namespace gapsim::calib
