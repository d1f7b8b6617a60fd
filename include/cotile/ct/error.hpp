// Compile-time errors whose first line is the message.
//
// A failed Require<false, Message{"..."}> asks for the size of an incomplete type whose template
// argument is the message, so compilers (g++, clang, nvcc's host pass) print the message inside
// the first error line, e.g.
//   error: invalid application of 'sizeof' to incomplete type
//   'cotile::ct::CompileError<cotile::ct::Message<N>{"make_cotiled_copy: data_layout must be ..."}>'
#pragma once

#include <cstddef>

namespace cotile::ct {

template <size_t N>
struct Message {
  char text[N] = {};
  constexpr Message() = default;
  constexpr Message(const char (&s)[N]) {
    for (size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

template <Message M>
struct CompileError;  // never defined: naming it is the error

template <bool Ok, Message M>
struct Require {
  static constexpr bool value = true;
};
template <Message M>
struct Require<false, M> {
  static constexpr bool value = sizeof(CompileError<M>) > 0;
};

// Building messages at compile time: concatenation of literal pieces and numbers.
struct MessageBuilder {
  char buf[512] = {};
  int n = 0;
  constexpr MessageBuilder& add(const char* s) {
    while (*s && n < 511) buf[n++] = *s++;
    return *this;
  }
  constexpr MessageBuilder& add(long v) {
    char d[24] = {};
    int k = 0;
    const bool neg = v < 0;
    unsigned long u = neg ? 0ul - (unsigned long)v : (unsigned long)v;
    do {
      d[k++] = char('0' + u % 10);
      u /= 10;
    } while (u);
    if (neg && n < 511) buf[n++] = '-';
    while (k && n < 511) buf[n++] = d[--k];
    return *this;
  }
};

template <size_t N>
constexpr Message<N> to_message(const MessageBuilder& b) {
  Message<N> m;
  for (size_t i = 0; i + 1 < N; ++i) m.text[i] = b.buf[i];
  return m;
}

}  // namespace cotile::ct
