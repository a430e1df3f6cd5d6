/* Fuzz harness for the Go core's C API, built by test_fuzz_core.py with AddressSanitizer and
   UBSan: random call sequences (valid and invalid), with the board's internal invariants
   (chains, pseudo-liberties, empty list, Zobrist hash) recomputed after every change, the
   game checked unchanged by every call that only reads it (the search, scoring, inspect.c).
   Usage: harness SEED ITERATIONS. Exit 0 when every check held. */
#include "go.h"
#include "internal.h"

#include "fuzz_harness.h"

static void check_board(const go_board *b)
{
    int n = b->npoints, empties = 0;
    uint64_t h = 0;
    for (int p = 0; p < n; p++) {
        int c = b->color[p];
        if (c == GO_EMPTY) {
            empties++;
            CHECK(b->empty[b->empty_pos[p]] == p);
        }
        if (c == GO_BLACK || c == GO_WHITE) {
            h ^= b->zob[c * GO_MAX_POINTS + p];
            if (b->chain[p] != p)
                continue;
            int size = 0, plib = 0, lsum = 0, lsq = 0, s = p;
            do {
                CHECK(b->color[s] == c && b->chain[s] == p);
                size++;
                int nb[4] = {s - 1, s + 1, s - b->stride, s + b->stride};
                for (int i = 0; i < 4; i++)
                    if (b->color[nb[i]] == GO_EMPTY) {
                        plib++; lsum += nb[i]; lsq += nb[i] * nb[i];
                    }
                s = b->next[s];
                CHECK(size <= n);
            } while (s != p);
            CHECK(size == b->csize[p]);
            CHECK(plib == b->plib[p] && lsum == b->lsum[p] && lsq == b->lsq[p]);
            CHECK(plib > 0);                     /* no chain without liberties survives */
        }
    }
    CHECK(empties == b->nempty);
    CHECK(h == b->pos_hash);
}

/* What a read-only call must leave as it was: the whole record and the used board. */
typedef struct {
    uint64_t hash, line;
    int nmoves, points[2 * 19 * 19 + 64];
    go_board board;
} snapshot;

static void snap(const go_game *g, snapshot *sn)
{
    sn->hash = go_game_hash(g);
    sn->line = go_game_line(g);
    sn->nmoves = go_game_nmoves(g);
    for (int i = 0; i < sn->nmoves && i < (int)(sizeof sn->points / sizeof *sn->points); i++)
        sn->points[i] = go_game_move_point(g, i);
    go_board_copy(&sn->board, go_game_board(g));
}

static void check_unchanged(const go_game *g, const snapshot *sn)
{
    const go_board *b = go_game_board(g);
    CHECK(go_game_hash(g) == sn->hash && go_game_line(g) == sn->line);
    CHECK(go_game_nmoves(g) == sn->nmoves);
    for (int i = 0; i < sn->nmoves && i < (int)(sizeof sn->points / sizeof *sn->points); i++)
        CHECK(go_game_move_point(g, i) == sn->points[i]);
    CHECK(memcmp(b->color, sn->board.color, b->npoints) == 0);
    CHECK(memcmp(b->empty, sn->board.empty, b->nempty * sizeof *b->empty) == 0);
    CHECK(b->to_move == sn->board.to_move && b->ko == sn->board.ko && b->passes == sn->board.passes);
    CHECK(b->last_move == sn->board.last_move && b->last_move2 == sn->board.last_move2);
}

typedef struct {
    go_game *g;
    go_search *s;
    int color, x, y;          /* this step's random arguments, often invalid */
    long plays;
} fuzz;

static void op_play(fuzz *f)
{
    int caps[2 * 19 * 19 + 2], xy[2 * 19 * 19 + 2], size = go_game_size(f->g);
    int x = f->x, y = f->y;
    if (rnd(4)) {
        int k = go_game_legal_moves(f->g, f->color == 2 ? 2 : 1, xy);
        if (k) { int i = (int)rnd(k); x = xy[2 * i]; y = xy[2 * i + 1]; }
    }
    if (!rnd(20)) x = y = -1;
    int before = go_game_nmoves(f->g), ncap = -1;
    int ok = go_game_check(f->g, f->color, x, y);
    int err = go_game_play(f->g, f->color, x, y, caps, &ncap);
    CHECK(ok == err);
    CHECK(go_game_nmoves(f->g) == before + (err == GO_OK));
    CHECK(ncap >= 0 && ncap <= size * size);
    f->plays += err == GO_OK;
}

