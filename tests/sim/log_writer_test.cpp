// SPDX-License-Identifier: BSD-3-Clause
#include "sim/log_writer.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "tests/scratch_files.h"

namespace gapsim {
namespace {

std::string tempPath(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / ("gapsim_logwriter_" + name)).string();
}

using test::slurp;

/// Rows of (time_s, a, b, c): awkward doubles (non-terminating binary fractions, extremes,
/// subnormals, signed zero) followed by random finite bit patterns, which cover every exponent.
std::vector<std::vector<double>> awkwardRows() {
  std::vector<double> values = {0.1,
                                1.0 / 3.0,
                                -0.0,
                                0.0,
                                5e-324,
                                std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::max(),
                                -std::numeric_limits<double>::max(),
                                1e22,
                                123456789.123456789,
                                -2.5e-7,
                                std::nextafter(1.0, 2.0)};
  std::mt19937_64 rng(20240611);
  while (values.size() < 3000) {
    const double d = std::bit_cast<double>(rng());
    if (std::isfinite(d)) values.push_back(d);
  }
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i + 3 <= values.size(); i += 3) {
    // time: a strictly increasing sequence that is not a short decimal
    rows.push_back({static_cast<double>(rows.size()) * 0.001 + 1e-9 / 3.0, values[i], values[i + 1], values[i + 2]});
  }
  return rows;
}

const std::vector<std::string> kColumns = {"time_s", "LKneePitch/q_rad", "LKneePitch/i_A", "torso/pitch_rad"};

TEST(LogWriter, RoundTripGivesExactlyTheSameDoubles) {
  const auto rows = awkwardRows();
  const std::string path = tempPath("roundtrip.csv");
  {
    LogWriter w(path, kColumns);
    for (const auto& r : rows) w.writeRow(r);
    EXPECT_EQ(w.rowsWritten(), rows.size());
    w.close();
    EXPECT_FALSE(w.isOpen());
  }
  const CsvTable t = CsvTable::read(path);
  ASSERT_EQ(t.columns(), kColumns);
  ASSERT_EQ(t.rows(), rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < kColumns.size(); ++c) {
      // Bit equality: also distinguishes -0 from 0.
      ASSERT_EQ(std::bit_cast<std::uint64_t>(t.at(r, c)), std::bit_cast<std::uint64_t>(rows[r][c]))
          << "row " << r << " col " << c << " wrote " << rows[r][c] << " read " << t.at(r, c);
    }
  }
}

TEST(LogWriter, IdenticalInputGivesByteIdenticalFiles) {
  const auto rows = awkwardRows();
  const std::string p1 = tempPath("same1.csv"), p2 = tempPath("same2.csv"), p3 = tempPath("same3.csv");
  for (const std::string& p : {p1, p2}) {
    LogWriter w(p, kColumns);
    for (const auto& r : rows) w.writeRow(r);
  }  // the destructor closes
  Log log(kColumns);
  for (const auto& r : rows) log.appendRow(r);
  log.write(p3);
  const std::string a = slurp(p1);
  EXPECT_GT(a.size(), 1000u);
  EXPECT_EQ(a, slurp(p2));
  EXPECT_EQ(a, slurp(p3));  // the in-memory log writes the same dialect byte for byte
  EXPECT_EQ(a, log.toCsv());
}

TEST(LogWriter, ShortestTextFormat) {
  const std::string path = tempPath("text.csv");
  LogWriter w(path, {"time_s", "a", "b"});
  w.writeRow(std::vector<double>{0.0, 0.1, -0.0});
  w.writeRow(std::vector<double>{0.001, 1e-7, 2.0});
  w.writeRow(std::vector<double>{0.002, 1.0 / 3.0, 1e22});
  w.close();
  EXPECT_EQ(slurp(path),
            "time_s,a,b\n"
            "0,0.1,-0\n"
            "0.001,1e-07,2\n"
            "0.002,0.3333333333333333,1e+22\n");
}

