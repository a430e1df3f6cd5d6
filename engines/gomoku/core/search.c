/* search.c - gm_search: a VCF proof search at the root, then iterative-deepening PVS with a
 * transposition table, killer and history moves, forced replies to fours, and a static
 * evaluation of five-point windows kept incrementally.
 *
 * The search works on its own copy of the caller's board (gm_board_make/unmake, no legality
 * check: renju black's forbidden points are tested before a black move is made), with the
 * line-pattern codes of patterns.c updated by each stone: the candidates (empty cells with a
 * stone within two points), the fives and the possible fours come from its sets, never from a
 * scan of the board. Scores are from the side to move's view; a win whose five is placed at
 * ply p scores GM_WIN_SCORE - p. */
#include "gomoku.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define WIN GM_WIN_SCORE
#define WIN_BOUND (WIN - 1000)
#define INF (WIN + 1)
#define EVAL_MAX 20000           /* static scores stay clear of wins (and fit the table) */
#define MAX_PLY GM_PV_MAX
#define WIDTH 24                 /* moves tried at an inner node, best ordered first */
#define ROOT_WIDTH 48
#define VCF_TABLE_BITS 16
#define VCF_DEFAULT_PLIES 31
#define VCF_MAX_NODES 500000L
#define LEAF_VCF_PLIES 5         /* a quiet leaf's own VCF: four, block, four, block, five */

enum { TT_NONE = 0, TT_EXACT, TT_LOWER, TT_UPPER };

typedef struct {
    uint64_t key;
    int16_t score;
    int8_t depth;
    uint8_t flag;
    uint16_t move;
} tt_entry;

#define ML_BLOCK 8                /* pick_best's blocks of moves */
typedef struct {
    int n;
    uint16_t cell[GM_MAX_CELLS];
    int score[GM_MAX_CELLS];
    int block_max[GM_MAX_CELLS / ML_BLOCK + 1];  /* the best score of each block (ml_blocks) */
} movelist;

/* What a node must know first: a five of its own, the opponent's fives to block. */
typedef struct {
    int my_win, nopp, opp_win;
} threats;

struct gm_search {
    tt_entry *tt;
    size_t tt_mask;
    int tt_mb, tt_size, tt_rule;
    int tt_fresh;                /* the table is as calloc left it: nothing to clear */
    uint64_t *vcf_fail;          /* hash ^ plies of VCF searches that failed */
    gm_board b;
    gm_codes cd;                 /* the line-pattern codes of b (patterns.c) */
    int verify;                  /* tests: compare cd with a rebuild after every move */
    long checks, mismatches;
    gm_codes fresh;              /* verify mode's rebuild */
    long nodes, max_nodes;
    double deadline;
    int aborted, vcf_len, vcf_win;   /* the proof's PV length and plies to its five */
    int plain;                   /* gm_search_opts.plain: no table, killers or history */
    uint16_t killer[MAX_PLY][2];
    int history[GM_MAX_CELLS];
    uint16_t pv[MAX_PLY][MAX_PLY];
    int pv_len[MAX_PLY];
    uint16_t vcf_pv[MAX_PLY];
    int nroot, root_cell[GM_MAX_CELLS], root_score[GM_MAX_CELLS];
};

/* ---- life cycle ---------------------------------------------------------------------- */

gm_search *gm_search_new(int tt_megabytes)
{
    gm_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    int mb = tt_megabytes < 1 ? 1 : tt_megabytes > GM_TT_MAX_MB ? GM_TT_MAX_MB : tt_megabytes;
    size_t n = 1;
    while (n * 2 * sizeof(tt_entry) <= (size_t)mb << 20)
        n *= 2;
    s->tt = calloc(n, sizeof(tt_entry));
    s->tt_mask = n - 1;          /* gm_search_free needs the size */
    s->vcf_fail = calloc((size_t)1 << VCF_TABLE_BITS, sizeof(uint64_t));
    if (!s->tt || !s->vcf_fail) {
        gm_search_free(s);
        return NULL;
    }
    s->tt_mb = (int)((n * sizeof(tt_entry)) >> 20);
    s->tt_size = s->tt_rule = -1;
    s->tt_fresh = 1;
    gm_tables_init();
    gm_codes_tables_init();
    return s;
}

void gm_search_free(gm_search *s)
{
    if (!s)
        return;
    free(s->tt);
    free(s->vcf_fail);
    free(s);
}

void gm_search_clear(gm_search *s)
{
    /* only the table: killers, history and the VCF memo are emptied by every search */
    memset(s->tt, 0, (s->tt_mask + 1) * sizeof(tt_entry));
    s->tt_fresh = 1;             /* the next search need not clear it again, */
    s->tt_size = s->tt_rule = -1;  /* and marks it used */
}

int gm_search_tt_megabytes(const gm_search *s)
{
    return s->tt_mb;
}

/* ---- the board copy and its codes ----------------------------------------------------- */

/* patterns.c keeps the line-pattern codes of s->b (keys, order scores, evaluation, five and
   three sets, candidates) in s->cd, changed only by the stones of srch_make/unmake. */
static void srch_verify(gm_search *s, int flags_only)
{
    gm_codes_rebuild(&s->fresh, &s->b);
    s->checks++;
    s->mismatches += !(flags_only ? gm_codes_flags_equal(&s->fresh, &s->cd)
                                  : gm_codes_equal(&s->fresh, &s->cd));
}

static int win_at(const gm_board *b, int color, int cell);

/* A five needs a window of four (the five set) and win_at under the rule; the draws of a full
   board or of renju black without a legal move are not judged: a node with no move left
   scores 0 anyway. */
static int makes_five(const gm_search *s, int cell)
{
    int me = s->b.to_move;
    return gm_codes_has(&s->cd, GM_CODES_FIVE + me - 1, cell) && win_at(&s->b, me, cell);
}

