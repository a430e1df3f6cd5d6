/* gomoku.h - the Gomoku engine's C API: board, rules (freestyle, standard, renju), record.
 *
 * Plain C, no I/O, no Python. Points outside the core are (x, y): column from the left, row
 * from the top, 0-based. Inside, a point is a cell index y * GM_MAX_SIZE + x for every board
 * size, the same index the Zobrist table uses; the output buffers of the API hold cell indices
 * (gm_cell, gm_cell_x and gm_cell_y below convert). Colors: GM_EMPTY 0, GM_BLACK 1, GM_WHITE 2.
 *
 * Stones are also kept as bit lines: for each colour and each of the four directions, one
 * uint32_t per line with bit `pos` set for a stone (see internal.h for the line/pos mapping).
 * The rules are read from those lines with shifts and popcounts.
 *
 * Files: see engines/HACKING.md. Dependencies run one way: search.c -> rules.c -> board.c;
 * clock.c is the one place that reads a clock; threats.c (the threat map) reads rules.c;
 * inspect.c (helpers for tests and tools) reads all of them.
 *
 * Everything between the two "binding" markers is also the cffi declaration of the Python
 * module engines.gomoku._core: build_gomoku.py hands that text to cdef() verbatim, except that
 * each #define is replaced by its value. So that part holds only what cdef parses.
 */
#ifndef GOMOKU_H
#define GOMOKU_H

#include <stdint.h>

/* ==== binding: begin (read by engines/gomoku/build_gomoku.py) ==== */

#define GM_MIN_SIZE 5
#define GM_MAX_SIZE 20
#define GM_MAX_CELLS (GM_MAX_SIZE * GM_MAX_SIZE)
#define GM_NDIRS 4
#define GM_MAX_LINES (2 * GM_MAX_SIZE - 1)

enum { GM_EMPTY = 0, GM_BLACK = 1, GM_WHITE = 2 };

/* Directions, in the order of rules.DIRECTIONS: (dx, dy) = (1,0) (0,1) (1,1) (1,-1). */
enum { GM_DIR_ROW = 0, GM_DIR_COL = 1, GM_DIR_DIAG = 2, GM_DIR_ANTI = 3 };

enum { GM_FREESTYLE = 0, GM_STANDARD = 1, GM_RENJU = 2 };

/* The result of a game: none yet, a win, or a draw (full board / no legal move). */
enum { GM_RESULT_NONE = 0, GM_RESULT_BLACK = 1, GM_RESULT_WHITE = 2, GM_RESULT_DRAW = 3 };

/* Why a move or a call is refused. The three forbidden reasons are renju's, for black. */
enum {
    GM_OK = 0,
    GM_ERR_OCCUPIED = 1,
    GM_ERR_OVERLINE = 2,
    GM_ERR_DOUBLE_FOUR = 3,
    GM_ERR_DOUBLE_THREE = 4,
    GM_ERR_OFF_BOARD = 5,
    GM_ERR_GAME_OVER = 6,
    GM_ERR_SIZE = 7,
    GM_ERR_RULE = 8,
    GM_ERR_NO_MOVE = 9,
};

/* A position with its record. Play and undo come in pairs that restore every field. */
typedef struct gm_board {
    int size, rule;
    int to_move;                   /* GM_BLACK or GM_WHITE */
    int result;                    /* GM_RESULT_*; set only by the last move */
    int win_dir;                   /* direction of the winning line, -1 without a win */
    int nmoves;                    /* stones on the board = moves in moves[] */
    uint64_t hash;                 /* XOR of the stones' Zobrist keys (no side to move) */
    uint8_t cell[GM_MAX_CELLS];    /* GM_EMPTY / GM_BLACK / GM_WHITE; off-board cells 0 */
    uint16_t moves[GM_MAX_CELLS];  /* the record: cell of each move, black first */
    uint32_t line[2][GM_NDIRS][GM_MAX_LINES];  /* [color - 1][dir][line]: stone bits */
    uint32_t valid[GM_NDIRS][GM_MAX_LINES];    /* bits of each line that are on the board */
} gm_board;

/* ---- board life cycle (board.c) ---------------------------------------------------------- */

gm_board *gm_board_new(int size, int rule);         /* NULL for a bad size/rule or no memory */
void gm_board_free(gm_board *b);
int gm_board_reset(gm_board *b, int size, int rule); /* empty board; GM_ERR_SIZE/RULE leave b */
void gm_board_copy(gm_board *dst, const gm_board *src);

/* ---- reading (board.c) ------------------------------------------------------------------- */

int gm_board_size(const gm_board *b);
int gm_board_rule(const gm_board *b);
int gm_board_to_move(const gm_board *b);
int gm_board_result(const gm_board *b);
int gm_board_nmoves(const gm_board *b);
int gm_board_move(const gm_board *b, int i);        /* cell of move i, -1 out of range */
int gm_board_at(const gm_board *b, int x, int y);   /* colour, -1 off board */
uint64_t gm_board_hash(const gm_board *b);          /* stones and side to move */
int gm_board_win_line(const gm_board *b, int *cells); /* winning line (<= GM_MAX_SIZE cells) */

uint64_t gm_zobrist_stone(int color, int x, int y);
uint64_t gm_zobrist_white_to_move(void);

/* ---- moves (board.c) --------------------------------------------------------------------- */