static void op_undo(fuzz *f)
{
    int n = go_game_nmoves(f->g);
    if (go_game_undo(f->g) && n > 0) {
        int c, mx, my;
        go_game_move(f->g, n - 2 >= 0 ? n - 2 : 0, &c, &mx, &my);
        CHECK(go_game_nmoves(f->g) == n - 1);
    }
}

static void op_search(fuzz *f)
{
    static go_search_result res;
    int caps[2 * 19 * 19 + 2];
    snapshot sn;
    go_search_opts o = {1 + (long)rnd(150), 0, 1 + (int)rnd(2), (int)rnd(2), 1};
    snap(f->g, &sn);
    int err = go_search_run(f->s, f->g, f->color, &o, &res);
    check_unchanged(f->g, &sn);
    CHECK(err == ((f->color == 1 || f->color == 2) ? GO_OK : GO_ERR_COLOR));
    if (err == GO_OK && res.move_x >= 0) {
        CHECK(go_game_check(f->g, f->color, res.move_x, res.move_y) == GO_OK);
        CHECK(go_game_play(f->g, f->color, res.move_x, res.move_y, caps, NULL) == GO_OK);
    }
}

/* Scoring and inspect.c (kind 0..7): all read the game only. */
static void op_read(fuzz *f, int kind)
{
    int size = go_game_size(f->g), xy[2 * 19 * 19 + 2], kx, ky;
    uint8_t marks[19 * 19], cls[19 * 19 * GO_CLASS_GROUPS];
    uint32_t keys[19 * 19];
    static uint64_t hashes[19 * 19 * GO_PATTERN_SYMS * GO_PATTERN_SIZES];
    int counts[19 * 19 + 1];
    float own[19 * 19], gammas[19 * 19];
    char chars[19 * 19];
    go_rng *rng = go_search_rng(f->s);
    snapshot sn;
    snap(f->g, &sn);
    if (kind == 0) {
        go_game_board_chars(f->g, chars);
        CHECK(go_game_tromp_taylor(f->g) > -1000);
        CHECK(go_game_ko_xy(f->g, &kx, &ky) == (go_game_board(f->g)->ko != 0));
        CHECK(go_game_captures(f->g, 1) >= 0 && go_game_to_move(f->g) == go_game_board(f->g)->to_move);
    } else if (kind == 1) {
        static float planes[GO_VALUE_PLANES * 19 * 19];
        go_game_pass_alive(f->g, marks);
        CHECK(go_game_value_planes(f->g, planes) == size * size);
        float v = go_game_value(f->g, rnd(2) ? own : NULL), board = 0;
        CHECK(v >= 0.0f && v <= 1.0f);
        for (int i = 0; i < size * size; i++)
            board += planes[8 * size * size + i];   /* the plane that marks the board */
        CHECK(board == (float)(size * size));
        static float policy[19 * 19 + 1];
        go_game_board_chars(f->g, chars);
        CHECK(go_game_value_policy(f->g, NULL, policy) == v);
        float top = 0;
        for (int i = 0; i <= size * size; i++) {
            CHECK(policy[i] >= 0.0f && policy[i] <= 1.0f);
            CHECK(i == size * size || chars[i] == '.' || policy[i] == 0.0f);
            top = policy[i] > top ? policy[i] : top;
        }
        CHECK(top == 1.0f);     /* the likeliest move's weight, e^0 */
    } else if (kind == 2) {
        int nd = go_game_dead_stones(f->g, 1 + (int)rnd(20), rng, marks);
        CHECK(nd >= 0 && nd <= size * size);
    } else if (kind == 3) {
        go_game_ownership(f->g, 1 + (int)rnd(10), rng, own);
        for (int i = 0; i < size * size; i++)
            CHECK(own[i] >= -1.0f && own[i] <= 1.0f);
    } else if (kind == 4) {
        (void)go_game_final_score(f->g, 1 + (int)rnd(10), rng);
    } else if (kind < 7) {
        int n = go_game_move_classes(f->g, xy, keys, cls, gammas);
        CHECK(n >= 0 && n <= size * size);
        for (int i = 0; i < n; i++) {
            CHECK(go_game_check(f->g, go_game_to_move(f->g), xy[2 * i], xy[2 * i + 1]) != GO_ERR_OCCUPIED);
            CHECK(gammas[i] > 0.0f);
            (void)go_game_ladder_fails(f->g, go_game_to_move(f->g), xy[2 * i], xy[2 * i + 1]);
        }
        CHECK(go_game_move_patterns(f->g, hashes) == n);   /* the same moves, in the same order */
        if (n > 0) {   /* one move's strength on its own: the same owner map, the same gamma */
            int i = (int)rnd((uint64_t)n);
            CHECK(go_game_move_gamma(f->g, xy[2 * i], xy[2 * i + 1]) == gammas[i]);
        }
        int marked = 0, nt = go_game_tactical_moves(f->g, 1 + (int)rnd(3), marks);
        for (int i = 0; i < size * size; i++) {   /* 1 or 2, on moves legal but for superko */
            int why = marks[i] ? go_game_check(f->g, go_game_to_move(f->g), i % size, i / size) : GO_OK;
            CHECK(marks[i] <= 2 && (why == GO_OK || why == GO_ERR_SUPERKO));
            marked += marks[i] != 0;
        }
        CHECK(nt == marked);
    } else {
        int samples = 1 + (int)rnd(30), total = 0;
        memset(counts, 0, sizeof counts);
        go_game_policy_counts(f->g, (int)rnd(2), samples, rnd(1000), counts);
        for (int i = 0; i <= size * size; i++)
            total += counts[i];
        CHECK(total == samples);
    }
    check_unchanged(f->g, &sn);
}