static void srch_make(gm_search *s, int cell)
{
    int won = makes_five(s, cell);
    gm_codes_put(&s->cd, &s->b, cell, s->b.to_move);
    gm_board_make_won(&s->b, cell, won);
    if (s->verify)
        srch_verify(s, 0);
}

static void srch_unmake(gm_search *s, int cell)
{
    gm_board_unmake(&s->b);
    gm_codes_lift(&s->cd, &s->b, cell, s->b.to_move);   /* unmake gave back its colour */
    if (s->verify)
        srch_verify(s, 0);
}

/* The VCF's moves: only fours, blocks and fives, read from the flags, so only the flags are
   kept (verify mode compares them alone); a VCF gives back every move it makes before the
   search reads keys or the evaluation again. */
static void vcf_make(gm_search *s, int cell)
{
    int won = makes_five(s, cell);
    gm_codes_put_flags(&s->cd, &s->b, cell, s->b.to_move);
    gm_board_make_won(&s->b, cell, won);
    if (s->verify)
        srch_verify(s, 1);
}

static void vcf_unmake(gm_search *s, int cell)
{
    gm_board_unmake(&s->b);
    gm_codes_lift_flags(&s->cd, &s->b, cell);
    if (s->verify)
        srch_verify(s, 1);
}

/* The board and its codes built from the caller's board, stone by stone. */
static void srch_load(gm_search *s, const gm_board *b)
{
    gm_board_reset(&s->b, b->size, b->rule);
    gm_codes_rebuild(&s->cd, &s->b);
    for (int i = 0; i < b->nmoves; i++) {
        gm_codes_put(&s->cd, &s->b, b->moves[i], s->b.to_move);
        gm_board_make(&s->b, b->moves[i]);
    }
    gm_board_copy(&s->b, b);     /* the very bytes of the caller's board (result included) */
    if (s->verify)
        srch_verify(s, 0);
}

void gm_search_set_verify(gm_search *s, int on)
{
    s->verify = on;
}

long gm_search_mismatches(const gm_search *s, long *checks)
{
    *checks = s->checks;
    return s->mismatches;
}

/* Would a stone of color on the empty cell have three of its own in a clean window (so it
   may make a four)? */
static int may_make_four(const gm_search *s, int cell, int color)
{
    return gm_codes_has(&s->cd, GM_CODES_THREE + color - 1, cell);
}

/* Does a stone of color on the empty cell, which has a window of four (the five set), win? */
static int win_at(const gm_board *b, int color, int cell)
{
    if (gm_rules_overline_wins(b->rule, color))   /* a window of four then always wins */
        return 1;
    for (int d = 0; d < GM_NDIRS; d++) {
        int pos = gm_pos_of[d][cell];
        uint32_t own = gm_line_bits(b, color, d, cell) | 1u << pos;
        if (gm_rules_wins(b->rule, color, gm_rules_run(own, pos)))
            return 1;
    }
    return 0;
}

static int forbidden_for(gm_search *s, int cell)
{
    return s->b.rule == GM_RENJU && s->b.to_move == GM_BLACK
           && gm_rules_forbidden_cell(&s->b, cell) != GM_OK;
}

/* ---- budget ------------------------------------------------------------------------ */

static int budget_out(gm_search *s)
{
    if (s->aborted)
        return 1;
    if (s->max_nodes > 0 && s->nodes >= s->max_nodes)
        s->aborted = 1;
    else if (s->deadline > 0 && (s->nodes & 1023) == 0 && gm_clock_seconds() >= s->deadline)
        s->aborted = 1;
    return s->aborted;
}

/* ---- move generation ----------------------------------------------------------------- */

/* body for every cell of a set, in increasing cell order (a copy of each word is walked, so
   the body may make and unmake moves). */
#define SET_EACH(set, cell, body)                                                      \
    for (int w_ = 0; w_ < GM_SET_WORDS; w_++)                                          \
        for (uint64_t m_ = (set)[w_]; m_; m_ &= m_ - 1) {                              \
            int cell = w_ * 64 + __builtin_ctzll(m_);                                  \
            body                                                                       \
        }

/* The fives of both sides, from the five sets (a five needs a window of four, so only those
   cells are judged by win_at under the rule): the last one in cell order of each. */
static void threats_find(const gm_search *s, threats *t)
{
    const gm_board *b = &s->b;
    int me = b->to_move, opp = gm_other(me);
    t->my_win = t->opp_win = -1;
    t->nopp = 0;
    const uint64_t *lines = s->cd.lines[0];
    if (!(lines[0] | lines[1] | lines[2] | lines[3]))    /* most nodes: no window of four */
        return;
    uint64_t mine[GM_SET_WORDS], theirs[GM_SET_WORDS];
    gm_codes_cells(&s->cd, GM_CODES_FIVE + me - 1, mine);
    gm_codes_cells(&s->cd, GM_CODES_FIVE + opp - 1, theirs);
    SET_EACH(mine, c, {
        if (win_at(b, me, c))
            t->my_win = c;
    })
    SET_EACH(theirs, c, {
        if (win_at(b, opp, c)) {
            t->opp_win = c;
            t->nopp++;
        }
    })
}

/* The best score of block b of ML_BLOCK moves. */
static int block_best(const movelist *ml, int b)
{
    int end = (b + 1) * ML_BLOCK < ml->n ? (b + 1) * ML_BLOCK : ml->n, m = ml->score[b * ML_BLOCK];
    for (int j = b * ML_BLOCK + 1; j < end; j++)
        m = ml->score[j] > m ? ml->score[j] : m;
    return m;
}

/* Move i becomes the best of moves i.. (one step of a selection sort, done as the search
   needs the next move: most nodes cut off after one or two): the first of the best scores,
   found through the rest of i's block and then the maxima of the later blocks; the move it
   displaces takes the best one's place, and that block's maximum is recomputed. */
