// SPDX-License-Identifier: BSD-3-Clause
#include "sim/key_values.h"

#include "sim/input_error.h"
#include "sim/text.h"

namespace gapsim {

std::vector<KeyValue> parseKeyValues(const std::string& spec, const std::string& source, const std::string& keys,
                                     const std::string& separators, const std::string& malformed_field) {
  std::vector<KeyValue> out;
  std::size_t pos = 0;
  while (pos < spec.size()) {
    std::size_t end = spec.find_first_of(separators, pos);
    if (end == std::string::npos) end = spec.size();
    std::string item = spec.substr(pos, end - pos);
    pos = end + 1;
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw InputError(source, 0, malformed_field, "'" + item + "' is not key=value (keys: " + keys + ")");
    KeyValue kv{item.substr(0, eq), item.substr(eq + 1), 0.0};
    if (!readFinite(kv.text, kv.value)) throw InputError(source, 0, kv.key, "not a number: '" + kv.text + "'");
    out.push_back(std::move(kv));
  }
  return out;
}

}  // namespace gapsim
