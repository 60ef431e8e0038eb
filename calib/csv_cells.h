// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The cells of the calibration's hand-written CSV files (parameter spaces, scenario sets): a line
/// split on commas with each cell trimmed of blanks (a trailing comma is an empty last cell), and
/// numbers read strictly, so that "1.5x", "", "nan" and "1e999" are refused with file, line and
/// field rather than read as something else.

#include <string>
#include <vector>

namespace gapsim::calib {

/// `s` without leading blanks and without trailing blanks or carriage return.
std::string trimCell(std::string s);

/// The trimmed cells of one line.
std::vector<std::string> splitCells(const std::string& line);

/// The whole cell as a finite double (an optional leading '+'); InputError(file, line, field,
/// "not a finite number: 'text'") otherwise.
double finiteCell(const std::string& text, const std::string& file, int line, const std::string& field);

}  // namespace gapsim::calib
