/* mcts.c - Monte Carlo tree search over a copy of the caller's board, in two styles.

   QR_MCTS_OWN: PUCT. A node is expanded on its first visit into the pawn moves, the walls
   of the alpha-beta's generator (those that lengthen one of the opponent's shortest paths,
   best 24) and, up to 3 plies below the root, the blocks (search.c): walls anywhere that leave
   the opponent's best wall against the side to move gaining less (crossed, overlapped, made
   illegal or made weaker) without lengthening its own path, the defensive walls the generator
   cannot see; and at the root and its children every other legal wall (the quiet walls: a trap
   of two walls set up or spoiled), with the least prior. Priors come from path impact (a
   block's from the gain it takes away; +64 Elo in self-play, bench/README.md). A kept tree's
   nodes keep the children they were expanded with; the new root and its children get the
   quiet walls they lack.
   The leaf is valued by value.c's learned chance of the side to move (paths, walls in hand
   and each side's best wall, which the leaf's expansion has just found), or, with
   QR_MCTS_LEAF_ROLLOUT, by one guided rollout.

   QR_MCTS_REFERENCE: the public quoridor-ai method as its description goes. UCT with
   exploration c (0.2): win rate + sqrt(c ln N / n), unvisited children first in random order.
   A leaf is expanded on its second visit into every pawn move and the legal "probable" walls
   (rollout.c's: touching a wall or a square next to a pawn); when the opponent has no walls
   left, only the steps of least path length and the walls that lengthen the opponent's path.
   A rollout (from a random new child) steps along a shortest path with probability 0.7, else
   places a random probable wall (0.15) or steps at random (0.15). The move is the most visited
   child, with the method's two move rules: the first move of each pawn goes straight ahead when
   that is a shortest step, and a pawn move that is no shortest step is replaced by one early in
   the game (ply < 6, pawn on the centre column) or when the win rate is below 0.1.

   The own style scores a line back to an earlier position (on the line, or in the game's
   history the options give) as a draw, so it does not shuffle when it is ahead.

   With opts->reuse (own style), a run whose board is the last run's root or one or two plies
   after it keeps that node's subtree: copied breadth first to the front of the array, its
   visits and values as they were (+143 Elo in self-play at 0.3 s a move, bench/README.md).

   With opts->threads > 1 (own style), that many threads share the tree: a visit is counted on
   the way down (a virtual loss until its value comes back, so the threads spread out), a node
   is expanded by the thread that claims it (child -1 while it does), and counts are updated
   atomically. One thread runs the same iterations, in the same order, as before threads.

   The tree is one array of nodes allocated by qr_mcts_new (its size is the memory bound);
   an expansion that does not fit leaves the node a leaf (r->tree_full). Win counts are stored
   for the player who moved into the node; draws (rollouts past their ply limit) count half. */
#include "quoridor.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MC_MAX_DEPTH 200            /* tree plies one iteration follows */
#define MC_ROLLOUT_PLIES 400
#define MC_OWN_WALLS 24
#define MC_OWN_BLOCKS 8             /* blocks a node gets, best first */
#define MC_OWN_BLOCK_DEPTH 3        /* nodes this many plies below the root or fewer get blocks */
#define MC_OWN_QUIET_DEPTH 1        /* ... and every other legal wall */
#define MC_OWN_QUIET_PRIOR 5
#define MC_OWN_C 1.5
#define MC_OWN_FPU 0.2              /* an unvisited child: the parent's value less this */
#define MC_REF_C 0.2
#define MC_REF_WALL_PERCENT 15
#define MC_REF_RANDOM_PERCENT 15
#define MC_OWN_ROLL_WALL_PERCENT 30
#define MC_CLOCK_EVERY 64
#define MC_MIN_NODES 1024
#define MC_MAX_THREADS 64

typedef struct {
    float wins;            /* for the player who moved into the node */
    int32_t visits;
    int32_t child;         /* the first child's index; 0 while not expanded, -1 while a
                              thread expands it */
    int16_t move;
    uint8_t nchildren;
    uint8_t prior;         /* own style: prior weight, 1..255 */
} mc_node;

struct qr_mcts {
    uint64_t history[QR_SEARCH_HISTORY];  /* earlier positions of the game, newest first */
    int nhistory;
    mc_node *nodes;
    long capacity, used;
    qr_rng rng;
    int style, leaf, full;
    double c;
    qr_board root;         /* the last run's root, for reuse; valid when has_root */
    int has_root;
};

