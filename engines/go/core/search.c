/* search.c - UCT with RAVE, priors as progressive bias (learned shapes, or when asked the
   learned network's policy and value), progressive widening, threads with virtual loss,
   tree reuse between moves, ownership statistics. A go_search is its own object: it reads
   the caller's game (const), copies the board it needs and never plays on the game.

   The tree is a tree (no transposition merging), so values never mix histories: sound under
   ko and superko. Nodes live in chunks allocated on demand; index 0 is "none". */
#include "go.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tuning (measured against GNU Go; see bench/README.md) ----------------------------- */

#define RAVE_EQUIV 2500.0   /* visits at which direct and AMAF evidence weigh the same */
/* The same under the network, whose priors and values leave less for AMAF to teach: 1000 won
   +41 Elo [+3, +79] over 2500 at 1,000 playouts (334 games; bench/README.md, session 32). */
#define NET_RAVE_EQUIV 1000.0
/* Under the network, AMAF counts only the moves made within NET_AMAF_HORIZON moves after the
   node: later in a playout a move is often no longer the same move (a race it wins played now
   is lost played later), and that verdict had buried a refutation that had to be played at
   once (seed 1084). 20 found it and lost nothing measurable: 573.5/700 against GNU Go at
   1,000 playouts where the full playout scored 571.5 on the same seeds, +30 Elo in self-play
   at 1,000 playouts and -8 at 0.1 s (non-regression); 10 lost 6.5 of 100 (bench/README.md,
   session 39). */
#define NET_AMAF_HORIZON 20
#define AMAF_NEAR 3.0f      /* extra AMAF weight of a move played right after the node, fading to 0 */
/* Brings the weights back to about 1 on average, so RAVE_EQUIV keeps its meaning: unscaled,
   the same weights lost (-65 Elo [-149, +13] at 1,000 playouts); scaled, they won +46. */
#define AMAF_SCALE (1.0f / (1.0f + AMAF_NEAR / 2))
#define EXPLORE 0.05        /* UCB exploration on top of RAVE (small: priors explore) */
/* The same under the network's priors, which concentrate the visits on fewer moves: 0.10 won
   +50 Elo [+7, +96] over 0.05 at 1,000 playouts (222 games) and held at 0.1 s (+8, non-
   regression). Without the network (13x13, 19x19) EXPLORE stays as it was measured. */
#define NET_EXPLORE 0.10
#define PRIOR_VISITS 10     /* virtual visits of a learned prior (its wins: the move's share) */
/* The same for the network's policy, which orders moves better than the shapes: 20 won +33 Elo
   [+4, +63] over 10 at 1,000 playouts (492 games; bench/README.md, session 30). */
#define NET_PRIOR_VISITS 20
/* The policy's odds raised to this power before they set the priors: a sharper policy than
   trained. 1.3 won +59 Elo [+8, +111] at 1,000 playouts (178 games) and held at 0.1 s (+21);
   0.7 (-9) and 1.6 (-30 against 1.3) lost. bench/README.md, session 31. */
#define POLICY_SHARPEN 1.3f
/* When asked (opts->value), the network (value.c) is evaluated once for every node the search
   expands: its policy orders the children and sets their priors in place of the shapes (a
   move's strength: its chance over the average legal move's), and its value joins the node's
   own prior as VALUE_VISITS virtual visits. Every expanded node, with no cap per search: a cap
   left the nodes past it unvalued beside valued siblings, and lost (-92 Elo at 2,500 playouts).
   About one evaluation per 2 playouts; one of the shipped 16-channel network, in 16-bit
   integers, takes about 0.6 playouts' time (1.5 in floats; a 32-channel one in floats, 5,
   lost its gain at equal time: bench/README.md). Evaluating every leaf at its first visit
   won at equal playouts and lost at equal time, in floats and in integers (sessions 29, 30). */
#define VALUE_VISITS 20
/* Under the network, the moves that decide a fight at once (go_tactical_moves: captures,
   escapes that get out, races at two liberties) of chains of TACTIC_MIN_SIZE stones or more
   get their policy strength multiplied by TACTIC_BOOST, and self-ataris of two stones or more
   by TACTIC_SELF_ATARI: at 1,000 playouts the tree missed refutations like these when their
   prior kept them unvisited. 247.5/300 against GNU Go at 1,000 playouts where the policy
   alone scored 234 (the same fresh seeds), even in self-play (bench/README.md, session 37). */