/* Changes of the game's line (op 0..5) and of the search's tree. */
static void op_setup(fuzz *f, int op)
{
    if (op < 3) {
        int sz = (int)rnd(24) - 2;
        int err = go_game_clear(f->g, sz);
        CHECK(err == ((sz <= 0 || (sz >= 2 && sz <= 19)) ? GO_OK : GO_ERR_SIZE));
    } else if (op < 5) {
        go_game_set_komi(f->g, (double)rnd(30) - 10.5);
        go_game_set_superko(f->g, (int)rnd(2));
    } else {
        go_search_reset(f->s);
    }
}

int main(int argc, char **argv)
{
    rs = argc > 1 ? strtoull(argv[1], NULL, 10) * 2654435761u + 1 : 1;
    long iters = argc > 2 ? atol(argv[2]) : 20000;
    CHECK(go_game_new(1, 7.0, 0) == NULL && go_game_new(20, 7.0, 0) == NULL);
    fuzz f = {go_game_new(2 + (int)rnd(18), 7.0, 0), go_search_new(1), 0, 0, 0, 0};
    CHECK(f.g != NULL && f.s != NULL);
    for (long it = 0; it < iters; it++) {
        int size = go_game_size(f.g), op = (int)rnd(100);
        f.color = rnd(10) ? 1 + (int)rnd(2) : (int)rnd(5) - 1;
        f.x = (int)rnd(size + 4) - 2;
        f.y = (int)rnd(size + 4) - 2;
        if (op < 60)
            op_play(&f);                /* mostly legal, sometimes not */
        else if (op < 70)
            op_undo(&f);
        else if (op < 76)
            op_search(&f);
        else if (op < 94)
            op_read(&f, (int)rnd(8));
        else
            op_setup(&f, op - 94);
        check_board(go_game_board(f.g));
    }
    go_search_free(f.s);
    go_game_free(f.g);
    printf("ok %ld plays\n", f.plays);
    return 0;
}
