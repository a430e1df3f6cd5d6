/* rollout.c - the xorshift64* generator and the shortest-path-guided random rollout: pawn
   steps onto squares of least path length, random "probable" walls. Path layers are cached
   per player and recomputed only after a wall. */
#include "quoridor.h"
#include "internal.h"

#define ROLL_PAWN_PERCENT 70
#define ROLL_WALL_TRIES 4

void qr_rng_seed(qr_rng *r, uint64_t seed)
{
    r->s = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
    if (!r->s)
        r->s = 1;
}

static uint64_t rng_next(qr_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dULL;
}

uint32_t qr_rng_below(qr_rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

/* The k-th lowest set bit of a non-empty 64-bit mask. */
static int mask_pick(uint64_t s, int k)
{
    for (; k > 0; k--)
        s &= s - 1;
    return __builtin_ctzll(s);
}

/* A random cell of a non-empty set. */
static int bb_pick(qr_bb a, qr_rng *r)
{
    int lo = __builtin_popcountll(a.w[0]), k = (int)qr_rng_below(r, (uint32_t)bb_count(a));
    return k < lo ? mask_pick(a.w[0], k) : 64 + mask_pick(a.w[1], k - lo);
}

typedef struct {
    qr_bb reach[2][QR_MAX_CELLS];
    int nlayers[2];
    int fresh[2];          /* reach[p] matches the walls of the board */
} roll_cache;

/* A destination of least path length for the side to move, -1 when the pawn cannot move. */
static int roll_pawn_step(const qr_board *b, roll_cache *c, qr_rng *r)
{
    int me = b->to_move;
    qr_bb dests = qr_pawn_dests(b);
    if (!bb_any(dests))
        return -1;
    if (!c->fresh[me]) {
        c->nlayers[me] = qr_path_layers(b, me, c->reach[me]);
        c->fresh[me] = 1;
    }
    for (int k = 0; k < c->nlayers[me]; k++) {
        qr_bb best = bb_and(c->reach[me][k], dests);
        if (bb_any(best))
            return bb_pick(best, r);
    }
    return bb_pick(dests, r);
}

uint64_t qr_rollout_probable(const qr_board *b, int vertical)
{
    const qr_geom *g = qr_geom_b(b);
    uint64_t c[3];
    qr_walls_contacts(b, vertical, 0, c);
    uint64_t near = g->near[b->pawn[0]] | g->near[b->pawn[1]] | c[0] | c[1] | c[2];
    return near & g->slots & ~qr_walls_forbidden(b, vertical);
}

/* A random legal probable wall, -1 when a few draws found none. */
static int roll_wall(const qr_board *b, qr_rng *r)
{
    uint64_t cand[2] = {qr_rollout_probable(b, 0), qr_rollout_probable(b, 1)};
    for (int t = 0; t < ROLL_WALL_TRIES; t++) {
        int nh = __builtin_popcountll(cand[0]), n = nh + __builtin_popcountll(cand[1]);
        if (n == 0)
            return -1;
        int k = (int)qr_rng_below(r, (uint32_t)n), v = k >= nh;
        int s = mask_pick(cand[v], v ? k - nh : k);
        if (!((qr_walls_risky(b, v) >> s) & 1) || qr_wall_keeps_paths(b, v, s))
            return (v ? QR_WALL_V : QR_WALL_H) + s;
        cand[v] &= ~(1ULL << s);
    }
    return -1;
}

static int roll_choose(const qr_board *b, roll_cache *c, qr_rng *r)
{
    int move = -1;
    if (b->walls_left[b->to_move] > 0 && qr_rng_below(r, 100) >= ROLL_PAWN_PERCENT)
        move = roll_wall(b, r);
    if (move < 0)
        move = roll_pawn_step(b, c, r);
    if (move < 0 && b->walls_left[b->to_move] > 0)
        move = roll_wall(b, r);
    return move;
}

int qr_rollout(qr_board *b, qr_rng *r, int max_plies)
{
    roll_cache c;
    qr_undo u;
    c.fresh[0] = c.fresh[1] = 0;
    for (int ply = 0; ply < max_plies; ply++) {
        int w = qr_board_winner(b);
        if (w >= 0)
            return w;
        int move = roll_choose(b, &c, r);
        if (move < 0)
            return -1;
        if (move >= QR_WALL_H)
            c.fresh[0] = c.fresh[1] = 0;
        qr_board_play(b, move, &u);
    }
    return qr_board_winner(b);
}

/* A random pawn step, -1 when the pawn cannot move. */
static int roll_random_step(const qr_board *b, qr_rng *r)
{
    qr_bb dests = qr_pawn_dests(b);
    return bb_any(dests) ? bb_pick(dests, r) : -1;
}

/* roll_choose with the shares of qr_rollout_mix. */
static int roll_choose_mix(const qr_board *b, roll_cache *c, qr_rng *r, int wall_percent,
                           int random_percent)
{
    int p = (int)qr_rng_below(r, 100), move = -1;
    if (p < wall_percent && b->walls_left[b->to_move] > 0)
        move = roll_wall(b, r);
    else if (p < wall_percent + random_percent)
        move = roll_random_step(b, r);
    if (move < 0)
        move = roll_pawn_step(b, c, r);
    if (move < 0 && b->walls_left[b->to_move] > 0)
        move = roll_wall(b, r);
    return move;
}

int qr_rollout_mix(qr_board *b, qr_rng *r, int max_plies, int wall_percent, int random_percent)
{
    roll_cache c;
    qr_undo u;
    c.fresh[0] = c.fresh[1] = 0;
    for (int ply = 0; ply < max_plies; ply++) {
        int w = qr_board_winner(b);
        if (w >= 0)
            return w;
        int move = roll_choose_mix(b, &c, r, wall_percent, random_percent);
        if (move < 0)
            return -1;
        if (move >= QR_WALL_H)
            c.fresh[0] = c.fresh[1] = 0;
        qr_board_play(b, move, &u);
    }
    return qr_board_winner(b);
}

int qr_rollout_move(const qr_board *b, qr_rng *r)
{
    roll_cache c;
    c.fresh[0] = c.fresh[1] = 0;
    return qr_board_winner(b) >= 0 ? -1 : roll_choose(b, &c, r);
}

long qr_bench_rollouts(int size, long rollouts, uint64_t seed)
{
    qr_board start, b;
    qr_rng r;
    long wins = 0;
    if (qr_board_init(&start, size, -1, 1) != QR_OK)
        return -1;
    qr_rng_seed(&r, seed);
    for (long i = 0; i < rollouts; i++) {
        b = start;
        wins += qr_rollout(&b, &r, 1000) == 0;
    }
    return wins;
}