#define TACTIC_BOOST 3.0f
#define TACTIC_SELF_ATARI 0.1f
#define TACTIC_MIN_SIZE 2
#define RESIGN_BELOW 0.06   /* resign when the best move wins less often than this ... */
#define UNIT 256            /* a won simulation is worth UNIT (int32 sums: 8M visits a node) */
#define SCORE_BONUS 0.01    /* share of a result given by the margin: breaks draws; 0.05 lost 3 of 5 as white */
#define RESIGN_MIN_VISITS 2000 /* ... with at least this many visits at the root */
#define DRAW_SLACK 0.05     /* a drawn count is played on with a move rated at most this below the best */
#define REUSE_MAX_NODES (1500000u)
#define MAX_DEPTH 600
#define MAX_PLAYOUT (3 * GO_MAX_SIZE * GO_MAX_SIZE + 16)

typedef struct node {
    uint16_t move;
    uint16_t nchildren;       /* published (release) after the children are written */
    uint32_t children;        /* index of the first child, 0 while not expanded */
    int32_t visits, wins;     /* wins in 1/UNIT for the player who played move */
    float rvisits, rwins;     /* AMAF statistics, weighted by how soon the move came (wins in 0..1) */
    uint8_t pv, pw;           /* prior: pv virtual visits holding pw virtual wins */
    uint8_t expanding;        /* set (CAS) by the one thread that expands the node */
    uint8_t pad;
} node;

#define CHUNK_BITS 16
#define CHUNK (1u << CHUNK_BITS)
#define MAX_CHUNKS 64
#define KEEP_CHUNKS 4

struct go_search {
    plat_mutex lock;
    node *chunks[MAX_CHUNKS];
    uint32_t used;            /* next free node index */
    uint32_t root;            /* 0: no tree */
    int root_size, root_color, root_nmoves, moves_cap;
    uint64_t root_line;       /* go_game_line of the game last searched */
    uint16_t *root_moves;     /* the game's moves when the tree was last searched */
    go_rng rng;               /* seeds the workers; the pass decision's judging playouts */
};

#define NODE(s, i) (&(s)->chunks[(i) >> CHUNK_BITS][(i) & (CHUNK - 1)])

/* ---- Arena --------------------------------------------------------------------------- */

go_search *go_search_new(uint64_t seed)
{
    go_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    plat_mutex_init(&s->lock);
    s->used = 1;
    go_rng_seed(&s->rng, seed);
    return s;
}

go_rng *go_search_rng(go_search *s) { return &s->rng; }

void go_search_free(go_search *s)
{
    if (!s)
        return;
    for (int i = 0; i < MAX_CHUNKS; i++)
        free(s->chunks[i]);
    free(s->root_moves);
    plat_mutex_destroy(&s->lock);
    free(s);
}

static void arena_reset(go_search *s)
{
    for (int i = KEEP_CHUNKS; i < MAX_CHUNKS; i++) {
        free(s->chunks[i]);
        s->chunks[i] = NULL;
    }
    s->used = 1;
    s->root = 0;
}

void go_search_reset(go_search *s) { arena_reset(s); }

/* n consecutive nodes (zeroed) in one chunk; 0 when memory is exhausted. */
static uint32_t arena_alloc(go_search *s, int n)
{
    uint32_t at = 0;
    plat_mutex_lock(&s->lock);
    uint32_t i = s->used;
    if ((i & (CHUNK - 1)) + (uint32_t)n > CHUNK)
        i = (i | (CHUNK - 1)) + 1;
    uint32_t c = i >> CHUNK_BITS;
    if (c < MAX_CHUNKS && !s->chunks[c])
        s->chunks[c] = malloc(CHUNK * sizeof(node));
    if (c < MAX_CHUNKS && s->chunks[c]) {
        memset(NODE(s, i), 0, n * sizeof(node));
        s->used = i + n;
        at = i;
    }
    plat_mutex_unlock(&s->lock);
    return at;
}

/* ---- Priors and expansion --------------------------------------------------------------- */

/* Pass is always a child: even when nothing is settled yet, and likelier after a pass. */
static void set_pass_prior(node *n, const go_board *b)
{
    n->move = GO_PASS;
    n->pv = 10;
    n->pw = b->last_move == GO_PASS ? 5 : 1;
}

static double prior_value(const node *n) { return (double)n->pw / n->pv; }

/* VALUE_VISITS more virtual visits for n, won WON of the time. */
static void value_prior(node *n, float won)
{
    n->pw = (uint8_t)(n->pw + (int)(VALUE_VISITS * won + 0.5f));
    n->pv = (uint8_t)(n->pv + VALUE_VISITS);
}

/* The network at b, the position after n's move: its value joins n's prior (not a pass's,
   whose value the count decides), and the policy's strengths of the NLEGAL moves (1 for an
   average move) go to gamma[], their total to *sum; returns 0 when there is no policy (out of
   memory: all weights 0), gamma[] then to be overwritten. */