static void pick_best(movelist *ml, int i)
{
    int bi = i / ML_BLOCK, end = (bi + 1) * ML_BLOCK < ml->n ? (bi + 1) * ML_BLOCK : ml->n;
    int best = i, bv = ml->score[i], bb = -1;
    for (int j = i + 1; j < end; j++)
        if (ml->score[j] > bv) {
            bv = ml->score[j];
            best = j;
        }
    for (int b = bi + 1; b * ML_BLOCK < ml->n; b++)
        if (ml->block_max[b] > bv) {
            bv = ml->block_max[b];
            bb = b;
        }
    if (bb >= 0)
        for (best = bb * ML_BLOCK; ml->score[best] != bv; best++)
            ;
    int tc = ml->cell[i], ts = ml->score[i];
    ml->cell[i] = ml->cell[best];
    ml->score[i] = ml->score[best];
    ml->cell[best] = (uint16_t)tc;
    ml->score[best] = ts;
    if (bb >= 0)
        ml->block_max[bb] = block_best(ml, bb);
}

/* The move on cell, if it is one of the list (which is in cell order), gets the bonus. */
static void ml_bonus(movelist *ml, int cell, int bonus)
{
    int lo = 0, hi = ml->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (ml->cell[mid] < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < ml->n && ml->cell[lo] == cell) {
        ml->score[lo] += bonus;
        if (ml->score[lo] > ml->block_max[lo / ML_BLOCK])
            ml->block_max[lo / ML_BLOCK] = ml->score[lo];
    }
}

/* The candidate cells (empty, a stone within two points) in cell order (row by row), scored
   for the side to move by the line patterns' order score and the history, with each block's
   best score for pick_best; then the table's move gets the first bonus, the killers the
   second. */
static void gen_moves(const gm_search *s, movelist *ml, int tt_move, int ply)
{
    const gm_board *b = &s->b;
    int me = b->to_move, n = 0, top = 0;
    uint32_t cand[GM_MAX_SIZE];
    gm_codes_cand_rows(b, cand);
    for (int y = 0; y < b->size; y++)
        for (uint32_t m = cand[y]; m; m &= m - 1) {
            int c = gm_cell(__builtin_ctz(m), y);
            int v = gm_codes_order(&s->cd, c, me) + (s->plain ? 0 : s->history[c] >> 10);
            top = n % ML_BLOCK == 0 || v > top ? v : top;
            ml->block_max[n / ML_BLOCK] = top;
            ml->score[n] = v;
            ml->cell[n++] = (uint16_t)c;
        }
    ml->n = n;
    if (b->nmoves == 0) {
        ml->n = 1;
        ml->cell[0] = (uint16_t)gm_cell(b->size / 2, b->size / 2);
        ml->score[0] = ml->block_max[0] = 0;
    }
    if (tt_move >= 0)
        ml_bonus(ml, tt_move, 1 << 28);
    if (ply < MAX_PLY) {
        int k0 = s->killer[ply][0], k1 = s->killer[ply][1];
        if (k0 != tt_move)
            ml_bonus(ml, k0, 1 << 12);
        if (k1 != tt_move && k1 != k0)
            ml_bonus(ml, k1, 1 << 12);
    }
}

/* ---- transposition table -------------------------------------------------------------- */

static int tt_to(int score, int ply)
{
    return score > WIN_BOUND ? score + ply : score < -WIN_BOUND ? score - ply : score;
}

static int tt_from(int score, int ply)
{
    return score > WIN_BOUND ? score - ply : score < -WIN_BOUND ? score + ply : score;
}

static void tt_store(gm_search *s, int depth, int score, int flag, int move, int ply)
{
    if (s->plain)
        return;
    uint64_t key = gm_board_key(&s->b);
    tt_entry *e = &s->tt[key & s->tt_mask];
    if (e->key == key && e->depth > depth && flag != TT_EXACT)
        return;
    e->key = key;
    e->score = (int16_t)tt_to(score, ply);
    e->depth = (int8_t)depth;
    e->flag = (uint8_t)flag;
    e->move = (uint16_t)(move < 0 ? 0xffff : move);
}

/* A cutoff from the table (1, *score set), else 0 and *move the stored move (or -1). */
static int tt_probe(gm_search *s, int depth, int alpha, int beta, int ply, int *score, int *move)
{
    uint64_t key = gm_board_key(&s->b);
    tt_entry *e = &s->tt[key & s->tt_mask];
    *move = -1;
    if (s->plain || e->key != key || e->flag == TT_NONE)
        return 0;
    *move = e->move == 0xffff ? -1 : e->move;
    if (e->depth < depth || ply == 0)
        return 0;
    int v = tt_from(e->score, ply);
    if (e->flag == TT_EXACT || (e->flag == TT_LOWER && v >= beta)
        || (e->flag == TT_UPPER && v <= alpha)) {
        *score = v;
        return 1;
    }
    return 0;
}

/* ---- VCF: victory by continuous fours ------------------------------------------------- */

static int vcf_attack(gm_search *s, int plies, int ply);

/* The win points of color on line d through cell (pos p) that its five flags (the line's
   mask half, five) hold within four points of the cell, appended to cells[n..2); own is the
   line's stones of color with the cell's. Returns the new count. */
static int line_wins(const gm_board *b, int color, int cell, int d, int p, uint32_t five,
                     uint32_t own, int *cells, int n)
{
    uint32_t near = five & (p >= 4 ? 511u << (p - 4) : 511u >> (4 - p));
    for (; near && n < 2; near &= near - 1) {
        int q = __builtin_ctz(near);
        if (gm_rules_overline_wins(b->rule, color)
            || gm_rules_wins(b->rule, color, gm_rules_run(own | 1u << q, q)))
            cells[n++] = cell + (q - p) * gm_step[d];
    }
    return n;
}

