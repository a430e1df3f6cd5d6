/* playout.c - playout policies (light and heavy), 3x3 patterns, move features for priors. */
#include "go.h"
#include "internal.h"

#include <string.h>

/* ---- Random numbers (xorshift64*) ------------------------------------------------------ */

void go_rng_seed(go_rng *r, uint64_t seed)
{
    r->s = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
    if (!r->s)
        r->s = 1;
}

static inline uint64_t rng_next(go_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dULL;
}

uint32_t go_rng_below(go_rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* ---- 3x3 patterns ----------------------------------------------------------------------- */

/* Classical MoGo-style shapes around the centre point (the move). X and O are stones of the
   two colours (both colourings match), x = not X (O or empty), o = not O, '.' empty,
   ' ' off board, '?' anything. */
static const char *PAT_SRC[][3] = {
    {"XOX", "...", "???"}, /* hane enclosing */
    {"XO.", "...", "?.?"}, /* hane, not cutting */
    {"XO?", "X..", "x.?"}, /* magari */
    {".O.", "X..", "..."}, /* diagonal attachment */
    {"XO?", "O.x", "?x?"}, /* unprotected cut */
    {"XO?", "O.X", "???"}, /* peeped cut */
    {"?X?", "O.O", "xxx"}, /* cut through */
    {"OX?", "x.O", "???"}, /* keima cut */
    {"X.?", "O.?", "   "}, /* edge: chase */
    {"OX?", "X.O", "   "}, /* edge: block the cut */
    {"?X?", "x.O", "   "}, /* edge: block the connection */
    {"?XO", "x.x", "   "}, /* edge: sagari */
    {"?OX", "X.O", "   "}, /* edge: cut */
};

static uint8_t pat_table[1 << 16];
static plat_once pat_once = PLAT_ONCE_INIT;

/* Cell order of a code: NW N NE W E SW S SE, 2 bits each (empty, black, white, border). */
static const int CELL_R[8] = {0, 0, 0, 1, 1, 2, 2, 2}, CELL_C[8] = {0, 1, 2, 0, 2, 0, 1, 2};

static int sym_options(char ch, int swap, int *opts)
{
    int X = swap ? GO_WHITE : GO_BLACK, O = swap ? GO_BLACK : GO_WHITE, n = 0;
    switch (ch) {
    case 'X': opts[n++] = X; break;
    case 'O': opts[n++] = O; break;
    case 'x': opts[n++] = O; opts[n++] = GO_EMPTY; break;
    case 'o': opts[n++] = X; opts[n++] = GO_EMPTY; break;
    case '.': opts[n++] = GO_EMPTY; break;
    case ' ': opts[n++] = GO_BORDER; break;
    default: opts[n++] = GO_EMPTY; opts[n++] = X; opts[n++] = O; opts[n++] = GO_BORDER; break;
    }
    return n;
}

static void pat_expand(const char cells[8], int swap, int i, int code)
{
    if (i == 8) {
        pat_table[code] = 1;
        return;
    }
    int opts[4], n = sym_options(cells[i], swap, opts);
    for (int k = 0; k < n; k++)
        pat_expand(cells, swap, i + 1, code | (opts[k] << (2 * i)));
}

static void pat_init(void)
{
    int npat = sizeof PAT_SRC / sizeof PAT_SRC[0];
    for (int p = 0; p < npat; p++)
        for (int sym = 0; sym < 8; sym++) {
            char cells[8];
            for (int i = 0; i < 8; i++) {
                int r = CELL_R[i] - 1, c = CELL_C[i] - 1, t;
                if (sym & 1) { t = r; r = c; c = t; }   /* transpose */
                if (sym & 2) r = -r;                     /* flip rows */
                if (sym & 4) c = -c;                     /* flip columns */
                cells[i] = PAT_SRC[p][r + 1][c + 1];
            }
            pat_expand(cells, 0, 0, 0);
            pat_expand(cells, 1, 0, 0);
        }
}

static inline int pat_code(const go_board *b, int p)
{
    int s = b->stride;
    const uint8_t *c = b->color;
    return c[p - s - 1] | c[p - s] << 2 | c[p - s + 1] << 4 | c[p - 1] << 6 | c[p + 1] << 8 |
           c[p + s - 1] << 10 | c[p + s] << 12 | c[p + s + 1] << 14;
}

int go_pattern_match(const go_board *b, int point)
{
    plat_run_once(&pat_once, pat_init);
    return pat_table[pat_code(b, point)];
}

/* ---- Tactics ------------------------------------------------------------------------------ */

/* Liberties color would have at point after playing there, counted up to need (a capture
   counts as plenty), not counting excl (0: none) as if the opponent had taken it. Assumes point
   is empty. A chain has at least a quarter as many liberties as pseudo-liberties (an empty
   point touches at most four of its stones), which settles most cases without walking it. */
static inline int libs_after_upto(const go_board *b, int color, int point, int need, int excl)
{
    int libs[4], n = 0, s = b->stride, plenty = 4 * (need + (excl != 0));
    int nb[4] = {point - 1, point + 1, point - s, point + s};
    for (int i = 0; i < 4; i++) {
        int q = nb[i], c = b->color[q];
        if (c == GO_EMPTY) {
            if (q != excl)
                libs[n++] = q;
        } else if (c == go_other(color) && go_chain_in_atari(b, b->chain[q])) {
            return need;
        } else if (c == color && b->plib[b->chain[q]] > plenty) {
            return need;
        }
    }
    if (n >= need)
        return need;
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->color[q] != color)
            continue;
        int cl[5], k = go_board_libs(b, q, need + 1 + (excl != 0), cl);
        for (int j = 0; j < k; j++) {
            int l = cl[j], dup = l == point || l == excl;
            for (int m = 0; m < n && !dup; m++)
                dup = libs[m] == l;
            if (!dup) {
                libs[n++] = l;
                if (n >= need)
                    return need;
            }
        }
    }
    return n;
}