int gm_board_check(gm_board *b, int x, int y);      /* GM_OK or why the side to move can't */
int gm_board_play(gm_board *b, int x, int y);       /* check, then play; GM_OK or the reason */
int gm_board_undo(gm_board *b);                     /* GM_OK, GM_ERR_NO_MOVE on an empty record */
int gm_board_legal_moves(gm_board *b, int *cells);  /* side to move; 0 once over; sorted */
int gm_board_setup(gm_board *b, const int *cells, int n);
                                /* a position: empty board, then the n cells black, white,
                                   black ... with no rule checked; only the last stone is
                                   judged (as Gomocup's BOARD). GM_ERR_OFF_BOARD, OCCUPIED (a
                                   cell twice) or SIZE leave b as it was */

/* ---- renju forbidden points (rules.c) ---------------------------------------------------- */
/* These place stones temporarily and leave b exactly as it was (b is not const for that
   reason; do not share one board between threads). */

int gm_board_forbidden(gm_board *b, int x, int y);  /* for black: GM_OK or GM_ERR_OVERLINE/
                                                       DOUBLE_FOUR/DOUBLE_THREE; occupied and
                                                       off-board points and other rules: GM_OK */
int gm_board_forbidden_points(gm_board *b, int *cells); /* for black, sorted; 0 unless renju */

/* ---- threat map (threats.c) ------------------------------------------------------------- */
/* The analysis view's threats: where a stone of a colour makes a five, fours or threes under
   the rule (engines/web/gomoku/threats.py's definitions, not renju's recursive ones). */

enum { GM_THREAT_NONE = 0, GM_THREAT_FIVE = 1, GM_THREAT_OPEN_FOUR = 2, GM_THREAT_FOUR_FOUR = 3,
       GM_THREAT_FOUR_THREE = 4, GM_THREAT_FOUR = 5, GM_THREAT_THREE_THREE = 6,
       GM_THREAT_THREE = 7 };

int gm_board_threats(gm_board *b, int color, int *cells, int *kinds);
                                /* color's threats on empty points within four of its stones
                                   (renju: none on black's forbidden points), strongest first,
                                   then by cell; cells[i] and kinds[i] (GM_THREAT_*) hold up
                                   to GM_MAX_CELLS; returns the count (0 for a bad color).
                                   Puts stones for a moment, as the renju checks do */

/* ---- search (search.c) ------------------------------------------------------------------- */
/* A gm_search owns its transposition table and a copy of the board it searches: it reads a
   const board and never changes it. Budgets: the first of seconds, nodes and depth reached
   ends the search; with none of them set it stops at GM_SEARCH_DEFAULT_DEPTH. */

#define GM_PV_MAX 64
#define GM_CAND_MAX 16
#define GM_SEARCH_MAX_DEPTH 40
#define GM_SEARCH_DEFAULT_DEPTH 4
#define GM_TT_MAX_MB 256
#define GM_WIN_SCORE 30000

typedef struct gm_search gm_search;

typedef struct gm_search_opts {
    double seconds;                /* wall-time budget; <= 0: none */
    long nodes;                    /* node budget; <= 0: none */
    int depth;                     /* deepest iteration; <= 0: none */
    int vcf_plies;                 /* longest VCF tried at the root; <= 0: 31 */
    int plain;                     /* 1: the reference alpha-beta the match baseline plays:
                                      no root VCF, no table, no killers or history */
} gm_search_opts;

typedef struct gm_search_result {
    int move;                      /* cell to play, -1 when the game is over */
    int score;                     /* side to move's view; +-(GM_WIN_SCORE - plies) for a win */
    int depth;                     /* last completed iteration (the VCF length when proven) */
    long nodes;                    /* alpha-beta and VCF nodes */
    double seconds;
    int pv_len;
    int pv[GM_PV_MAX];             /* cells, the move first */
    int ncand;
    int cand[GM_CAND_MAX];         /* root moves by score; the best's score is exact, the */
    int cand_score[GM_CAND_MAX];   /* others' upper bounds (null-window searches) */
    int proven_win_in;             /* plies to the five of a proven (VCF) win, 0 if none */
} gm_search_result;

gm_search *gm_search_new(int tt_megabytes);  /* table clamped to 1..GM_TT_MAX_MB; NULL: memory */
void gm_search_free(gm_search *s);
void gm_search_clear(gm_search *s);  /* a new game: the table emptied, every page of it
                                        written now, before a clock runs (a fresh table's
                                        first use costs page faults) */
int gm_search_run(gm_search *s, const gm_board *b, const gm_search_opts *opts,
                  gm_search_result *out);    /* GM_OK, or GM_ERR_GAME_OVER (out->move -1) */
int gm_search_tt_megabytes(const gm_search *s); /* the table's real size */

/* ---- test and tool helpers (inspect.c) --------------------------------------------------- */

int gm_inspect_run(const gm_board *b, int color, int x, int y, int dir);
                                /* line length through (x, y) along dir if color stood there */
int gm_inspect_fours(gm_board *b, int x, int y, int dir);  /* black fours a stone there makes */
int gm_inspect_three(gm_board *b, int x, int y, int dir);  /* 1 if it makes a three (renju) */
uint32_t gm_inspect_line(const gm_board *b, int color, int x, int y, int dir, int *pos);
                                /* the bit line through (x, y) and the point's bit in *pos */
long gm_bench_random_games(int size, int rule, int games, uint64_t seed, long *plies);
                                /* plays games of uniformly random legal moves on a board of its
                                   own; returns the number of decided games, *plies the moves */

/* ==== binding: end ==== */

static inline int gm_cell(int x, int y) { return y * GM_MAX_SIZE + x; }
static inline int gm_cell_x(int cell) { return cell % GM_MAX_SIZE; }
static inline int gm_cell_y(int cell) { return cell / GM_MAX_SIZE; }
static inline int gm_other(int color) { return 3 - color; }

#endif
