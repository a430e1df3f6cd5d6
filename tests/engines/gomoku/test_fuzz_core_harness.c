/* Fuzz harness for the Gomoku core's C API, built by test_fuzz_core.py with AddressSanitizer
   and UBSan: random call sequences (valid and invalid), with the board's bookkeeping (cells
   against bit lines, valid masks, Zobrist hash, record, side to move, result) recomputed from
   scratch after every call, and every call that only reads the board (forbidden points, legal
   moves, inspect.c) checked to leave it byte-identical. The search runs in verify mode: after
   every move and undo inside it, its incremental line-pattern codes (patterns.c) are compared
   with a recomputation from scratch, and any mismatch fails the run.
   Usage: harness SEED ITERATIONS. Exit 0 when every check held. */
#include "gomoku.h"
#include "internal.h"

#include "fuzz_harness.h"

/* The longest line of color through (x, y), walking the cells (not the bit lines). */
static int walk_run(const gm_board *b, int x, int y, int dx, int dy, int color)
{
    int n = 1;
    for (int s = -1; s <= 1; s += 2)
        for (int k = 1; ; k++) {
            int cx = x + s * k * dx, cy = y + s * k * dy;
            if (cx < 0 || cy < 0 || cx >= b->size || cy >= b->size
                || b->cell[gm_cell(cx, cy)] != color)
                break;
            n++;
        }
    return n;
}

static int wins(const gm_board *b, int color, int run)
{
    if (b->rule == GM_FREESTYLE || (b->rule == GM_RENJU && color == GM_WHITE))
        return run >= 5;
    return run == 5;
}

static void check_lines(const gm_board *b)
{
    uint32_t line[2][GM_NDIRS][GM_MAX_LINES] = {{{0}}}, valid[GM_NDIRS][GM_MAX_LINES] = {{0}};
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            for (int d = 0; d < GM_NDIRS; d++) {
                /* a line's bits are numbered by x (by y for columns), lines by the invariant */
                int l = d == 0 ? y : d == 1 ? x : d == 2 ? x - y + GM_MAX_SIZE - 1 : x + y;
                int pos = d == 1 ? y : x, c = b->cell[gm_cell(x, y)];
                valid[d][l] |= 1u << pos;
                if (c)
                    line[c - 1][d][l] |= 1u << pos;
            }
    CHECK(memcmp(line, b->line, sizeof line) == 0);
    CHECK(memcmp(valid, b->valid, sizeof valid) == 0);
}

