/* gamma_probe.c - the core's learned gammas for positions read from stdin, built by
   test_learn_priors.py with a generated shape_gammas.h. Commands: "p X Y" plays the side to
   move's move (-1 -1 passes); "?" prints every legal move of the side to move as "X Y GAMMA",
   in go_game_move_classes order, then "end". */
#include <stdio.h>

#include "go.h"
#include "internal.h"

int main(void)
{
    go_game *g = go_game_new(9, 7.0, 0);
    static int xy[2 * 361], cap[2 * 361];
    static uint32_t keys[361];
    static uint8_t cls[361 * GO_CLASS_GROUPS];
    static float gammas[361];
    int x, y, ncap;
    char cmd;
    if (!g)
        return 2;
    while (scanf(" %c", &cmd) == 1) {
        if (cmd == 'p') {
            if (scanf("%d %d", &x, &y) != 2 || go_game_play(g, go_game_to_move(g), x, y, cap, &ncap) != GO_OK)
                return 3;
        } else {
            int n = go_game_move_classes(g, xy, keys, cls, gammas);
            for (int i = 0; i < n; i++)
                printf("%d %d %.9g\n", xy[2 * i], xy[2 * i + 1], gammas[i]);
            printf("end\n");
        }
    }
    go_game_free(g);
    return 0;
}
