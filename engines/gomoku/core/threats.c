/* threats.c - the analysis view's threat map: for each empty point, the strongest threat a
 * stone of one colour there makes (a five, fours, threes), read one bit line at a time.
 *
 * These are the view's definitions, not renju's: a four is a line with a point that then makes
 * a winning run under the rule, a three a line where one more stone makes two such points, for
 * either colour, with no forbidden-point recursion. engines/web/gomoku/threats.py is the
 * readable reference; tests/engines/gomoku/test_parity_threats.py keeps the two equal. */
#include "gomoku.h"
#include "internal.h"

/* Is bit q an empty on-board point of the line? (Bits outside 0..31 do not exist.) */
static int threat_empty_at(uint32_t empty, int q)
{
    return q >= 0 && q < 32 && ((empty >> q) & 1u);
}

/* Empty points within four steps of pos where one more stone makes a winning run (with own's
   stones, pos's included). */
static int threat_five_points(int rule, int color, uint32_t own, uint32_t empty, int pos)
{
    int n = 0;
    for (int k = -4; k <= 4; k++) {
        int q = pos + k;
        if (k != 0 && threat_empty_at(empty, q))
            n += gm_rules_wins(rule, color, gm_rules_run(own | 1u << q, q));
    }
    return n;
}

/* Does one more stone within three steps of pos make a line with two five points? */
static int threat_makes_three(int rule, int color, uint32_t own, uint32_t empty, int pos)
{
    for (int k = -3; k <= 3; k++) {
        int q = pos + k;
        if (k == 0 || !threat_empty_at(empty, q))
            continue;
        uint32_t qbit = 1u << q;
        if (threat_five_points(rule, color, own | qbit, empty & ~qbit, q) >= 2)
            return 1;
    }
    return 0;
}

/* A stone of color within four steps of the cell along a line (where a threat can be). */
static int threat_near(const gm_board *b, int color, int cell)
{
    for (int d = 0; d < GM_NDIRS; d++) {
        int pos = gm_pos_of[d][cell], lo = pos - 4 < 0 ? 0 : pos - 4;
        uint32_t reach = (uint32_t)(((uint64_t)1 << (pos + 5 - lo)) - 1) << lo;
        if (gm_line_bits(b, color, d, cell) & reach)
            return 1;
    }
    return 0;
}

/* The strongest GM_THREAT_* a stone of color on the empty cell makes. */
static int threat_kind(const gm_board *b, int color, int cell)
{
    uint32_t own[GM_NDIRS], empty[GM_NDIRS];
    int pos[GM_NDIRS], fours[GM_NDIRS], nfours = 0, most = 0, threes = 0;
    for (int d = 0; d < GM_NDIRS; d++) {
        pos[d] = gm_pos_of[d][cell];
        own[d] = gm_line_bits(b, color, d, cell) | 1u << pos[d];
        empty[d] = gm_line_empty(b, d, cell) & ~(1u << pos[d]);
        if (gm_rules_wins(b->rule, color, gm_rules_run(own[d], pos[d])))
            return GM_THREAT_FIVE;
    }
    for (int d = 0; d < GM_NDIRS; d++) {
        fours[d] = threat_five_points(b->rule, color, own[d], empty[d], pos[d]);
        nfours += fours[d];
        most = fours[d] > most ? fours[d] : most;
    }
    if (most >= 2)
        return GM_THREAT_OPEN_FOUR;
    for (int d = 0; d < GM_NDIRS; d++)
        threes += fours[d] == 0 && threat_makes_three(b->rule, color, own[d], empty[d], pos[d]);
    if (nfours >= 2)
        return GM_THREAT_FOUR_FOUR;
    if (nfours == 1)
        return threes ? GM_THREAT_FOUR_THREE : GM_THREAT_FOUR;
    return threes >= 2 ? GM_THREAT_THREE_THREE : threes ? GM_THREAT_THREE : GM_THREAT_NONE;
}

int gm_board_threats(gm_board *b, int color, int *cells, int *kinds)
{
    uint8_t kind[GM_MAX_CELLS] = {0};
    int n = 0, skip_forbidden = color == GM_BLACK && b->rule == GM_RENJU;
    if (color != GM_BLACK && color != GM_WHITE)
        return 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int c = gm_cell(x, y);
            if (b->cell[c] == GM_EMPTY && threat_near(b, color, c)
                && !(skip_forbidden && gm_rules_forbidden_cell(b, c) != GM_OK))
                kind[c] = (uint8_t)threat_kind(b, color, c);
        }
    /* strongest first, then by cell (= by row, then column) */
    for (int k = GM_THREAT_FIVE; k <= GM_THREAT_THREE; k++)
        for (int c = 0; c < GM_MAX_CELLS; c++)
            if (kind[c] == k) {
                cells[n] = c;
                kinds[n++] = k;
            }
    return n;
}
