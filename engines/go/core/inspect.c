/* inspect.c - read-only views of the core for tests and tools (learn_priors.py, the policy
   and ladder tests). Declared in go.h's binding section; the fuzz harness compiles and calls
   them too. */
#include "go.h"
#include "internal.h"

#include <string.h>

int go_game_ladder_fails(const go_game *g, int color, int x, int y)
{
    const go_board *b = go_game_board(g);
    return go_ladder_escape_fails(b, color, go_point(b, x, y));
}

int go_game_tactical_moves(const go_game *g, int min_size, uint8_t *marks)
{
    const go_board *b = go_game_board(g);
    uint8_t at[GO_MAX_POINTS];
    int x, y, n = go_tactical_moves(b, min_size, at);
    memset(marks, 0, (size_t)(b->size * b->size));
    for (int p = 0; p < b->npoints; p++)
        if (at[p]) {
            go_xy(b, p, &x, &y);
            marks[y * b->size + x] = at[p];
        }
    return n;
}

int go_game_move_classes(const go_game *g, int *xy, uint32_t *keys, uint8_t *cls, float *gammas)
{
    const go_board *b = go_game_board(g);
    uint8_t marks[GO_MAX_POINTS];
    int n = 0;
    go_shape_init();
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
        if (gammas)
            gammas[n] = go_move_gamma(b, b->to_move, p, marks);
        n++;
    }
    return n;
}

int go_game_move_patterns(const go_game *g, uint64_t *hashes)
{
    const go_board *b = go_game_board(g);
    int n = 0;
    go_shape_init();
    for (int i = 0; i < b->nempty; i++) {
        int p = b->empty[i];
        if (go_board_check(b, b->to_move, p) != GO_OK)
            continue;
        go_pattern_hashes(b, b->to_move, p, GO_PATTERN_SYMS, hashes + (size_t)n * GO_PATTERN_SYMS * GO_PATTERN_SIZES);
        n++;
    }
    return n;
}

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

float go_game_move_gamma(const go_game *g, int x, int y)
{
    const go_board *b = go_game_board(g);
    uint8_t marks[GO_MAX_POINTS];
    go_shape_init();
    go_two_liberty_marks(b, marks);
    return go_move_gamma(b, b->to_move, go_point(b, x, y), marks);
}

int go_game_value_planes(const go_game *g, float *out)
{
    return go_value_planes(go_game_board(g), out);
}

float go_game_value(const go_game *g, float *ownership)
{
    return go_value_eval(go_game_board(g), ownership);
}

float go_game_value_policy(const go_game *g, float *ownership, float *policy)
{
    return go_value_eval_policy(go_game_board(g), ownership, policy, 1.0f);
}
