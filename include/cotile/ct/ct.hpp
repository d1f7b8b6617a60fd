// cotile's typed layer: #include <cotile/ct/ct.hpp>, namespace cotile::ct.
#pragma once

#include "atom.hpp"
#include "error.hpp"
#include "array.hpp"
#include "int_tuple.hpp"
#include "integer_ops.hpp"
#include "kernel_helpers.hpp"
#include "layout.hpp"
#include "projection.hpp"
#include "swizzle.hpp"
#include "tensor.hpp"
#include "tensor_algorithms.hpp"
#include "tuple.hpp"
#include "tuple_algorithms.hpp"
#include "typed.hpp"
