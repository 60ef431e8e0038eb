// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The `<gapsim>` element of a robot file, stated once: every element it may hold, each one's
/// attributes with their kind, accepted range (with its unit) and meaning, and each one's allowed
/// children. The parser (sim/urdf_parser.cpp) refuses an element or attribute this table does not
/// list, and reads every number with the range listed here; the reference table of
/// docs/robot-format.md is rendered from it (gapsimReferenceMarkdown(), and a test checks that
/// the page carries it).

#include <string>
#include <string_view>
#include <vector>

#include "sim/plausible.h"

namespace gapsim {

enum class AttributeKind {
  Text,    ///< a name, a list of names, free text
  Number,  ///< one number in `range`
  Whole,   ///< one whole number in `range` (a count)
  Vec3,    ///< three numbers, each in `range`
  Flag,    ///< true or false (1 or 0)
  Choice,  ///< one of `choices`
};

struct GapsimAttribute {
  std::string name;
  AttributeKind kind = AttributeKind::Text;
  /// Number, Whole, Vec3: the accepted values, with their unit.
  plausible::Range range = plausible::kAnyNumber;
  /// With a magnitude range (a component's parameter, either sign): negative values are refused
  /// too, for springs, dampers and gains.
  bool non_negative = false;
  std::vector<std::string> choices;  ///< Choice
  std::string doc;                   ///< the meaning

  /// The accepted values in words: "a number in [1e-06, 0.1] s", "quick or big", "text".
  std::string accepted() const;
  /// Whether a number passes range and sign (not wholeness).
  bool accepts(double v) const;
};

struct GapsimElement {
  std::string name;
  std::string doc;
  std::vector<GapsimAttribute> attributes;
  std::vector<GapsimElement> children;
  bool text = false;  ///< character data is its content (<source>)

  const GapsimAttribute* attribute(std::string_view n) const;  ///< nullptr when not listed
  const GapsimElement* child(std::string_view n) const;        ///< nullptr when not listed
  std::string attributeNames() const;                          ///< "dt_s, stepper, ..."
  std::string childNames() const;                              ///< "imu, encoder, foot_contact"
};

/// `<gapsim>` itself, with its children recursively.
const GapsimElement& gapsimSchema();

/// The number `v` as read, shortest round trip: 1e+308, 0.5, 4294967296.
std::string gapsimValueText(double v);

/// The reference table of docs/robot-format.md: one row per element and per attribute, in the
/// order of the schema.
std::string gapsimReferenceMarkdown();

}  // namespace gapsim
