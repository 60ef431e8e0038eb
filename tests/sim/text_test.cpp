// SPDX-License-Identifier: BSD-3-Clause
// The shared text helpers (sim/text.h): numbers written so that they read back as the same double,
// cells trimmed of the blanks that editors and CRLF files leave around them, lines cut into cells.
#include "sim/text.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace gapsim {
namespace {

TEST(Text, ShortestTextReadsBackAsTheSameDouble) {
  EXPECT_EQ(shortestText(0.08), "0.08");
  EXPECT_EQ(shortestText(1e308), "1e+308");
  EXPECT_EQ(shortestText(4294967296.0), "4294967296");
  EXPECT_EQ(shortestText(-0.0), "-0");
  for (double v : {0.1 + 0.2, 1.0 / 3.0, 6.02214076e23, 4.9e-324, -2.5e-7})
    EXPECT_EQ(std::strtod(shortestText(v).c_str(), nullptr), v) << shortestText(v);
  EXPECT_EQ(shortestText(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(shortestText(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(shortestText(-std::numeric_limits<double>::quiet_NaN()), "nan");
}

TEST(Text, TrimBlanksRemovesSpacesTabsAndCarriageReturnsAtTheEndsOnly) {
  EXPECT_EQ(trimBlanks(" \tLKneePitch/q_rad \r"), "LKneePitch/q_rad");
  EXPECT_EQ(trimBlanks("a b\tc"), "a b\tc");
  EXPECT_EQ(trimBlanks(" \t\r "), "");
  EXPECT_EQ(trimBlanks(""), "");
}

TEST(Text, SplitCellsKeepsEmptyCellsAndViewsTheLine) {
  std::vector<std::string_view> cells{"stale"};
  splitCells("time_s,,LKneePitch/q_rad,", ',', cells);
  EXPECT_EQ(cells, (std::vector<std::string_view>{"time_s", "", "LKneePitch/q_rad", ""}));
  splitCells("", ';', cells);
  EXPECT_EQ(cells, (std::vector<std::string_view>{""}));
  const std::string line = "0.5;1,25";
  splitCells(line, ';', cells);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1], "1,25");
  EXPECT_EQ(cells[1].data(), line.data() + 4);  // a view into the line, not a copy
}

}  // namespace
}  // namespace gapsim
