/* value.c - the learned network: how likely the side to move is to win, who will own each
   point, and which moves it would choose, from a small convolutional network whose weights are
   learned from self-play (value_weights.h, written by engines/go/learn_value.py).

   The input is GO_VALUE_PLANES planes of the board seen from the side to move (go_value_planes).
   A 3x3 convolution widens them to VALUE_CHANNELS, then VALUE_LAYERS - 1 residual 3x3 layers
   (x + relu(conv x)). Heads read the result: an ownership map (a 1x1 convolution, tanh: +1
   the side to move's) and the value, a small perceptron over the mean of each channel and the
   mean ownership. A third head reads the trunk too: the policy, a 1x1 convolution giving each
   point's logit for the side to move's next move, a pass's from the value head's input. Zero
   padding outside the board, so the edge is seen by every layer. The convolutions multiply
   16-bit integers (below: "The trunk in 16-bit integers"); the rest is in floats. */
#include "go.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "value_weights.h"

#ifndef VALUE_POLICY
#error "value_weights.h: no policy head; refit with engines/go/learn_value.py"
#endif
#if VALUE_CHANNELS % 4 || VALUE_CHANNELS < GO_VALUE_PLANES
#error "value_weights.h: VALUE_CHANNELS must be a multiple of 4, at least GO_VALUE_PLANES"
#endif

/* A header fitted to fewer planes: learn_value fit --init grows it (zero weights on the new). */
#if !defined VALUE_PLANES || VALUE_PLANES != GO_VALUE_PLANES
#error "value_weights.h reads another number of planes than go_value_planes makes: refit it"
#endif

/* New planes go last: a network fitted on fewer planes then reads them with zero weights. */
enum {
    PLANE_OWN, PLANE_OPP, PLANE_OWN_ATARI, PLANE_OWN_TWO, PLANE_OPP_ATARI, PLANE_OPP_TWO,
    PLANE_LAST, PLANE_KO, PLANE_BOARD, PLANE_BLACK_TO_MOVE, PLANE_OWN_THREE, PLANE_OPP_THREE,
    PLANE_OWN_LADDERED, PLANE_OPP_LADDERED
};

int go_value_planes(const go_board *b, float *out)
{
    int n = b->size, nn = n * n, me = b->to_move;
    memset(out, 0, GO_VALUE_PLANES * nn * sizeof *out);
    /* A chain's liberties and ladder are read once, at its head, for all its stones. */
    uint8_t libs[GO_MAX_POINTS] = {0}, laddered[GO_MAX_POINTS];   /* a chain has a liberty */
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = go_point(b, x, y), c = b->color[p], at = y * n + x;
            out[PLANE_BOARD * nn + at] = 1;
            out[PLANE_BLACK_TO_MOVE * nn + at] = me == GO_BLACK;
            if (c == GO_EMPTY)
                continue;
            int head = b->chain[p], own = c == me;
            if (!libs[head]) {
                libs[head] = (uint8_t)go_board_libs(b, head, 4, NULL);
                laddered[head] = libs[head] <= 2 && go_chain_laddered(b, head);
            }
            out[(own ? PLANE_OWN : PLANE_OPP) * nn + at] = 1;
            if (libs[head] <= 2)
                out[((own ? PLANE_OWN_ATARI : PLANE_OPP_ATARI) + (libs[head] == 2)) * nn + at] = 1;
            if (libs[head] == 3)
                out[(own ? PLANE_OWN_THREE : PLANE_OPP_THREE) * nn + at] = 1;
            if (laddered[head])
                out[(own ? PLANE_OWN_LADDERED : PLANE_OPP_LADDERED) * nn + at] = 1;
        }
    int x, y;
    if (b->last_move > 0) {
        go_xy(b, b->last_move, &x, &y);
        out[PLANE_LAST * nn + y * n + x] = 1;
    }
    if (b->ko > 0) {
        go_xy(b, b->ko, &x, &y);
        out[PLANE_KO * nn + y * n + x] = 1;
    }
    return nn;
}

