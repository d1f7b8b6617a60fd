// A host program of a downstream project: the typed layer and the engine's printing.
#include <cotile/ct/ct.hpp>

#include <cstdio>

int main() {
  using namespace cotile::ct;
  const auto l = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  const auto c = composition(l, make_layout(make_shape(_8{}, _4{})));
  std::printf("%s %s %lld\n", to_string(l).c_str(), to_string(c).c_str(), (long long)l(1, 2));
  return 0;
}