int go_libs_after(const go_board *b, int color, int point)
{
    return libs_after_upto(b, color, point, 3, 0);
}

void go_two_liberty_marks(const go_board *b, uint8_t *marks)
{
    int color = b->to_move, s = b->stride;
    memset(marks, 0, b->npoints);
    for (int p = s; p < b->npoints - s; p++) {
        int c = b->color[p];
        if ((c != GO_BLACK && c != GO_WHITE) || b->chain[p] != p || b->plib[p] > 8)
            continue;   /* heads only; two liberties make at most eight pseudo-liberties */
        int libs[3];
        if (go_board_libs(b, p, 3, libs) != 2)
            continue;
        for (int k = 0; k < 2; k++) {
            int l = libs[k], other = libs[1 - k];
            if (c == color) {
                if (libs_after_upto(b, color, l, 3, 0) >= 3)
                    marks[l] |= GO_MARK_SAVE;
            } else if (libs_after_upto(b, color, l, 2, 0) >= 2 &&
                       libs_after_upto(b, c, other, 2, l) <= 1) {
                marks[l] |= GO_MARK_KILL;
            }
        }
    }
}

/* Chains of color next to point in atari: their liberty points that capture (for the other
   color) are appended to out. */
static int atari_libs_near(const go_board *b, int color, int point, int *out, int n)
{
    int s = b->stride;
    int nb[4] = {point - 1, point + 1, point - s, point + s};
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->color[q] == color && go_chain_in_atari(b, b->chain[q]))
            out[n++] = b->lsum[b->chain[q]] / b->plib[b->chain[q]];
    }
    return n;
}

/* Moves that save color's chains in atari next to point: capture an attacker in atari or
   extend to the liberty when that gives at least two liberties. */
static int atari_escapes(const go_board *b, int color, int point, int *out)
{
    int n = 0, s = b->stride;
    int nb[5] = {point, point - 1, point + 1, point - s, point + s};
    for (int i = 0; i < 5; i++) {
        int q = nb[i];
        if (b->color[q] != color || !go_chain_in_atari(b, b->chain[q]))
            continue;
        int head = b->chain[q], st = head;
        do { /* capture a neighbouring enemy chain in atari */
            n = atari_libs_near(b, go_other(color), st, out, n);
            st = b->next[st];
        } while (st != head && n < 16);
        int lib = b->lsum[head] / b->plib[head];
        if (go_libs_after(b, color, lib) >= 2)
            out[n++] = lib;
        if (n >= 16)
            break;
    }
    return n;
}