/* ---- The trunk in 16-bit integers --------------------------------------------------------
   Each 3x3 convolution multiplies int16 inputs by int16 weights and sums in int32 (x86's
   pmaddwd and its VNNI form, WebAssembly's i32x4.dot_i16x8_s): about twice the float speed
   with AVX2, four times with VNNI, and no change in how well the network calls positions.
   - The weights are quantized once, per output plane o, at scale ws[o]: the largest |w| at
     most 32767, and the sum of |w| below 65536 (value_scale), so that a sum of products with
     inputs of at most 32767 stays below 2^31 whatever the inputs.
   - The inputs are quantized per position and layer at scale a = 32767 / (their largest
     value), so nothing saturates (the trunk is never negative: a relu, then sums of relus).
   - The sums come back to floats as sum / (a ws[o]) + bias; the residual sums and the heads
     stay in floats.
   engines/go/learn_value.py computes the same numbers (forward, policy_logits). */

#define Q16_BLOCK 16       /* points per block in every kernel (Q16_NV * Q16_LANES) */
#define Q16_SLACK (2 * (GO_MAX_SIZE + 2) + 2 * Q16_BLOCK) /* values read or written past the end */

/* Each kernel below is value_q16.h built for one instruction set: a family's vector shape,
   then each kernel's name, target and multiply-add. Built with -DVALUE_Q16_PLAIN, the plain C
   kernel alone, as where no vector build is written (tests/engines/go compares it). */
#define Q16_PLAIN 0
#define Q16_X86 1
#define Q16_WASM 2
#if defined(VALUE_Q16_PLAIN)
#define Q16_FAMILY Q16_PLAIN
#elif defined(__x86_64__) && defined(__GNUC__)
#define Q16_FAMILY Q16_X86
#elif defined(__wasm_simd128__)
#define Q16_FAMILY Q16_WASM
#else
#define Q16_FAMILY Q16_PLAIN
#endif

#if Q16_FAMILY == Q16_X86
#include <immintrin.h>

/* 256-bit: eight points a vector, four output planes a block. */
#define q16_vec __m256i
#define q16_in __m256i
#define Q16_LANES 8
#define Q16_NV 2
#define Q16_OUT 4
#define q16_zero() _mm256_setzero_si256()
#define q16_load(p) _mm256_loadu_si256((const __m256i *)(p))
#define q16_bcast(w) _mm256_set1_epi32(w)
#define q16_store(p, a) _mm256_storeu_si256((__m256i *)(p), a)

#define Q16_NAME value_conv_q16_avx2
#define Q16_TARGET __attribute__((target("avx2")))
#define q16_dot(a, x, w) _mm256_add_epi32(a, _mm256_madd_epi16(x, w))
#include "value_q16.h"

#define Q16_NAME value_conv_q16_avxvnni
#define Q16_TARGET __attribute__((target("avxvnni")))
#define q16_dot(a, x, w) _mm256_dpwssd_avx_epi32(a, x, w)
#include "value_q16.h"

#define Q16_NAME value_conv_q16_avx512vnni
#define Q16_TARGET __attribute__((target("avx512vnni,avx512vl")))
#define q16_dot(a, x, w) _mm256_dpwssd_epi32(a, x, w)
#include "value_q16.h"
#undef q16_vec
#undef q16_in
#undef Q16_LANES
#undef Q16_NV
#undef Q16_OUT
#undef q16_zero
#undef q16_load
#undef q16_bcast
#undef q16_store

/* SSE2, which every x86-64 has: four points a vector, two output planes a block (sixteen
   registers). */
#define q16_vec __m128i
#define q16_in __m128i
#define Q16_LANES 4
#define Q16_NV 4
#define Q16_OUT 2
#define q16_zero() _mm_setzero_si128()
#define q16_load(p) _mm_loadu_si128((const __m128i *)(p))
#define q16_bcast(w) _mm_set1_epi32(w)
#define q16_store(p, a) _mm_storeu_si128((__m128i *)(p), a)
#define Q16_NAME value_conv_q16_sse2
#define Q16_TARGET
#define q16_dot(a, x, w) _mm_add_epi32(a, _mm_madd_epi16(x, w))
#include "value_q16.h"

