/* value.c - the learned network: how likely the side to move is to win, who will own each
   point, and which moves it would choose, from a small convolutional network whose weights are
   learned from self-play (value_weights.h, written by engines/go/learn_value.py).

   The input is GO_VALUE_PLANES planes of the board seen from the side to move (go_value_planes).
   A 3x3 convolution widens them to VALUE_CHANNELS, then VALUE_LAYERS - 1 residual 3x3 layers
   (x + relu(conv x)). Heads read the result: an ownership map (a 1x1 convolution, tanh: +1
   the side to move's) and the value, a small perceptron over the mean of each channel and the
   mean ownership. A third head reads the trunk too: the policy, a 1x1 convolution giving each
   point's logit for the side to move's next move, a pass's from the value head's input. Zero
   padding outside the board, so the edge is seen by every layer. */
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

enum {
    PLANE_OWN, PLANE_OPP, PLANE_OWN_ATARI, PLANE_OWN_TWO, PLANE_OPP_ATARI, PLANE_OPP_TWO,
    PLANE_LAST, PLANE_KO, PLANE_BOARD, PLANE_BLACK_TO_MOVE
};

int go_value_planes(const go_board *b, float *out)
{
    int n = b->size, nn = n * n, me = b->to_move;
    memset(out, 0, GO_VALUE_PLANES * nn * sizeof *out);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = go_point(b, x, y), c = b->color[p], at = y * n + x;
            out[PLANE_BOARD * nn + at] = 1;
            out[PLANE_BLACK_TO_MOVE * nn + at] = me == GO_BLACK;
            if (c == GO_EMPTY)
                continue;
            int libs = go_board_libs(b, p, 3, NULL), own = c == me;
            out[(own ? PLANE_OWN : PLANE_OPP) * nn + at] = 1;
            if (libs <= 2)
                out[((own ? PLANE_OWN_ATARI : PLANE_OPP_ATARI) + (libs == 2)) * nn + at] = 1;
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

#define VALUE_BLOCK 16       /* points computed together, in registers, per 4 output planes */
#define VALUE_SLACK (2 * (GO_MAX_SIZE + 2) + 2 * VALUE_BLOCK) /* floats read past the last plane */

/* Zero the border of each of count planes of side s. */
static void value_clear_border(float *planes, int count, int s)
{
    for (int c = 0; c < count; c++) {
        float *pl = planes + c * s * s;
        for (int i = 0; i < s; i++)
            pl[i] = pl[(s - 1) * s + i] = pl[i * s] = pl[i * s + s - 1] = 0;
    }
}

/* Eight floats as one value: GCC and clang compile its arithmetic to SIMD instructions where the
   target has them (two SSE2 halves on any x86-64, one AVX register where the CPU has AVX2, two
   simd128 halves in the WebAssembly build), to plain code elsewhere. Each lane computes what
   scalar code would, in the same order and with no fused multiply-add, so every build values
   a position bit for bit alike. */
typedef float value_v8 __attribute__((vector_size(32)));

#if defined(__x86_64__) && defined(__linux__)
#define VALUE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VALUE_CLONES
#endif

/* out[o] = bias[o] + sum over i, k of w[(o * cin + i) * 9 + k] * in[i] shifted by k, on planes
   of side s = n + 2 whose border is 0 (and stays 0 in out). Computed over the run of points
   from the first board point to the last, border columns included, VALUE_BLOCK points by 4
   output planes at a time so that the sums stay in registers. cout must be a multiple of 4. */
VALUE_CLONES static void value_conv3(const float *in, int cin, float *out, int cout,
                                     const float *w, const float *bias, int n)
{
    int s = n + 2, ss = s * s, first = s + 1, len = (n - 1) * s + n, row = cin * 9;
    for (int o = 0; o < cout; o += 4)
        for (int p0 = first; p0 < first + len; p0 += VALUE_BLOCK) {
            value_v8 a[4][2];
            for (int q = 0; q < 4; q++)
                a[q][0] = a[q][1] = (value_v8){0, 0, 0, 0, 0, 0, 0, 0} + bias[o + q];
            const float *wo = w + o * row;
            for (int i = 0; i < cin; i++)
                for (int k = 0; k < 9; k++) {
                    const float *src = in + i * ss + p0 + (k / 3 - 1) * s + (k % 3 - 1);
                    value_v8 s0, s1;      /* unaligned loads */
                    memcpy(&s0, src, sizeof s0);
                    memcpy(&s1, src + 8, sizeof s1);
                    int j = i * 9 + k;
                    for (int q = 0; q < 4; q++) {
                        a[q][0] += wo[q * row + j] * s0;
                        a[q][1] += wo[q * row + j] * s1;
                    }
                }
            for (int q = 0; q < 4; q++)
                for (int r = 0; r < VALUE_BLOCK && p0 + r < ss; r++)
                    out[(o + q) * ss + p0 + r] = a[q][r / 8][r % 8];
        }
    value_clear_border(out, cout, s);
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

static void value_relu(float *v, int count)
{
    for (int i = 0; i < count; i++)
        v[i] = v[i] > 0 ? v[i] : 0;
}

/* The trunk's output (VALUE_CHANNELS planes of side n + 2) into h, from b; tmp has as much room
   (value_conv3 writes every point of its output planes, so neither needs clearing first). */
static void value_trunk(const go_board *b, float *h, float *tmp)
{
    int n = b->size, s = n + 2, ss = s * s;
    float *planes = h;   /* free until the first layer writes h */
    go_value_planes(b, planes);
    memset(tmp, 0, GO_VALUE_PLANES * ss * sizeof *tmp);
    for (int c = 0; c < GO_VALUE_PLANES; c++)
        for (int y = 0; y < n; y++)
            memcpy(tmp + c * ss + (y + 1) * s + 1, planes + (c * n + y) * n, n * sizeof *tmp);
    value_conv3(tmp, GO_VALUE_PLANES, h, VALUE_CHANNELS, VALUE_CONV0_W, VALUE_CONV_B, n);
    value_relu(h, VALUE_CHANNELS * ss);
    for (int l = 1; l < VALUE_LAYERS; l++) {
        value_conv3(h, VALUE_CHANNELS, tmp, VALUE_CHANNELS,
                    VALUE_CONV_W + (l - 1) * VALUE_CHANNELS * VALUE_CHANNELS * 9,
                    VALUE_CONV_B + l * VALUE_CHANNELS, n);
        for (int i = 0; i < VALUE_CHANNELS * ss; i++)
            h[i] += tmp[i] > 0 ? tmp[i] : 0;
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

/* The policy head: into prob (n * n + 1, a pass last), e^(logit - the largest logit of an
   empty point or a pass) for the empty points and a pass, 0 for the occupied points. */
static void value_policy(const go_board *b, const float *h, const float *feat, float *prob)
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
        prob[i] = prob[i] < -1e29f ? 0.0f : value_exp(prob[i] - top);
}

float go_value_eval_policy(const go_board *b, float *ownership, float *policy)
{
    int ss = (b->size + 2) * (b->size + 2);
    float feat[VALUE_CHANNELS + 1], *h = calloc(2 * VALUE_CHANNELS * ss + VALUE_SLACK, sizeof *h);
    if (!h) {          /* out of memory: no opinion, every move's weight 0 */
        if (policy)
            memset(policy, 0, (b->size * b->size + 1) * sizeof *policy);
        return 0.5f;
    }
    value_trunk(b, h, h + VALUE_CHANNELS * ss);
    value_pool(h, b->size, feat, ownership);
    if (policy)
        value_policy(b, h, feat, policy);
    free(h);
    return value_head(feat);
}

float go_value_eval(const go_board *b, float *ownership)
{
    return go_value_eval_policy(b, ownership, NULL);
}

int go_value_trained_size(void) { return VALUE_TRAINED_SIZE; }
