// SPDX-License-Identifier: BSD-3-Clause
#include "sim/text_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/input_error.h"

namespace gapsim {

std::string readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, "", "read error");
  std::string text = std::move(ss).str();
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // editors on Windows add it
  return text;
}

void writeTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(path, 0, "", std::string("cannot open for writing: ") + std::strerror(errno));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (out.fail()) throw InputError(path, 0, "", "write failed (disk full?)");
}

}  // namespace gapsim