static void check_board(const gm_board *b)
{
    int count[3] = {0, 0, 0};
    uint64_t h = 0;
    CHECK(b->size >= GM_MIN_SIZE && b->size <= GM_MAX_SIZE);
    for (int c = 0; c < GM_MAX_CELLS; c++) {
        int on = gm_cell_x(c) < b->size && gm_cell_y(c) < b->size;
        CHECK(b->cell[c] <= GM_WHITE && (on || b->cell[c] == GM_EMPTY));
        count[b->cell[c]]++;
        if (b->cell[c])
            h ^= gm_zobrist_stone(b->cell[c], gm_cell_x(c), gm_cell_y(c));
    }
    CHECK(h == b->hash);
    CHECK(count[GM_BLACK] + count[GM_WHITE] == b->nmoves);
    CHECK(count[GM_BLACK] - count[GM_WHITE] == (b->nmoves & 1));
    CHECK(b->to_move == (b->nmoves & 1 ? GM_WHITE : GM_BLACK));
    for (int i = 0; i < b->nmoves; i++)
        CHECK(b->cell[b->moves[i]] == (i & 1 ? GM_WHITE : GM_BLACK));
    CHECK(gm_board_hash(b) == (h ^ (b->to_move == GM_WHITE ? gm_zobrist_white_to_move() : 0)));
    check_lines(b);
    /* the result: a win exactly when the last stone wins along win_dir */
    CHECK((b->win_dir >= 0) == (b->result == GM_RESULT_BLACK || b->result == GM_RESULT_WHITE));
    if (b->win_dir >= 0) {
        static const int dxy[GM_NDIRS][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
        int last = b->moves[b->nmoves - 1], color = b->cell[last];
        CHECK(b->result == color);
        CHECK(wins(b, color, walk_run(b, gm_cell_x(last), gm_cell_y(last), dxy[b->win_dir][0],
                                      dxy[b->win_dir][1], color)));
    }
    if (b->nmoves == b->size * b->size)
        CHECK(b->result != GM_RESULT_NONE);
}

static void check_same(const gm_board *a, const gm_board *b)
{
    CHECK(memcmp(a, b, sizeof *a) == 0);
}

typedef struct {
    gm_board *b;
    gm_search *s;
    int x, y;
    long plays, forbidden_seen, searches;
} fuzz;

static void op_play(fuzz *f)
{
    int cells[GM_MAX_CELLS], x = f->x, y = f->y;
    gm_board before;
    if (rnd(4)) {
        int n = gm_board_legal_moves(f->b, cells);
        if (n) { int c = cells[rnd(n)]; x = gm_cell_x(c); y = gm_cell_y(c); }
    }
    gm_board_copy(&before, f->b);
    int ok = gm_board_check(f->b, x, y);
    check_same(&before, f->b);
    int err = gm_board_play(f->b, x, y);
    CHECK(ok == err);
    CHECK(gm_board_nmoves(f->b) == before.nmoves + (err == GM_OK));
    if (err != GM_OK) {
        check_same(&before, f->b);
        return;
    }
    f->plays++;
    /* play and undo are a pair: every byte comes back */
    if (!rnd(3)) {
        CHECK(gm_board_undo(f->b) == GM_OK);
        check_same(&before, f->b);
        CHECK(gm_board_play(f->b, x, y) == GM_OK);
    }
}

static void op_undo(fuzz *f)
{
    int n = gm_board_nmoves(f->b);
    CHECK(gm_board_undo(f->b) == (n ? GM_OK : GM_ERR_NO_MOVE));
    CHECK(gm_board_nmoves(f->b) == (n ? n - 1 : 0));
    CHECK(gm_board_result(f->b) == GM_RESULT_NONE);
}

/* Every read of the board, including inspect.c: none may change a byte of it. */
static void op_read(fuzz *f, int kind)
{
    int cells[GM_MAX_CELLS], line[GM_MAX_SIZE + 1], pos = -1, dir = (int)rnd(6) - 1;
    int color = (int)rnd(4), n;
    gm_board before;
    gm_board_copy(&before, f->b);
    if (kind == 0) {
        n = gm_board_forbidden_points(f->b, cells);
        CHECK(n >= 0 && n <= f->b->size * f->b->size);
        CHECK(n == 0 || f->b->rule == GM_RENJU);
        for (int i = 0; i < n; i++)
            CHECK(gm_board_forbidden(f->b, gm_cell_x(cells[i]), gm_cell_y(cells[i])) != GM_OK);
        f->forbidden_seen += n;
    } else if (kind == 1) {
        n = gm_board_legal_moves(f->b, cells);
        for (int i = 0; i < n; i++)
            CHECK(gm_board_check(f->b, gm_cell_x(cells[i]), gm_cell_y(cells[i])) == GM_OK);
        CHECK(n == 0 || f->b->result == GM_RESULT_NONE);
        int kinds[GM_MAX_CELLS];
        n = gm_board_threats(f->b, color, cells, kinds);
        CHECK(n >= 0 && n <= f->b->size * f->b->size);
        CHECK(n == 0 || color == GM_BLACK || color == GM_WHITE);
        for (int i = 0; i < n; i++)
            CHECK(f->b->cell[cells[i]] == GM_EMPTY && kinds[i] >= GM_THREAT_FIVE
                  && kinds[i] <= GM_THREAT_THREE && (i == 0 || kinds[i] >= kinds[i - 1]));
    } else if (kind == 2) {
        int why = gm_board_forbidden(f->b, f->x, f->y);
        CHECK(why == GM_OK || why == GM_ERR_OVERLINE || why == GM_ERR_DOUBLE_FOUR
              || why == GM_ERR_DOUBLE_THREE);
        n = gm_board_win_line(f->b, line);
        CHECK(n == 0 || (n >= 5 && n <= f->b->size));
        int at = gm_board_at(f->b, f->x, f->y), mv = gm_board_move(f->b, (int)rnd(500) - 50);
        CHECK(at >= -1 && at <= GM_WHITE && mv >= -1 && mv < GM_MAX_CELLS);
    } else {
        int r = gm_inspect_run(f->b, color, f->x, f->y, dir);
        CHECK(r >= 0 && r <= f->b->size);
        CHECK(gm_inspect_fours(f->b, f->x, f->y, dir) >= 0);
        CHECK(gm_inspect_three(f->b, f->x, f->y, dir) >= 0);
        (void)gm_inspect_line(f->b, color, f->x, f->y, dir, &pos);
        CHECK(pos >= -1 && pos < 32);
    }
    check_same(&before, f->b);
}

static void check_cells(const gm_board *b, const int *cells, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(cells[i] >= 0 && gm_cell_x(cells[i]) < b->size && gm_cell_y(cells[i]) < b->size);
}

/* A search with a tiny budget: the board untouched, a legal move unless the game is over. */
static void op_search(fuzz *f)
{
    gm_board before;
    gm_search_result r;
    gm_search_opts o = {0.0, (long)rnd(400) + 1, (int)rnd(4), (int)rnd(8), (int)rnd(2)};
    if (rnd(8) == 0)
        o.seconds = 0.002;
    gm_board_copy(&before, f->b);
    int err = gm_search_run(f->s, f->b, &o, &r);
    check_same(&before, f->b);
    CHECK(err == (f->b->result == GM_RESULT_NONE ? GM_OK : GM_ERR_GAME_OVER));
    CHECK(r.pv_len >= 0 && r.pv_len <= GM_PV_MAX && r.ncand >= 0 && r.ncand <= GM_CAND_MAX);
    check_cells(f->b, r.pv, r.pv_len);
    check_cells(f->b, r.cand, r.ncand);
    CHECK(r.proven_win_in >= 0 && r.proven_win_in < GM_PV_MAX && r.nodes >= 0);
    if (err == GM_OK && r.move >= 0)
        CHECK(gm_board_check(f->b, gm_cell_x(r.move), gm_cell_y(r.move)) == GM_OK);
    else
        CHECK(r.move == -1 && err == GM_ERR_GAME_OVER);
    check_same(&before, f->b);
    long checks;
    CHECK(gm_search_mismatches(f->s, &checks) == 0);
    f->searches++;
}

static void op_setup(fuzz *f, int op)
{
    gm_board before;
    gm_board_copy(&before, f->b);
    if (op == 0) {
        int size = (int)rnd(20) + 2, rule = (int)rnd(5) - 1;
        int err = gm_board_reset(f->b, size, rule);
        int want = size < GM_MIN_SIZE || size > GM_MAX_SIZE ? GM_ERR_SIZE
                   : rule < 0 || rule > GM_RENJU ? GM_ERR_RULE : GM_OK;
        CHECK(err == want);
        if (err != GM_OK)
            check_same(&before, f->b);
    } else if (op == 1) {
        /* a position of random distinct (sometimes repeated or off-board) cells */
        int cells[GM_MAX_CELLS], n = (int)rnd((uint32_t)(f->b->size * f->b->size / 2 + 2));
        for (int i = 0; i < n; i++)
            cells[i] = rnd(30) ? gm_cell((int)rnd(f->b->size), (int)rnd(f->b->size))
                               : (int)rnd(GM_MAX_CELLS + 40) - 20;
        int err = gm_board_setup(f->b, cells, n);
        if (err != GM_OK)
            check_same(&before, f->b);
        else
            CHECK(gm_board_nmoves(f->b) == n);
    } else {
        gm_board *copy = gm_board_new(f->b->size, f->b->rule);
        CHECK(copy != NULL);
        gm_board_copy(copy, f->b);
        check_same(copy, f->b);
        gm_board_free(copy);
        long plies = 0;
        CHECK(gm_bench_random_games(GM_MIN_SIZE + (int)rnd(3), (int)rnd(3), 1, rnd(1000), &plies) >= 0);
        CHECK(plies >= 9);
    }
}

/* Searches deep enough for the move ordering's shortcuts (killers tried before the list, the
   late moves ranked without picking every one) to run, in verify mode, which checks each
   against the list's own order: middle games of random moves near the centre. */
static void deep_searches(fuzz *f, int n)
{
    for (int k = 0; k < n; k++) {
        CHECK(gm_board_reset(f->b, 15, k % 3) == GM_OK);
        for (int m = 0, want = 10 + (int)rnd(16); m < 200 && gm_board_nmoves(f->b) < want; m++)
            if (gm_board_play(f->b, 4 + (int)rnd(7), 4 + (int)rnd(7)) == GM_OK
                && f->b->result != GM_RESULT_NONE) {
                gm_board_undo(f->b);
                break;
            }
        gm_search_result r;
        gm_search_opts o = {0.0, 3000, 0, 0, 0};
        CHECK(gm_search_run(f->s, f->b, &o, &r) == GM_OK);
        f->searches++;
    }
}

int main(int argc, char **argv)
{
    rs = argc > 1 ? strtoull(argv[1], NULL, 10) * 2654435761u + 1 : 1;
    long iters = argc > 2 ? atol(argv[2]) : 20000;
    CHECK(gm_board_new(4, 0) == NULL && gm_board_new(21, 0) == NULL && gm_board_new(15, 3) == NULL);
    fuzz f = {gm_board_new(5 + (int)rnd(16), (int)rnd(3)), gm_search_new((int)rnd(3)), 0, 0, 0, 0, 0};
    CHECK(f.b != NULL && f.s != NULL && gm_search_tt_megabytes(f.s) >= 1);
    gm_search_set_verify(f.s, 1);
    for (long it = 0; it < iters; it++) {
        int size = gm_board_size(f.b), op = (int)rnd(100);
        f.x = (int)rnd(size + 4) - 2;
        f.y = (int)rnd(size + 4) - 2;
        if (op < 60)
            op_play(&f);                /* mostly legal, sometimes not */
        else if (op < 72)
            op_undo(&f);
        else if (op < 94)
            op_read(&f, (int)rnd(4));
        else if (op < 96)
            op_search(&f);
        else
            op_setup(&f, op - 96 > 2 ? 2 : op - 96);
        check_board(f.b);
    }
    deep_searches(&f, 6);
    long checks, bad = gm_search_mismatches(f.s, &checks);
    CHECK(bad == 0);
    gm_board_free(f.b);
    gm_search_free(f.s);
    gm_search_free(NULL);
    printf("ok %ld plays %ld forbidden %ld searches %ld code-checks\n", f.plays,
           f.forbidden_seen, f.searches, checks);
    return 0;
}