static int ladder_captures(const go_board *b, int point, int depth);

/* The chain at point has the two liberties libs; its attacker puts it in atari on either (a
   move the chain cannot simply capture). True when the ladder that follows captures it. */
static int atari_captures(const go_board *b, int point, const int *libs, int depth)
{
    int color = b->color[point];
    for (int i = 0; i < 2; i++) {
        if (go_board_check(b, go_other(color), libs[i]) != GO_OK)
            continue;
        go_board chase;
        go_board_copy(&chase, b);
        go_board_play(&chase, go_other(color), libs[i]);
        if (chase.color[point] == color && ladder_captures(&chase, point, depth))
            return 1;
    }
    return 0;
}

/* Ladder reading: the chain at point (in atari, its colour to move) runs; the attacker keeps
   putting it in atari. True when the chain is captured. Depth-limited; board copies only. */
static int ladder_captures(const go_board *b, int point, int depth)
{
    int head = b->chain[point], color = b->color[point];
    if (depth > 40 || !go_chain_in_atari(b, head))
        return 0;
    int lib = b->lsum[head] / b->plib[head];
    /* A capture of an attacker next to the chain also escapes. */
    int st = head;
    do {
        int nb[4] = {st - 1, st + 1, st - b->stride, st + b->stride};
        for (int i = 0; i < 4; i++)
            if (b->color[nb[i]] == go_other(color) && go_chain_in_atari(b, b->chain[nb[i]]))
                return 0;
        st = b->next[st];
    } while (st != head);
    if (go_board_check(b, color, lib) != GO_OK)
        return 1;
    go_board run;
    go_board_copy(&run, b);
    run.to_move = color;
    go_board_play(&run, color, lib);
    int libs[3], n = go_board_libs(&run, lib, 3, libs);
    if (n <= 1)
        return 1;
    return n == 2 && atari_captures(&run, lib, libs, depth + 1);
}

int go_ladder_escape_fails(const go_board *b, int color, int point)
{
    /* point extends color's chain in atari; does the attacker still capture it in a ladder? */
    int s = b->stride, nb[4] = {point - 1, point + 1, point - s, point + s};
    for (int i = 0; i < 4; i++)
        if (b->color[nb[i]] == color && go_chain_in_atari(b, b->chain[nb[i]]))
            return ladder_captures(b, nb[i], 0);
    return 0;
}

int go_chain_laddered(const go_board *b, int head)
{
    /* In atari: its side runs and is still captured. With two liberties: an atari starts a
       ladder that works. */
    int libs[3], n = go_board_libs(b, head, 3, libs);
    return n == 1 ? ladder_captures(b, head, 0) : n == 2 && atari_captures(b, head, libs, 0);
}

int go_move_features(const go_board *b, int color, int point)
{
    if (point == GO_PASS)
        return 0;
    int f = 0, esc[24], n, s = b->stride;
    int nb[4] = {point - 1, point + 1, point - s, point + s};
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->color[q] == go_other(color) && go_chain_in_atari(b, b->chain[q]))
            f |= b->csize[b->chain[q]] > 1 ? GO_F_CAPTURE_BIG : GO_F_CAPTURE;
        if (b->color[q] == color && go_chain_in_atari(b, b->chain[q])) {
            n = atari_escapes(b, color, q, esc);
            for (int k = 0; k < n; k++)
                if (esc[k] == point)
                    f |= GO_F_ESCAPE;
            if ((f & GO_F_ESCAPE) && !(f & (GO_F_CAPTURE | GO_F_CAPTURE_BIG)) &&
                go_ladder_escape_fails(b, color, point))
                f = (f & ~GO_F_ESCAPE) | GO_F_LADDER;
        }
    }
    int la = go_libs_after(b, color, point);
    if (la == 1)
        f |= GO_F_SELF_ATARI;
    if (go_board_is_eye(b, color, point))
        f |= GO_F_OWN_EYE;
    return f;
}

