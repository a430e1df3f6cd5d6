/* go.h - the Go engine's C API: board, playouts, game record, search, scoring, learned value.
 *
 * Plain C, no I/O, no Python. Points outside this file are (x, y): column from the left,
 * row from the top, 0-based. Inside, a point is an index into a flat array with a one-point
 * border (index = (y + 1) * (size + 2) + (x + 1)); index 0 is never on the board and is
 * used for "pass". Colors: GO_EMPTY 0, GO_BLACK 1, GO_WHITE 2, GO_BORDER 3.
 *
 * Files: see engines/HACKING.md. Dependencies run one way: search.c -> game.c -> score.c ->
 * playout.c, shape.c -> board.c, and search.c -> value.c -> board.c; inspect.c (helpers for
 * tests and tools) reads the others.
 *
 * Everything between the two "binding" markers is also the cffi declaration of the Python
 * module engines.go._core: build_go.py hands that text to cdef() verbatim, except that each
 * #define is replaced by its value. So that part holds only what cdef parses: #define NAME
 * <integer expression of earlier names>, enums, typedefs, structs and prototypes (no inline
 * functions, no other preprocessor lines, no macros in expressions other than those names).
 */
#ifndef GO_H
#define GO_H

#include <stdint.h>

/* ==== binding: begin (read by engines/go/build_go.py) ==== */

#define GO_MIN_SIZE 2
#define GO_MAX_SIZE 19
#define GO_MAX_STRIDE (GO_MAX_SIZE + 2)
#define GO_MAX_POINTS (GO_MAX_STRIDE * GO_MAX_STRIDE)
#define GO_PASS 0

enum { GO_EMPTY = 0, GO_BLACK = 1, GO_WHITE = 2, GO_BORDER = 3 };

/* Why a move is refused (go_game_play / go_game_check). */
enum {
    GO_OK = 0,
    GO_ERR_OCCUPIED = 1,
    GO_ERR_SUICIDE = 2,
    GO_ERR_KO = 3,
    GO_ERR_SUPERKO = 4,
    GO_ERR_OFF_BOARD = 5,
    GO_ERR_COLOR = 6,
    GO_ERR_SIZE = 7,
    GO_ERR_NOMEM = 8,
};

/* ---- Board: one position (copyable with go_board_copy) ---------------------------------- */

typedef struct go_board {
    int size, stride, npoints;     /* npoints = stride * stride, the used part of each array */
    int to_move;                   /* GO_BLACK or GO_WHITE */
    int ko;                        /* point the side to move may not play, 0 when none */
    int last_move, last_move2;     /* last two moves (GO_PASS for a pass), -1 before any */
    int passes;                    /* consecutive passes at the end of the sequence */
    int captures[3];               /* stones captured by [GO_BLACK] and [GO_WHITE] */
    int nempty;                    /* number of empty points, listed in empty[] */
    uint64_t pos_hash;             /* Zobrist hash of the stones only (superko) */
    const uint64_t *zob;           /* this size's table: zob[color * GO_MAX_POINTS + point] */
    uint8_t color[GO_MAX_POINTS];
    uint16_t chain[GO_MAX_POINTS]; /* head stone of the chain a stone belongs to */
    uint16_t next[GO_MAX_POINTS];  /* next stone of the same chain (a cyclic list) */
    uint16_t csize[GO_MAX_POINTS]; /* at a head: number of stones */
    uint16_t plib[GO_MAX_POINTS];  /* at a head: pseudo-liberties (stone, empty neighbour) pairs */
    int32_t lsum[GO_MAX_POINTS];   /* at a head: sum of pseudo-liberty points */
    int32_t lsq[GO_MAX_POINTS];    /* at a head: sum of their squares (atari test) */
    uint16_t empty[GO_MAX_POINTS];
    uint16_t empty_pos[GO_MAX_POINTS];
} go_board;

