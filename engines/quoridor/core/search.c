/* search.c - iterative-deepening alpha-beta (negamax with PVS) over a copy of the caller's
   board, with a transposition table, path-impact move ordering and a node / time budget.

   Evaluation, side to move's view, in hundredths of a step:
       EVAL_STEP * (opponent's path - own path) + EVAL_WALL * (own walls - opponent's walls)
       + EVAL_TEMPO
   Path lengths ignore pawns (qr_board_path_length). The tempo term is half a step: in a race
   of equal paths the side to move arrives first.

   Moves at a node, in order: the table's move; pawn steps that shorten the own path; walls,
   most path impact first, where impact = (opponent's path gained) - (own path gained); the
   other pawn moves. Only walls that touch a square of one of the opponent's shortest paths
   and lengthen that path are generated (at most SEARCH_WALLS per node), so the branching
   factor stays near 10-30 instead of about 130. Path lengths travel down the tree with the
   moves: a leaf costs no BFS; an interior node costs one distance-layer BFS for each side
   plus two BFS per candidate wall. */
#include "quoridor.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define EVAL_STEP 100
#define EVAL_WALL 70             /* 40 -> 70: 8/12 at 0.5 s a move, bench/README.md */
#define EVAL_TEMPO 50
#define SEARCH_WALLS 24             /* walls tried per node, best impact first */
#define SEARCH_GEN (QR_MAX_PAWN_MOVES + 2 * QR_MAX_SLOTS)
#define SEARCH_BLOCK_THREATS 3     /* the opponent's best walls a block is measured against */
#define SEARCH_CLOCK_EVERY 512      /* nodes between two looks at the clock */
#define SEARCH_INF (QR_SCORE_WIN + 1)
#define SEARCH_MATE (QR_SCORE_WIN - QR_SEARCH_MAX_DEPTH)

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t move;
    int8_t depth;
    uint8_t bound;
} tt_entry;

struct qr_search {
    tt_entry *tt;
    uint64_t tt_mask;
    qr_board b;            /* the run's own copy */
    long nodes, node_limit;
    double deadline;       /* < 0: none */
    int iteration, aborted;
    uint64_t line[QR_SEARCH_MAX_DEPTH + 1];   /* hash at each ply of the current line */
    uint64_t history[QR_SEARCH_HISTORY];      /* earlier positions of the game */
    int nhistory;
    int pv[QR_SEARCH_MAX_DEPTH + 1][QR_SEARCH_MAX_DEPTH + 1];
    int pv_len[QR_SEARCH_MAX_DEPTH + 1];
    qr_gen_move lists[QR_SEARCH_MAX_DEPTH + 1][SEARCH_GEN];
    int root_scores[SEARCH_GEN];
};

double qr_search_clock(void)
{
    return plat_now_seconds(); /* the host's clock in a wasm build (core_platform.h) */
}

/* ---- Life cycle ------------------------------------------------------------------------- */

qr_search *qr_search_new(int tt_megabytes)
{
    qr_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    uint64_t want = (uint64_t)(tt_megabytes < 0 ? 0 : tt_megabytes > 4096 ? 4096 : tt_megabytes)
                    << 20, n = 1024;
    while (2 * n * sizeof(tt_entry) <= want)
        n *= 2;
    s->tt = calloc(n, sizeof(tt_entry));
    if (!s->tt) {
        free(s);
        return NULL;
    }
    s->tt_mask = n - 1;
    return s;
}

void qr_search_free(qr_search *s)
{
    if (s)
        free(s->tt);
    free(s);
}

long qr_search_memory(const qr_search *s)
{
    return (long)(sizeof *s + (s->tt_mask + 1) * sizeof(tt_entry));
}

/* ---- Evaluation and budget -------------------------------------------------------------- */

static int search_eval(const qr_board *b, const int d[2])
{
    int me = b->to_move, opp = !me;
    return EVAL_STEP * (d[opp] - d[me]) + EVAL_WALL * (b->walls_left[me] - b->walls_left[opp]) +
           EVAL_TEMPO;
}

/* Has the budget run out? Never during the first iteration. */
static int search_stop(qr_search *s)
{
    if (s->aborted)
        return 1;
    if (s->iteration <= 1)
        return 0;
    if (s->node_limit > 0 && s->nodes >= s->node_limit)
        s->aborted = 1;
    else if (s->deadline >= 0 && s->nodes % SEARCH_CLOCK_EVERY == 0 && qr_search_clock() >= s->deadline)
        s->aborted = 1;
    return s->aborted;
}