/* ---- Policies ------------------------------------------------------------------------------ */

/* A uniformly placed scan over the empty points: the first legal one not filling an own eye.
   With avoid_self_atari, self-ataris of more than one stone are skipped with high probability. */
static int random_move(go_board *b, go_rng *r, int avoid_self_atari)
{
    int color = b->to_move, n = b->nempty;
    if (!n)
        return GO_PASS;
    int start = (int)go_rng_below(r, (uint32_t)n), fallback = GO_PASS;
    for (int i = 0; i < n; i++) {
        int idx = start + i;
        if (idx >= n)
            idx -= n;
        int p = b->empty[idx];
        if (go_board_is_eye(b, color, p) || go_board_check(b, color, p) != GO_OK)
            continue;
        if (avoid_self_atari && libs_after_upto(b, color, p, 2, 0) == 1) {
            if (fallback == GO_PASS)
                fallback = p;
            if (go_rng_below(r, 16) != 0)
                continue;
        }
        return p;
    }
    return fallback;
}

/* Enemy chains (their heads, up to 8) touching the chain with head h. */
static int race_enemies(const go_board *b, int h, int *enemies)
{
    int s = b->stride, ne = 0, st = h, other = go_other(b->color[h]);
    do {
        int nb[4] = {st - 1, st + 1, st - s, st + s};
        for (int k = 0; k < 4 && ne < 8; k++) {
            if (b->color[nb[k]] != other)
                continue;
            int eh = b->chain[nb[k]], seen = 0;
            for (int j = 0; j < ne; j++)
                seen |= enemies[j] == eh;
            if (!seen)
                enemies[ne++] = eh;
        }
        st = b->next[st];
    } while (st != h);
    return ne;
}

/* Our chain h at two liberties libs: extend to three liberties, or capture / atari a
   neighbouring enemy chain short of liberties too. Appends to out[n..]; returns the new n. */
static int race_save(const go_board *b, int h, const int *libs, int *out, int n)
{
    int color = b->color[h], enemies[8];
    for (int k = 0; k < 2; k++)
        if (libs_after_upto(b, color, libs[k], 3, 0) >= 3)
            out[n++] = libs[k];
    int ne = race_enemies(b, h, enemies);
    for (int j = 0; j < ne && n < 20; j++) {
        if (b->plib[enemies[j]] > 8)
            continue;
        int el[3], k = go_board_libs(b, enemies[j], 3, el);
        if (k == 1)
            out[n++] = el[0];
        else if (k == 2)
            for (int m = 0; m < 2; m++)
                if (libs_after_upto(b, color, el[m], 2, 0) >= 2)
                    out[n++] = el[m];
    }
    return n;
}

/* Their chain (color c) at two liberties libs: the atari on it that its other liberty cannot
   escape. Appends to out[n..]; returns the new n. */
static int race_kill(const go_board *b, int c, const int *libs, int *out, int n)
{
    for (int k = 0; k < 2; k++)
        if (libs_after_upto(b, b->to_move, libs[k], 2, 0) >= 2 &&
            libs_after_upto(b, c, libs[1 - k], 2, libs[k]) <= 1)
            out[n++] = libs[k];
    return n;
}

/* Capturing races at two liberties next to the last move, for the side to move: race_save
   on its chains there, race_kill on the opponent's. Appends candidates to out (room for 48). */
static int two_liberty_replies(const go_board *b, int last, int *out)
{
    int color = b->to_move, s = b->stride, n = 0, heads[5], nh = 0;
    int around[5] = {last, last - 1, last + 1, last - s, last + s};
    for (int i = 0; i < 5 && n < 24; i++) {
        int q = around[i], c = b->color[q];
        if (c != GO_BLACK && c != GO_WHITE)
            continue;
        int h = b->chain[q], dup = 0;
        for (int k = 0; k < nh; k++)
            dup |= heads[k] == h;
        if (dup)
            continue;
        heads[nh++] = h;
        int libs[3];
        if (b->plib[h] < 2 || b->plib[h] > 8 || go_board_libs(b, h, 3, libs) != 2)
            continue;   /* two liberties make at most eight pseudo-liberties */
        n = c == color ? race_save(b, h, libs, out, n) : race_kill(b, c, libs, out, n);
    }
    return n;
}