#elif Q16_FAMILY == Q16_WASM
#include <wasm_simd128.h>

#define q16_vec v128_t
#define q16_in v128_t
#define Q16_LANES 4
#define Q16_NV 4
#define Q16_OUT 2
#define q16_zero() wasm_i32x4_splat(0)
#define q16_load(p) wasm_v128_load(p)
#define q16_bcast(w) wasm_i32x4_splat(w)
#define q16_store(p, a) wasm_v128_store(p, a)
#define Q16_NAME value_conv_q16_simd128
#define Q16_TARGET
#define q16_dot(a, x, w) wasm_i32x4_add(a, wasm_i32x4_dot_i16x8(x, w))
#include "value_q16.h"

#else
/* Plain C, one point at a time, where no vector build is written. */
typedef struct { int16_t lo, hi; } q16_pair;
static inline q16_pair q16_load_pair(const int16_t *p) { return (q16_pair){p[0], p[1]}; }
#define q16_vec int32_t
#define q16_in q16_pair
#define Q16_LANES 1
#define Q16_NV 16
#define Q16_OUT 4
#define q16_zero() 0
#define q16_load(p) q16_load_pair(p)
#define q16_bcast(w) (w)
#define q16_store(p, a) (*(p) = (a))
#define Q16_NAME value_conv_q16_plain
#define Q16_TARGET
#define q16_dot(a, x, w) ((a) + (x).lo * (int16_t)((w) & 0xffff) + (x).hi * (int16_t)((w) >> 16))
#include "value_q16.h"
#endif

typedef void value_conv_fn(const int16_t *in, int cin, const int32_t *w, int32_t *acc, int cout, int n);

/* The kernels this build has, by GO_VALUE_KERNEL_*, and whether this CPU runs each. */
static value_conv_fn *value_kernel_fn(int kernel)
{
    switch (kernel) {
#if Q16_FAMILY == Q16_X86
    case GO_VALUE_KERNEL_SSE2: return value_conv_q16_sse2;
    case GO_VALUE_KERNEL_AVX2: return __builtin_cpu_supports("avx2") ? value_conv_q16_avx2 : NULL;
    case GO_VALUE_KERNEL_AVX512VNNI:
        return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vl")
                   ? value_conv_q16_avx512vnni : NULL;
    case GO_VALUE_KERNEL_AVXVNNI:
        return __builtin_cpu_supports("avxvnni") ? value_conv_q16_avxvnni : NULL;
#elif Q16_FAMILY == Q16_WASM
    case GO_VALUE_KERNEL_SIMD128: return value_conv_q16_simd128;
#else
    case GO_VALUE_KERNEL_PLAIN: return value_conv_q16_plain;
#endif
    default: return NULL;
    }
}

/* The quantized weights (pairs of int16 in an int32, see value_q16.h), their scales, and the
   kernel in use, set once by value_init. */
static struct {
    int32_t conv0[VALUE_CHANNELS * GO_VALUE_PLANES / 2 * 9];
    int32_t conv[(VALUE_LAYERS - 1) * VALUE_CHANNELS * VALUE_CHANNELS / 2 * 9];
    float scale[VALUE_LAYERS][VALUE_CHANNELS];
    int kernel;
    value_conv_fn *conv_fn;
} q16;
static plat_once q16_once = PLAT_ONCE_INIT;

/* Output plane o's weights w[cin][9] as pairs of int16 into out[cin / 2][9]; their scale. The
   sum in double, in order, so that learn_value.py's numpy finds the same scale. */