static int net_priors(node *n, const go_board *b, const uint16_t *legal, int nlegal,
                      float *gamma, float *sum)
{
    float prob[GO_MAX_POINTS + 1], total = 0;
    float v = go_value_eval_policy(b, NULL, prob, POLICY_SHARPEN);
    if (n->move != GO_PASS)
        value_prior(n, 1.0f - v);
    int x, y;
    for (int i = 0; i < nlegal; i++) {
        go_xy(b, legal[i], &x, &y);
        total += gamma[i] = prob[y * b->size + x];
    }
    if (!(total > 0))
        return 0;
    *sum = 0;
    for (int i = 0; i < nlegal; i++)
        *sum += gamma[i] = gamma[i] / total * nlegal;
    return 1;
}

/* Prior of a move from its learned strength (shape.c, or the network's policy): share = gamma /
   (gamma + the mean gamma of the legal moves), so an average move starts at VISITS virtual
   visits (PRIOR_VISITS, or NET_PRIOR_VISITS by the policy) won half the time, the favourite of
   a position nearly always, and a self-atari or an eye fill nearly never. */
static void set_prior(node *n, float gamma, float mean, int visits)
{
    float share = gamma / (gamma + mean);
    n->pv = (uint8_t)visits;
    n->pw = (uint8_t)(visits * share + 0.5f);
}

/* Children: pass first (always selectable), then legal moves by falling strength: the shape's
   gamma, or with NET the network's policy; with NET, the network's value of b joins n's prior
   too. */