/* One thread's part of a run: what an iteration needs besides the shared tree. */
typedef struct {
    qr_mcts *t;
    const qr_board *root;
    qr_rng rng;
    int shared;                     /* other threads use the tree: atomic updates */
    int leaf_known, leaf_d[2], leaf_gain, leaf_threat; /* own style: the last expansion's
                                             paths and the gains of each side's best wall
                                             (value.c's facts) */
    long limit, *done;              /* threads: the playout budget and the playouts claimed */
    double deadline;
    int *stop;
    long playouts;
    plat_thread thread;
} mc_worker;

/* ---- Counts that threads share ---------------------------------------------------------- */

static inline int32_t mc_visits(const mc_node *n) { return __atomic_load_n(&n->visits, __ATOMIC_RELAXED); }

static inline float mc_wins(const mc_node *n)
{
    float w;
    __atomic_load(&n->wins, &w, __ATOMIC_RELAXED);
    return w;
}

static inline void mc_add_visit(const mc_worker *w, mc_node *n)
{
    if (w->shared)
        __atomic_fetch_add(&n->visits, 1, __ATOMIC_RELAXED);
    else
        n->visits++;
}

static inline void mc_add_wins(const mc_worker *w, mc_node *n, float v)
{
    if (!w->shared) {
        n->wins += v;
        return;
    }
    float old, sum;
    __atomic_load(&n->wins, &old, __ATOMIC_RELAXED);
    do
        sum = old + v;
    while (!__atomic_compare_exchange(&n->wins, &old, &sum, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/* The node's first child once it is expanded, else 0 (or -1 while being expanded). */
static inline int32_t mc_child(const mc_node *n) { return __atomic_load_n(&n->child, __ATOMIC_ACQUIRE); }

/* ---- Life cycle ------------------------------------------------------------------------- */

qr_mcts *qr_mcts_new(int megabytes)
{
    qr_mcts *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    long mb = megabytes > 4096 ? 4096 : megabytes;
    t->capacity = mb < 1 ? MC_MIN_NODES : (long)(((uint64_t)mb << 20) / sizeof(mc_node));
    t->nodes = malloc((size_t)t->capacity * sizeof(mc_node));
    if (!t->nodes) {
        free(t);
        return NULL;
    }
    return t;
}

void qr_mcts_free(qr_mcts *t)
{
    if (t)
        free(t->nodes);
    free(t);
}

long qr_mcts_memory(const qr_mcts *t)
{
    return (long)(sizeof *t + (size_t)t->capacity * sizeof(mc_node));
}

/* ---- Expansion -------------------------------------------------------------------------- */

/* Room for n children: the first one's index, or 0 when the tree is full. */
static int32_t mc_alloc(qr_mcts *t, int n)
{
    long used = __atomic_load_n(&t->used, __ATOMIC_RELAXED);
    do {
        if (n <= 0 || used + n > t->capacity) {
            if (n > 0)
                __atomic_store_n(&t->full, 1, __ATOMIC_RELAXED);
            return 0;
        }
    } while (!__atomic_compare_exchange_n(&t->used, &used, used + n, 1, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    return (int32_t)used;
}

/* Is move among moves[0..n)? */
static int mc_has(const int *moves, int n, int move)
{
    for (int i = 0; i < n; i++)
        if (moves[i] == move)
            return 1;
    return 0;
}

/* Own style, near the root: the best MC_OWN_BLOCKS blocks of b's side to move (search.c)
   that are not among have[0..nhave), with priors as an impact wall's by the threat gain they
   take away. threats: the opponent's walls, best first (nt of them). */
static int own_blocks(const qr_board *b, const qr_gen_paths *paths, const qr_gen_move *threats,
                      int nt, const int *have, int nhave, int *moves, uint8_t *prior)
{
    qr_gen_move blocks[2 * QR_MAX_SLOTS];
    int nb = qr_search_gen_blocks(b, paths, threats, nt, blocks, MC_OWN_BLOCKS), k = 0;
    for (int i = 0; i < nb; i++) {
        if (mc_has(have, nhave, blocks[i].move))
            continue;
        int w = 30 + 30 * (blocks[i].order / 64);   /* an impact wall's, by the gain taken */
        moves[k] = blocks[i].move;
        prior[k++] = (uint8_t)(w > 255 ? 255 : w);
    }
    return k;
}

/* Own style, at the first plies: every other legal wall of the side to move (not among
   have[0..nhave)), with the least prior, so that the tree can find the quiet walls that
   neither lengthen a path nor take a single wall's gain away (a trap of two walls set up or
   spoiled). */
static int own_quiet(const qr_board *b, const int *have, int nhave, int *moves, uint8_t *prior)
{
    int legal[2 * QR_MAX_SLOTS], k = 0;
    int nl = b->walls_left[b->to_move] > 0 ? qr_board_legal_walls(b, legal) : 0;
    for (int i = 0; i < nl; i++)
        if (!mc_has(have, nhave, legal[i])) {
            moves[k] = legal[i];
            prior[k++] = MC_OWN_QUIET_PRIOR;
        }
    return k;
}

/* Own style: pawn moves (shortening steps weighted most), the impact walls, and within
   MC_OWN_BLOCK_DEPTH plies of the root the blocks. The leaf value reads both sides' best
   walls from here. */
static int own_children(mc_worker *w, const qr_board *b, int depth, int *moves, uint8_t *prior)
{
    qr_gen_move list[QR_MAX_PAWN_MOVES + 2 * QR_MAX_SLOTS], threats[2 * QR_MAX_SLOTS];
    qr_board other;
    int me = b->to_move, opp = !me;
    int d[2] = {qr_board_path_length(b, 0), qr_board_path_length(b, 1)};
    qr_gen_paths paths = {{0, 0}};      /* one set for every wall generator here (none */
    if (b->walls_left[0] > 0 || b->walls_left[1] > 0)     /* runs in a race without walls) */
        qr_search_gen_paths(b, d, &paths);
    int np = qr_search_gen_pawns(b, d, list);
    int n = np + qr_search_gen_walls(b, &paths, list + np, MC_OWN_WALLS);
    int nt = qr_search_gen_threats(b, &paths, threats, &other);
    w->leaf_known = 1;                  /* the lists are best first: their first walls are */
    w->leaf_d[0] = d[0];                /* each side's best */
    w->leaf_d[1] = d[1];
    w->leaf_gain = qr_value_gain_of(b, d, n > np ? &list[np] : NULL);
    w->leaf_threat = qr_value_gain_of(&other, d, nt ? &threats[0] : NULL);
    for (int i = 0; i < n; i++) {
        moves[i] = list[i].move;
        if (i < np) {
            prior[i] = list[i].d[me] < d[me] ? 200 : 20;
        } else {
            int impact = (list[i].d[opp] - d[opp]) - (list[i].d[me] - d[me]);
            int w = 30 + 30 * impact;
            prior[i] = (uint8_t)(w < 10 ? 10 : w > 255 ? 255 : w);
        }
    }
    if (depth <= MC_OWN_BLOCK_DEPTH)
        n += own_blocks(b, &paths, threats, nt, moves + np, n - np, moves + n, prior + n);
    if (depth <= MC_OWN_QUIET_DEPTH)
        n += own_quiet(b, moves + np, n - np, moves + n, prior + n);
    return n;
}

/* Reference style: the pawn moves (only the shortest steps when the opponent has no walls). */
static int ref_pawns(const qr_board *b, int *moves, int shortest_only)
{
    qr_gen_move list[QR_MAX_PAWN_MOVES];
    int d[2] = {qr_board_path_length(b, 0), qr_board_path_length(b, 1)};
    int n = qr_search_gen_pawns(b, d, list), best = 1 << 30, k = 0;
    for (int i = 0; i < n; i++)
        if (list[i].d[b->to_move] < best)
            best = list[i].d[b->to_move];
    for (int i = 0; i < n; i++)
        if (!shortest_only || list[i].d[b->to_move] == best)
            moves[k++] = list[i].move;
    return k;
}

/* Reference style: the legal probable walls, or the path-lengthening ones. */
static int ref_walls(const qr_board *b, int *moves, int lengthening_only)
{
    int k = 0;
    if (b->walls_left[b->to_move] <= 0)
        return 0;
    if (lengthening_only) {
        qr_gen_move list[2 * QR_MAX_SLOTS];
        qr_gen_paths paths;
        int d[2] = {qr_board_path_length(b, 0), qr_board_path_length(b, 1)};
        qr_search_gen_paths(b, d, &paths);
        int n = qr_search_gen_walls(b, &paths, list, 2 * QR_MAX_SLOTS);
        for (int i = 0; i < n; i++)
            moves[k++] = list[i].move;
        return k;
    }
    for (int v = 0; v < 2; v++) {
        uint64_t risky = qr_walls_risky(b, v);
        for (uint64_t m = qr_rollout_probable(b, v); m; m &= m - 1) {
            int s = __builtin_ctzll(m);
            if (!((risky >> s) & 1) || qr_wall_keeps_paths(b, v, s))
                moves[k++] = (v ? QR_WALL_V : QR_WALL_H) + s;
        }
    }
    return k;
}

static int ref_children(const qr_board *b, int *moves)
{
    int opp_walls = b->walls_left[!b->to_move] > 0;
    int n = ref_pawns(b, moves, !opp_walls);
    return n + ref_walls(b, moves + n, !opp_walls);
}

/* Give node its children; 0 when there are none or no room, or another thread has the node. */
static int mc_expand(mc_worker *w, int32_t node, const qr_board *b, int depth)
{
    qr_mcts *t = w->t;
    int moves[QR_MAX_MOVES];
    uint8_t prior[QR_MAX_MOVES];
    int32_t unexpanded = 0;
    w->leaf_known = 0;
    if (!__atomic_compare_exchange_n(&t->nodes[node].child, &unexpanded, -1, 0, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
        return 0;
    int n = t->style == QR_MCTS_REFERENCE ? ref_children(b, moves) : own_children(w, b, depth, moves, prior);
    int32_t first = mc_alloc(t, n);
    if (first)
        for (int i = 0; i < n; i++)
            t->nodes[first + i] = (mc_node){0.0f, 0, 0, (int16_t)moves[i], 0,
                                            t->style == QR_MCTS_REFERENCE ? 1 : prior[i]};
    t->nodes[node].nchildren = (uint8_t)(first ? n : 0);
    __atomic_store_n(&t->nodes[node].child, first, __ATOMIC_RELEASE);   /* 0: a leaf again */
    return first != 0;
}

/* ---- Selection -------------------------------------------------------------------------- */

/* Selection sees the parent's visits without the one this iteration already counted. */
static int32_t ref_select(mc_worker *w, const mc_node *p)
{
    qr_mcts *t = w->t;
    int fresh = 0;
    for (int i = 0; i < p->nchildren; i++)
        fresh += t->nodes[p->child + i].visits == 0;
    if (fresh) {
        int k = (int)qr_rng_below(&w->rng, (uint32_t)fresh);
        for (int i = 0;; i++)
            if (t->nodes[p->child + i].visits == 0 && k-- == 0)
                return p->child + i;
    }
    double lg = log((double)(p->visits - 1)), best = -1.0;
    int32_t pick = p->child;
    for (int i = 0; i < p->nchildren; i++) {
        const mc_node *c = &t->nodes[p->child + i];
        double u = c->wins / c->visits + sqrt(t->c * lg / c->visits);
        if (u > best) {
            best = u;
            pick = p->child + i;
        }
    }
    return pick;
}

static int32_t own_select(const qr_mcts *t, const mc_node *p, int32_t child)
{
    double best = -1e300;
    int nch = p->nchildren, sum = 0;    /* an integer sum: no chain of float additions */
    for (int i = 0; i < nch; i++)
        sum += t->nodes[child + i].prior;
    int32_t pv = mc_visits(p) - 1;
    double parent_q = pv > 0 ? 1.0 - mc_wins(p) / pv : 0.5;
    double fpu = parent_q - MC_OWN_FPU, scale = t->c * sqrt((double)pv + 1.0) / sum;
    int32_t pick = child;
    for (int i = 0; i < nch; i++) {
        const mc_node *c = &t->nodes[child + i];
        int32_t cv = mc_visits(c);
        double q = cv ? mc_wins(c) / cv : fpu;
        double u = q + scale * c->prior / (1.0 + cv);
        if (u > best) {
            best = u;
            pick = child + i;
        }
    }
    return pick;
}

/* ---- Leaves ----------------------------------------------------------------------------- */

/* The side to move's winning chance by the learned value (value.c). The facts come from the
   leaf's expansion when it just ran (its paths and best wall), else from the board. */
static double mc_value(const mc_worker *w, const qr_board *b, int expanded)
{
    int me = b->to_move, opp = !me, facts[QR_LEAF_FACTS];
    if (!expanded || !w->leaf_known) {
        qr_leaf_facts(b, facts);
        return qr_value_chance(facts);
    }
    facts[QR_FACT_PATH_ME] = w->leaf_d[me];
    facts[QR_FACT_PATH_OPP] = w->leaf_d[opp];
    facts[QR_FACT_WALLS_ME] = b->walls_left[me];
    facts[QR_FACT_WALLS_OPP] = b->walls_left[opp];
    facts[QR_FACT_GAIN_ME] = w->leaf_gain;
    facts[QR_FACT_GAIN_OPP] = w->leaf_threat;
    return qr_value_chance(facts);
}

/* Player 0's result from b: 1, 0, or 0.5 for a rollout that found no winner. */
static double mc_leaf(mc_worker *wk, const qr_board *b, int expanded)
{
    const qr_mcts *t = wk->t;
    int w = qr_board_winner(b);
    if (w >= 0)
        return w == 0;
    if (t->style == QR_MCTS_OWN && t->leaf == QR_MCTS_LEAF_VALUE) {
        double v = mc_value(wk, b, expanded);
        return b->to_move == 0 ? v : 1.0 - v;
    }
    qr_board copy = *b;
    int wall = t->style == QR_MCTS_REFERENCE ? MC_REF_WALL_PERCENT : MC_OWN_ROLL_WALL_PERCENT;
    int rnd = t->style == QR_MCTS_REFERENCE ? MC_REF_RANDOM_PERCENT : 0;
    w = qr_rollout_mix(&copy, &wk->rng, MC_ROLLOUT_PLIES, wall, rnd);
    return w < 0 ? 0.5 : w == 0;
}

/* ---- Iterations ------------------------------------------------------------------------- */

/* The value p0 (player 0's) onto the line's nodes, whose visits the descent counted. */
static void mc_backup(mc_worker *w, const int32_t *path, int len, int root_to_move, double p0)
{
    for (int k = 1; k < len; k++) {
        int mover = (k % 2) ? root_to_move : !root_to_move;
        mc_add_wins(w, &w->t->nodes[path[k]], (float)(mover == 0 ? p0 : 1.0 - p0));
    }
}

/* Is the position after len - 1 plies of the line (hashes[0] the root) one met before? */
static int mc_repeated(const qr_mcts *t, const uint64_t *hashes, int len)
{
    uint64_t h = hashes[len - 1];
    for (int k = len - 3; k >= 0; k -= 2)
        if (hashes[k] == h)
            return 1;
    for (int k = len % 2; k < t->nhistory; k += 2)      /* history[0]: one ply before the root */
        if (t->history[k] == h)
            return 1;
    return 0;
}

static void mc_iterate(mc_worker *w)
{
    qr_mcts *t = w->t;
    const qr_board *root = w->root;
    qr_board b = *root;
    qr_undo u;
    int32_t path[MC_MAX_DEPTH + 2], node = 0, child;
    uint64_t hashes[MC_MAX_DEPTH + 2];
    int len = 0;
    hashes[0] = b.hash;
    path[len++] = 0;
    mc_add_visit(w, &t->nodes[0]);
    while ((child = mc_child(&t->nodes[node])) > 0 && qr_board_winner(&b) < 0 &&
           len <= MC_MAX_DEPTH) {
        const mc_node *p = &t->nodes[node];
        node = t->style == QR_MCTS_REFERENCE ? ref_select(w, p) : own_select(t, p, child);
        mc_add_visit(w, &t->nodes[node]);        /* a virtual loss until the value comes back */
        qr_board_play(&b, t->nodes[node].move, &u);
        hashes[len] = b.hash;
        path[len++] = node;
        if (t->style == QR_MCTS_OWN && mc_repeated(t, hashes, len)) {
            mc_backup(w, path, len, root->to_move, 0.5);     /* a repetition: a draw */
            return;
        }
    }
    /* the reference style expands a leaf on its second visit (this one counted already) */
    int ready = t->style == QR_MCTS_OWN || node == 0 || t->nodes[node].visits > 1;
    int expanded = qr_board_winner(&b) < 0 && child == 0 && ready &&
                   len <= MC_MAX_DEPTH && mc_expand(w, node, &b, len - 1);
    if (expanded && t->style == QR_MCTS_REFERENCE) {
        const mc_node *p = &t->nodes[node];
        node = p->child + (int32_t)qr_rng_below(&w->rng, p->nchildren);
        mc_add_visit(w, &t->nodes[node]);
        qr_board_play(&b, t->nodes[node].move, &u);
        path[len++] = node;
    }
    mc_backup(w, path, len, root->to_move, mc_leaf(w, &b, expanded));
}

/* ---- Results ---------------------------------------------------------------------------- */

/* The most visited child of node (ties: the better win rate), -1 without visited children. */
static int32_t mc_best_child(const qr_mcts *t, int32_t node)
{
    const mc_node *p = &t->nodes[node];
    int32_t best = -1;
    for (int i = 0; i < p->nchildren; i++) {
        const mc_node *c = &t->nodes[p->child + i];
        if (c->visits == 0)
            continue;
        if (best < 0 || c->visits > t->nodes[best].visits ||
            (c->visits == t->nodes[best].visits &&
             c->wins / c->visits > t->nodes[best].wins / t->nodes[best].visits))
            best = p->child + i;
    }
    return best;
}

static void mc_candidates(const qr_mcts *t, qr_mcts_result *r)
{
    const mc_node *root = &t->nodes[0];
    int order[QR_MAX_MOVES], n = root->nchildren;
    for (int i = 0; i < n; i++)
        order[i] = root->child + i;
    for (int i = 1; i < n; i++)         /* insertion sort by visits, most first */
        for (int j = i; j > 0 && t->nodes[order[j]].visits > t->nodes[order[j - 1]].visits; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    r->ncandidates = 0;
    for (int i = 0; i < n && r->ncandidates < QR_SEARCH_MAX_CANDIDATES; i++) {
        const mc_node *c = &t->nodes[order[i]];
        if (c->visits == 0)
            break;
        r->candidates[r->ncandidates] = c->move;
        r->candidate_visits[r->ncandidates] = c->visits;
        r->candidate_winrates[r->ncandidates++] = c->wins / c->visits;
    }
}

static void mc_pv(const qr_mcts *t, qr_mcts_result *r)
{
    r->pv_len = 0;
    for (int32_t node = 0; r->pv_len < QR_SEARCH_MAX_DEPTH;) {
        node = mc_best_child(t, node);
        if (node < 0)
            break;
        r->pv[r->pv_len++] = t->nodes[node].move;
    }
}

/* The shortest steps of the side to move; one in the pawn's column first when there is one. */
static int ref_shortest_steps(const qr_board *b, int *moves)
{
    int n = ref_pawns(b, moves, 1), col = b->pawn[b->to_move] % b->size;
    for (int i = 0; i < n; i++)
        if (moves[i] % b->size == col) {
            int x = moves[0];
            moves[0] = moves[i];
            moves[i] = x;
        }
    return n;
}

/* The method's move rules around the search (see the top of the file). */
static int ref_opening_move(const qr_board *b)
{
    int moves[QR_MAX_PAWN_MOVES];
    if (b->ply >= 2 || ref_shortest_steps(b, moves) == 0)
        return -1;
    return moves[0] % b->size == b->pawn[b->to_move] % b->size ? moves[0] : -1;
}

static int ref_fix_move(qr_mcts *t, const qr_board *b, int move, double winrate)
{
    int moves[QR_MAX_PAWN_MOVES], n;
    int centre = b->pawn[b->to_move] % b->size == b->size / 2;
    if (move < 0 || move >= QR_WALL_H || !((b->ply < 6 && centre) || winrate < 0.1))
        return move;
    n = ref_shortest_steps(b, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == move)
            return move;
    return n ? moves[qr_rng_below(&t->rng, (uint32_t)n)] : move;
}

/* ---- Runs ------------------------------------------------------------------------------- */

static void mc_setup(qr_mcts *t, const qr_mcts_opts *o)
{
    t->style = o && o->style == QR_MCTS_REFERENCE ? QR_MCTS_REFERENCE : QR_MCTS_OWN;
    t->leaf = o && o->leaf == QR_MCTS_LEAF_ROLLOUT ? QR_MCTS_LEAF_ROLLOUT : QR_MCTS_LEAF_VALUE;
    t->c = o && o->exploration > 0 ? o->exploration
                                   : t->style == QR_MCTS_REFERENCE ? MC_REF_C : MC_OWN_C;
    qr_rng_seed(&t->rng, o ? o->seed : 0);
    t->nhistory = o && o->history && o->nhistory > 0
                      ? (o->nhistory < QR_SEARCH_HISTORY ? o->nhistory : QR_SEARCH_HISTORY) : 0;
    for (int i = 0; i < t->nhistory; i++)
        t->history[i] = o->history[i];
    t->full = 0;
}

/* ---- Reuse ------------------------------------------------------------------------------ */

/* The node of the last tree whose position is b, searched at most two plies below the last
   root; -1 when there is none. */
static int32_t mc_find(const qr_mcts *t, const qr_board *b)
{
    if (!t->has_root || t->root.size != b->size || t->root.edge_diagonal != b->edge_diagonal)
        return -1;
    if (t->root.hash == b->hash)
        return 0;
    const mc_node *r = &t->nodes[0];
    for (int i = 0; i < r->nchildren; i++) {
        int32_t c = r->child + i;
        qr_board x = t->root;
        qr_undo u;
        qr_board_play(&x, t->nodes[c].move, &u);
        if (x.hash == b->hash)
            return c;
        const mc_node *p = &t->nodes[c];
        for (int j = 0; j < p->nchildren; j++) {
            qr_board y = x;
            qr_board_play(&y, t->nodes[p->child + j].move, &u);
            if (y.hash == b->hash)
                return p->child + j;
        }
    }
    return -1;
}

/* Make node the root, its subtree copied breadth first to the front of the array (each node's
   children stay one block; blocks left behind by mc_add_quiet are dropped). 0 when there is no
   memory for the copy: start afresh. moved: mc_add_quiet moved a block (node 0 is copied then). */
static int mc_keep(qr_mcts *t, int32_t node, int moved)
{
    if (node == 0 && !moved)
        return 1;
    mc_node *copy = malloc((size_t)t->used * sizeof *copy);
    if (!copy)
        return 0;
    long head = 0, tail = 1;
    copy[0] = t->nodes[node];
    for (; head < tail; head++) {           /* a copied node's child is an old index until here */
        mc_node *p = &copy[head];
        if (!p->child)
            continue;
        memcpy(&copy[tail], &t->nodes[p->child], p->nchildren * sizeof *copy);
        p->child = (int32_t)tail;
        tail += p->nchildren;
    }
    memcpy(t->nodes, copy, (size_t)tail * sizeof *copy);
    free(copy);
    t->used = tail;
    return 1;
}

/* A node to be kept within MC_OWN_QUIET_DEPTH (1) plies of the new root was expanded deeper,
   without the quiet walls: its children move to a new block at the end with them appended
   (mc_keep then drops the old block). b: the node's position. 1 when it moved the block. */
static int mc_add_quiet(qr_mcts *t, int32_t node, const qr_board *b)
{
    int have[QR_MAX_MOVES], moves[QR_MAX_MOVES];
    uint8_t prior[QR_MAX_MOVES];
    mc_node *p = &t->nodes[node];
    int n = p->nchildren;
    if (p->child <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        have[i] = t->nodes[p->child + i].move;
    int k = own_quiet(b, have, n, moves, prior);
    int32_t first = k ? mc_alloc(t, n + k) : 0;
    if (!first)
        return 0;
    memcpy(&t->nodes[first], &t->nodes[p->child], (size_t)n * sizeof *t->nodes);
    for (int i = 0; i < k; i++)
        t->nodes[first + n + i] = (mc_node){0.0f, 0, 0, (int16_t)moves[i], 0, prior[i]};
    p->child = first;
    p->nchildren = (uint8_t)(n + k);
    return 1;
}

/* The root of this run: kept from the last tree when reuse finds b in it, else a new node. */
static void mc_root(qr_mcts *t, const qr_board *b, const qr_mcts_opts *o)
{
    int32_t node = o && o->reuse && t->style == QR_MCTS_OWN ? mc_find(t, b) : -1;
    int moved = 0;
    if (node >= 0) {                    /* the quiet walls first: mc_keep drops the old blocks */
        moved = mc_add_quiet(t, node, b);
        for (int i = 0; i < t->nodes[node].nchildren; i++) {
            qr_board x = *b;
            qr_undo u;
            qr_board_play(&x, t->nodes[t->nodes[node].child + i].move, &u);
            moved |= mc_add_quiet(t, t->nodes[node].child + i, &x);
        }
    }
    if (node < 0 || !mc_keep(t, node, moved)) {
        t->nodes[0] = (mc_node){0.0f, 0, 0, -1, 0, 1};
        t->used = 1;
    }
    t->nodes[0].wins = 0.0f;    /* a root's wins are never counted (own_select's first-play urgency) */
    t->root = *b;
    t->has_root = t->style == QR_MCTS_OWN;    /* only an own-style tree is kept */
}

static void mc_report(qr_mcts *t, qr_mcts_result *r, long playouts)
{
    int32_t best = mc_best_child(t, 0);
    r->playouts = playouts;
    r->nodes = t->used;
    r->tree_full = t->full;
    for (int i = 0; i < t->nodes[0].nchildren; i++)
        r->child_visits += t->nodes[t->nodes[0].child + i].visits;
    if (best >= 0) {
        r->move = t->nodes[best].move;
        r->winrate = t->nodes[best].wins / t->nodes[best].visits;
    }
    mc_candidates(t, r);
    mc_pv(t, r);
}

/* One thread's iterations until the budget or the deadline is reached, or another thread
   stopped the run. */
static void *mc_work(void *arg)
{
    mc_worker *w = arg;
    for (long i = 0;; i++) {
        if (w->shared && (__atomic_load_n(w->stop, __ATOMIC_RELAXED) ||
                          (w->limit && __atomic_fetch_add(w->done, 1, __ATOMIC_RELAXED) >= w->limit)))
            break;
        if (!w->shared && w->limit && i >= w->limit)
            break;
        if (w->deadline >= 0 && i % MC_CLOCK_EVERY == 0 && i && qr_search_clock() >= w->deadline)
            break;
        mc_iterate(w);
        w->playouts++;
    }
    if (w->shared)
        __atomic_store_n(w->stop, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* The run's iterations on opts->threads threads (own style; the calling thread is one of
   them, and a thread that cannot start leaves its share to the others). Returns them all, and
   in *ran the threads that searched. */
static long mc_run_threads(qr_mcts *t, const qr_board *b, const qr_mcts_opts *o, long limit,
                           double deadline, int *ran)
{
    int k = o && o->threads > 1 && t->style == QR_MCTS_OWN ? o->threads : 1;
    k = k < MC_MAX_THREADS ? k : MC_MAX_THREADS;
    mc_worker w[MC_MAX_THREADS];
    int started[MC_MAX_THREADS] = {0}, stop = 0;
    long done = 0, total = 0;
    for (int i = 0; i < k; i++) {
        w[i] = (mc_worker){.t = t, .root = b, .shared = k > 1, .limit = limit, .done = &done,
                           .deadline = deadline, .stop = &stop};
        if (i == 0)
            w[i].rng = t->rng;      /* one thread: the run's own stream, as ever */
        else
            qr_rng_seed(&w[i].rng, (o->seed + 1) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)i);
    }
    /* The root is expanded before the other threads start. A thread that found it still being
       expanded spent its iterations on the bare root; with the expanding thread descheduled
       (a loaded machine) the whole budget could go there, and the move then fell back to the
       first legal one. */
    if (k > 1 && mc_child(&t->nodes[0]) == 0) {
        done = 1;
        mc_iterate(&w[0]);
        w[0].playouts++;
    }
    for (int i = 1; i < k; i++)
        started[i] = plat_thread_start(&w[i].thread, mc_work, &w[i]) == 0;
    mc_work(&w[0]);
    *ran = 1;
    for (int i = 0; i < k; i++) {
        if (started[i])
            plat_thread_join(w[i].thread);
        total += w[i].playouts;
        *ran += started[i];
    }
    t->rng = w[0].rng;
    return total;
}

int qr_mcts_run(qr_mcts *t, const qr_board *b, const qr_mcts_opts *opts, qr_mcts_result *r)
{
    double t0 = qr_search_clock();
    memset(r, 0, sizeof *r);
    r->move = -1;
    r->path[0] = qr_board_path_length(b, 0);
    r->path[1] = qr_board_path_length(b, 1);
    if (qr_board_winner(b) >= 0)
        return QR_ERR_GAME_OVER;
    mc_setup(t, opts);
    mc_root(t, b, opts);
    long limit = opts && opts->playouts > 0 ? opts->playouts : 0;
    double deadline = opts && opts->seconds > 0 && t0 >= 0 ? t0 + opts->seconds : -1.0;
    if (!limit && deadline < 0)
        limit = QR_MCTS_DEFAULT_PLAYOUTS;
    int forced = t->style == QR_MCTS_REFERENCE ? ref_opening_move(b) : -1;
    int ran = 1;
    long n = forced < 0 ? mc_run_threads(t, b, opts, limit, deadline, &ran) : 0;
    mc_report(t, r, n);
    r->threads = ran;
    if (forced >= 0) {
        r->move = forced;
        r->winrate = 0.5;       /* played without a search: no estimate */
        r->pv[0] = forced;
        r->pv_len = 1;
    } else if (t->style == QR_MCTS_REFERENCE) {
        r->move = ref_fix_move(t, b, r->move, r->winrate);
    }
    if (r->move < 0) {
        int moves[QR_MAX_MOVES];
        if (qr_board_legal_moves(b, moves) > 0)
            r->move = moves[0];
    }
    r->seconds = t0 >= 0 ? qr_search_clock() - t0 : 0.0;
    return QR_OK;
}

long qr_mcts_check_tree(const qr_mcts *t)
{
    if (t->used < 1 || t->used > t->capacity)
        return -1;
    long head = 0, tail = 1;
    int32_t *queue = malloc((size_t)t->used * sizeof *queue);
    if (!queue)
        return -1;
    queue[0] = 0;
    for (; head < tail; head++) {
        const mc_node *p = &t->nodes[queue[head]];
        long sum = 0;
        if (p->wins < -0.001f || p->wins > p->visits + 0.001f || p->child < 0 ||
            (p->child == 0) != (p->nchildren == 0) || p->child + (long)p->nchildren > t->used ||
            tail + p->nchildren > t->used)
            break;
        for (int i = 0; i < p->nchildren; i++) {
            sum += t->nodes[p->child + i].visits;
            queue[tail++] = p->child + i;
        }
        if (sum > p->visits)
            break;
    }
    free(queue);
    return head == tail && tail == t->used ? tail : -1;
}

long qr_bench_mcts(int size, long playouts, int style, qr_mcts_result *r)
{
    qr_board b;
    qr_mcts_result local;
    qr_mcts_opts o = {0.0, playouts, style, QR_MCTS_LEAF_VALUE, 0.0, 1, NULL, 0, 0, 1};
    if (qr_board_init(&b, size, -1, 1) != QR_OK)
        return -1;
    b.ply = 2;                  /* past the reference style's opening rule: really search */
    qr_mcts *t = qr_mcts_new(64);
    if (!t)
        return -1;
    qr_mcts_run(t, &b, &o, r ? r : &local);
    long done = (r ? r : &local)->playouts;
    qr_mcts_free(t);
    return done;
}
