// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The parameter space of a calibration: which named parameters (sim/parameters.h) move, from
/// where, within which bounds, and which move together.
///
/// File format (CSV, `#` comments and blank lines skipped, spaces around cells ignored):
///
///   name,value,lower,upper,frozen[,tie[,scale]]
///   legs/typeB/motor/B_v,0.0011,0.0005,0.003,0,,log
///   legs/soft/D_B,60,20,150,no
///   LKneePitch/pid/p,...,...,...,0,knee_p      <- rows with the same tie share one value
///
/// frozen: 0/1, no/yes, false/true (a frozen row keeps its value and is not optimised); tie: empty
/// or a group label (all rows of a group must agree on value, bounds and scale); scale: `lin`
/// (default) or `log` (the optimiser moves the logarithm; needs lower > 0). Errors are
/// InputError(file, line, column, ...). A calibration writes its result in the same format, and
/// `gapsim-cli run --params` loads it (that loader reads name,value and ignores the rest).
///
/// Bounds are enforced by a transform, not by clamping (BoxTransform): the optimiser works on
/// unbounded coordinates y, one per free dimension, with y in [0, 1] spanning [lower, upper]
/// (of the value or of its log). The map y -> u in [0, 1] is the periodic piecewise
/// linear/quadratic boundary transform of Hansen's cma package (BoundTransform): identity in
/// [a, 1 - a], quadratic near the bounds, reflected beyond them, with a = 0.05. It is continuous
/// with a continuous first derivative, so the optimiser sees no kinks and no flat plateaus, and
/// every candidate lies inside the bounds.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim::calib {

struct SpaceEntry {
  std::string name;  ///< a parameter name of sim/parameters.h
  double value = 0, lower = 0, upper = 0;
  bool frozen = false;
  std::string tie;  ///< group label, empty if none
  bool log_scale = false;
  int line = 0;  ///< line in the file (0 if built in code)
};

/// One free dimension: a single row, or every row of a tie group.
struct Dimension {
  std::string label;         ///< the tie label, or the row's name
  std::vector<int> entries;  ///< indices into entries()
  double value = 0, lower = 0, upper = 0;
  bool log_scale = false;
};

/// Hansen's periodic boundary transform on [0, 1] (file comment); and its inverse on [0, 1].
double boxTransform(double y);
double boxTransformInverse(double u);

class ParameterSpace {
 public:
  ParameterSpace() = default;
  /// Reads and validates a space file (InputError with file, line and column).
  static ParameterSpace load(const std::string& path);
  /// Builds from entries (validated as a file would be; `source` names them in errors).
  static ParameterSpace fromEntries(std::vector<SpaceEntry> entries, const std::string& source = "");

  const std::vector<SpaceEntry>& entries() const { return entries_; }
  const std::vector<Dimension>& dimensions() const { return dims_; }
  int dimension() const { return static_cast<int>(dims_.size()); }
  const std::string& source() const { return source_; }

  /// Optimiser coordinates of the initial values.
  Eigen::VectorXd initialY() const;
  /// Parameter value of each free dimension for optimiser coordinates y (always within bounds).
  Eigen::VectorXd valuesFromY(const Eigen::VectorXd& y) const;
  /// Optimiser coordinates (in [0, 1]) of values within bounds.
  Eigen::VectorXd yFromValues(const Eigen::VectorXd& values) const;
  /// The initial values of the free dimensions.
  Eigen::VectorXd initialValues() const;

  /// Sets every row onto `model`: frozen rows to their value, free rows to values[dimension].
  /// InputError (file, line, name) for an unknown name or a value the model refuses.
  void apply(RobotModel& model, const Eigen::VectorXd& values) const;
  /// Checks every name against `model` (apply with the initial values on a copy).
  void checkAgainst(const RobotModel& model) const;

  /// The space with `values` as the value column (a result file; bounds, flags, ties kept), each
  /// line of `header_comment` as a '#' line before the header.
  std::string text(const Eigen::VectorXd& values, const std::string& header_comment = "") const;
  /// Writes text() to `path`.
  void write(const std::string& path, const Eigen::VectorXd& values, const std::string& header_comment = "") const;

 private:
  std::vector<SpaceEntry> entries_;
  std::vector<Dimension> dims_;
  std::string source_;
};

}  // namespace gapsim::calib