/* The win points of color on the lines through cell (a stone just put there), at most two,
   in the order of the lines and along each. The attacker had no five before (vcf_attack
   returns first), so a win point is on a line through cell, where that line's five flags
   (patterns.c's masks) hold it: only those points within four of cell are judged. */
static int wins_around(const gm_search *s, int color, int cell, int *cells)
{
    const gm_board *b = &s->b;
    int n = 0;
    for (int d = 0; d < GM_NDIRS && n < 2; d++) {
        int l = gm_line_of[d][cell];
        n = line_wins(b, color, cell, d, gm_pos_of[d][cell],
                      (uint32_t)(s->cd.mask[d][l][0] >> (color == GM_WHITE ? 32 : 0)),
                      b->line[color - 1][d][l], cells, n);
    }
    return n;
}

/* wins_around for a stone of color not yet put on the empty cell: the same points, in the same
   order, from the lines' bits with the stone added (gm_line_masks gives the five flags the
   move's gm_codes_put would store). */
static int wins_if_put(const gm_search *s, int color, int cell, int *cells)
{
    const gm_board *b = &s->b;
    int n = 0;
    for (int d = 0; d < GM_NDIRS && n < 2; d++) {
        int l = gm_line_of[d][cell], p = gm_pos_of[d][cell];
        uint32_t bl = b->line[0][d][l], wh = b->line[1][d][l];
        uint64_t five, three;
        *(color == GM_BLACK ? &bl : &wh) |= 1u << p;       /* the four's stone */
        gm_line_masks(bl, wh, b->valid[d][l], &five, &three);
        n = line_wins(b, color, cell, d, p, (uint32_t)(five >> (color == GM_WHITE ? 32 : 0)),
                      color == GM_BLACK ? bl : wh, cells, n);
    }
    return n;
}

/* The memo slot of a VCF of `plies` from the position of key `position`. */
static uint64_t *vcf_slot(const gm_search *s, uint64_t position, int plies)
{
    uint64_t key = position ^ (uint64_t)plies;
    return &s->vcf_fail[key & (((uint64_t)1 << VCF_TABLE_BITS) - 1)];
}

static int vcf_mark(gm_search *s, int plies, int fail)
{
    uint64_t position = gm_board_key(&s->b), key = position ^ (uint64_t)plies;
    uint64_t *slot = vcf_slot(s, position, plies);
    if (fail)
        *slot = key;
    return *slot == key;
}

/* The attacker has just made a four at `four` (win points w[0..nw)); the defender answers. */
static int vcf_defend(gm_search *s, int plies, int ply, const int *w, int nw)
{
    if (nw >= 2 || (s->b.rule == GM_RENJU && s->b.to_move == GM_BLACK
                    && gm_rules_forbidden_cell(&s->b, w[0]) != GM_OK)) {
        /* two fives to block, or a block forbidden to black: any reply, then a five */
        s->vcf_pv[ply] = (uint16_t)w[0];
        s->vcf_pv[ply + 1] = (uint16_t)w[nw >= 2 ? 1 : 0];
        s->vcf_len = nw >= 2 ? ply + 2 : ply;     /* the PV stops before a forbidden block */
        s->vcf_win = ply + 2;
        return 1;
    }
    if (plies < 3)
        return 0;
    vcf_make(s, w[0]);
    int won = vcf_attack(s, plies - 1, ply + 1);
    vcf_unmake(s, w[0]);
    if (won)
        s->vcf_pv[ply] = (uint16_t)w[0];
    return won;
}

/* Verify mode: the win points read without the move are those of the move made. */
static void vcf_verify(gm_search *s, int cell, int nw, const int *w)
{
    int made[2];
    vcf_make(s, cell);
    int n = wins_around(s, s->b.cell[cell], cell, made);
    vcf_unmake(s, cell);
    s->checks++;
    s->mismatches += n != nw || (n > 0 && made[0] != w[0]) || (n > 1 && made[1] != w[1]);
}

/* One attacking four at cell: made, answered, searched on; 1 on a proven win. */
static int vcf_try(gm_search *s, int cell, int plies, int ply)
{
    int w[2], won = 0, me = s->b.to_move;
    if (forbidden_for(s, cell))  /* (the cell is one of the three set: it may make a four) */
        return 0;
    if (plies < 4 && !(s->b.rule == GM_RENJU && me == GM_WHITE)) {
        /* The block would be the last move (vcf_defend returns 0 below 3 plies): only a
           four with two win points wins, and that needs no move made. The exception is
           renju's white attacker, whose single win point may be forbidden to black's block,
           a test of the board with the four on it. */
        int nw = wins_if_put(s, me, cell, w);
        if (s->verify)
            vcf_verify(s, cell, nw, w);
        if (nw < 2)
            return 0;
        s->vcf_pv[ply] = (uint16_t)cell;
        s->vcf_pv[ply + 1] = (uint16_t)w[0];
        s->vcf_pv[ply + 2] = (uint16_t)w[1];
        s->vcf_len = s->vcf_win = ply + 3;
        return 1;
    }
    vcf_make(s, cell);
    int nw = wins_around(s, me, cell, w);
    if (nw > 0)
        won = vcf_defend(s, plies - 1, ply + 1, w, nw);
    vcf_unmake(s, cell);
    if (won)
        s->vcf_pv[ply] = (uint16_t)cell;
    return won;
}