static float value_scale(const float *w, int cin, int32_t *out)
{
    double top = 0, sum = 0;
    for (int i = 0; i < cin * 9; i++) {
        double a = fabs((double)w[i]);
        top = a > top ? a : top;
        sum += a;
    }
    double ws = sum > 0 ? fmin(32767.0 / top, (65536.0 - cin * 9) / sum) : 1.0;
    float scale = (float)ws;
    for (int ip = 0; ip < cin / 2; ip++)
        for (int k = 0; k < 9; k++) {
            int lo = (int)floorf(w[(2 * ip) * 9 + k] * scale + 0.5f);
            int hi = (int)floorf(w[(2 * ip + 1) * 9 + k] * scale + 0.5f);
            out[ip * 9 + k] = (int32_t)((uint32_t)(uint16_t)lo | (uint32_t)(uint16_t)hi << 16);
        }
    return scale;
}

static void value_init(void)
{
    for (int o = 0; o < VALUE_CHANNELS; o++)
        q16.scale[0][o] = value_scale(VALUE_CONV0_W + o * GO_VALUE_PLANES * 9, GO_VALUE_PLANES,
                                      q16.conv0 + o * GO_VALUE_PLANES / 2 * 9);
    for (int l = 1; l < VALUE_LAYERS; l++)
        for (int o = 0; o < VALUE_CHANNELS; o++) {
            int at = ((l - 1) * VALUE_CHANNELS + o) * VALUE_CHANNELS * 9;
            q16.scale[l][o] = value_scale(VALUE_CONV_W + at, VALUE_CHANNELS, q16.conv + at / 2);
        }
#if Q16_FAMILY == Q16_X86
    __builtin_cpu_init();
#endif
    static const int fastest_first[] = {GO_VALUE_KERNEL_AVXVNNI, GO_VALUE_KERNEL_AVX512VNNI,
                                        GO_VALUE_KERNEL_AVX2, GO_VALUE_KERNEL_SSE2,
                                        GO_VALUE_KERNEL_SIMD128, GO_VALUE_KERNEL_PLAIN};
    for (int i = 0; !q16.conv_fn; i++) {
        q16.kernel = fastest_first[i];
        q16.conv_fn = value_kernel_fn(q16.kernel);
    }
}

int go_value_kernel(void)
{
    plat_run_once(&q16_once, value_init);
    return q16.kernel;
}

int go_value_use_kernel(int kernel)
{
    plat_run_once(&q16_once, value_init);
    value_conv_fn *fn = value_kernel_fn(kernel);
    if (fn) {
        q16.kernel = kernel;
        q16.conv_fn = fn;
    }
    return fn != NULL;
}

/* The largest of count values, all at least 0: eight running maxima, which the compiler keeps
   in one vector (one running maximum is a chain of dependent instructions, slower than a
   layer's convolution). */
static float value_top(const float *v, int count)
{
    float t[8] = {0};
    int i = 0;
    for (; i + 8 <= count; i += 8)
        for (int j = 0; j < 8; j++)
            t[j] = v[i + j] > t[j] ? v[i + j] : t[j];
    for (; i < count; i++)
        t[0] = v[i] > t[0] ? v[i] : t[0];
    for (int j = 1; j < 8; j++)
        t[0] = t[j] > t[0] ? t[j] : t[0];
    return t[0];
}

/* h's count planes of side n + 2 (border 0, values at least 0) into hq's count / 2 pair planes
   of int16, at the scale a = 32767 / their largest value, which it returns. Each plane is
   converted whole, then two planes interleaved: loops the compiler turns into vector code. */
static float value_quantize(const float *h, int count, int n, int16_t *hq)
{
    int ss = (n + 2) * (n + 2);
    float top = value_top(h, count * ss), a = top > 0 ? 32767.0f / top : 1.0f;
    int16_t q[2][(GO_MAX_SIZE + 2) * (GO_MAX_SIZE + 2)];
    for (int ip = 0; ip < count / 2; ip++) {
        for (int j = 0; j < 2; j++)
            for (int p = 0; p < ss; p++)
                q[j][p] = (int16_t)(int32_t)(h[(2 * ip + j) * ss + p] * a + 0.5f);
        int16_t *out = hq + 2 * ip * ss;
        for (int p = 0; p < ss; p++) {
            out[2 * p] = q[0][p];
            out[2 * p + 1] = q[1][p];
        }
    }
    return a;
}

