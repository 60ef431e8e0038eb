// SPDX-License-Identifier: BSD-3-Clause
#include "sim/csv_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "sim/input_error.h"
#include "tests/sim/expect_input_error.h"

namespace gapsim {
namespace {

std::string data(const std::string& name) { return std::string(GAPSIM_TEST_DATA_DIR) + "/timeseries/" + name; }

using gapsim::test::expectInputError;

TEST(CsvTable, ReadsCommentsBlankLinesAndTrailingDelimiters) {
  const CsvTable t = CsvTable::read(data("log_good.csv"));
  ASSERT_EQ(t.columns(), (std::vector<std::string>{"time_s", "LKneePitch/q_rad", "torso/pitch_rad"}));
  ASSERT_EQ(t.rows(), 3u);
  EXPECT_EQ(t.delimiter(), ',');
  EXPECT_EQ(t.headerLine(), 2);
  EXPECT_EQ(t.lineOfRow(0), 3);
  EXPECT_EQ(t.lineOfRow(1), 5);  // the blank line 4 is counted
  EXPECT_EQ(t.lineOfRow(2), 6);
  EXPECT_EQ(t.at(0, 1), 0.5);
  EXPECT_EQ(t.at(1, 1), 0.25);  // surrounding spaces
  EXPECT_EQ(t.at(1, 2), 1e-3);
  EXPECT_EQ(t.at(2, 1), 2.0);  // leading '+'
  EXPECT_EQ(t.at(2, 2), 0.0);
  EXPECT_TRUE(std::signbit(t.at(2, 2)));  // "-0" keeps its sign
  EXPECT_EQ(t.column("time_s"), (std::vector<double>{0.0, 0.001, 0.002}));
  EXPECT_EQ(t.row(1)[1], 0.25);
  EXPECT_EQ(t.path(), data("log_good.csv"));
}

TEST(CsvTable, ColumnLookup) {
  const CsvTable t = CsvTable::read(data("log_good.csv"));
  EXPECT_EQ(t.columnIndex("torso/pitch_rad"), 2);
  EXPECT_EQ(t.columnIndex("torso"), -1);
  EXPECT_TRUE(t.has("LKneePitch/q_rad"));
  EXPECT_FALSE(t.has("RKneePitch/q_rad"));
  EXPECT_EQ(t.missingColumns({"time_s", "RKneePitch/q_rad", "torso/pitch_rad", "x"}),
            (std::vector<std::string>{"RKneePitch/q_rad", "x"}));
  expectInputError([&] { t.column("x"); }, 2, "x", "no column 'x'");
}

TEST(CsvTable, SemicolonDetectedAndForced) {
  const CsvTable t = CsvTable::read(data("log_semicolon.csv"));
  EXPECT_EQ(t.delimiter(), ';');
  EXPECT_EQ(t.columns(), (std::vector<std::string>{"time_s", "a", "b"}));
  EXPECT_EQ(t.at(1, 2), 4.0);

  CsvReadOptions semi;
  semi.delimiter = ';';
  EXPECT_EQ(CsvTable::read(data("log_semicolon.csv"), semi).cols(), 3u);
  // Forcing ',' makes the whole header one column, which is not time_s.
  CsvReadOptions comma;
  comma.delimiter = ',';
  expectInputError([&] { CsvTable::read(data("log_semicolon.csv"), comma); }, 1, "time_s", "no 'time_s' column");
}

TEST(CsvTable, NonNumericCellNamesLineColumnAndText) {
  expectInputError([] { CsvTable::read(data("log_bad_cell.csv")); }, 4, "b", "not a number: 'abc'");
}

TEST(CsvTable, DecimalCommaGetsAHint) {
  expectInputError([] { CsvTable::parse("time_s;a\n0;1,5\n", "mem.csv"); }, 2, "a", "decimal comma");
}

TEST(CsvTable, WrongCellCount) {
  expectInputError([] { CsvTable::read(data("log_bad_count.csv")); }, 3, "b",
                   "expected 3 cells separated by ',', got 2");
  expectInputError([] { CsvTable::read(data("log_too_many.csv")); }, 2, "", "got 5");
}

TEST(CsvTable, DuplicateColumn) {
  expectInputError([] { CsvTable::read(data("log_dup_column.csv")); }, 1, "a",
                   "duplicate column name 'a' (columns 2 and 4)");
}

TEST(CsvTable, EmptyColumnName) {
  expectInputError([] { CsvTable::parse("time_s,,b\n0,1,2\n", "mem.csv"); }, 1, "", "empty column name (column 2)");
}

TEST(CsvTable, TimeGoingBackNamesBothLinesAndTimes) {
  expectInputError([] { CsvTable::read(data("log_time_back.csv")); }, 4, "time_s",
                   "time 0.1 s at line 4 goes back from 0.2 s at line 3");
}

TEST(CsvTable, EqualTimesAreAStepOnlyWhenNonDecreasing) {
  expectInputError([] { CsvTable::read(data("log_time_equal.csv")); }, 4, "time_s",
                   "does not increase from 0.2 s at line 3");
  CsvReadOptions opt;
  opt.time_order = TimeOrder::NonDecreasing;
  const CsvTable t = CsvTable::read(data("log_time_equal.csv"), opt);
  EXPECT_EQ(t.rows(), 3u);
  EXPECT_EQ(t.at(2, 1), 3.0);
  // Without a time column nothing is checked.
  CsvReadOptions no_time;
  no_time.time_column.clear();
  EXPECT_EQ(CsvTable::read(data("log_time_back.csv"), no_time).rows(), 3u);
}

TEST(CsvTable, NanAndInfinityRejected) {
  expectInputError([] { CsvTable::read(data("log_nan.csv")); }, 3, "a", "'nan'");
  expectInputError([] { CsvTable::parse("time_s,a\n0,-inf\n", "mem.csv"); }, 2, "a", "'-inf'");
}

TEST(CsvTable, EmptyFileNoRowsNoHeader) {
  expectInputError([] { CsvTable::read(data("log_comments_only.csv")); }, 1, "header", "empty file");
  expectInputError([] { CsvTable::read(data("log_header_only.csv")); }, 1, "", "no data rows");
  expectInputError([] { CsvTable::read(data("log_no_header.csv")); }, 1, "", "expected a header row");
  expectInputError([] { CsvTable::read(data("does_not_exist.csv")); }, 0, "", "cannot open");
}

TEST(CsvTable, WindowsLineEndingsAndByteOrderMark) {
  const CsvTable t = CsvTable::parse("\xEF\xBB\xBFtime_s,a\r\n0,1\r\n\r\n0.5,2\r\n", "win.csv");
  EXPECT_EQ(t.columns(), (std::vector<std::string>{"time_s", "a"}));
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.at(1, 1), 2.0);
  EXPECT_EQ(t.lineOfRow(1), 4);
}

TEST(CsvTable, EmptyCellsOnlyWhenAllowedAndNeverForTime) {
  const std::string text = "time_s,a,b\n0,,1\n";
  expectInputError([&] { CsvTable::parse(text, "mem.csv"); }, 2, "a", "empty cell");
  CsvReadOptions opt;
  opt.allow_empty_cells = true;
  const CsvTable t = CsvTable::parse(text, "mem.csv", opt);
  EXPECT_TRUE(std::isnan(t.at(0, 1)));
  EXPECT_EQ(t.at(0, 2), 1.0);
  // The last cell empty, without a trailing delimiter, is an empty cell too.
  EXPECT_TRUE(std::isnan(CsvTable::parse("time_s,a\n0,\n", "mem.csv", opt).at(0, 1)));
  expectInputError([&] { CsvTable::parse("time_s,a\n,1\n", "mem.csv", opt); }, 2, "time_s", "empty cell");
}

TEST(CsvTable, MissingTimeColumnHint) {
  CsvReadOptions opt;
  opt.missing_time_hint = "give --frame-period";
  expectInputError([&] { CsvTable::parse("a,b\n0,1\n", "mem.csv", opt); }, 1, "time_s",
                   "no 'time_s' column; give --frame-period");
}

TEST(CsvTable, NumberParsing) {
  double v = -1.0;
  EXPECT_EQ(parseCsvNumber("  1.5\t", v), CsvNumberStatus::Ok);
  EXPECT_EQ(v, 1.5);
  EXPECT_EQ(parseCsvNumber("+.5", v), CsvNumberStatus::Ok);
  EXPECT_EQ(v, 0.5);
  EXPECT_EQ(parseCsvNumber("5e-324", v), CsvNumberStatus::Ok);  // smallest subnormal
  EXPECT_EQ(v, 5e-324);
  EXPECT_EQ(parseCsvNumber("", v), CsvNumberStatus::Empty);
  EXPECT_EQ(parseCsvNumber("   ", v), CsvNumberStatus::Empty);
  EXPECT_EQ(parseCsvNumber("+-1", v), CsvNumberStatus::NotANumber);
  EXPECT_EQ(parseCsvNumber("1.5x", v), CsvNumberStatus::NotANumber);
  EXPECT_EQ(parseCsvNumber("0x10", v), CsvNumberStatus::NotANumber);
  EXPECT_EQ(parseCsvNumber("1 2", v), CsvNumberStatus::NotANumber);
  EXPECT_EQ(parseCsvNumber("inf", v), CsvNumberStatus::NonFinite);
  EXPECT_EQ(parseCsvNumber("NaN", v), CsvNumberStatus::NonFinite);
  EXPECT_EQ(parseCsvNumber("1e400", v), CsvNumberStatus::OutOfRange);
  EXPECT_EQ(v, 5e-324);  // untouched by the failures since the last success
}

}  // namespace
}  // namespace gapsim