/* Attacker to move with `plies` left (its five counts as one): only fours and fives. */
static int vcf_attack(gm_search *s, int plies, int ply)
{
    threats t;
    s->nodes++;
    if (budget_out(s) || plies < 1 || ply + 2 >= MAX_PLY)
        return 0;
    threats_find(s, &t);
    if (t.my_win >= 0) {
        s->vcf_pv[ply] = (uint16_t)t.my_win;
        s->vcf_len = s->vcf_win = ply + 1;
        return 1;
    }
    if (plies < 3 || t.nopp >= 2 || vcf_mark(s, plies, 0))
        return 0;
    uint64_t threes[GM_SET_WORDS];   /* the cells where a stone may make a four */
    gm_codes_cells(&s->cd, GM_CODES_THREE + s->b.to_move - 1, threes);
    SET_EACH(threes, c, {
        if ((t.nopp == 0 || c == t.opp_win) && vcf_try(s, c, plies, ply))
            return 1;
    })
    if (!s->aborted)
        vcf_mark(s, plies, 1);
    return 0;
}

/* The shortest VCF of the side to move up to max_plies (odd lengths), or 0. */
static int vcf_root(gm_search *s, int max_plies)
{
    memset(s->vcf_fail, 0, sizeof(uint64_t) << VCF_TABLE_BITS);
    for (int plies = 1; plies <= max_plies && !s->aborted; plies += 2)
        if (vcf_attack(s, plies, 0))
            return s->vcf_win;
    return 0;
}

/* ---- alpha-beta ------------------------------------------------------------------------ */

static int search_node(gm_search *s, int depth, int alpha, int beta, int ply);

static void pv_update(gm_search *s, int ply, int move)
{
    s->pv[ply][ply] = (uint16_t)move;
    int n = ply + 1 < MAX_PLY ? s->pv_len[ply + 1] : ply + 1;
    for (int i = ply + 1; i < n; i++)
        s->pv[ply][i] = s->pv[ply + 1][i];
    s->pv_len[ply] = n > ply + 1 ? n : ply + 1;
}

static void cutoff_learn(gm_search *s, int move, int depth, int ply)
{
    if (s->plain)
        return;
    if (ply < MAX_PLY && s->killer[ply][0] != move) {
        s->killer[ply][1] = s->killer[ply][0];
        s->killer[ply][0] = (uint16_t)move;
    }
    s->history[move] += depth * depth;
    if (s->history[move] > (1 << 20))
        for (int i = 0; i < GM_MAX_CELLS; i++)
            s->history[i] /= 2;
}

/* One child searched with PVS: the first with the full window, the others with a null one,
   first `reduce` plies shallower (a late move's reduction) and again at full depth when that
   beats alpha. */
static int search_child(gm_search *s, int cell, int depth, int alpha, int beta, int ply, int first,
                        int reduce)
{
    int me = s->b.to_move, v;
    if (!s->plain) {    /* the child will probe the table, or a leaf its VCF's: fetch it now */
        uint64_t child = s->b.hash ^ gm_zobrist[me][cell] ^ (me == GM_BLACK ? gm_zobrist_white : 0);
        if (depth > 0)
            __builtin_prefetch(&s->tt[child & s->tt_mask]);
        else
            __builtin_prefetch(vcf_slot(s, child, LEAF_VCF_PLIES));
    }
    srch_make(s, cell);
    if (s->b.result == me)
        v = WIN - ply - 1;
    else if (first)
        v = -search_node(s, depth, -beta, -alpha, ply + 1);
    else {
        v = reduce ? -search_node(s, depth - reduce, -alpha - 1, -alpha, ply + 1) : alpha + 1;
        if (v > alpha)
            v = -search_node(s, depth, -alpha - 1, -alpha, ply + 1);
        if (v > alpha && v < beta)
            v = -search_node(s, depth, -beta, -alpha, ply + 1);
    }
    srch_unmake(s, cell);
    return v;
}

/* The moves a node tries: only the block when the opponent has one five, else the best. */
static int node_moves(gm_search *s, movelist *ml, const threats *t, int tt_move, int ply)
{
    if (t->nopp == 1) {
        ml->n = 1;
        ml->cell[0] = (uint16_t)t->opp_win;
        return 1;
    }
    int width = ply == 0 ? ROOT_WIDTH : WIDTH;
    gen_moves(s, ml, tt_move, ply);
    return ml->n < width ? ml->n : width;
}

static void root_note(gm_search *s, int cell, int v)
{
    s->root_cell[s->nroot] = cell;
    s->root_score[s->nroot++] = v;
}

/* The static score of the side to move (what a quiet leaf returns). */
static int static_score(const gm_search *s)
{
    int e = (s->b.to_move == GM_BLACK ? s->cd.eval : -s->cd.eval) + 20;  /* + the move in hand */
    return e > EVAL_MAX ? EVAL_MAX : e < -EVAL_MAX ? -EVAL_MAX : e;
}

/* Futility at the frontier (the children are leaves): a move that cannot make a four leaves
   the opponent a quiet leaf, whose score is the static one after the move, known from the
   move's evaluation delta without making it; it is at most that (less if the opponent has a
   five). So a move whose score is already <= alpha is not made: the value is exact for the
   bound. Returns that score, or -INF when the move must be searched. */
static int frontier_score(const gm_search *s, int cell, int alpha)
{
    int me = s->b.to_move;
    if (may_make_four(s, cell, me))
        return -INF;
    int after = s->cd.eval + gm_codes_eval_delta(&s->cd, cell, me);    /* black's view */
    int e = (me == GM_BLACK ? -after : after) + 20;                       /* the leaf's */
    int v = -(e > EVAL_MAX ? EVAL_MAX : e < -EVAL_MAX ? -EVAL_MAX : e);
    return v <= alpha ? v : -INF;
}

/* A quiet leaf (no five for either side to make or block): a short VCF of the side to move
   is a win (a proof: its fours leave one reply each); else the static score. */
static int leaf_score(gm_search *s, int ply)
{
    if (!s->plain && ply + LEAF_VCF_PLIES + 2 < MAX_PLY
        && vcf_attack(s, LEAF_VCF_PLIES, 0))
        return WIN - ply - s->vcf_win;
    return static_score(s);
}