/* One layer of the trunk: h += relu(conv(in) + bias) (the first layer's h is all 0), in
   quantized at a, the weights at scale[o]. Computed over the run of points from the first
   board point to the last (a loop the compiler vectorizes), then the border columns in the
   run set back to 0. */
static void value_layer(const int16_t *in, int cin, float a, const int32_t *w, const float *scale,
                        const float *bias, int32_t *acc, float *h, int n)
{
    int s = n + 2, ss = s * s, start = s + 1, len = (n - 1) * s + n;
    q16.conv_fn(in, cin, w, acc, VALUE_CHANNELS, n);
    for (int o = 0; o < VALUE_CHANNELS; o++) {
        float inv = 1.0f / (a * scale[o]), b = bias[o], *ho = h + o * ss;
        const int32_t *ao = acc + o * ss;
        for (int p = start; p < start + len; p++) {
            float v = (float)ao[p] * inv + b;
            ho[p] += v > 0 ? v : 0;
        }
        for (int y = 1; y < n; y++)
            ho[y * s + n + 1] = ho[(y + 1) * s] = 0;
    }
}

/* e^x in plain arithmetic (2^n by the exponent bits times a polynomial for the rest), not the
   libc's expf: the native and the WebAssembly builds must value every position bit for bit
   alike, and their libcs round expf differently. Relative error below 3e-7. */
static float value_exp(float x)
{
    x = x < -87.0f ? -87.0f : x > 88.0f ? 88.0f : x;
    float n = floorf(x * 1.44269504f + 0.5f);
    float r = x - n * 0.693145752f - n * 1.42860677e-6f;
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (0.166666672f + r * (0.0416666679f +
              r * (0.00833333377f + r * 0.00138888892f)))));
    union { float f; int32_t i; } scale = {.i = ((int32_t)n + 127) << 23};
    return p * scale.f;
}

static float value_tanh(float x) { return 1.0f - 2.0f / (value_exp(2.0f * x) + 1.0f); }

/* The trunk's output (VALUE_CHANNELS planes of side n + 2, border 0) into h, which must come
   zeroed; planes (GO_VALUE_PLANES of side n + 2, zeroed), hq and acc are its scratch. */
static void value_trunk(const go_board *b, float *h, float *planes, int16_t *hq, int32_t *acc)
{
    int n = b->size, s = n + 2, ss = s * s;
    float *raw = h;   /* free until the first layer writes h */
    go_value_planes(b, raw);
    for (int c = 0; c < GO_VALUE_PLANES; c++)
        for (int y = 0; y < n; y++)
            memcpy(planes + c * ss + (y + 1) * s + 1, raw + (c * n + y) * n, n * sizeof *raw);
    memset(raw, 0, GO_VALUE_PLANES * n * n * sizeof *raw);
    float a = value_quantize(planes, GO_VALUE_PLANES, n, hq);
    value_layer(hq, GO_VALUE_PLANES, a, q16.conv0, q16.scale[0], VALUE_CONV_B, acc, h, n);
    for (int l = 1; l < VALUE_LAYERS; l++) {
        a = value_quantize(h, VALUE_CHANNELS, n, hq);
        value_layer(hq, VALUE_CHANNELS, a, q16.conv + (l - 1) * VALUE_CHANNELS * VALUE_CHANNELS / 2 * 9,
                    q16.scale[l], VALUE_CONV_B + l * VALUE_CHANNELS, acc, h, n);
    }
}

/* The heads' inputs from the trunk's output h: each channel's mean over the board and the mean
   ownership into feat[0..VALUE_CHANNELS]; the ownership map too unless NULL. */