TEST(LogWriter, RejectsBadRowsAndColumns) {
  const std::string path = tempPath("bad.csv");
  LogWriter w(path, {"time_s", "a"});
  EXPECT_THROW(w.writeRow(std::vector<double>{0.0}), std::invalid_argument);
  EXPECT_THROW(w.writeRow(std::vector<double>{0.0, 1.0, 2.0}), std::invalid_argument);
  EXPECT_THROW(w.writeRow(std::vector<double>{0.0, std::nan("")}), std::invalid_argument);
  EXPECT_THROW(w.writeRow(std::vector<double>{0.0, -HUGE_VAL}), std::invalid_argument);
  EXPECT_EQ(w.rowsWritten(), 0u);
  w.close();
  w.close();  // idempotent
  EXPECT_THROW(w.writeRow(std::vector<double>{0.0, 1.0}), std::logic_error);

  using Cols = std::vector<std::string>;
  EXPECT_THROW(LogWriter(path, Cols{}), std::invalid_argument);
  EXPECT_THROW(LogWriter(path, Cols{"time_s", "a", "a"}), std::invalid_argument);
  EXPECT_THROW(LogWriter(path, Cols{"time_s", "a,b"}), std::invalid_argument);
  EXPECT_THROW(LogWriter(path, Cols{"time_s", "a;b"}), std::invalid_argument);
  EXPECT_THROW(LogWriter(path, Cols{"time_s", ""}), std::invalid_argument);
  EXPECT_THROW(LogWriter(path, Cols{"#time_s"}), std::invalid_argument);
  EXPECT_THROW(LogWriter(path, Cols{"time_s", " a"}), std::invalid_argument);
  EXPECT_THROW(Log(Cols{"a", "a"}), std::invalid_argument);
}

TEST(LogWriter, CannotOpenIsInputError) {
  const std::string path = tempPath("no_such_dir/x.csv");
  try {
    LogWriter w(path, {"time_s"});
    ADD_FAILURE() << "opened " << path;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("cannot open for writing"), std::string::npos);
  }
  Log log({"time_s"});
  log.appendRow(std::vector<double>{0.0});
  EXPECT_THROW(log.write(path), InputError);
}

TEST(LogWriter, InMemoryLogAndReadBack) {
  Log log({"time_s", "LKneePitch/q_rad"});
  EXPECT_EQ(log.rows(), 0u);
  log.reserveRows(3);
  log.appendRow(std::vector<double>{0.0, 0.5});
  log.appendRow(std::vector<double>{0.001, 0.25});
  log.appendRow(std::vector<double>{0.002, 0.125});
  EXPECT_THROW(log.appendRow(std::vector<double>{0.003}), std::invalid_argument);
  ASSERT_EQ(log.rows(), 3u);
  EXPECT_EQ(log.cols(), 2u);
  EXPECT_EQ(log.columnIndex("LKneePitch/q_rad"), 1);
  EXPECT_FALSE(log.has("x"));
  EXPECT_EQ(log.at(2, 1), 0.125);
  EXPECT_EQ(log.row(1)[0], 0.001);
  EXPECT_EQ(log.column("LKneePitch/q_rad"), (std::vector<double>{0.5, 0.25, 0.125}));
  EXPECT_THROW(log.column("x"), std::out_of_range);

  const std::string path = tempPath("memlog.csv");
  log.write(path);
  const Log back = Log::read(path);
  EXPECT_EQ(back.columns(), log.columns());
  EXPECT_EQ(back.data(), log.data());

  log.clear();
  EXPECT_EQ(log.rows(), 0u);
  EXPECT_EQ(log.cols(), 2u);
  EXPECT_EQ(log.toCsv(), "time_s,LKneePitch/q_rad\n");
}

TEST(LogWriter, LogReadKeepsUnknownColumns) {
  const Log log = Log::read(std::string(GAPSIM_TEST_DATA_DIR) + "/timeseries/log_good.csv");
  EXPECT_EQ(log.columns(), (std::vector<std::string>{"time_s", "LKneePitch/q_rad", "torso/pitch_rad"}));
  EXPECT_EQ(log.rows(), 3u);
  EXPECT_EQ(log.at(1, 2), 1e-3);
}

}  // namespace
}  // namespace gapsim