/* Empty board of size 2..19, black to move. Returns GO_ERR_SIZE for other sizes. */
int go_board_init(go_board *b, int size);
/* Copy the used part of src into dst (dst may be uninitialized). */
void go_board_copy(go_board *dst, const go_board *src);
/* Board index of (x, y); assumes 0 <= x, y < size. */
int go_point(const go_board *b, int x, int y);
/* (x, y) of a board index. */
void go_xy(const go_board *b, int point, int *x, int *y);
/* Simple-ko legality of color at point (GO_PASS is legal); returns GO_OK or a GO_ERR_*. */
int go_board_check(const go_board *b, int color, int point);
/* Play color at point, assuming go_board_check said GO_OK; returns stones captured. Passes ok. */
int go_board_play(go_board *b, int color, int point);
/* Full hash: stones, side to move and ko point. */
uint64_t go_board_hash(const go_board *b);
/* True when point is empty and surrounded like an eye of color (playouts never fill those). */
int go_board_is_eye(const go_board *b, int color, int point);
/* Liberties of the chain at point, counted up to limit; the first ones go to libs if not NULL. */
int go_board_libs(const go_board *b, int point, int limit, int *libs);
/* Tromp-Taylor area score (black minus white, komi not included). */
int go_board_area(const go_board *b);
/* Zobrist key of color at (x, y), from the fixed table shared by all sizes (see rules.py). */
uint64_t go_zobrist_stone(int color, int x, int y);
/* Key xored in when white is to move, and key of a ko point at (x, y). */
uint64_t go_zobrist_white_to_move(void);
uint64_t go_zobrist_ko(int x, int y);

/* ---- Playouts --------------------------------------------------------------------------- */

typedef struct { uint64_t s; } go_rng;
/* Seed a generator. */
void go_rng_seed(go_rng *r, uint64_t seed);
/* Uniform integer in [0, n). */
uint32_t go_rng_below(go_rng *r, uint32_t n);

enum { GO_POLICY_LIGHT = 0, GO_POLICY_HEAVY = 1 };

/* Choose a move for b->to_move under a policy (GO_PASS when nothing sensible is legal). */
int go_playout_move(go_board *b, int policy, go_rng *r);
/* Play to the end (two passes or a move cap); returns the area score (black minus white).
   When moves is not NULL, the played moves are stored (up to max_moves) and *nmoves set. */
int go_playout_run(go_board *b, int policy, go_rng *r, uint16_t *moves, int max_moves, int *nmoves);
/* Light random games from the empty board (benchmark); returns games played. */
long go_bench_light(int size, long games, uint64_t seed);

/* ---- Game record: history, undo, superko, scoring --------------------------------------- */

typedef struct go_game go_game;

/* New game (size 2..19); NULL on bad size or no memory. */
go_game *go_game_new(int size, double komi, int superko);
void go_game_free(go_game *g);
/* Empty the board; a new size when size > 0. Returns GO_OK or GO_ERR_SIZE. */
int go_game_clear(go_game *g, int size);
void go_game_set_komi(go_game *g, double komi);
double go_game_komi(const go_game *g);
void go_game_set_superko(go_game *g, int on);
int go_game_superko(const go_game *g);
/* The current position (read only). */
const go_board *go_game_board(const go_game *g);
/* Line of play: a number no other game or earlier line had, renewed by go_game_new,
   go_game_clear and a komi change (a search tree is only reused within one line). */
uint64_t go_game_line(const go_game *g);
int go_game_size(const go_game *g);
int go_game_to_move(const go_game *g);
/* The ko point as (x, y); returns 0 (and leaves x, y) when there is none. */
int go_game_ko_xy(const go_game *g, int *x, int *y);
/* Stones captured so far by color. */
int go_game_captures(const go_game *g, int color);
/* Legality of color at (x, y); (-1, -1) is a pass. Returns GO_OK or why not. */
int go_game_check(const go_game *g, int color, int x, int y);
/* Play color at (x, y) ((-1, -1): pass). Captured points go to cap_xy as x,y pairs (room for
   2 * size * size ints) and their count to *ncap. Returns GO_OK or why it was refused. */