static void value_pool(const float *h, int n, float *feat, float *ownership)
{
    int s = n + 2, ss = s * s;
    float own_sum = 0;
    memset(feat, 0, (VALUE_CHANNELS + 1) * sizeof *feat);
    for (int y = 1; y <= n; y++)
        for (int x = 1; x <= n; x++) {
            float o = VALUE_OWN_B;
            for (int c = 0; c < VALUE_CHANNELS; c++) {
                feat[c] += h[c * ss + y * s + x];
                o += VALUE_OWN_W[c] * h[c * ss + y * s + x];
            }
            o = value_tanh(o);
            own_sum += o;
            if (ownership)
                ownership[(y - 1) * n + x - 1] = o;
        }
    for (int c = 0; c < VALUE_CHANNELS; c++)
        feat[c] /= (float)(n * n);
    feat[VALUE_CHANNELS] = own_sum / (float)(n * n);
}

/* The value head: a perceptron with one hidden layer, then the logistic function. */
static float value_head(const float *feat)
{
    float z = VALUE_FC2_B;
    for (int j = 0; j < VALUE_HIDDEN; j++) {
        float a = VALUE_FC1_B[j];
        for (int c = 0; c <= VALUE_CHANNELS; c++)
            a += VALUE_FC1_W[j * (VALUE_CHANNELS + 1) + c] * feat[c];
        z += VALUE_FC2_W[j] * (a > 0 ? a : 0);
    }
    return 1.0f / (1.0f + value_exp(-z));
}

/* The policy head: into prob (n * n + 1, a pass last), e^(sharpen (logit - the largest logit
   of an empty point or a pass)) for the empty points and a pass, 0 for the occupied points. */
static void value_policy(const go_board *b, const float *h, const float *feat, float *prob,
                         float sharpen)
{
    int n = b->size, s = n + 2, ss = s * s;
    float top = VALUE_PASS_B;
    for (int c = 0; c <= VALUE_CHANNELS; c++)
        top += VALUE_PASS_W[c] * feat[c];
    prob[n * n] = top;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            float z = VALUE_POL_B;
            for (int c = 0; c < VALUE_CHANNELS; c++)
                z += VALUE_POL_W[c] * h[c * ss + (y + 1) * s + x + 1];
            int empty = b->color[go_point(b, x, y)] == GO_EMPTY;
            prob[y * n + x] = empty ? z : -1e30f;
            if (empty && z > top)
                top = z;
        }
    for (int i = 0; i <= n * n; i++)
        prob[i] = prob[i] < -1e29f ? 0.0f : value_exp(sharpen * (prob[i] - top));
}

float go_value_eval_policy(const go_board *b, float *ownership, float *policy, float sharpen)
{
    int ss = (b->size + 2) * (b->size + 2);
    plat_run_once(&q16_once, value_init);
    /* Zeroed: h and the input planes must start so, and the kernels read hq past what the
       layers write (for points off the board, whose sums are dropped: zeros keep them small) */
    size_t nh = (size_t)VALUE_CHANNELS * ss, np = (size_t)GO_VALUE_PLANES * ss;
    size_t nq = (size_t)VALUE_CHANNELS * ss + 2 * Q16_SLACK, na = nh + Q16_SLACK;
    float feat[VALUE_CHANNELS + 1], *h = calloc(1, (nh + np) * sizeof *h + nq * sizeof(int16_t) +
                                                   na * sizeof(int32_t));
    if (!h) {          /* out of memory: no opinion, every move's weight 0 */
        if (policy)
            memset(policy, 0, (b->size * b->size + 1) * sizeof *policy);
        return 0.5f;
    }
    int32_t *acc = (int32_t *)(h + nh + np);
    int16_t *hq = (int16_t *)(acc + na);
    value_trunk(b, h, h + nh, hq, acc);
    value_pool(h, b->size, feat, ownership);
    if (policy)
        value_policy(b, h, feat, policy, sharpen);
    free(h);
    return value_head(feat);
}

float go_value_eval(const go_board *b, float *ownership)
{
    return go_value_eval_policy(b, ownership, NULL, 1.0f);
}

int go_value_trained_size(void) { return VALUE_TRAINED_SIZE; }