/* ---- Transposition table ---------------------------------------------------------------- */

/* The board hash does not hold the size or the variant flag; the table key does. */
static uint64_t tt_key(const qr_board *b)
{
    return b->hash ^ ((uint64_t)(b->size * 2 + b->edge_diagonal) * 0x9e3779b97f4a7c15ULL);
}

/* Forced results are stored relative to the node, read back relative to the root. */
static int tt_to_store(int score, int ply)
{
    return score > SEARCH_MATE ? score + ply : score < -SEARCH_MATE ? score - ply : score;
}

static int tt_from_store(int score, int ply)
{
    return score > SEARCH_MATE ? score - ply : score < -SEARCH_MATE ? score + ply : score;
}

static void tt_save(qr_search *s, uint64_t key, int depth, int score, int bound, int move, int ply)
{
    tt_entry *e = &s->tt[key & s->tt_mask];
    if (e->key == key && e->depth > depth && bound != TT_EXACT)
        return;
    *e = (tt_entry){key, tt_to_store(score, ply), (int16_t)move, (int8_t)depth, (uint8_t)bound};
}

/* A score that settles the node from the table, or SEARCH_INF; *move gets the table's move. */
static int tt_probe(qr_search *s, uint64_t key, int depth, int alpha, int beta, int ply, int *move)
{
    const tt_entry *e = &s->tt[key & s->tt_mask];
    *move = -1;
    if (e->key != key || e->bound == 0)
        return SEARCH_INF;
    *move = e->move;
    if (e->depth < depth || ply == 0)
        return SEARCH_INF;
    int score = tt_from_store(e->score, ply);
    if (e->bound == TT_EXACT || (e->bound == TT_LOWER && score >= beta) ||
        (e->bound == TT_UPPER && score <= alpha))
        return score;
    return SEARCH_INF;
}

/* ---- Move generation -------------------------------------------------------------------- */

/* Distance to the goal of a cell from distance layers, or a large number off them. */
static int layers_dist(const qr_bb *reach, int nlayers, int cell)
{
    for (int k = 0; k < nlayers; k++)
        if (bb_test(reach[k], cell))
            return k;
    return 1000;
}

/* The squares on some shortest path of player (pawn to goal), from its goal layers, and the
   steps between them: steps[0] holds the cells whose north step lies on such a path, steps[1]
   those whose east step does. A wall lengthens the path only if it closes one of these steps,
   which spares the path search for every other wall. */
static qr_bb gen_path_cells(const qr_board *b, int player, const qr_bb *reach, int d, qr_bb steps[2])
{
    const qr_geom *g = qr_geom_b(b);
    qr_bb on = bb_cell(b->pawn[player]), path = on;
    steps[0] = steps[1] = (qr_bb){{0, 0}};
    for (int k = 0; k < d; k++) {
        qr_bb next = bb_and(qr_step(g, on, b->open_e, b->open_n), reach[d - k - 1]);
        steps[0] = bb_or(steps[0], bb_and(b->open_n, bb_or(bb_and(on, bb_shr(next, g->n)),
                                                           bb_and(next, bb_shr(on, g->n)))));
        steps[1] = bb_or(steps[1], bb_and(b->open_e, bb_or(bb_and(on, bb_shr(next, 1)),
                                                           bb_and(next, bb_shr(on, 1)))));
        path = bb_or(path, next);
        on = next;
    }
    return path;
}

void qr_search_gen_paths(const qr_board *b, const int d[2], qr_gen_paths *out)
{
    qr_bb reach[QR_MAX_CELLS];
    for (int p = 0; p < 2; p++) {
        out->d[p] = d[p];
        qr_path_layers(b, p, reach);
        out->cells[p] = gen_path_cells(b, p, reach, d[p], out->steps[p]);
    }
}

/* Player's path length once the wall (vertical, slot) is placed (open masks oe, on): searched
   only when the wall closes a step of its shortest paths. */
static int gen_path_after(const qr_board *b, qr_bb oe, qr_bb on, const qr_gen_paths *paths,
                          int vertical, int slot, int player)
{
    const qr_geom *g = qr_geom_b(b);
    if (!bb_any(bb_and(g->wall_cells[vertical][slot], paths->steps[player][vertical])))
        return paths->d[player];
    return qr_path_bfs(g, oe, on, b->pawn[player], g->goal[player]);
}

