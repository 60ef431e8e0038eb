// SPDX-License-Identifier: BSD-3-Clause
#include "calib/csv_cells.h"

#include <cmath>
#include <sstream>

#include "sim/input_error.h"
#include "sim/text.h"

namespace gapsim::calib {

std::string trimCell(std::string s) { return std::string(trimBlanks(s)); }

std::vector<std::string> splitCells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  for (std::string c; std::getline(ss, c, ',');) cells.push_back(trimCell(c));
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

double finiteCell(const std::string& t, const std::string& file, int line, const std::string& field) {
  double v = 0;
  std::string_view number = t;
  if (!number.empty() && number.front() == '+') number.remove_prefix(1);  // spreadsheets write it
  if (t.empty() || !readFinite(number, v)) throw InputError(file, line, field, "not a finite number: '" + t + "'");
  return v;
}

void checkHeaderCells(const std::vector<std::string>& cells, std::span<const char* const> columns,
                      const std::string& file, int line) {
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (cells[i] != columns[i])
      throw InputError(file, line, "header",
                       "column " + std::to_string(i + 1) + " must be '" + columns[i] + "', not '" + cells[i] + "'");
}

}  // namespace gapsim::calib
