/* core_platform.h - the only place where a C core's native build and its WebAssembly build
 * differ: one-time initialisation, a mutex, threads, and the monotonic clock.
 *
 * Every core includes this header (through its internal.h) instead of <pthread.h> and <time.h>,
 * so the same .c files build both ways (engines/cbuild.py natively, engines/wasm.py for the
 * browser) with no fork. Everything is static inline: a core needs no extra source file.
 *
 * WebAssembly (wasi-libc has no threads): one thread, so a once is a flag, a mutex is nothing,
 * and starting a thread always fails, which the cores already handle by doing the work on the
 * calling thread. The clock is the host's: the module's one import, env.now_seconds
 * (performance.now() / 1000 in a page or a worker), listed in engines/wasm.py.
 */
#ifndef CORE_PLATFORM_H
#define CORE_PLATFORM_H

#if defined(__wasm__)

typedef int plat_once;
#define PLAT_ONCE_INIT 0
static inline void plat_run_once(plat_once *once, void (*init)(void))
{
    if (!*once) {
        *once = 1;
        init();
    }
}

typedef int plat_mutex;
static inline void plat_mutex_init(plat_mutex *m) { (void)m; }
static inline void plat_mutex_destroy(plat_mutex *m) { (void)m; }
static inline void plat_mutex_lock(plat_mutex *m) { (void)m; }
static inline void plat_mutex_unlock(plat_mutex *m) { (void)m; }

typedef int plat_thread;
/* Returns 0 when the thread runs FN(ARG); here never, so the caller does the work itself. */
static inline int plat_thread_start(plat_thread *t, void *(*fn)(void *), void *arg)
{
    (void)t; (void)fn; (void)arg;
    return -1;
}
static inline void plat_thread_join(plat_thread t) { (void)t; }

__attribute__((import_module("env"), import_name("now_seconds")))
double plat_host_now_seconds(void);
/* Monotonic seconds from an arbitrary origin. */
static inline double plat_now_seconds(void) { return plat_host_now_seconds(); }

#else

#include <pthread.h>
#include <time.h>

typedef pthread_once_t plat_once;
#define PLAT_ONCE_INIT PTHREAD_ONCE_INIT
static inline void plat_run_once(plat_once *once, void (*init)(void)) { pthread_once(once, init); }

typedef pthread_mutex_t plat_mutex;
static inline void plat_mutex_init(plat_mutex *m) { pthread_mutex_init(m, NULL); }
static inline void plat_mutex_destroy(plat_mutex *m) { pthread_mutex_destroy(m); }
static inline void plat_mutex_lock(plat_mutex *m) { pthread_mutex_lock(m); }
static inline void plat_mutex_unlock(plat_mutex *m) { pthread_mutex_unlock(m); }

typedef pthread_t plat_thread;
static inline int plat_thread_start(plat_thread *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg) == 0 ? 0 : -1;
}
static inline void plat_thread_join(plat_thread t) { pthread_join(t, NULL); }

static inline double plat_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
#endif
