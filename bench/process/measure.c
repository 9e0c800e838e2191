/* One exec -> exit measurement for bench/process/run.py.
 *
 *   measure STDIN STDOUT STDERR PROGRAM [ARGS...]
 *
 * Spawns PROGRAM with stdin read from the file STDIN and stdout/stderr
 * written to the files STDOUT/STDERR, waits for it, and prints
 * "<wall ns> <exit code> <peak RSS KiB> <CPU µs (user + system)>". The clock runs from just before
 * posix_spawn to the return of wait4. A separate small program, because the
 * kernel charges the parent's pages to a vfork child's peak RSS until it
 * execs: spawned from the (20 MB) Python driver, even /bin/true would show
 * 20 MB.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: measure STDIN STDOUT STDERR PROGRAM [ARGS...]\n");
        return 2;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, argv[1], O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0600);
    struct timespec t0, t1;
    pid_t pid;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = posix_spawn(&pid, argv[4], &fa, NULL, argv + 4, environ);
    if (rc != 0) {
        fprintf(stderr, "measure: cannot spawn %s (error %d)\n", argv[4], rc);
        return 2;
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("measure: wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    long long cpu_us = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
                       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
    printf("%lld %d %ld %lld\n", ns, code, ru.ru_maxrss, cpu_us);
    return 0;
}
