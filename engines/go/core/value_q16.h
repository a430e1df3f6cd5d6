/* value_q16.h - the network's 3x3 convolution in 16-bit integers, one instruction set's build.
   value.c includes this file once per instruction set after defining (Q16_NAME, Q16_TARGET
   and q16_dot are undefined at the end; the rest are the family's and stay):
     Q16_NAME, Q16_TARGET    the function's name and its target attribute (or nothing);
     q16_vec, Q16_LANES      a vector of Q16_LANES int32 sums;
     q16_in                  what q16_load returns: Q16_LANES points' pairs of int16 inputs;
     Q16_NV, Q16_OUT         vectors per block of points, output planes per block;
     q16_zero(), q16_load(p), q16_bcast(w), q16_dot(acc, x, w), q16_store(p, acc)
   where q16_dot adds to each lane of acc x's pair times w's pair (w: the pair of int16 weights
   in one int32, the lower plane's in the low half). Every build adds the same integers, none
   of which can overflow (value.c's scales bound them), so every build sums bit for bit alike.

   acc[o][p] = sum over input planes i and taps k of w[o][i][k] * in[i] shifted by k, for the
   run of points from the first board point to the last (as in value.c), Q16_NV * Q16_LANES
   points by Q16_OUT output planes at a time so that the sums stay in registers. The input
   holds cin / 2 pair planes: plane pair ip's point p at in[2 * (ip * ss + p)], the pair's two
   values side by side. */
Q16_TARGET static void Q16_NAME(const int16_t *in, int cin, const int32_t *w, int32_t *acc,
                                int cout, int n)
{
    int s = n + 2, ss = s * s, first = s + 1, len = (n - 1) * s + n, pairs = cin / 2, row = pairs * 9;
    for (int o = 0; o < cout; o += Q16_OUT)
        for (int p0 = first; p0 < first + len; p0 += Q16_NV * Q16_LANES) {
            q16_vec a[Q16_OUT][Q16_NV];
            for (int q = 0; q < Q16_OUT; q++)
                for (int v = 0; v < Q16_NV; v++)
                    a[q][v] = q16_zero();
            const int32_t *wo = w + o * row;
            for (int ip = 0; ip < pairs; ip++) {
                const int16_t *base = in + 2 * (ip * ss + p0);
                const int32_t *wp = wo + ip * 9;
                for (int dy = -1; dy <= 1; dy++)     /* the 9 taps unrolled: no index arithmetic */
                    for (int dx = -1; dx <= 1; dx++) {
                        const int16_t *src = base + 2 * (dy * s + dx);
                        int k = (dy + 1) * 3 + dx + 1;
                        q16_in x[Q16_NV];
                        for (int v = 0; v < Q16_NV; v++)
                            x[v] = q16_load(src + 2 * Q16_LANES * v);
                        for (int q = 0; q < Q16_OUT; q++) {
                            q16_vec wv = q16_bcast(wp[q * row + k]);
                            for (int v = 0; v < Q16_NV; v++)
                                a[q][v] = q16_dot(a[q][v], x[v], wv);
                        }
                    }
            }
            for (int q = 0; q < Q16_OUT; q++)
                for (int v = 0; v < Q16_NV; v++)
                    q16_store(acc + (o + q) * ss + p0 + v * Q16_LANES, a[q][v]);
        }
}

#undef Q16_NAME
#undef Q16_TARGET
#undef q16_dot
