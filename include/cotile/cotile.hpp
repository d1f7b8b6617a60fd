// cotile: the whole library.
#pragma once

#include "int.hpp"
#include "int_tuple.hpp"
#include "layout.hpp"
#include "tile.hpp"
#include "algebra/composition.hpp"
#include "algebra/complement.hpp"
#include "algebra/divide.hpp"
#include "algebra/product.hpp"
#include "algebra/cast.hpp"
#include "algebra/like.hpp"
#include "swizzle.hpp"
#include "slice.hpp"
#include "atom/copy_traits.hpp"
#include "atom/mma_traits.hpp"
#include "atom/tiled_copy.hpp"
#include "atom/tiled_mma.hpp"
