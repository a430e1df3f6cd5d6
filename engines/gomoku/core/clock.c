/* clock.c - the platform shim: the only function of the core that reads a clock.
 *
 * WebAssembly builds have no wall clock inside the core; there gm_clock_seconds returns 0, so
 * a search stops by its node or depth budget only (the caller gives one). */
#include "internal.h"

#if defined(__wasm__) || defined(__EMSCRIPTEN__)
double gm_clock_seconds(void)
{
    return 0.0;
}
#else
#include <time.h>

double gm_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif
