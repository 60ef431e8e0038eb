// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The cells of the calibration's hand-written CSV files (parameter spaces, scenario sets): a line
/// split on commas with each cell trimmed of blanks (a trailing comma is an empty last cell), and
/// numbers read strictly, so that "1.5x", "", "nan" and "1e999" are refused with file, line and
/// field rather than read as something else.

#include <span>
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

/// A header line's cells against the file's columns: cell i must be columns[i] (the columns a
/// header leaves out are the optional last ones); InputError(file, line, "header", "column N must
/// be 'name', not 'cell'") otherwise. The number of cells is the caller's to check first: its
/// message lists the columns that file needs.
void checkHeaderCells(const std::vector<std::string>& cells, std::span<const char* const> columns,
                      const std::string& file, int line);

}  // namespace gapsim::calib
