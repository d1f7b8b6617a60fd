// The rename-only shim through which CuTe's own core unit tests (CUTLASS's test/unit/cute/core)
// compile against cotile's typed layer: CuTe's namespace and the standard names CuTe re-exports
// map to cotile::ct, and CUTLASS's test macros to GoogleTest's. Nothing of the algebra is here:
// what a test needs and cotile lacks is cotile's to add (include/cotile/ct), with its own tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <type_traits>
#include <utility>

#include "cotile/ct/ct.hpp"

namespace cute {
using namespace ::cotile::ct;
// Standard names CuTe's namespace re-exports.
using std::conditional_t;
using std::declval;
using std::forward;
using std::is_empty;
using std::is_empty_v;
using std::is_same;
using std::is_same_v;
using std::is_standard_layout_v;
using std::move;
using std::remove_cvref_t;
// CuTe's name for a tuple's storage of its non-empty elements.
namespace eso {
template <class... Ts>
using ESO_t = ::cotile::ct::detail::Store<Ts...>;
}  // namespace eso
}  // namespace cute

// CuTe's and CUTLASS's macros.
#define CUTE_STL_NAMESPACE std
#define CUTE_STATIC_ASSERT static_assert
#define CUTE_STATIC_ASSERT_V(x, ...) static_assert(decltype(x)::value __VA_OPT__(, ) __VA_ARGS__)
#define CUTLASS_TRACE_HOST(x)
