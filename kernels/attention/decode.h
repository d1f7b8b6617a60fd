/* cotile GQA decode attention: the C ABI (plain pointers, sizes, strides, dtype enums, error codes).
 *
 * One query token per sequence: O[b, h] = softmax(scale * Q[b, h] . K[b, :, h / G]) V[b, :, h / G]
 * over the first seqlen_kv[b] cache rows (+ the appended token), G = heads_q / heads_kv.
 * q_len > 1 tokens per sequence (speculative decoding, multi-token prediction): token j attends
 * causally to the rows before it and to itself, rows [0, L - q_len + j] of the sequence's L rows
 * (L = seqlen_kv[b], + q_len when the tokens are appended).
 *
 * Usage: cotile_decode_plan once per batch shape (host only), allocate plan.workspace_bytes of
 * device memory and zero it once, then cotile_decode_run any number of times (no host
 * synchronization, fixed grid: capturable in a CUDA graph). The C++ interface is decode.hpp. */
#ifndef COTILE_ATTENTION_DECODE_H
#define COTILE_ATTENTION_DECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { COTILE_F16 = 0, COTILE_BF16 = 1, COTILE_E4M3 = 2, COTILE_E5M2 = 3 } cotile_dtype;

/* How the cache's rows lie, as a plan may be told: any (not told), NHD ([.., N, Hkv, D], paged or not: a row's
 * heads adjacent, stride_h = head_dim) or HND ([.., Hkv, N, D]: a head's rows adjacent, stride_n = head_dim). */
typedef enum { COTILE_KV_ANY = 0, COTILE_KV_NHD = 1, COTILE_KV_HND = 2 } cotile_kv_layout;

typedef enum {
  COTILE_OK = 0,
  COTILE_ERROR_INVALID_ARGUMENT = 1, /* a size, stride, pointer or alignment is wrong: see the message */
  COTILE_ERROR_UNSUPPORTED = 2,      /* a valid request this build does not do (head_dim, dtype pair) */
  COTILE_ERROR_WORKSPACE = 3,        /* workspace missing or smaller than plan.workspace_bytes */
  COTILE_ERROR_CUDA = 4              /* a CUDA call failed: the message holds its error string */
} cotile_status;

/* What a plan depends on: fixed for a batch shape. */
typedef struct {
  int64_t batch, heads_q, heads_kv, head_dim; /* head_dim 64, 128 or 256; heads_q % heads_kv == 0 */
  int64_t max_kv_len;                         /* most positions one sequence attends to (with the appended one) */
  int32_t q_type, kv_type, o_type;            /* cotile_dtype; o_type F16 or BF16 */
  int32_t device;                             /* CUDA device ordinal the plan is for */
  int32_t splits;                             /* 0: the plan chooses the KV splits; else use this many (1..128) */
  int32_t kv_heads_per_cta;                   /* 0: the plan chooses (plan.kv_heads_per_cta); else 1, or 2 where
                                                 pairs are possible (fp8 cache, head_dim 64, G x q_len <= 8, even heads_kv) */
  int32_t kv_layout;       /* cotile_kv_layout the runs will pass (checked by cotile_decode_run); NHD lets the plan pair
                        KV heads where that reads longer rows (plan.hpp, pair_heads); ANY: never paired by choice */
  int32_t q_len;           /* query tokens a sequence, 1 to 8 (0: 1); the G x q_len query rows of a KV head share
                        each K/V tile (G x q_len <= 256) */
  int32_t m_tiles_per_cta; /* 0: the plan's choice; 1, 2 or 4 forces the m-tiles (16 query rows each) a CTA computes
                              against each K/V tile it streams; 2 needs q_len > 1, head_dim 64 or 128 and a 16-bit
                              cache (plan.hpp, two_m_tiles); 4, the warpgroup kernel (wgmma), q_len > 1, head_dim
                              128, and a 16-bit cache with q_type = kv_type or an fp8 cache (plan.hpp,
                              can_group_rows, group_rows_by_plan) */
} cotile_decode_shape_t;

typedef struct {
  cotile_decode_shape_t shape;
  int32_t group;            /* G = heads_q / heads_kv */
  int32_t m_tiles;          /* ceil(G x q_len / 16): 16-row tiles of a KV head's query rows */
  int32_t splits;           /* KV splits per sequence (flash-decoding) */
  int32_t grid;             /* CTAs per launch */
  int32_t ctas_per_sm;      /* occupancy of the chosen kernel */
  int32_t sms;              /* multiprocessors of the device */
  int32_t cluster;          /* splits > 1: the splits of one (batch, KV head) form a thread-block cluster of
                                `cluster` = splits CTAs and merge in distributed shared memory; 1: the last
                                split to finish merges the partials through the workspace */
  int32_t stagger_cycles;   /* > 0 (grids of several waves): the first wave's CTAs of slot j of their SM start
                                j x stagger_cycles clock cycles late, so that the CTAs sharing an SM do not all
                                fill and drain their pipelines at the same moments; may be set to 0 (no delay)
                                or tuned, never negative */
  int32_t smem_bytes;       /* dynamic shared memory of each CTA: what the kernel needs, or more (fp8 grids of one
                                CTA on most SMs) to keep the launch at one CTA an SM, which then lets the next
                                kernel start early (plan.hpp, solo_launch); never less than the kernel needs */
  int32_t kv_heads_per_cta; /* 1, or 2: two KV heads of head_dim 64 share each CTA, read as one row of 128 elements
                                (fp8 caches: 128-byte rows instead of 64; plan.hpp, pair_heads) */
  int32_t m_tiles_per_cta;  /* 1, 2 or 4: a CTA computes that many m-tiles (16, 32 or 64 query rows) against each K/V
                                tile, so that ceil(m_tiles / m_tiles_per_cta) CTAs stream a (batch, KV head, split)'s
                                rows (plan.hpp, two_m_tiles; 4: the warpgroup kernel, can_group_rows) */
  uint64_t workspace_bytes; /* device memory run needs; zero it once before the first run */
} cotile_decode_plan_t;