/* A quiet move: it makes no four and spoils none of the opponent's windows of three. */
static int quiet_move(const gm_search *s, int cell)
{
    return !gm_codes_has_any(&s->cd, GM_CODES_THREE, cell);
}

/* Move-count pruning: how many moves a shallow node tries before it skips the quiet ones
   (0: no limit). */
static int late_move_limit(const gm_search *s, int depth, int ply, const threats *t)
{
    return !s->plain && ply > 0 && t->nopp == 0 && depth <= 3 ? 4 + 3 * depth : 0;
}

/* Late-move reduction of the i-th move (children at `depth`): one ply for a quiet move from
   the fourth on, away from the root and the frontier; none in plain mode. */
static int late_reduction(const gm_search *s, int depth, int ply, int i, int cell)
{
    return !s->plain && ply > 0 && depth >= 2 && i >= 3 && quiet_move(s, cell)
           && (ply >= MAX_PLY || (cell != s->killer[ply][0] && cell != s->killer[ply][1]));
}

/* The move c, the i-th of its node, tried (the node's running state in *alpha, *best,
   *best_move and *searched); 1 when the node is done: a cutoff, or the budget ran out. */
static inline int try_move(gm_search *s, int c, int i, int depth, int *alpha, int beta, int ply,
                           int *best, int *best_move, int *searched, int frontier,
                           int late_limit)
{
    if (late_limit && i >= late_limit && *searched > 0 && quiet_move(s, c))
        return 0;
    if (forbidden_for(s, c))
        return 0;
    int fv = frontier ? frontier_score(s, c, *alpha) : -INF;
    if (fv > -INF) {
        ++*searched;
        if (fv > *best) {
            *best = fv;
            *best_move = c;
        }
        return 0;
    }
    int reduce = late_reduction(s, depth, ply, i, c);
    int v = search_child(s, c, depth, *alpha, beta, ply, (*searched)++ == 0, reduce);
    if (s->aborted)
        return 1;
    if (ply == 0)
        root_note(s, c, v);
    if (v > *best) {
        *best = v;
        *best_move = c;
    }
    if (v > *alpha) {
        *alpha = v;
        pv_update(s, ply, c);
    }
    if (v >= beta) {
        cutoff_learn(s, c, depth + 1, ply);
        return 1;
    }
    return 0;
}

/* A node's cells with a flag of three of either colour (the moves that are not quiet), read
   from the codes when first needed. */
typedef struct {
    int ready;
    uint64_t set[GM_SET_WORDS];
} flagged_cells;

static const uint64_t *flagged(const gm_search *s, flagged_cells *f)
{
    if (!f->ready)
        gm_codes_cells_either(&s->cd, GM_CODES_THREE, f->set);
    f->ready = 1;
    return f->set;
}

/* The list's score of the empty cell for the side to move, without bonuses (gen_moves). */
static int move_score(const gm_search *s, int cell)
{
    return gm_codes_order(&s->cd, cell, s->b.to_move) + (s->history[cell] >> 10);
}

/* The killers the list would try right after the table's move (its bonus puts that first),
   in that order, to try before the list is made: the empty candidates whose score with the
   killers' bonus beats every other move's. A move with no flag of either colour (no window
   of three or four through it) scores at most 4 x 5 x 50 (order_attack[2] a window) plus
   1,024 (history >> 10), below the bonus alone, so only the flagged moves are compared; ties
   are left to the list (its order decides them). Returns how many, 0 if a five flag exists. */
static int killers_first(const gm_search *s, int ply, int tt_move, flagged_cells *f,
                         int *staged)
{
    const gm_board *b = &s->b;
    const uint64_t *fives = s->cd.lines[0];
    if (fives[0] | fives[1] | fives[2] | fives[3])
        return 0;
    int k[2], v[2], nk = 0;
    for (int i = 0; i < 2; i++) {
        int c = s->killer[ply][i];
        if (c != tt_move && (i == 0 || c != s->killer[ply][0]) && gm_cell_x(c) < b->size
            && gm_cell_y(c) < b->size && b->cell[c] == GM_EMPTY
            && gm_codes_near_stone(b, c)) {
            k[nk] = c;
            v[nk++] = move_score(s, c) + (1 << 12);
        }
    }
    if (nk == 0)
        return 0;
    if (nk == 2 && v[1] > v[0]) {       /* the list's order: the higher score first */
        int t = k[0], tv = v[0];
        k[0] = k[1], v[0] = v[1], k[1] = t, v[1] = tv;
    }
    if (nk == 2 && v[1] == v[0])        /* a tie: the list's order decides it */
        return 0;
    const uint64_t *threes = s->cd.lines[1];
    if (threes[0] | threes[1] | threes[2] | threes[3]) {
        int top = -INF;
        SET_EACH(flagged(s, f), c, {
            if (c != tt_move && c != k[0] && (nk < 2 || c != k[1])) {
                int vc = move_score(s, c);
                top = vc > top ? vc : top;
            }
        })
        while (nk > 0 && v[nk - 1] <= top)
            nk--;
    }
    for (int i = 0; i < nk; i++)
        staged[i] = k[i];
    return nk;
}

/* The moves of the list that a node past its move-count limit still tries (those with a flag:
   not quiet) among the n - i best of moves i.. (the rest of the list's first n), best first,
   into cells: rather than picking every move only to skip the quiet ones, the flagged moves
   are ranked against the rest (ties by place in the list). Returns how many. */