/* True when point touches a stone of color: a move there joins a chain. */
static int touches_own(const go_board *b, int color, int point)
{
    int s = b->stride;
    return b->color[point - 1] == color || b->color[point + 1] == color ||
           b->color[point - s] == color || b->color[point + s] == color;
}

int go_tactical_moves(const go_board *b, int min_size, uint8_t *marks)
{
    int color = b->to_move, n = 0, out[48];
    memset(marks, 0, (size_t)b->npoints);
    for (int h = 0; h < b->npoints; h++) {
        int c = b->color[h], libs[3], m = 0;
        if ((c != GO_BLACK && c != GO_WHITE) || b->chain[h] != h || b->csize[h] < min_size ||
            b->plib[h] > 8)
            continue;   /* two liberties make at most eight pseudo-liberties */
        int k = go_board_libs(b, h, 3, libs);
        if (k == 1 && c != color) {
            out[m++] = libs[0];
        } else if (k == 1) {
            m = atari_escapes(b, color, h, out);
            for (int i = 0; i < m; i++)   /* running into a ladder saves nothing */
                if (out[i] == libs[0] && go_ladder_escape_fails(b, color, libs[0]))
                    out[i--] = out[--m];
        } else if (k == 2 && c != color) {
            m = race_kill(b, c, libs, out, 0);
        } else if (k == 2 && go_chain_laddered(b, h)) {
            m = race_save(b, h, libs, out, 0);
        }
        for (int i = 0; i < m; i++)
            if (!marks[out[i]] && go_board_check(b, color, out[i]) == GO_OK) {
                marks[out[i]] = GO_TACTIC_DECIDES;
                n++;
            }
    }
    for (int i = 0; i < b->nempty; i++) {
        int p = b->empty[i];
        if (!marks[p] && libs_after_upto(b, color, p, 2, 0) == 1 && touches_own(b, color, p) &&
            go_board_check(b, color, p) == GO_OK) {
            marks[p] = GO_TACTIC_SELF_ATARI;
            n++;
        }
    }
    return n;
}

static int pick_legal(go_board *b, go_rng *r, const int *cand, int n, int avoid_self_atari)
{
    if (n <= 0)
        return GO_PASS;
    int start = (int)go_rng_below(r, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        int p = cand[(start + i) % n];
        if (go_board_check(b, b->to_move, p) != GO_OK)
            continue;
        if (avoid_self_atari && libs_after_upto(b, b->to_move, p, 2, 0) == 1)
            continue;
        return p;
    }
    return GO_PASS;
}

/* Captures of the stone just played or of a chain in atari next to it or next to our own
   previous move (an atari the opponent ignored): their atari liberties into cand. */
static int heavy_captures(const go_board *b, int *cand)
{
    int other = go_other(b->to_move), last = b->last_move, prev = b->last_move2, s = b->stride, n = 0;
    int around[9] = {last, last - 1, last + 1, last - s, last + s,
                     prev - 1, prev + 1, prev - s, prev + s};
    int count = prev > 0 ? 9 : 5;
    for (int i = 0; i < count; i++) {
        int q = around[i];
        if (b->color[q] == other && go_chain_in_atari(b, b->chain[q]))
            cand[n++] = b->lsum[b->chain[q]] / b->plib[b->chain[q]];
    }
    return n;
}

/* Escapes of own chains put in atari by the last move (at most 16). */
static int heavy_saves(const go_board *b, int *cand)
{
    int color = b->to_move, last = b->last_move, s = b->stride, n = 0;
    int around[4] = {last - 1, last + 1, last - s, last + s};
    for (int i = 0; i < 4; i++)
        if (b->color[around[i]] == color && go_chain_in_atari(b, b->chain[around[i]]))
            n += atari_escapes(b, color, around[i], cand + n);
    return n > 16 ? 16 : n;
}

