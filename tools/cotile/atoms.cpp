#include "atoms.hpp"

#include <sstream>
#include <vector>

#include "cotile/text/value.hpp"

namespace cotile::cli {

namespace {
[[noreturn]] void unknown(const std::string& op, const char* what, const std::string& s, const char* known) {
  const std::string rule = std::string("unknown ") + what + " '" + s + "'";
  throw Error(op, rule, op + ": " + rule + "\n  known: " + known);
}
std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> r;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, c)) r.push_back(x);
  return r;
}
}  // namespace

Elem parse_elem(const std::string& s, const std::string& op) {
  if (s == "half_t") return Elem::kHalf;
  if (s == "bfloat16_t") return Elem::kBFloat16;
  if (s == "float_e5m2_t") return Elem::kE5M2;
  if (s == "float_e4m3_t") return Elem::kE4M3;
  if (s == "float") return Elem::kFloat;
  unknown(op, "element type", s, "half_t bfloat16_t float_e5m2_t float_e4m3_t float");
}

CopyOp parse_copy_op(const std::string& s, const std::string& op) {
  if (s == "copy.u32") return CopyOp::kU32;
  if (s == "copy.u64") return CopyOp::kU64;
  if (s == "copy.u128") return CopyOp::kU128;
  if (s == "cp.async.16B") return CopyOp::kCpAsync16B;
  if (s == "ldmatrix.x1") return CopyOp::kLdsmX1;
  if (s == "ldmatrix.x2") return CopyOp::kLdsmX2;
  if (s == "ldmatrix.x4") return CopyOp::kLdsmX4;
  unknown(op, "copy atom", s, "copy.u32 copy.u64 copy.u128 cp.async.16B ldmatrix.x1 ldmatrix.x2 ldmatrix.x4");
}

namespace {
// The types in an atom's name, as CuTe spells them: F32F16F16F32 -> {F32, F16, F16, F32}.
std::vector<std::string> name_types(const std::string& s) {
  static const char* const kTypes[] = {"BF16", "E4M3", "E5M2", "F32", "F16"};
  std::vector<std::string> r;
  for (size_t i = 0; i < s.size();) {
    size_t before = i;
    for (const char* t : kTypes) {
      const std::string ty = t;
      if (s.compare(i, ty.size(), ty) == 0) {
        r.push_back(ty);
        i += ty.size();
        break;
      }
    }
    if (i == before) return {};
  }
  return r;
}

Elem type_elem(const std::string& t) {
  return t == "F16" ? Elem::kHalf : t == "BF16" ? Elem::kBFloat16 : t == "E4M3" ? Elem::kE4M3 : Elem::kE5M2;
}
}  // namespace

