// CuTe/CUTLASS header name -> the shim (cute_shim.hpp).
#pragma once
#include "../../../cute_shim.hpp"