int go_game_play(go_game *g, int color, int x, int y, int *cap_xy, int *ncap);
/* Take back the last move; 0 when there is none. */
int go_game_undo(go_game *g);
/* Number of moves played, and move i as color and (x, y) (x = -1 for a pass). */
int go_game_nmoves(const go_game *g);
void go_game_move(const go_game *g, int i, int *color, int *x, int *y);
/* Move i as a board index (GO_PASS for a pass). */
int go_game_move_point(const go_game *g, int i);
/* Would color at the point (legal by simple ko) repeat an earlier position of the game? */
int go_game_repeats(const go_game *g, int color, int point);
/* Legal points for color (x,y pairs into xy, room for 2 * size * size); returns the count. */
int go_game_legal_moves(const go_game *g, int color, int *xy);
/* Board as size*size chars '.', 'b', 'w', rows top to bottom (out needs size*size bytes). */
void go_game_board_chars(const go_game *g, char *out);
/* Full hash of the position (stones, side to move, ko). */
uint64_t go_game_hash(const go_game *g);
/* Tromp-Taylor area score with komi, positive = black ahead. */
double go_game_tromp_taylor(const go_game *g);
/* Benson: marks out[y * size + x] = 1 for stones of pass-alive chains (either color). */
void go_game_pass_alive(const go_game *g, uint8_t *out);
/* The three below run playouts drawing from rng (the caller's stream: the engine passes its
   search's, go_search_rng, so one seed fixes everything); the game is not changed. */
/* Ownership by playouts from the current position: own[y*size+x] in [-1 white, 1 black]. */
void go_game_ownership(const go_game *g, int playouts, go_rng *rng, float *own);
/* Dead stones judged from ownership (pass-alive chains never dead): out[y*size+x] = 1.
   Returns the number of dead stones. */
int go_game_dead_stones(const go_game *g, int playouts, go_rng *rng, uint8_t *out);
/* Area score after removing dead stones, komi included, positive = black ahead. */
double go_game_final_score(const go_game *g, int playouts, go_rng *rng);

/* ---- Search ----------------------------------------------------------------------------- */

/* A search owns its tree (kept between runs for reuse) and its random stream. It reads the
   game it is given and never changes it. One search serves one caller at a time. */
typedef struct go_search go_search;

typedef struct {
    long playouts;          /* budget in playouts (0 = unbounded by playouts) */
    double seconds;         /* budget in seconds (0 = unbounded by time) */
    int threads;            /* worker threads, 1.. */
    int reuse;              /* keep the subtree of the moves played since the last search */
    int want_pv;            /* reserved: the principal variation is always filled */
    int value;              /* 1: the learned network (value.c) gives the priors, its policy the
                               children's and its value the node's, on the board size it was
                               trained on; 0 (default): the shapes alone (bench/README.md). */
} go_search_opts;

#define GO_MAX_CANDIDATES (GO_MAX_SIZE * GO_MAX_SIZE + 1)
#define GO_MAX_PV 32

typedef struct {
    int move_x, move_y;      /* chosen move; move_x = -1 pass, -2 resign */
    double winrate;          /* for the color searched */
    long playouts;           /* playouts run by this search */
    long tree_playouts;      /* visits of the root, including reused ones */
    long valued;             /* positions the learned value judged in this run */
    double seconds;
    int ncandidates;
    int cand_x[GO_MAX_CANDIDATES], cand_y[GO_MAX_CANDIDATES];
    int cand_visits[GO_MAX_CANDIDATES];
    float cand_prior[GO_MAX_CANDIDATES], cand_winrate[GO_MAX_CANDIDATES];
    int npv;
    int pv_x[GO_MAX_PV], pv_y[GO_MAX_PV];
    float ownership[GO_MAX_SIZE * GO_MAX_SIZE]; /* -1 white .. 1 black, row-major */
} go_search_result;

/* New search whose random stream starts from seed; NULL when out of memory. */
go_search *go_search_new(uint64_t seed);
void go_search_free(go_search *s);
/* Drop the tree (memory back; the next run starts afresh). */
void go_search_reset(go_search *s);
/* The search's random stream (for go_game_ownership and friends). */
go_rng *go_search_rng(go_search *s);
/* Search for color in g's position; g is only read. With opts->reuse the tree of the last run
   is kept when g continues the line it searched (same go_game_line, its moves a prefix of
   g's). Does not play the move. Returns GO_OK, GO_ERR_COLOR or GO_ERR_NOMEM. */
int go_search_run(go_search *s, const go_game *g, int color, const go_search_opts *opts,
                  go_search_result *res);

/* ---- Inspection (inspect.c): for tests and tools, compiled by the fuzz harness too ------- */

/* 1 when color extending from atari at (x, y) is still captured in a ladder. */
int go_game_ladder_fails(const go_game *g, int color, int x, int y);
/* The moves the search boosts (1) or holds back (2) under the network, for the side to move
   (go_tactical_moves, internal.h): 1 decides a fight of chains of min_size stones or more at
   once, 2 is a self-atari of two stones or more; marks[y * size + x] (room for size * size,
   0 elsewhere). Returns the count. */
int go_game_tactical_moves(const go_game *g, int min_size, uint8_t *marks);
/* Training data for learn_priors.py: every legal move of the side to move (no pass) as x,y
   pairs into xy, its canonical 3x3 shape key into keys, its GO_CLASS_GROUPS (internal.h)
   classes into cls and, unless gammas is NULL, the learned strength the search gives it into
   gammas; room for size * size moves. Returns the count. */
int go_game_move_classes(const go_game *g, int *xy, uint32_t *keys, uint8_t *cls, float *gammas);
/* Large patterns (learn_priors.py): for the same moves in the same order as
   go_game_move_classes, the hashes of the stones around each move out to GO_PATTERN_SIZES
   growing distances, seen through each of the 8 rotations and reflections:
   hashes[(n * GO_PATTERN_SYMS + sym) * GO_PATTERN_SIZES + size]. Returns the count. */
#define GO_PATTERN_SIZES 6
#define GO_PATTERN_SYMS 8
int go_game_move_patterns(const go_game *g, uint64_t *hashes);
/* A fingerprint of the pattern hashing (its cells and keys): a table of hashes is valid only
   for the core whose fingerprint it records. */
uint64_t go_pattern_fingerprint(void);
/* The learned strength the search gives the side to move's legal move at (x, y). */
float go_game_move_gamma(const go_game *g, int x, int y);
/* How often the playout policy picks each point (counts[y * size + x], a pass at
   counts[size * size], added to) as the side to move's next move over samples draws. */
void go_game_policy_counts(const go_game *g, int policy, int samples, uint64_t seed, int *counts);

/* The learned value (value.c, value_weights.h). The network's input: GO_VALUE_PLANES planes of
   size * size floats (plane-major, row-major), seen from the side to move: its stones, the
   opponent's, its chains with one and with two liberties, the opponent's, the last move, the
   ko point, the board (all 1), whether black is to move (all 1 or all 0), its chains with
   three liberties, the opponent's, its chains that die in a ladder if the attacker moves first
   (one or two liberties), the opponent's. Returns size*size. An even count (value.c pairs them). */
#define GO_VALUE_PLANES 14
int go_game_value_planes(const go_game *g, float *out);
/* The chance that the side to move wins; ownership (size * size, row-major, +1 the side to
   move's) unless NULL. */
float go_game_value(const go_game *g, float *ownership);
/* The same, and the network's policy for the side to move's next move into policy
   (size * size + 1, a pass last): weights proportional to the chance of each move, 0 on the
   occupied points. */
float go_game_value_policy(const go_game *g, float *ownership, float *policy);
/* The board size the value's network was trained on (the search uses it there only). */
int go_value_trained_size(void);
/* The network's convolutions run in 16-bit integers with the fastest kernel this CPU has (they
   all compute the same numbers): GO_VALUE_KERNEL_* for the one in use; go_value_use_kernel
   makes KERNEL the one in use if this CPU runs it (returns 1) and otherwise changes nothing
   (returns 0). For tests and benchmarks: not while a search runs. */
#define GO_VALUE_KERNEL_PLAIN 0
#define GO_VALUE_KERNEL_SSE2 1
#define GO_VALUE_KERNEL_AVX2 2
#define GO_VALUE_KERNEL_AVX512VNNI 3
#define GO_VALUE_KERNEL_AVXVNNI 4
#define GO_VALUE_KERNEL_SIMD128 5
int go_value_kernel(void);
int go_value_use_kernel(int kernel);

/* ==== binding: end ==== */

/* Opponent of a color. */
static inline int go_other(int color) { return 3 - color; }

#endif