/* Slots whose wall touches a square of cells. */
static uint64_t gen_slots_touching(const qr_board *b, qr_bb cells)
{
    int n = b->size, m = n - 1;
    uint64_t out = 0;
    while (bb_any(cells)) {
        int c = bb_lowest(cells), cx = c % n, cy = c / n;
        bb_flip(&cells, c);
        for (int y = cy - 1; y <= cy; y++)
            for (int x = cx - 1; x <= cx; x++)
                if (x >= 0 && y >= 0 && x < m && y < m)
                    out |= 1ULL << (y * m + x);
    }
    return out;
}

int qr_search_gen_pawns(const qr_board *b, const int d[2], qr_gen_move *list)
{
    qr_bb reach[QR_MAX_CELLS], dests = qr_pawn_dests(b);
    int me = b->to_move, k = 0, nl = qr_path_layers(b, me, reach);
    while (bb_any(dests)) {
        int c = bb_lowest(dests), dist = layers_dist(reach, nl, c);
        bb_flip(&dests, c);
        list[k] = (qr_gen_move){c, dist < d[me] ? (3 << 20) - dist : -dist, {d[0], d[1]}};
        list[k].d[me] = dist;
        k++;
    }
    return k;
}

/* The wall at slot as a move with both new path lengths; 0 when it is illegal (it blocks) or
   does not lengthen the opponent's path. */
static int gen_wall_try(const qr_board *b, const qr_gen_paths *paths, int vertical, int slot,
                        qr_gen_move *out)
{
    qr_bb oe, on;
    const int *d = paths->d;
    int me = b->to_move, opp = !me, nd[2];
    if (!bb_any(bb_and(qr_geom_b(b)->wall_cells[vertical][slot], paths->steps[opp][vertical])))
        return 0;
    qr_open_after_wall(b, vertical, slot, &oe, &on);
    nd[opp] = gen_path_after(b, oe, on, paths, vertical, slot, opp);
    if (nd[opp] <= d[opp])
        return 0;
    nd[me] = gen_path_after(b, oe, on, paths, vertical, slot, me);
    if (nd[me] < 0)
        return 0;
    int impact = (nd[opp] - d[opp]) - (nd[me] - d[me]);
    *out = (qr_gen_move){(vertical ? QR_WALL_V : QR_WALL_H) + slot, (1 << 20) + 64 * impact - nd[me],
                     {nd[0], nd[1]}};
    return 1;
}

static void gen_sort(qr_gen_move *list, int n);

int qr_search_gen_threats(const qr_board *b, const qr_gen_paths *paths, qr_gen_move *list,
                          qr_board *other)
{
    *other = *b;
    other->to_move = !b->to_move;   /* the generators read only the side and the walls in hand */
    return qr_search_gen_walls(other, paths, list, 2 * QR_MAX_SLOTS);
}

/* Do two walls (orientation, slot) of an m x m slot grid overlap or cross? */
static int walls_conflict(int v1, int s1, int v2, int s2, int m)
{
    if (s1 == s2)
        return 1;
    if (v1 != v2)
        return 0;
    int along = v1 ? m : 1;
    return (s1 == s2 + along || s2 == s1 + along) && (v1 || s1 / m == s2 / m);
}

/* The gain of the opponent's wall (tv, ts) against the side to move, on open masks oe, on
   where the paths are nd: the side to move's path lengthened less the opponent's, 0 when the
   wall is illegal there or gains nothing. */
static int threat_gain(const qr_geom *g, const qr_board *b, qr_bb oe, qr_bb on, const int nd[2],
                       int tv, int ts)
{
    int me = b->to_move, opp = !me, td[2];
    if (tv)
        oe = bb_andn(oe, g->wall_cells[1][ts]);
    else
        on = bb_andn(on, g->wall_cells[0][ts]);
    for (int p = 0; p < 2; p++)
        if ((td[p] = qr_path_bfs(g, oe, on, b->pawn[p], g->goal[p])) < 0)
            return 0;
    int gain = (td[me] - nd[me]) - (td[opp] - nd[opp]);
    return gain > 0 ? gain : 0;
}

