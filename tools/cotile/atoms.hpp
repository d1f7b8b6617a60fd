// Atom names as the golden corpus and CuTe spell them, and the FMHA decode kernel's Q-load chain.
#pragma once

#include <string>

#include "cotile/atom/fmha_gen_q.hpp"

namespace cotile::cli {

Elem parse_elem(const std::string& s, const std::string& op);
CopyOp parse_copy_op(const std::string& s, const std::string& op);
// SM80_16x8x16_F32F16F16F32_TN, SM80_16x8x16_F32BF16BF16F32_TN, SM89_16x8x32_F32E4M3E4M3F32_TN,
// SM89_16x8x32_F32E5M2E5M2F32_TN, SM90_64xNxK_F32{F16F16,BF16BF16}_SS<K|MN,K|MN>,
// SM90_64xNx32_F32{E4M3E4M3,E5M2E5M2}_SS_TN, SM100_MMA_{F16BF16,F8F6F4}_SS<A,B,acc,M,N,K|MN,K|MN>
MmaTraits parse_mma(const std::string& s, const std::string& op);

}  // namespace cotile::cli