/* Strides are in elements; the last (head_dim) dimension has stride 1. */
typedef struct {
  const void* q;
  int64_t q_stride_b, q_stride_h; /* [B, Hq, D] */
  const void* k;
  int64_t k_stride_b, k_stride_n, k_stride_h; /* contiguous: [Bc, N, Hkv, D] or [Bc, Hkv, N, D] by strides; */
  const void* v;
  int64_t v_stride_b, v_stride_n, v_stride_h; /* paged: stride_b is the page stride */
  const int32_t* page_table;
  int64_t page_table_stride;      /* NULL: contiguous; else [B, pages per seq] */
  int32_t page_size;              /* power of two (paged only) */
  const int32_t* seqlen_kv;       /* [B] cache rows before the append (with q_len > 1 and no append: the new
                                     tokens' rows are its last q_len) */
  const int32_t* cache_batch_idx; /* NULL or [B]: cache batch of sequence b (contiguous only) */
  const void* k_new;
  int64_t k_new_stride_b, k_new_stride_h; /* NULL or [B, Hkv, D] ([B, q_len, Hkv, D]): appended at rows
                                             seqlen_kv[b] .. seqlen_kv[b] + q_len - 1 */
  const void* v_new;
  int64_t v_new_stride_b, v_new_stride_h;
  float softmax_scale;    /* x = scale * q.k (before soft-cap) */
  float softcap;          /* > 0: x = softcap * tanh(x / softcap) */
  int32_t window;         /* > 0: attend to the last `window` positions only */
  float k_scale, v_scale; /* per-tensor dequantization scales (1 for 16-bit) */
  const float* k_scale_per_head;
  const float* v_scale_per_head; /* NULL or [Hkv], multiplied with the above */
  void* o;
  int64_t o_stride_b, o_stride_h; /* [B, Hq, D] */
  float* lse;                     /* NULL or [B, Hq] ([B, q_len, Hq]) contiguous fp32, natural log; -inf when empty */
  /* q_len > 1: Q and O are [B, q_len, Hq, D], k_new and v_new [B, q_len, Hkv, D]; their token strides
     (ignored when q_len is 1) */
  int64_t q_stride_t, o_stride_t, k_new_stride_t, v_new_stride_t;
  /* paged: the entries of each page_table row (its columns), or 0 when not told. Told, the kernel may read
     the entries of a sequence's first tiles before the previous kernel has completed (at the lengths it
     finds then, to prefetch those rows into L2; never past this count); 0: it reads the table only after
     that kernel completes */
  int64_t page_table_len;
} cotile_decode_args_t;

/* Fill `plan` for `shape` on the current device. */
cotile_status cotile_decode_plan(const cotile_decode_shape_t* shape, cotile_decode_plan_t* plan);

/* Launch on `stream` (a cudaStream_t; NULL = default stream). Checks every argument on the host
 * (no device reads, no synchronization) and returns an error without launching if one is wrong.
 * The kernel is a programmatic dependent launch: it may start during the previous kernel's tail
 * and waits for that kernel to complete before it reads or writes any global memory. */
cotile_status cotile_decode_run(const cotile_decode_plan_t* plan, const cotile_decode_args_t* args, void* workspace,
                                uint64_t workspace_bytes, void* stream);

/* Diagnostics: clusters of `size` CTAs of the plan's kernel resident at once on its device (0 if
 * none can be launched); the plan clusters a unit's splits only when every unit's cluster fits. */
int32_t cotile_decode_resident_clusters(const cotile_decode_plan_t* plan, int32_t size);

/* The message of the last error on this thread ("" after success). */
const char* cotile_decode_last_error(void);

/* sizeof(cotile_decode_args_t) and sizeof(cotile_decode_plan_t): bindings check their mirrors. */
uint64_t cotile_decode_abi_size(int which);

/* Streaming-read probe: reads `bytes` (a multiple of 16) at `src` with 16-byte loads, `repeats`
 * times, and returns the median time of one pass in milliseconds through `ms`. */
cotile_status cotile_bandwidth_probe(const void* src, uint64_t bytes, int32_t repeats, float* ms, void* stream);

/* One pass of the probe's read over `bytes` (a multiple of 16) at `src`, launched on `stream` as a
 * dependent launch, like the decode's, and neither timed nor waited for: it can be captured in a
 * CUDA graph, so that a read of exactly a problem's KV bytes is timed the way the decode is. */
cotile_status cotile_stream_read(const void* src, uint64_t bytes, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* COTILE_ATTENTION_DECODE_H */
