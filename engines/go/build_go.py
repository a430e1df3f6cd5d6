"""cffi build script for the Go core: compiles engines/go/core/*.c into engines.go._core.

Run by `pip install -e .` through setup.py's cffi_modules (API mode: the C compiler checks the
declarations below against go.h, and cffi releases the GIL around every call).
"""
from pathlib import Path

from cffi import FFI

CORE = Path(__file__).resolve().parent / "core"

CDEF = """
#define GO_MAX_CANDIDATES 362
#define GO_MAX_PV 32
typedef struct go_game go_game;
typedef struct {
    long playouts; double seconds; int threads; int reuse; int want_pv;
} go_search_opts;
typedef struct {
    int move_x, move_y;
    double winrate;
    long playouts;
    long tree_playouts;
    double seconds;
    int ncandidates;
    int cand_x[362], cand_y[362];
    int cand_visits[362];
    float cand_prior[362], cand_winrate[362];
    int npv;
    int pv_x[32], pv_y[32];
    float ownership[361];
} go_search_result;

go_game *go_game_new(int size, double komi, int superko, uint64_t seed);
void go_game_free(go_game *g);
int go_game_clear(go_game *g, int size);
void go_game_set_komi(go_game *g, double komi);
double go_game_komi(const go_game *g);
void go_game_set_superko(go_game *g, int on);
int go_game_check(const go_game *g, int color, int x, int y);
int go_game_play(go_game *g, int color, int x, int y, int *cap_xy, int *ncap);
int go_game_undo(go_game *g);
int go_game_nmoves(const go_game *g);
void go_game_move(const go_game *g, int i, int *color, int *x, int *y);
int go_game_legal_moves(const go_game *g, int color, int *xy);
void go_game_board_chars(const go_game *g, char *out);
uint64_t go_game_hash(const go_game *g);
double go_game_tromp_taylor(const go_game *g);
void go_game_pass_alive(const go_game *g, uint8_t *out);
void go_game_ownership(go_game *g, int playouts, float *own);
int go_game_dead_stones(go_game *g, int playouts, uint8_t *out);
double go_game_final_score(go_game *g, int playouts);
int go_search_run(go_game *g, int color, const go_search_opts *opts, go_search_result *res);
void go_search_reset(go_game *g);

/* Small accessors for the binding (defined in the set_source preamble). */
int go_game_size(const go_game *g);
int go_game_to_move(const go_game *g);
int go_game_ko_xy(const go_game *g, int *x, int *y);
int go_game_captures(const go_game *g, int color);
uint64_t go_zobrist_stone(int color, int x, int y);
uint64_t go_zobrist_white_to_move(void);
uint64_t go_zobrist_ko(int x, int y);
long go_bench_light(int size, long games, uint64_t seed);
int go_game_ladder_fails(const go_game *g, int color, int x, int y);
int go_game_move_classes(const go_game *g, int *xy, uint32_t *keys, uint8_t *cls);
float go_game_move_gamma(const go_game *g, int x, int y);
void go_game_policy_counts(const go_game *g, int policy, int samples, uint64_t seed, int *counts);
"""

PREAMBLE = """
#include "go.h"
#include "internal.h"
int go_game_ladder_fails(const go_game *g, int color, int x, int y)
{
    const go_board *b = go_game_board(g);
    return go_ladder_escape_fails(b, color, go_point(b, x, y));
}
/* Training data for learn_priors.py: every legal move of the side to move (no pass) with its
   canonical shape key and GO_CLASS_GROUPS classes; returns the count. */
int go_game_move_classes(const go_game *g, int *xy, uint32_t *keys, uint8_t *cls)
{
    const go_board *b = go_game_board(g);
    uint8_t marks[GO_MAX_POINTS];
    int n = 0;
    go_two_liberty_marks(b, marks);
    for (int i = 0; i < b->nempty; i++) {
        int p = b->empty[i], x, y;
        if (go_board_check(b, b->to_move, p) != GO_OK)
            continue;
        go_xy(b, p, &x, &y);
        xy[2 * n] = x;
        xy[2 * n + 1] = y;
        keys[n] = go_shape_canonical(go_shape_key(b, b->to_move, p));
        go_move_classes(b, b->to_move, p, marks, cls + GO_CLASS_GROUPS * n);
        n++;
    }
    return n;
}
/* How often the playout policy picks each point (counts[y * size + x], a pass at
   counts[size * size]) as the side to move's next move, over samples draws: for the tests. */
void go_game_policy_counts(const go_game *g, int policy, int samples, uint64_t seed, int *counts)
{
    go_board copy;
    go_rng r;
    int x, y, n = go_game_board(g)->size;
    go_rng_seed(&r, seed);
    for (int i = 0; i < samples; i++) {
        go_board_copy(&copy, go_game_board(g));
        int p = go_playout_move(&copy, policy, &r);
        if (p == GO_PASS) {
            counts[n * n]++;
        } else {
            go_xy(&copy, p, &x, &y);
            counts[y * n + x]++;
        }
    }
}
/* The learned strength the search gives the side to move's legal move at (x, y). */
float go_game_move_gamma(const go_game *g, int x, int y)
{
    const go_board *b = go_game_board(g);
    uint8_t marks[GO_MAX_POINTS];
    go_shape_init();
    go_two_liberty_marks(b, marks);
    return go_move_gamma(b, b->to_move, go_point(b, x, y), marks);
}
int go_game_size(const go_game *g) { return go_game_board(g)->size; }
int go_game_to_move(const go_game *g) { return go_game_board(g)->to_move; }
int go_game_ko_xy(const go_game *g, int *x, int *y)
{
    const go_board *b = go_game_board(g);
    if (!b->ko)
        return 0;
    go_xy(b, b->ko, x, y);
    return 1;
}
int go_game_captures(const go_game *g, int color) { return go_game_board(g)->captures[color]; }
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "engines.go._core",
    PREAMBLE,
    sources=[str(p.relative_to(CORE.parent.parent.parent)) for p in sorted(CORE.glob("*.c"))],
    include_dirs=[str(CORE.relative_to(CORE.parent.parent.parent))],
    extra_compile_args=["-O3", "-pthread", "-std=gnu11"],
    extra_link_args=["-pthread"],
    libraries=["m"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