static int late_flagged(const gm_search *s, const movelist *ml, int i, int n, flagged_cells *f,
                        int *cells)
{
    const uint64_t *set = flagged(s, f);
    int at[GM_MAX_CELLS], nf = 0;
    for (int j = i; j < ml->n; j++) {
        int c = ml->cell[j], higher = 0;
        if (!((set[c >> 6] >> (c & 63)) & 1))
            continue;
        for (int k = i; k < ml->n; k++)
            higher += ml->score[k] > ml->score[j];
        if (higher >= n - i)
            continue;
        int p = nf++;                      /* insertion by score, then place in the list */
        while (p > 0 && ml->score[at[p - 1]] < ml->score[j]) {
            at[p] = at[p - 1];
            p--;
        }
        at[p] = j;
    }
    nf = nf < n - i ? nf : n - i;          /* ties at the edge: the first in the list */
    for (int f = 0; f < nf; f++)
        cells[f] = ml->cell[at[f]];
    return nf;
}

/* Verify mode: the killers staged are the moves the list would try right after the table's
   move, and the late moves those it would still try, in order up to ties (checked where the
   n - i best are not cut through a tie). The list is made as the node would make it now. */
static void killers_verify(gm_search *s, int ply, int tt_move, const int *killers, int nk)
{
    movelist ml;
    gen_moves(s, &ml, tt_move, ply);
    for (int i = 0, k = 0; i < ml.n && k < nk; i++) {
        pick_best(&ml, i);
        if (ml.cell[i] == tt_move)
            continue;
        s->checks++;
        s->mismatches += ml.cell[i] != killers[k++];
    }
}

static int list_score(const movelist *ml, int cell)
{
    for (int j = 0; j < ml->n; j++)
        if (ml->cell[j] == cell)
            return ml->score[j];
    return -INF;
}

static void late_verify(gm_search *s, const movelist *list, int i, int n, const int *late,
                        int nlate)
{
    movelist ml = *list;
    int want[WIDTH], nwant = 0, above = 0, at_edge = 0;
    for (int j = i; j < n; j++) {
        pick_best(&ml, j);
        if (!quiet_move(s, ml.cell[j]))
            want[nwant++] = ml.cell[j];
    }
    int edge = ml.score[n - 1];                   /* the (n - i)-th best score */
    for (int j = i; j < ml.n; j++) {
        above += ml.score[j] > edge;
        at_edge += ml.score[j] == edge;
    }
    if (above + at_edge > n - i)                  /* a tie cut at the edge: either is right */
        return;
    s->checks++;
    int bad = nwant != nlate;
    for (int j = 0; j < nwant && !bad; j++) {     /* the same moves, scores in the same order */
        int found = -1;
        for (int k = 0; k < nlate; k++)
            found = late[k] == want[j] ? k : found;
        bad = found < 0 || list_score(&ml, late[j]) != list_score(&ml, want[j]);
    }
    s->mismatches += bad;
}

static inline int is_staged(int cell, const int *staged, int nstaged)
{
    return (nstaged > 0 && cell == staged[0]) || (nstaged > 1 && cell == staged[1])
           || (nstaged > 2 && cell == staged[2]);
}

/* A node's moves, best ordered first. Away from the root, the table's move and then the
   killers that the list would try next are tried before the list is made: most nodes cut
   off on one of them, and then need no list at all. The list still holds them (with their
   bonuses, so that its order is the same); they are skipped there. */
static int search_moves(gm_search *s, const threats *t, int tt_move, int depth, int alpha,
                        int beta, int ply, int *best_move, int frontier, int late_limit)
{
    movelist ml;
    flagged_cells f = {0};
    int best = -INF, searched = 0, staged[3], nstaged = 0;
    if (t->nopp == 0 && ply > 0 && !s->plain) {
        if (tt_move >= 0) {
            staged[nstaged++] = tt_move;
            if (try_move(s, tt_move, 0, depth, &alpha, beta, ply, &best, best_move, &searched,
                         frontier, late_limit))
                return best;
        }
        int nk = killers_first(s, ply, tt_move, &f, staged + nstaged);
        if (s->verify && nk > 0)
            killers_verify(s, ply, tt_move, staged + nstaged, nk);
        for (int j = nstaged; j < nstaged + nk; j++)
            if (try_move(s, staged[j], j, depth, &alpha, beta, ply, &best, best_move,
                         &searched, frontier, late_limit))
                return best;
        nstaged += nk;
    }
    int n = node_moves(s, &ml, t, tt_move, ply), late[WIDTH], nlate = 0;
    for (int i = 0; i < n; i++) {
        if (late_limit && i >= late_limit && searched > 0) {   /* the quiet moves are over */
            nlate = late_flagged(s, &ml, i, n, &f, late);
            if (s->verify)
                late_verify(s, &ml, i, n, late, nlate);
            for (int j = 0; j < nlate; j++)
                if (!is_staged(late[j], staged, nstaged)
                    && try_move(s, late[j], i + j, depth, &alpha, beta, ply, &best, best_move,
                                &searched, frontier, late_limit))
                    break;
            break;
        }
        pick_best(&ml, i);
        int c = ml.cell[i];
        if (!is_staged(c, staged, nstaged)
            && try_move(s, c, i, depth, &alpha, beta, ply, &best, best_move, &searched,
                        frontier, late_limit))
            break;
    }
    return searched ? best : 0;   /* no legal move near the stones: a draw-like zero */
}

static int search_node(gm_search *s, int depth, int alpha, int beta, int ply)
{
    threats t;
    int tt_move, score, best_move = -1, alpha0 = alpha;
    s->pv_len[ply] = ply;
    s->nodes++;
    if (budget_out(s))
        return 0;
    threats_find(s, &t);
    if (t.my_win >= 0) {
        pv_update(s, ply, t.my_win);
        return WIN - ply - 1;
    }
    if (t.nopp >= 2 || (t.nopp == 1 && forbidden_for(s, t.opp_win)))
        return -(WIN - ply - 2);
    if (t.nopp == 0 && (depth <= 0 || ply >= MAX_PLY - 2))
        return leaf_score(s, ply);
    if (ply >= MAX_PLY - 2)
        return 0;
    if (tt_probe(s, depth, alpha, beta, ply, &score, &tt_move))
        return score;
    int child_depth = t.nopp == 1 ? depth : depth - 1;   /* the only reply is not a ply */
    int frontier = child_depth <= 0 && t.nopp == 0 && ply > 0 && !s->plain;
    int best = search_moves(s, &t, tt_move, child_depth, alpha, beta, ply, &best_move, frontier,
                            late_move_limit(s, depth, ply, &t));
    if (!s->aborted)
        tt_store(s, depth, best, best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER,
                 best_move, ply);
    return best;
}