int qr_search_gen_blocks(const qr_board *b, const qr_gen_paths *paths, const qr_gen_move *threats,
                         int nthreats, qr_gen_move *list, int limit)
{
    const qr_geom *g = qr_geom_b(b);
    const int *d = paths->d;
    int me = b->to_move, opp = !me, m = b->size - 1, k = 0, best = 0;
    int tv[SEARCH_BLOCK_THREATS], ts[SEARCH_BLOCK_THREATS];
    if (nthreats > SEARCH_BLOCK_THREATS)
        nthreats = SEARCH_BLOCK_THREATS;
    if (b->walls_left[me] <= 0)
        return 0;
    for (int t = 0; t < nthreats; t++) {
        if (!qr_wall_decode(b, threats[t].move, &tv[t], &ts[t]))
            return 0;
        int gain = (threats[t].d[me] - d[me]) - (threats[t].d[opp] - d[opp]);
        best = gain > best ? gain : best;
    }
    if (best < 1)
        return 0;
    for (int v = 0; v < 2; v++) {
        for (uint64_t free = g->slots & ~qr_walls_forbidden(b, v); free; free &= free - 1) {
            int slot = __builtin_ctzll(free), nd[2];
            qr_bb oe, on;
            qr_open_after_wall(b, v, slot, &oe, &on);
            nd[me] = gen_path_after(b, oe, on, paths, v, slot, me);
            if (nd[me] < 0 || nd[me] > d[me])
                continue;
            nd[opp] = gen_path_after(b, oe, on, paths, v, slot, opp);
            if (nd[opp] < 0)
                continue;
            int left = 0;
            for (int t = 0; t < nthreats && left < best; t++)
                if (!walls_conflict(v, slot, tv[t], ts[t], m)) {
                    int gain = threat_gain(g, b, oe, on, nd, tv[t], ts[t]);
                    left = gain > left ? gain : left;
                }
            if (left < best)
                list[k++] = (qr_gen_move){(v ? QR_WALL_V : QR_WALL_H) + slot,
                                          64 * (best - left) + (nd[opp] - d[opp]), {nd[0], nd[1]}};
        }
    }
    gen_sort(list, k);
    return k < limit ? k : limit;
}

static int gen_order_cmp(const void *a, const void *b)
{
    const qr_gen_move *x = a, *y = b;
    return (y->order > x->order) - (y->order < x->order);
}

/* Best first, ties in generation order: a stable merge sort of our own, since qsort's order of
   equal elements is the libc's (glibc's is stable, wasi-libc's is not), and the search must
   choose the same moves in every build. */
static void gen_sort(qr_gen_move *list, int n)
{
    qr_gen_move tmp[SEARCH_GEN];
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n - width; lo += 2 * width) {
            int mid = lo + width, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = 0;
            while (i < mid && j < hi)
                tmp[k++] = gen_order_cmp(&list[j], &list[i]) < 0 ? list[j++] : list[i++];
            while (i < mid)
                tmp[k++] = list[i++];
            memcpy(&list[lo], tmp, (size_t)k * sizeof *list);
        }
    }
}

int qr_search_gen_walls(const qr_board *b, const qr_gen_paths *paths, qr_gen_move *list, int limit)
{
    int k = 0;
    if (b->walls_left[b->to_move] <= 0)
        return 0;
    uint64_t near = gen_slots_touching(b, paths->cells[!b->to_move]);
    for (int v = 0; v < 2; v++)
        for (uint64_t free = near & ~qr_walls_forbidden(b, v); free; free &= free - 1)
            k += gen_wall_try(b, paths, v, __builtin_ctzll(free), &list[k]);
    gen_sort(list, k);
    return k < limit ? k : limit;
}

/* The moves of a node, best first: table move, path steps, walls, other pawn moves. */
static int gen_moves(const qr_board *b, const int d[2], int tt_move, qr_gen_move *list)
{
    qr_gen_paths paths;
    int k = qr_search_gen_pawns(b, d, list);
    if (b->walls_left[b->to_move] > 0) {
        qr_search_gen_paths(b, d, &paths);
        k += qr_search_gen_walls(b, &paths, list + k, SEARCH_WALLS);
    }
    for (int i = 0; i < k; i++)
        if (list[i].move == tt_move)
            list[i].order = 4 << 20;
    gen_sort(list, k);
    return k;
}

/* ---- Negamax ---------------------------------------------------------------------------- */

