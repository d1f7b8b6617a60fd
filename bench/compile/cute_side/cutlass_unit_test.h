// The CuTe side of bench/compile: CUTLASS's unit-test header reduced to what the core tests use
// (GoogleTest and the trace macro), so that both sides pay the same test-framework cost.
#pragma once
#include <gtest/gtest.h>
#define CUTLASS_TRACE_HOST(x)
