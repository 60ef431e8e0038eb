// SPDX-License-Identifier: BSD-3-Clause
// What every motorgear Params with the by-name accessors (FieldParams, motorgear/param_access.h)
// promises, checked once over all of them: its leaves are unique and described, each addresses a
// member of its own, an unknown leaf throws naming the component and the known leaves, the
// defaults validate, and validate() quotes a value it refuses. What the leaves mean (defaults read
// by name, the enum a discrete leaf selects, the values it refuses) is in each component's test.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "motorgear/dc_motor.h"
#include "motorgear/dynamixel_firmware.h"
#include "motorgear/dynamixel_servo.h"
#include "motorgear/friction.h"
#include "motorgear/gear.h"
#include "motorgear/ideal_servo.h"
#include "motorgear/mabel_ground.h"
#include "motorgear/mabel_spring.h"
#include "motorgear/pid.h"
#include "tests/throws_saying.h"

namespace gapsim::motorgear {
namespace {

using gapsim::test::throwsSaying;

/// One Params type's leaves as its tests expect them.
struct Leaves {
  std::size_t count;
  /// A value other than the default for each integer or enum leaf (an enum by its index); every
  /// other leaf takes a fraction of its own.
  std::map<std::string, double> discrete;
  /// A leaf and a value validate() refuses (and quotes).
  std::pair<std::string, double> refused;
};

/// Every type of AllParams below, by its component name (kComponent).
const std::map<std::string_view, Leaves> kLeaves{
    {DcMotor::Params::kComponent, {6, {}, {"S", 1.5}}},
    {Pid::Params::kComponent, {6, {{"anti_windup", 2}}, {"i", -2.5}}},
    {Gear::Params::kComponent, {12, {{"variant", 1}, {"integrator", 1}, {"substeps", 250}}, {"D_g", -3.5}}},
    {IdealServo::Params::kComponent, {3, {}, {"max_velocity", -3.25}}},
    {DynamixelServo::Params::kComponent, {7, {}, {"tau_max", -0.2}}},
    {DynamixelFirmware::Params::kComponent, {14, {{"law", 1}}, {"supply", -5}}},
    {GearFriction::Params::kComponent, {15, {{"model", 6}}, {"tau_c", -0.7}}},
    {MabelSpring::Params::kComponent, {6, {}, {"K_B", -1}}},
    {CompliantGround::Params::kComponent, {10, {}, {"k", -2}}},
};

template <class P>
const Leaves& leavesOf() {
  return kLeaves.at(P::kComponent);
}

template <class P>
class ParamsByName : public ::testing::Test {};

using AllParams =
    ::testing::Types<DcMotor::Params, Pid::Params, Gear::Params, IdealServo::Params, DynamixelServo::Params,
                     DynamixelFirmware::Params, GearFriction::Params, MabelSpring::Params, CompliantGround::Params>;
TYPED_TEST_SUITE(ParamsByName, AllParams);

TYPED_TEST(ParamsByName, LeavesAreUniqueAndDescribed) {
  const auto names = TypeParam::paramNames();
  EXPECT_EQ(names.size(), leavesOf<TypeParam>().count);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  const auto info = TypeParam::paramInfo();
  ASSERT_EQ(info.size(), names.size());
  for (std::size_t i = 0; i < info.size(); ++i) {
    EXPECT_EQ(info[i].name, names[i]);
    EXPECT_FALSE(info[i].unit.empty()) << names[i];
    EXPECT_FALSE(info[i].description.empty()) << names[i];
  }
}

// Every leaf set first, then every one read back: a row that wrote another leaf's member would
// read back that leaf's value.
TYPED_TEST(ParamsByName, EachLeafAddressesAMemberOfItsOwn) {
  const Leaves& leaves = leavesOf<TypeParam>();
  TypeParam p;
  std::map<std::string, double> set;
  double fraction = 0.0;
  for (const std::string& n : TypeParam::paramNames()) {
    const auto d = leaves.discrete.find(n);
    const bool discrete = d != leaves.discrete.end();
    if (discrete) {
      EXPECT_NE(p.get(n), d->second) << n << ": the value set must differ from the default";
    }
    set[n] = discrete ? d->second : (fraction += 0.375);
    p.set(n, set[n]);
  }
  for (const auto& [n, v] : set) EXPECT_EQ(p.get(n), v) << n;
}

TYPED_TEST(ParamsByName, AnUnknownLeafThrowsNamingComponentAndKnownLeaves) {
  TypeParam p;
  const std::string component(TypeParam::kComponent), first = TypeParam::paramNames().front();
  EXPECT_TRUE(throwsSaying<std::invalid_argument>([&] { p.get("no_such_leaf"); }, {component, "no_such_leaf", first}));
  EXPECT_TRUE(throwsSaying<std::invalid_argument>([&] { p.set("", 1.0); }, {component, first}));
}

TYPED_TEST(ParamsByName, DefaultsValidateAndARefusedValueIsQuoted) {
  TypeParam p;
  EXPECT_NO_THROW(p.validate());
  const auto [leaf, value] = leavesOf<TypeParam>().refused;
  p.set(leaf, value);
  EXPECT_TRUE(throwsSaying<std::invalid_argument>([&] { p.validate(); },
                                                  {std::string(TypeParam::kComponent), detail::num(value)}));
}

}  // namespace
}  // namespace gapsim::motorgear