static void pv_set(qr_search *s, int ply, int move)
{
    s->pv[ply][0] = move;
    int n = ply + 1 <= QR_SEARCH_MAX_DEPTH ? s->pv_len[ply + 1] : 0;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)n * sizeof(int));
    s->pv_len[ply] = n + 1;
}

static int search_node(qr_search *s, int depth, int ply, int alpha, int beta, const int d[2]);

/* Score of one move for the side to move: PVS (null window after the first move). */
static int search_child(qr_search *s, const qr_gen_move *m, int depth, int ply, int alpha, int beta,
                        int first)
{
    qr_undo u;
    int score;
    qr_board_play(&s->b, m->move, &u);
    if (first) {
        score = -search_node(s, depth - 1, ply + 1, -beta, -alpha, m->d);
    } else {
        score = -search_node(s, depth - 1, ply + 1, -alpha - 1, -alpha, m->d);
        if (score > alpha && score < beta && !s->aborted)
            score = -search_node(s, depth - 1, ply + 1, -beta, -alpha, m->d);
    }
    qr_board_undo(&s->b, &u);
    return score;
}

/* Search the moves of list; the best score, best move in *best_move. */
static int search_moves(qr_search *s, qr_gen_move *list, int n, int depth, int ply, int alpha,
                        int beta, int *best_move)
{
    int best = -SEARCH_INF;
    for (int i = 0; i < n && !s->aborted; i++) {
        int score = search_child(s, &list[i], depth, ply, alpha, beta, i == 0);
        if (s->aborted)
            break;
        if (ply == 0)
            s->root_scores[i] = score;
        if (score > best) {
            best = score;
            *best_move = list[i].move;
        }
        if (score > alpha) {
            alpha = score;
            pv_set(s, ply, list[i].move);
        }
        if (alpha >= beta)
            break;
    }
    return best;
}

/* Has the position at ply (not the root) been met before, on this line or in the game? The
   hash holds the side to move, so only every other ply can match. */
static int search_repeated(qr_search *s, int ply)
{
    uint64_t h = s->b.hash;
    s->line[ply] = h;
    for (int k = ply - 2; k >= 0; k -= 2)
        if (s->line[k] == h)
            return 1;
    for (int k = (ply + 1) % 2; k < s->nhistory; k += 2)
        if (s->history[k] == h)
            return 1;
    return 0;
}

static int search_node(qr_search *s, int depth, int ply, int alpha, int beta, const int d[2])
{
    s->pv_len[ply] = 0;
    if (qr_board_winner(&s->b) >= 0)
        return -(QR_SCORE_WIN - ply);       /* the move that led here won */
    if (search_repeated(s, ply))
        return 0;                           /* a repetition: nobody gains by it */
    s->nodes++;
    if (search_stop(s))
        return 0;
    if (depth <= 0 || ply >= QR_SEARCH_MAX_DEPTH)
        return search_eval(&s->b, d);
    uint64_t key = tt_key(&s->b);
    int tt_move, hit = tt_probe(s, key, depth, alpha, beta, ply, &tt_move);
    if (hit != SEARCH_INF)
        return hit;
    qr_gen_move *list = s->lists[ply];
    int n = gen_moves(&s->b, d, tt_move, list), best_move = -1, alpha0 = alpha;
    if (n == 0)
        return 0;                           /* no move the search knows: call it even */
    int best = search_moves(s, list, n, depth, ply, alpha, beta, &best_move);
    if (s->aborted)
        return 0;
    int bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    tt_save(s, key, depth, best, bound, best_move, ply);
    return best;
}

/* ---- Runs ------------------------------------------------------------------------------- */

static void run_setup(qr_search *s, const qr_board *b, const qr_search_opts *o, double t0)
{
    s->b = *b;
    s->line[0] = b->hash;
    s->nhistory = o && o->history && o->nhistory > 0
                      ? (o->nhistory < QR_SEARCH_HISTORY ? o->nhistory : QR_SEARCH_HISTORY) : 0;
    for (int i = 0; i < s->nhistory; i++)
        s->history[i] = o->history[i];
    s->nodes = 0;
    s->aborted = 0;
    s->node_limit = o && o->nodes > 0 ? o->nodes : 0;
    s->deadline = o && o->seconds > 0 && t0 >= 0 ? t0 + o->seconds : -1.0;
    if (!s->node_limit && s->deadline < 0 && !(o && o->depth > 0))
        s->node_limit = QR_SEARCH_DEFAULT_NODES;
}

