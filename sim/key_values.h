// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The "key=value,key=value" lists of the command line (--walk, --balance, --hop) and of the
/// scenario file's balance column: split, trimmed and read as numbers in one place, with the
/// errors every front end prints the same way, and applied to an options struct through its
/// field table (motorgear/param_access.h), the form every parameter of gapsim takes.

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "motorgear/param_access.h"
#include "sim/input_error.h"

namespace gapsim {

struct KeyValue {
  std::string key;
  std::string text;  ///< the value as written (for messages)
  double value = 0;
};

/// Splits `spec` at any of `separators`, trims blanks and skips empty items. Throws
/// InputError(source, 0, malformed_field, "'item' is not key=value (keys: KEYS)") for an item
/// without '=' and InputError(source, 0, key, "not a number: 'text'") for a value that is not
/// one finite number (sim/text.h, readFinite: NaN and infinities are refused here). Which keys
/// exist is the caller's business (`keys` only goes into the message).
std::vector<KeyValue> parseKeyValues(const std::string& spec, const std::string& source, const std::string& keys,
                                     const std::string& separators = ",", const std::string& malformed_field = "");

/// The names of a field table, comma-separated (for help texts and messages).
template <class P>
std::string fieldKeys(std::span<const motorgear::Field<P>> table) {
  std::string keys;
  for (const auto& f : table) keys += (keys.empty() ? "" : ", ") + std::string(f.name);
  return keys;
}

/// Sets each key-value on `p` through the field of that name. Throws InputError(source, 0, key,
/// ...) for a key the table lacks ("unknown <what> parameter 'key' (keys: ...)") and for a value
/// the field's set refuses ("invalid value ...: rule"). Rules over several fields are the struct's
/// validate(), for the caller to run.
template <class P>
void applyKeyValues(std::span<const motorgear::Field<P>> table, const std::vector<KeyValue>& items, P& p,
                    const std::string& source, const std::string& what) {
  for (const KeyValue& kv : items) {
    const motorgear::Field<P>* field = nullptr;
    for (const auto& f : table)
      if (f.name == kv.key) field = &f;
    if (!field)
      throw InputError(source, 0, kv.key,
                       "unknown " + what + " parameter '" + kv.key + "' (keys: " + fieldKeys(table) + ")");
    try {
      field->set(p, kv.value);
    } catch (const std::invalid_argument& e) {
      throw InputError(source, 0, kv.key, "invalid value '" + kv.text + "': " + e.what());
    }
  }
}

}  // namespace gapsim