/* ---- the root ------------------------------------------------------------------------- */

static void result_pv(gm_search_result *r, const uint16_t *pv, int n)
{
    r->pv_len = n < GM_PV_MAX ? n : GM_PV_MAX;
    for (int i = 0; i < r->pv_len; i++)
        r->pv[i] = pv[i];
    r->move = r->pv_len ? r->pv[0] : r->move;
}

/* Root moves of the last completed iteration, best first. */
static void result_candidates(gm_search *s, gm_search_result *r)
{
    int used[GM_MAX_CELLS] = {0};
    r->ncand = 0;
    while (r->ncand < GM_CAND_MAX) {
        int best = -1;
        for (int i = 0; i < s->nroot; i++)
            if (!used[i] && (best < 0 || s->root_score[i] > s->root_score[best]))
                best = i;
        if (best < 0)
            break;
        used[best] = 1;
        r->cand[r->ncand] = s->root_cell[best];
        r->cand_score[r->ncand++] = s->root_score[best];
    }
}

/* A move to fall back on before any iteration completes: block, or the best ordered. */
static int root_fallback(gm_search *s)
{
    movelist ml;
    threats t;
    threats_find(s, &t);
    gen_moves(s, &ml, -1, 0);
    if (t.my_win >= 0)
        return t.my_win;
    if (t.nopp > 0 && !forbidden_for(s, t.opp_win))
        return t.opp_win;
    for (int i = 0; i < ml.n; i++) {
        pick_best(&ml, i);
        if (!forbidden_for(s, ml.cell[i]))
            return ml.cell[i];
    }
    int cells[GM_MAX_CELLS];
    return gm_board_legal_moves(&s->b, cells) > 0 ? cells[0] : -1;
}

static void root_iterate(gm_search *s, int max_depth, gm_search_result *r)
{
    for (int depth = 1; depth <= max_depth; depth++) {
        s->nroot = 0;
        int v = search_node(s, depth, -INF, INF, 0);
        if (s->aborted)
            break;
        r->score = v;
        r->depth = depth;
        result_pv(r, s->pv[0], s->pv_len[0]);
        result_candidates(s, r);
        if (v > WIN_BOUND || v < -WIN_BOUND)
            break;
    }
}

static void search_prepare(gm_search *s, const gm_board *b, const gm_search_opts *o, double t0)
{
    srch_load(s, b);
    if (s->tt_size != b->size || s->tt_rule != b->rule) {
        if (!s->tt_fresh)        /* a first search does not touch 64 MB before it starts */
            memset(s->tt, 0, (s->tt_mask + 1) * sizeof(tt_entry));
        s->tt_fresh = 0;
        s->tt_size = b->size;
        s->tt_rule = b->rule;
    }
    memset(s->killer, 0, sizeof s->killer);
    memset(s->history, 0, sizeof s->history);
    s->nodes = 0;
    s->aborted = 0;
    s->plain = o && o->plain;
    s->max_nodes = o && o->nodes > 0 ? o->nodes : 0;
    s->deadline = o && o->seconds > 0 ? t0 + o->seconds : 0;
}

static int search_depth_limit(const gm_search_opts *o)
{
    if (o && o->depth > 0)
        return o->depth < GM_SEARCH_MAX_DEPTH ? o->depth : GM_SEARCH_MAX_DEPTH;
    if (o && (o->seconds > 0 || o->nodes > 0))
        return GM_SEARCH_MAX_DEPTH;
    return GM_SEARCH_DEFAULT_DEPTH;
}

/* The VCF gets a quarter of the budget (at most VCF_MAX_NODES); then the budget is reset for
   the alpha-beta, whose own clock check ends it. */
static int root_vcf(gm_search *s, const gm_search_opts *o, double t0)
{
    long max_nodes = s->max_nodes;
    double deadline = s->deadline;
    int plies = o && o->vcf_plies > 0 ? o->vcf_plies : VCF_DEFAULT_PLIES;
    s->max_nodes = max_nodes > 0 && max_nodes / 4 + 1 < VCF_MAX_NODES ? max_nodes / 4 + 1
                                                                      : VCF_MAX_NODES;
    if (deadline > 0)
        s->deadline = t0 + (deadline - t0) / 4;
    int proven = vcf_root(s, plies < MAX_PLY - 3 ? plies : MAX_PLY - 3);
    s->max_nodes = max_nodes;
    s->deadline = deadline;
    s->aborted = 0;
    return proven;
}

int gm_search_run(gm_search *s, const gm_board *b, const gm_search_opts *o, gm_search_result *r)
{
    double t0 = gm_clock_seconds();
    memset(r, 0, sizeof *r);
    r->move = -1;
    if (b->result != GM_RESULT_NONE)
        return GM_ERR_GAME_OVER;
    search_prepare(s, b, o, t0);
    r->move = root_fallback(s);
    int proven = s->plain ? 0 : root_vcf(s, o, t0);
    if (proven) {
        r->proven_win_in = proven;
        r->score = WIN - proven;
        r->depth = proven;
        result_pv(r, s->vcf_pv, s->vcf_len);
        r->ncand = 1;
        r->cand[0] = r->move;
        r->cand_score[0] = r->score;
    } else {
        root_iterate(s, search_depth_limit(o), r);
    }
    r->nodes = s->nodes;
    r->seconds = gm_clock_seconds() - t0;
    return GM_OK;
}