/* The root's moves sorted by this iteration's scores into r's candidates. */
static void run_candidates(qr_search *s, int n, qr_search_result *r)
{
    qr_gen_move *list = s->lists[0];
    for (int i = 0; i < n; i++)
        list[i].order = s->root_scores[i];
    gen_sort(list, n);
    r->ncandidates = n < QR_SEARCH_MAX_CANDIDATES ? n : QR_SEARCH_MAX_CANDIDATES;
    for (int i = 0; i < r->ncandidates; i++) {
        r->candidates[i] = list[i].move;
        r->candidate_scores[i] = list[i].order;
    }
}

/* A PV cut short by a table hit goes on with the table's moves (each checked legal). */
static void run_pv_extend(qr_search *s, qr_search_result *r)
{
    qr_board b = s->b;
    qr_undo u;
    for (int i = 0; i < r->pv_len; i++)
        qr_board_play(&b, r->pv[i], &u);
    while (r->pv_len < r->depth && qr_board_winner(&b) < 0) {
        const tt_entry *e = &s->tt[tt_key(&b) & s->tt_mask];
        if (e->key != tt_key(&b) || e->bound == 0 || e->move < 0 ||
            qr_board_check(&b, e->move) != QR_OK)
            break;
        r->pv[r->pv_len++] = e->move;
        qr_board_play(&b, e->move, &u);
    }
}

/* One iteration of the root; 0 when the budget ran out before it finished. */
static int run_iteration(qr_search *s, int depth, const int d[2], qr_search_result *r)
{
    qr_gen_move *list = s->lists[0];
    int n = gen_moves(&s->b, d, r->move, list), best_move = -1;
    int score = search_moves(s, list, n, depth, 0, -SEARCH_INF, SEARCH_INF, &best_move);
    if (s->aborted || best_move < 0)
        return 0;
    tt_save(s, tt_key(&s->b), depth, score, TT_EXACT, best_move, 0);
    r->move = best_move;
    r->score = score;
    r->depth = depth;
    r->pv_len = s->pv_len[0];
    memcpy(r->pv, s->pv[0], (size_t)r->pv_len * sizeof(int));
    run_pv_extend(s, r);
    run_candidates(s, n, r);
    return 1;
}

/* A root where the search's own generator finds nothing: the first legal move, if any. */
static void run_fallback(const qr_board *b, qr_search_result *r)
{
    int moves[QR_MAX_MOVES];
    if (r->move < 0 && qr_board_legal_moves(b, moves) > 0) {
        r->move = moves[0];
        r->pv[0] = moves[0];
        r->pv_len = 1;
    }
}

int qr_search_run(qr_search *s, const qr_board *b, const qr_search_opts *opts,
                  qr_search_result *r)
{
    double t0 = qr_search_clock();
    int d[2] = {qr_board_path_length(b, 0), qr_board_path_length(b, 1)};
    memset(r, 0, sizeof *r);
    r->move = -1;
    r->path[0] = d[0];
    r->path[1] = d[1];
    if (qr_board_winner(b) >= 0)
        return QR_ERR_GAME_OVER;
    run_setup(s, b, opts, t0);
    int max_depth = opts && opts->depth > 0 && opts->depth < QR_SEARCH_MAX_DEPTH
                        ? opts->depth : QR_SEARCH_MAX_DEPTH;
    for (int depth = 1; depth <= max_depth; depth++) {
        s->iteration = depth;
        if (!run_iteration(s, depth, d, r) || r->score > SEARCH_MATE || r->score < -SEARCH_MATE)
            break;
    }
    run_fallback(b, r);
    r->nodes = s->nodes;
    r->seconds = t0 >= 0 ? qr_search_clock() - t0 : 0.0;
    return QR_OK;
}

long qr_bench_search(int size, long nodes, qr_search_result *r)
{
    qr_board b;
    qr_search_result local;
    qr_search_opts o = {0.0, nodes, 0, NULL, 0};
    if (qr_board_init(&b, size, -1, 1) != QR_OK)
        return -1;
    qr_search *s = qr_search_new(16);
    if (!s)
        return -1;
    qr_search_run(s, &b, &o, r ? r : &local);
    long visited = (r ? r : &local)->nodes;
    qr_search_free(s);
    return visited;
}