/* Empty points around the last move that match a 3x3 shape. */
static int heavy_shapes(const go_board *b, int *cand)
{
    int last = b->last_move, s = b->stride, n = 0;
    int ring[8] = {last - s - 1, last - s, last - s + 1, last - 1, last + 1,
                   last + s - 1, last + s, last + s + 1};
    for (int i = 0; i < 8; i++)
        if (b->color[ring[i]] == GO_EMPTY && go_pattern_match(b, ring[i]))
            cand[n++] = ring[i];
    return n;
}

/* Nine times in ten, a legal one of the n candidates (GO_PASS when skipped or none is). */
static int heavy_try(go_board *b, go_rng *r, const int *cand, int n, int avoid_self_atari)
{
    if (n && go_rng_below(r, 10) < 9)
        return pick_legal(b, r, cand, n, avoid_self_atari);
    return GO_PASS;
}

/* Heavy policy: answer the last move (capture, save own atari, with fights a capturing race
   at two liberties, 3x3 shapes nearby), then random with self-atari avoided. Every choice is
   probabilistic, never a ban. */
static int heavy_move(go_board *b, go_rng *r, int fights)
{
    int cand[96], p;
    if (b->last_move > 0) {
        if ((p = heavy_try(b, r, cand, heavy_captures(b, cand), 0)) != GO_PASS)
            return p;
        if ((p = heavy_try(b, r, cand, heavy_saves(b, cand), 0)) != GO_PASS)
            return p;
        int n = fights ? two_liberty_replies(b, b->last_move, cand) : 0;
        if ((p = heavy_try(b, r, cand, n, 1)) != GO_PASS)
            return p;
        if ((p = heavy_try(b, r, cand, heavy_shapes(b, cand), 1)) != GO_PASS)
            return p;
    }
    return random_move(b, r, 1);
}

static int policy_move(go_board *b, int policy, go_rng *r, int fights)
{
    return policy == GO_POLICY_HEAVY ? heavy_move(b, r, fights) : random_move(b, r, 0);
}

int go_playout_move(go_board *b, int policy, go_rng *r)
{
    return policy_move(b, policy, r, 1);
}

/* Area score at the end of a playout: stones plus empty points whose neighbours are all one
   colour (after a playout, empty regions are single points except in seki). */
static int playout_score(const go_board *b)
{
    int score = 0, s = b->stride;
    for (int p = s; p < b->npoints - s; p++) {
        int c = b->color[p];
        if (c == GO_BLACK) {
            score++;
        } else if (c == GO_WHITE) {
            score--;
        } else if (c == GO_EMPTY) {
            int t = 0, nb[4] = {p - 1, p + 1, p - s, p + s};
            for (int i = 0; i < 4; i++)
                if (b->color[nb[i]] != GO_BORDER)
                    t |= b->color[nb[i]];
            if (t == GO_BLACK)
                score++;
            else if (t == GO_WHITE)
                score--;
        }
    }
    return score;
}

/* Playout moves that answer two-liberty races: the fight next to the tree's leaf is what the
   playout must get right, and over a whole playout the rule cost 30% of the speed (12 moves:
   5%, and 27 of 40 self-play games at equal time against no rule). */
#define FIGHT_MOVES 12

int go_playout_run(go_board *b, int policy, go_rng *r, uint16_t *moves, int max_moves, int *nmoves)
{
    int cap = 3 * b->size * b->size, n = 0, played = 0;
    while (b->passes < 2 && cap-- > 0) {
        int p = policy_move(b, policy, r, played++ < FIGHT_MOVES);
        int color = b->to_move;
        go_board_play(b, color, p);
        if (moves && n < max_moves)
            moves[n++] = (uint16_t)p;
    }
    if (nmoves)
        *nmoves = n;
    return playout_score(b);
}

long go_bench_light(int size, long games, uint64_t seed)
{
    go_board start, b;
    go_rng r;
    if (go_board_init(&start, size) != GO_OK)
        return 0;
    go_rng_seed(&r, seed);
    long wins = 0;
    for (long i = 0; i < games; i++) {
        go_board_copy(&b, &start);
        wins += go_playout_run(&b, GO_POLICY_LIGHT, &r, NULL, 0, NULL) > 0;
    }
    return games + (wins < 0); /* wins read so the loop cannot be optimised away */
}
