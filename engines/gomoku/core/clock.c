/* clock.c - the only function of the core that reads a clock: core_platform.h's monotonic
 * seconds (in a WebAssembly build, the host's clock, so a search by time works in a page too). */
#include "internal.h"

double gm_clock_seconds(void)
{
    return plat_now_seconds();
}
