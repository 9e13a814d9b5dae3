/*
 * convcert-spawn: runs a device under test so that it cannot outlive the convcert that started it.
 *
 *   convcert-spawn COMMAND [ARG...]
 *
 * It makes itself a session and process-group leader (so convcert can end the whole group), and on
 * Linux a child subreaper (so descendants the device orphans, even ones that called setsid, are
 * reparented here rather than to init). It runs COMMAND as its child, which inherits stdin, stdout and
 * stderr, and then only watches: when its parent (convcert) is gone, killed with SIGKILL too, it kills
 * every descendant; when the device exits, it kills whatever the device left behind and exits with the
 * device's status (128 + the signal for a device killed by one). convcert builds it on first use
 * (suite/ADAPTERS.md); it is not in the data path.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* The processes whose parent is this one (Linux: read from /proc); returns how many were signalled. */
static int kill_children(void) {
    int killed = 0;
#ifdef __linux__
    pid_t self = getpid();
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    struct dirent *e;
    while ((e = readdir(proc))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == self) continue;
        char path[64], stat[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY);
        if (fd < 0) continue;
        ssize_t n = read(fd, stat, sizeof stat - 1);
        close(fd);
        if (n <= 0) continue;
        stat[n] = 0;
        char *paren = strrchr(stat, ')'); /* "pid (comm) state ppid ...": comm may hold spaces */
        long ppid;
        char state;
        if (paren && sscanf(paren + 1, " %c %ld", &state, &ppid) == 2 && ppid == self) {
            kill((pid_t)pid, SIGKILL);
            killed++;
        }
    }
    closedir(proc);
#endif
    return killed;
}

/*
 * Kills every descendant: children first; their children are reparented here (the subreaper) as they
 * die. Without /proc (not Linux) the process group is all it can reach, this process included.
 */
static void kill_descendants(int last_word) {
#ifndef __linux__
    if (last_word) kill(0, SIGKILL);
    return;
#endif
    (void)last_word;
    for (int round = 0; round < 200; round++) {
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        if (kill_children() == 0) {
            errno = 0;
            if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD) return;
        }
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: convcert-spawn COMMAND [ARG...]\n");
        return 2;
    }
    pid_t parent = getppid();
    setsid(); /* fails only when already a group leader, which is as good */
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    signal(SIGPIPE, SIG_IGN);
    pid_t device = fork();
    if (device < 0) {
        fprintf(stderr, "convcert-spawn: cannot fork: %s\n", strerror(errno));
        return 127;
    }
    if (device == 0) {
        signal(SIGPIPE, SIG_DFL);
        execvp(argv[1], argv + 1);
        fprintf(stderr, "convcert-spawn: cannot run %s: %s\n", argv[1], strerror(errno));
        _exit(127);
    }
    /* The device's pipes are its own: convcert sees their end when the device ends. */
    int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    int status = 0;
    for (;;) {
        pid_t done;
        while ((done = waitpid(-1, &status, WNOHANG)) > 0) {
            if (done == device) {
                kill_descendants(0);
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
        }
        if (getppid() != parent) { /* convcert is gone */
            kill_descendants(1);
            return 137;
        }
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}
