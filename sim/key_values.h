// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The "key=value,key=value" lists of the command line (--walk, --balance) and of the scenario
/// file's balance column: split, trimmed and read as numbers in one place, with the errors every
/// front end prints the same way.

#include <string>
#include <vector>

namespace gapsim {

struct KeyValue {
  std::string key;
  std::string text;  ///< the value as written (for messages)
  double value = 0;
};

/// Splits `spec` at any of `separators`, trims blanks and skips empty items. Throws
/// InputError(source, 0, malformed_field, "'item' is not key=value (keys: KEYS)") for an item
/// without '=' and InputError(source, 0, key, "not a number: 'text'") for a value that is not a
/// number. Which keys exist is the caller's business (`keys` only goes into the message).
std::vector<KeyValue> parseKeyValues(const std::string& spec, const std::string& source, const std::string& keys,
                                     const std::string& separators = ",", const std::string& malformed_field = "");

}  // namespace gapsim