MmaTraits parse_mma(const std::string& s, const std::string& op) {
  const char* known =
      "SM80_16x8x16_F32F16F16F32_TN SM80_16x8x16_F16F16F16F16_TN SM80_16x8x16_F32BF16BF16F32_TN "
      "SM89_16x8x32_{F32|F16}{E4M3|E5M2}{E4M3|E5M2}{F32|F16}_TN SM90_64xNx16_{F32|F16}F16F16_SS<K|MN,K|MN> "
      "SM90_64xNx16_F32BF16BF16_SS<K|MN,K|MN> SM90_64xNx32_{F32|F16}{E4M3|E5M2}{E4M3|E5M2}_SS_TN "
      "SM100_MMA_F16BF16_SS<A,B,float,M,N,K|MN,K|MN> SM100_MMA_F8F6F4_SS<A,B,float,M,N,K|MN,K|MN> UniversalFMA";
  if (s == "UniversalFMA" || s.rfind("UniversalFMA<", 0) == 0)  // one thread's c += a * b, any types
    return mma_traits(MmaFamily::kUniversalFma, Elem::kFloat, Elem::kFloat, 1, 1);
  auto fp8 = [](const std::string& t) { return t == "E4M3" || t == "E5M2"; };
  auto accumulator = [](const std::string& t) { return t == "F32" || t == "F16"; };
  // 16-bit operands A = B, accumulating in D: half_t in F32 or F16, bfloat16_t in F32 only.
  auto sixteen_bit = [](const std::string& d, const std::string& a, const std::string& b) {
    return a == b && (a == "F16" || (a == "BF16" && d == "F32"));
  };
  // SM80_16x8x16_DABC_TN, SM89_16x8x32_DABC_TN: D = C (F32 or F16); 16-bit A = B (F16 accumulates only
  // half_t), or 8-bit A and B of either kind. The accumulator's type leaves the layouts as they are.
  for (const bool sm89 : {false, true}) {
    const std::string prefix = sm89 ? "SM89_16x8x32_" : "SM80_16x8x16_";
    if (s.rfind(prefix, 0) != 0 || s.size() < prefix.size() + 3 || s.compare(s.size() - 3, 3, "_TN") != 0) continue;
    const std::vector<std::string> t = name_types(s.substr(prefix.size(), s.size() - prefix.size() - 3));
    const bool ok = t.size() == 4 && t[0] == t[3] && accumulator(t[0]) &&
                    (sm89 ? fp8(t[1]) && fp8(t[2]) : sixteen_bit(t[0], t[1], t[2]));
    if (!ok) unknown(op, "MMA atom", s, known);
    return mma_traits(sm89 ? MmaFamily::kSm89_16x8x32 : MmaFamily::kSm80_16x8x16, type_elem(t[1]), type_elem(t[2]), 16,
                      8);
  }
  const size_t lt = s.find('<');
  const std::string base = s.substr(0, lt);
  std::vector<std::string> targs;
  if (lt != std::string::npos) {
    if (s.back() != '>') unknown(op, "MMA atom", s, known);
    targs = split(s.substr(lt + 1, s.size() - lt - 2), ',');
  }
  auto major = [&](const std::string& m) {
    if (m == "K") return true;
    if (m == "MN") return false;
    unknown(op, "MMA atom", s, known);
  };
  if (base.rfind("SM90_64x", 0) == 0) {
    // SM90_64xNxK_DAB_SS<A major,B major> (16-bit A = B; BF16 accumulates in F32), SM90_64xNx32_DAB_SS_TN (8-bit).
    int n = 0, k = 0;
    char types[64] = {0}, tail[16] = {0};
    if (std::sscanf(base.c_str(), "SM90_64x%dx%d_%63[A-Z0-9]%15s", &n, &k, types, tail) != 4)
      unknown(op, "MMA atom", s, known);
    const std::vector<std::string> t = name_types(types);
    const bool sixteen = t.size() == 3 && sixteen_bit(t[0], t[1], t[2]);
    const bool eight = t.size() == 3 && fp8(t[1]) && fp8(t[2]);
    if (!accumulator(t.empty() ? "" : t[0]) || !(sixteen || eight) || std::string(tail) != (eight ? "_SS_TN" : "_SS"))
      unknown(op, "MMA atom", s, known);
    bool ak = true, bk = true;
    if (targs.size() == 2 && sixteen) {
      ak = major(targs[0]);
      bk = major(targs[1]);
    } else if (!targs.empty()) {
      unknown(op, "MMA atom", s, known);
    }
    const MmaTraits m = mma_traits(MmaFamily::kSm90_Gmma_SS, type_elem(t[1]), type_elem(t[2]), 64, n, ak, bk);
    if (m.k != k) unknown(op, "MMA atom (K must be 16 for 16-bit types, 32 for 8-bit)", s, known);
    return m;
  }
  if (base == "SM100_MMA_F16BF16_SS" || base == "SM100_MMA_F8F6F4_SS") {
    if (targs.size() != 7) unknown(op, "MMA atom", s, known);
    const Elem a = parse_elem(targs[0], op), b = parse_elem(targs[1], op);
    if (targs[2] != "float") unknown(op, "MMA atom (accumulator must be float)", s, known);
    const bool fp8 = base == "SM100_MMA_F8F6F4_SS";
    if ((bits(a) == 8) != fp8) unknown(op, "MMA atom (F8F6F4 takes 8-bit types, F16BF16 16-bit ones)", s, known);
    auto extent = [&](const std::string& x) {  // M or N: a small decimal number
      if (x.empty() || x.size() > 4 || x.find_first_not_of("0123456789") != std::string::npos)
        unknown(op, "MMA atom (M and N are decimal numbers)", s, known);
      return std::stoi(x);
    };
    return mma_traits(MmaFamily::kSm100_Umma_SS, a, b, extent(targs[3]), extent(targs[4]), major(targs[5]),
                      major(targs[6]));
  }
  unknown(op, "MMA atom", s, known);
}

}  // namespace cotile::cli
