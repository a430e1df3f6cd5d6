/* Shared by the C cores' fuzz harnesses (tests/engines/<game>/test_fuzz_core_harness.c, built
   by tests/engines/fuzzing.py): a small xorshift generator and CHECK, which names the failed
   condition and its line, then exits 1. */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rs;  /* the harness seeds it from argv */

static uint32_t rnd(uint32_t n)
{
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (uint32_t)(rs % n);
}

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); exit(1); } } while (0)

#endif
