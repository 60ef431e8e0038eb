// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Test support: an input file written for one test into its temporary directory.
#include <QString>
#include <QTemporaryDir>
#include <fstream>
#include <string>

namespace gapsim::test {

/// Writes `text` to the file `name` in `dir` and returns its path.
inline QString writeIn(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const QString path = dir.filePath(name);
  std::ofstream(path.toStdString()) << text;
  return path;
}

}  // namespace gapsim::test