static int expand(go_search *s, node *n, const go_board *b, int net)
{
    uint8_t zero = 0;
    if (!__atomic_compare_exchange_n(&n->expanding, &zero, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return 0;
    node tmp[GO_MAX_CANDIDATES];
    uint8_t marks[GO_MAX_POINTS];
    uint16_t legal[GO_MAX_CANDIDATES];
    float gamma[GO_MAX_CANDIDATES], sum = 0;
    int count = 0, nlegal = 0;
    memset(tmp, 0, sizeof tmp);
    for (int i = 0; i < b->nempty; i++)
        if (go_board_check(b, b->to_move, b->empty[i]) == GO_OK)
            legal[nlegal++] = (uint16_t)b->empty[i];
    /* The shapes' gammas only where the policy does not give the strengths. */
    int by_net = net && nlegal && net_priors(n, b, legal, nlegal, gamma, &sum);
    if (by_net && go_tactical_moves(b, TACTIC_MIN_SIZE, marks))
        for (int i = 0; i < nlegal; i++)
            gamma[i] *= marks[legal[i]] == GO_TACTIC_DECIDES      ? TACTIC_BOOST
                        : marks[legal[i]] == GO_TACTIC_SELF_ATARI ? TACTIC_SELF_ATARI
                                                                  : 1.0f;
    if (!by_net) {
        go_two_liberty_marks(b, marks);
        for (int i = 0; i < nlegal; i++)
            sum += gamma[i] = go_move_gamma(b, b->to_move, legal[i], marks);
    }
    set_pass_prior(&tmp[count++], b);
    float order[GO_MAX_CANDIDATES];   /* gamma of tmp[j]: finer than the rounded prior */
    for (int i = 0; i < nlegal; i++) {
        node c;
        memset(&c, 0, sizeof c);
        c.move = legal[i];
        set_prior(&c, gamma[i], sum / nlegal, by_net ? NET_PRIOR_VISITS : PRIOR_VISITS);
        int j = count++;
        while (j > 1 && order[j - 1] < gamma[i]) {
            tmp[j] = tmp[j - 1];
            order[j] = order[j - 1];
            j--;
        }
        tmp[j] = c;
        order[j] = gamma[i];
    }
    uint32_t at = arena_alloc(s, count);
    if (!at)
        return 0; /* out of memory: stays a leaf, 'expanding' keeps others from retrying */
    memcpy(NODE(s, at), tmp, count * sizeof(node));
    n->children = at;
    __atomic_store_n(&n->nchildren, (uint16_t)count, __ATOMIC_RELEASE);
    return 1;
}

/* ---- One simulation ------------------------------------------------------------------------ */

typedef struct {
    go_search *s;
    const go_board *root_board;
    double komi;
    long budget;
    double deadline;
    int expand_at;
    int use_value;            /* asked for (opts->value), and trained on this board size */
    double explore;           /* EXPLORE or NET_EXPLORE, by use_value */
    float inv_rave;           /* 1 / RAVE_EQUIV or 1 / NET_RAVE_EQUIV, by use_value */
    int amaf_horizon;         /* NET_AMAF_HORIZON under the network, else the whole playout */
    int stop;
    long done;
    long valued;
    uint8_t banned[GO_MAX_POINTS];   /* root moves that would repeat an earlier position */
} run_ctx;

typedef struct {
    run_ctx *ctx;
    go_rng rng;
    plat_thread thread;
    int32_t own[GO_MAX_POINTS];
    long playouts;
} worker;

static inline int32_t load(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void add(int32_t *p, int32_t v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
/* AMAF counts are many per simulation: a plain load and store (no locked instruction); two
   threads updating the same child at once may lose one update, which statistics shrug off. */
static inline void add_racy(float *p, float v)
{
    float old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    old += v;
    __atomic_store(p, &old, __ATOMIC_RELAXED);
}
static inline float load_f(const float *p)
{
    float v;
    __atomic_load(p, &v, __ATOMIC_RELAXED);
    return v;
}

static int widen_limit(int32_t visits)
{
    return 5 + (int)(2.0 * sqrt((double)visits));
}

static uint32_t select_child(run_ctx *ctx, node *n, int nch, int at_root)
{
    go_search *s = ctx->s;
    int32_t parent = load(&n->visits);
    int limit = widen_limit(parent);
    /* value = (1 - beta) q + beta rq + explore, with beta = rv / D and D = rv + v + rv v / K,
       rewritten as ((1 + rv / K) w + rw) / D: one division instead of three per child. */
    const float explore = (float)(ctx->explore * sqrt(log((double)parent + 1.0))), inv_k = ctx->inv_rave;
    const float unit = 1.0f / UNIT;
    float best = -1e9f;
    uint32_t pick = n->children;
    for (int i = 0; i < nch && i <= limit; i++) {
        uint32_t ci = n->children + i;
        node *c = NODE(s, ci);
        if (at_root && ctx->banned[c->move])
            continue;
        float v = (float)(load(&c->visits) + c->pv), w = load(&c->wins) * unit + c->pw;
        float val;
        if (c->move == GO_PASS) {
            val = w / v;
        } else {
            float rv = load_f(&c->rvisits) + c->pv, rw = load_f(&c->rwins) + c->pw;
            val = ((1.0f + rv * inv_k) * w + rw) / (rv + v + rv * v * inv_k);
        }
        val += explore / sqrtf(v);
        if (val > best) {
            best = val;
            pick = ci;
        }
    }
    return pick;
}

static void add_ownership(worker *w, const go_board *b)
{
    int s = b->stride;
    for (int p = s; p < b->npoints - s; p++) {
        int c = b->color[p];
        if (c == GO_EMPTY) {
            int t = 0, nb[4] = {p - 1, p + 1, p - s, p + s};
            for (int k = 0; k < 4; k++)
                if (b->color[nb[k]] != GO_BORDER)
                    t |= b->color[nb[k]];
            c = t;
        }
        w->own[p] += c == GO_BLACK ? 1 : c == GO_WHITE ? -1 : 0;
    }
}

/* Walk down the tree on b from the root (virtual loss on the way), expanding a leaf once it
   has been visited often enough. Fills path[0..depth] and who is to move there; returns depth. */
static int sim_descend(run_ctx *ctx, go_board *b, uint32_t *path, uint8_t *tomove)
{
    go_search *s = ctx->s;
    int depth = 0;
    path[0] = s->root;
    tomove[0] = (uint8_t)b->to_move;
    node *n = NODE(s, s->root);
    add(&n->visits, 1);
    while (depth < MAX_DEPTH - 1 && b->passes < 2) {
        int nch = __atomic_load_n(&n->nchildren, __ATOMIC_ACQUIRE);
        if (!nch) {
            if (load(&n->visits) < ctx->expand_at || !expand(s, n, b, ctx->use_value))
                break;
            if (ctx->use_value)
                __atomic_add_fetch(&ctx->valued, 1, __ATOMIC_RELAXED);
            nch = n->nchildren;
        }
        uint32_t ci = select_child(ctx, n, nch, depth == 0);
        n = NODE(s, ci);
        __atomic_add_fetch(&n->visits, 1, __ATOMIC_RELAXED); /* virtual loss */
        go_board_play(b, b->to_move, n->move);
        path[++depth] = ci;
        tomove[depth] = (uint8_t)b->to_move;
    }
    return depth;
}

/* Play out from b to the end; returns the result for black in 1/UNIT: mostly win/loss, a
   little margin (a half-point-komi draw is 0.5). */
static int sim_playout(worker *w, go_board *b, uint16_t *moves, int *nmoves)
{
    /* Two passes in the tree are scored the way the game will be: dead stones removed. The
       playout from there captures them (it only stops when no sensible move is left). The
       plain area count still guards the real pass decision in go_search_run. */
    b->passes = 0;
    double score = go_playout_run(b, GO_POLICY_HEAVY, &w->rng, moves, MAX_PLAYOUT, nmoves) - w->ctx->komi;
    add_ownership(w, b);
    double value = score > 0 ? 1.0 - SCORE_BONUS : score < 0 ? 0.0 : 0.5 - SCORE_BONUS / 2;
    value += SCORE_BONUS * (0.5 + 0.5 * tanh(score / (2.0 * b->size)));
    return (int)(value * UNIT + 0.5);
}

/* Back up result rb (for black): direct statistics on the path, AMAF for the siblings whose
   move the same player made first later in the sequence (amaf: who played each point first,
   room for the board's points, cleared by the caller; first: when). A move played soon after
   the node tells more about it than one near the end of the playout, so its AMAF weight runs
   from 1 + AMAF_NEAR down to 1 (as Pachi's distance_rave); only the first horizon
   moves after the node count. */
static void sim_backup(go_search *s, const uint32_t *path, const uint8_t *tomove, int depth,
                       const uint16_t *moves, int nmoves, int rb, int horizon, uint8_t *amaf,
                       int16_t *first)
{
    int col = tomove[depth], total = depth + nmoves;
    for (int i = 0; i < nmoves; i++, col = go_other(col))
        if (moves[i] != GO_PASS && !amaf[moves[i]]) {
            amaf[moves[i]] = (uint8_t)col;
            first[moves[i]] = (int16_t)(depth + i);
        }
    for (int d = depth; d >= 0; d--) {
        node *nd = NODE(s, path[d]);
        int mover = go_other(tomove[d]);
        add(&nd->wins, mover == GO_BLACK ? rb : UNIT - rb);
        int nch = __atomic_load_n(&nd->nchildren, __ATOMIC_ACQUIRE);
        float r = (tomove[d] == GO_BLACK ? rb : UNIT - rb) * (1.0f / UNIT);
        float near = AMAF_NEAR / (float)(total - d > 0 ? total - d : 1);
        for (int i = 0; i < nch; i++) {
            node *c = NODE(s, nd->children + i);
            if (c->move != GO_PASS && amaf[c->move] == tomove[d] && first[c->move] - d < horizon) {
                float weight = (1.0f + near * (float)(total - first[c->move])) * AMAF_SCALE;
                add_racy(&c->rvisits, weight);
                add_racy(&c->rwins, r * weight);
            }
        }
        if (d > 0 && nd->move != GO_PASS) {
            amaf[nd->move] = (uint8_t)mover;
            first[nd->move] = (int16_t)(d - 1);
        }
    }
}

static void simulate(worker *w)
{
    run_ctx *ctx = w->ctx;
    go_board b;
    uint32_t path[MAX_DEPTH];
    uint8_t tomove[MAX_DEPTH], amaf[GO_MAX_POINTS];
    int16_t first[GO_MAX_POINTS];
    uint16_t moves[MAX_PLAYOUT];
    int nmoves = 0;

    go_board_copy(&b, ctx->root_board);
    int depth = sim_descend(ctx, &b, path, tomove);
    int rb = sim_playout(w, &b, moves, &nmoves);
    memset(amaf, 0, b.npoints);
    sim_backup(ctx->s, path, tomove, depth, moves, nmoves, rb, ctx->amaf_horizon, amaf, first);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    run_ctx *ctx = w->ctx;
    for (long i = 0;; i++) {
        if (__atomic_load_n(&ctx->stop, __ATOMIC_RELAXED))
            break;
        simulate(w);
        w->playouts++;
        long done = __atomic_add_fetch(&ctx->done, 1, __ATOMIC_RELAXED);
        if ((ctx->budget && done >= ctx->budget) ||
            (ctx->deadline > 0 && (i & 7) == 0 && plat_now_seconds() >= ctx->deadline))
            __atomic_store_n(&ctx->stop, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* ---- Tree reuse ---------------------------------------------------------------------------- */

/* Move the root down along the moves played since the last search, or start afresh. */
static void prepare_root(go_search *s, const go_game *g, const go_board *b, int color)
{
    int nm = go_game_nmoves(g);
    uint32_t r = s->root;
    if (r && (s->root_line != go_game_line(g) || s->root_size != b->size || nm < s->root_nmoves ||
              s->used > REUSE_MAX_NODES))
        r = 0;
    for (int i = 0; r && i < s->root_nmoves; i++)
        if (s->root_moves[i] != go_game_move_point(g, i))
            r = 0;
    int expect = s->root_color;
    for (int i = s->root_nmoves; r && i < nm; i++) {
        int c, x, y, p = go_game_move_point(g, i);
        go_game_move(g, i, &c, &x, &y);
        node *n = NODE(s, r);
        int nch = n->nchildren;
        uint32_t next = 0;
        for (int k = 0; k < nch && c == expect; k++)
            if (NODE(s, n->children + k)->move == p)
                next = n->children + k;
        r = next;
        expect = go_other(expect);
    }
    if (r && expect != color)
        r = 0;
    if (!r) {
        arena_reset(s);
        r = arena_alloc(s, 1);
        NODE(s, r)->move = (uint16_t)(b->last_move > 0 ? b->last_move : GO_PASS);
    }
    s->root = r;
    s->root_line = go_game_line(g);
    s->root_size = b->size;
    s->root_color = color;
    if (nm > s->moves_cap) {
        uint16_t *m = realloc(s->root_moves, (nm + 256) * sizeof *m);
        if (m) {
            s->root_moves = m;
            s->moves_cap = nm + 256;
        }
    }
    s->root_nmoves = nm <= s->moves_cap ? nm : 0;
    for (int i = 0; i < s->root_nmoves; i++)
        s->root_moves[i] = (uint16_t)go_game_move_point(g, i);
}

/* ---- Results ------------------------------------------------------------------------------- */

static double child_winrate(const node *c)
{
    return c->visits ? c->wins * (1.0 / UNIT) / c->visits : (double)c->pw / c->pv;
}

/* Root children worth reporting into order[], by visits (ties: prior); returns the count. */
static int result_order(run_ctx *ctx, const node *root, int *order)
{
    go_search *s = ctx->s;
    int nch = root->nchildren, n = 0;
    for (int i = 0; i < nch; i++)
        if (!ctx->banned[NODE(s, root->children + i)->move])
            order[n++] = i;
    /* Selection sort is fine for <= 362. */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            node *a = NODE(s, root->children + order[i]), *c = NODE(s, root->children + order[j]);
            if (c->visits > a->visits || (c->visits == a->visits && prior_value(c) > prior_value(a))) {
                int t = order[i]; order[i] = order[j]; order[j] = t;
            }
        }
    return n;
}

/* Candidates (the visited root children, at least one), the chosen move and its winrate. */
static void result_candidates(run_ctx *ctx, const go_board *b, go_search_result *res)
{
    go_search *s = ctx->s;
    node *root = NODE(s, s->root);
    double psum = 0;
    for (int i = 0; i < root->nchildren; i++)
        psum += prior_value(NODE(s, root->children + i));
    int order[GO_MAX_CANDIDATES], n = result_order(ctx, root, order);
    res->ncandidates = 0;
    for (int i = 0; i < n; i++) {
        node *c = NODE(s, root->children + order[i]);
        if (c->visits == 0 && i > 0)
            break;
        int k = res->ncandidates++;
        res->cand_x[k] = res->cand_y[k] = -1;
        if (c->move != GO_PASS)
            go_xy(b, c->move, &res->cand_x[k], &res->cand_y[k]);
        res->cand_visits[k] = c->visits;
        res->cand_prior[k] = (float)(psum > 0 ? prior_value(c) / psum : 0);
        res->cand_winrate[k] = (float)child_winrate(c);
    }
    res->move_x = res->move_y = -1;
    res->winrate = 0.5;
    if (res->ncandidates) {
        res->move_x = res->cand_x[0];
        res->move_y = res->cand_y[0];
        res->winrate = res->cand_winrate[0];
    }
    res->tree_playouts = root->visits;
}

/* Principal variation: most visited child, repeatedly. */
static void result_pv(run_ctx *ctx, const go_board *b, go_search_result *res)
{
    go_search *s = ctx->s;
    node *root = NODE(s, s->root), *cur = root;
    res->npv = 0;
    while (res->npv < GO_MAX_PV && cur->nchildren) {
        node *bestc = NULL;
        for (int i = 0; i < cur->nchildren; i++) {
            node *c = NODE(s, cur->children + i);
            if (c->visits > 0 && (!bestc || c->visits > bestc->visits) &&
                !(cur == root && ctx->banned[c->move]))
                bestc = c;
        }
        if (!bestc)
            break;
        int k = res->npv++;
        res->pv_x[k] = res->pv_y[k] = -1;
        if (bestc->move != GO_PASS)
            go_xy(b, bestc->move, &res->pv_x[k], &res->pv_y[k]);
        cur = bestc;
    }
}

/* Playouts of this run and the ownership they measured, summed over the workers. */
static void result_tallies(const worker *ws, int nthreads, const go_board *b, go_search_result *res)
{
    long total = 0;
    for (int t = 0; t < nthreads; t++)
        total += ws[t].playouts;
    res->playouts = total;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = go_point(b, x, y);
            long sum = 0;
            for (int t = 0; t < nthreads; t++)
                sum += ws[t].own[p];
            res->ownership[y * b->size + x] = total ? (float)((double)sum / total) : 0.0f;
        }
}

/* The best move that is not a pass (when passing would hand the opponent the game). */
static int best_non_pass(go_search_result *res)
{
    for (int i = 0; i < res->ncandidates; i++)
        if (res->cand_x[i] >= 0)
            return i;
    return -1;
}

/* Final score (dead stones judged) of the position after color passes: the opponent to move,
   as a judge sees the game once it ends. Judged on a copy: the game is not touched. */
static double score_after_pass(go_search *s, const go_game *g, int color, int playouts)
{
    go_board after;
    go_board_copy(&after, go_game_board(g));
    go_board_play(&after, color, GO_PASS);
    return go_score_final(&after, go_game_komi(g), playouts, &s->rng);
}

/* A chain in atari is a fight that whoever moves first wins, and a judge looking at the game
   after our pass gives it to the opponent. Before passing: the biggest capture, else the
   extension that saves our biggest chain in atari; 0 when nothing is left in atari. Moves
   that bring back an earlier position are skipped: against an opponent who keeps passing, a
   capture and recapture would otherwise go round forever (a ko-shaped fight). */
static int settling_move(const go_game *g, int color)
{
    const go_board *b = go_game_board(g);
    int best_capture = 0, capture_size = 0, best_save = 0, save_size = 0;
    for (int p = b->stride; p < b->npoints - b->stride; p++) {
        int c = b->color[p], libs[2];
        if ((c != GO_BLACK && c != GO_WHITE) || b->chain[p] != p || go_board_libs(b, p, 2, libs) != 1)
            continue;
        int lib = libs[0], x, y, size = b->csize[p];
        go_xy(b, lib, &x, &y);
        if (go_game_check(g, color, x, y) != GO_OK || go_game_repeats(g, color, lib))
            continue;   /* a settling move that repeats a position would start a cycle */
        if (c != color && size > capture_size) {
            best_capture = lib;
            capture_size = size;
        } else if (c == color && size > save_size && go_libs_after(b, color, lib) >= 2) {
            best_save = lib;
            save_size = size;
        }
    }
    return best_capture ? best_capture : best_save;
}

/* ---- Entry point --------------------------------------------------------------------------- */

/* The learned value is asked for, and trained on this board size. */
static int net_wanted(const go_search_opts *opts, const go_board *b)
{
    return opts->value && b->size == go_value_trained_size();
}

/* The board to search from (color to move; the same colour twice: no ko binds it) and a root
   with children, kept from the last run when g continues its line. */
static int search_prepare(go_search *s, const go_game *g, int color, const go_search_opts *opts,
                          go_board *root_board)
{
    go_board_copy(root_board, go_game_board(g));
    if (root_board->to_move != color) {
        root_board->to_move = color;
        root_board->ko = 0;
    }
    if (!opts->reuse)
        arena_reset(s);
    prepare_root(s, g, root_board, color);
    node *root = NODE(s, s->root);
    if (!root->nchildren) {
        root->expanding = 0;
        if (!expand(s, root, root_board, net_wanted(opts, root_board)))
            return GO_ERR_NOMEM;
    }
    return GO_OK;
}

static void search_init_ctx(run_ctx *ctx, go_search *s, const go_game *g, int color,
                            const go_search_opts *opts, const go_board *root_board, double t0)
{
    ctx->s = s;
    ctx->root_board = root_board;
    ctx->komi = go_game_komi(g);
    ctx->budget = opts->playouts;
    ctx->deadline = opts->seconds > 0 ? t0 + opts->seconds : 0;
    if (!ctx->budget && ctx->deadline <= 0)
        ctx->budget = 1000;
    ctx->expand_at = root_board->size <= 9 ? 2 : root_board->size <= 13 ? 4 : 8;
    ctx->use_value = net_wanted(opts, root_board);
    ctx->explore = ctx->use_value ? NET_EXPLORE : EXPLORE;
    ctx->inv_rave = (float)(1.0 / (ctx->use_value ? NET_RAVE_EQUIV : RAVE_EQUIV));
    ctx->amaf_horizon = ctx->use_value ? NET_AMAF_HORIZON : MAX_DEPTH + MAX_PLAYOUT;
    /* Root moves that bring back an earlier position: illegal under superko, and never chosen
       without it either, so the engine cannot start a cycle (a passing opponent and a capture
       and recapture went round until the move limit). */
    node *root = NODE(s, s->root);
    for (int i = 0; i < root->nchildren; i++) {
        int p = NODE(s, root->children + i)->move;
        if (p != GO_PASS && go_game_repeats(g, color, p))
            ctx->banned[p] = 1;
    }
}

/* Runs the workers (this thread is worker 0) until the budget is spent; returns how many ran. */
static int search_workers(run_ctx *ctx, worker *ws, int nthreads, uint64_t seed)
{
    for (int t = 0; t < nthreads; t++) {
        ws[t].ctx = ctx;
        go_rng_seed(&ws[t].rng, seed * 131 + (uint64_t)t + 1);
    }
    int started = 1;
    for (int t = 1; t < nthreads; t++, started++)
        if (plat_thread_start(&ws[t].thread, worker_main, &ws[t]) != 0)
            break;
    worker_main(&ws[0]);
    for (int t = 1; t < started; t++)
        plat_thread_join(ws[t].thread);
    return started;
}

static int sign_of(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

/* The game as it would end on our pass, for color: 1 won, 0 drawn, -1 lost, by the worst of
   the plain count, the count with dead stones judged, and that count after our pass (the
   judged counts, 300 playouts each, only while the verdict can still be 0 or 1). */
static int pass_verdict(go_search *s, const go_game *g, int color)
{
    int sign = color == GO_BLACK ? 1 : -1, v = sign_of(sign * go_game_tromp_taylor(g)), w;
    if (v >= 0 && (w = sign_of(sign * go_game_final_score(g, 300, &s->rng))) < v)
        v = w;
    if (v >= 0 && (w = sign_of(sign * score_after_pass(s, g, color, 300))) < v)
        v = w;
    return v;
}

/* After the opponent's pass, with a drawn count: the best searched move outside our own area
   (a region touching only our stones) that the search rates about as well as its choice, or
   -1. Inside our own area a move cannot gain under area scoring; in a finished drawn game
   those were the only moves left, and playing them filled our points and then our eyes,
   turning draws into lost games. Outside it, an early pass may still be punished. */
static int draw_alternative(const go_board *b, int color, const go_search_result *res)
{
    for (int i = 0; i < res->ncandidates; i++) {
        if (res->cand_x[i] < 0 || res->cand_visits[i] == 0 ||
            res->cand_winrate[i] < res->winrate - DRAW_SLACK)
            continue;
        if (go_board_region_touch(b, go_point(b, res->cand_x[i], res->cand_y[i])) != color)
            return i;
    }
    return -1;
}

/* Decisions: resign only on strong evidence, or after the opponent's pass with the game lost.
   After the opponent's pass, ours ends the game:
   pass when we win by the plain count and with dead stones judged, both as the position
   stands and as the opponent will have it after our pass (a fight that whoever moves first
   wins is settled first). With a drawn count, play on only outside our own area
   (draw_alternative), else pass into the draw. Otherwise never pass: play the best other move. */
static void search_decide(go_search *s, const go_game *g, int color, go_search_result *res)
{
    const go_board *b = go_game_board(g);
    if (res->winrate < RESIGN_BELOW && res->ncandidates && res->tree_playouts >= RESIGN_MIN_VISITS) {
        res->move_x = res->move_y = -2;
        return;
    }
    if (b->last_move != GO_PASS || go_game_nmoves(g) == 0)
        return;
    int verdict = pass_verdict(s, g, color), settle, i;
    if (verdict < 0 && res->winrate < RESIGN_BELOW && res->ncandidates) {
        /* The opponent passed, a count loses and the search sees no way back, however few
           its visits: playing on could only fill our own points and then our eyes (at 1,000
           playouts, too few visits to resign, that made 13 of 15 losses in 100 games against
           GNU Go losses by the whole board). */
        res->move_x = res->move_y = -2;
        return;
    }
    if (verdict < 0 && res->move_x >= 0)
        return;   /* behind: play the search's move */
    if ((settle = settling_move(g, color))) {
        go_xy(b, settle, &res->move_x, &res->move_y);
    } else if (verdict > 0) {
        res->move_x = res->move_y = -1;
    } else if (verdict == 0) {
        i = draw_alternative(b, color, res);
        res->move_x = i >= 0 ? res->cand_x[i] : -1;
        res->move_y = i >= 0 ? res->cand_y[i] : -1;
    } else if ((i = best_non_pass(res)) >= 0 && res->cand_visits[i] > 0) {
        res->move_x = res->cand_x[i];
        res->move_y = res->cand_y[i];
    }
}

int go_search_run(go_search *s, const go_game *g, int color, const go_search_opts *opts,
                  go_search_result *res)
{
    if (color != GO_BLACK && color != GO_WHITE)
        return GO_ERR_COLOR;
    go_shape_init();
    double t0 = plat_now_seconds();
    go_board root_board;
    if (search_prepare(s, g, color, opts, &root_board) != GO_OK)
        return GO_ERR_NOMEM;
    run_ctx *ctx = calloc(1, sizeof *ctx);
    int nthreads = opts->threads < 1 ? 1 : opts->threads > 64 ? 64 : opts->threads;
    worker *ws = calloc(nthreads, sizeof *ws);
    if (!ctx || !ws) {
        free(ctx);
        free(ws);
        return GO_ERR_NOMEM;
    }
    search_init_ctx(ctx, s, g, color, opts, &root_board, t0);
    int started = search_workers(ctx, ws, nthreads, go_rng_below(&s->rng, 0xffffffffu));
    result_candidates(ctx, &root_board, res);
    result_pv(ctx, &root_board, res);
    result_tallies(ws, started, &root_board, res);
    res->seconds = plat_now_seconds() - t0;
    res->valued = ctx->valued;
    search_decide(s, g, color, res);
    free(ctx);
    free(ws);
    return GO_OK;
}
