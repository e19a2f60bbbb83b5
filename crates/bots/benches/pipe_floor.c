/* The machine's floor under a Multisnake turn, for benches/stdio_match.rs:
 * the least a driver can do to ask four bots a map over pipes, written in
 * C with no sandbox, no game and no checks.
 *
 * Usage: pipe_floor BOT ROUNDS MAPFILE
 * Starts four BOTs, sends each the header line and then the map of
 * MAPFILE (the first line of the file is the header, the rest is the map)
 * ROUNDS times, writing all four requests before waiting for any answer
 * and looking at the answer pipes without sleeping (as the runner does in
 * its spin time). Prints the time of each round in nanoseconds, one per
 * line. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BOTS 4

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int rounds = atoi(argv[2]);
    static char file[1 << 16];
    FILE *f = fopen(argv[3], "r");
    if (!f) return 2;
    size_t len = fread(file, 1, sizeof file - 1, f);
    fclose(f);
    char *map = memchr(file, '\n', len);
    if (!map) return 2;
    map++;
    size_t header_len = (size_t)(map - file), map_len = len - header_len;

    int to_bot[BOTS], from_bot[BOTS];
    pid_t pids[BOTS];
    for (int b = 0; b < BOTS; b++) {
        int in[2], out[2];
        if (pipe(in) || pipe(out)) return 3;
        pids[b] = fork();
        if (pids[b] == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            for (int fd = 3; fd < 1024; fd++) close(fd);
            execl(argv[1], argv[1], (char *)NULL);
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_bot[b] = in[1];
        from_bot[b] = out[0];
        fcntl(from_bot[b], F_SETFL, O_NONBLOCK);
        if (write(to_bot[b], file, header_len) != (ssize_t)header_len) return 3;
    }
    char answer[64];
    for (int r = 0; r < rounds; r++) {
        long long started = now_ns();
        for (int b = 0; b < BOTS; b++)
            if (write(to_bot[b], map, map_len) != (ssize_t)map_len) return 3;
        int waiting = BOTS, answered[BOTS] = {0};
        while (waiting) {
            struct pollfd fds[BOTS];
            int who[BOTS], n = 0;
            for (int b = 0; b < BOTS; b++)
                if (!answered[b]) {
                    fds[n] = (struct pollfd){.fd = from_bot[b], .events = POLLIN};
                    who[n++] = b;
                }
            if (poll(fds, n, 0) == 0) {
                sched_yield();
                continue;
            }
            for (int i = 0; i < n; i++) {
                if (!fds[i].revents) continue;
                ssize_t got = read(from_bot[who[i]], answer, sizeof answer);
                if (got <= 0) return 4;
                /* Starter bots answer one short line in one write. */
                if (answer[got - 1] == '\n') {
                    answered[who[i]] = 1;
                    waiting--;
                }
            }
        }
        printf("%lld\n", now_ns() - started);
    }
    for (int b = 0; b < BOTS; b++) kill(pids[b], SIGKILL);
    return 0;
}
