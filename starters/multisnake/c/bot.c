/* SOI Multisnake starter bot: a random safe mover (C, no dependencies).
 * Reads the header `W H N M T` once, then H lines of W characters each
 * turn, and answers one of `^ > v <`. The map wraps. See ../README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char map[150][160];

int main(void) {
    int w, h, n, m, t;
    if (scanf("%d %d %d %d %d ", &w, &h, &n, &m, &t) != 5) return 1;
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    const char me = (char)(64 + m), arrows[] = "^>v<";
    const int dx[] = {0, 1, 0, -1}, dy[] = {-1, 0, 1, 0};
    for (;;) {
        int x = -1, y = -1;
        for (int i = 0; i < h; i++) {
            if (!fgets(map[i], sizeof map[i], stdin)) return 0; /* game over */
            char *p = strchr(map[i], me);
            if (p) { y = i; x = (int)(p - map[i]); }
        }
        /* Free tiles and signs are safe; everything else blocks. */
        char safe[4];
        int k = 0;
        for (int d = 0; d < 4; d++) {
            char c = map[(y + dy[d] + h) % h][(x + dx[d] + w) % w];
            if (c == '.' || c == '+' || c == '-') safe[k++] = arrows[d];
        }
        printf("%c\n", k ? safe[rand() % k] : '^');
        fflush(stdout);
    }
}
