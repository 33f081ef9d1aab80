/* Test program for ctrace: threads (THREAD frames, locked instructions), a signal handler
 * (DISCONTINUITY frames) and fork (the child must not write into the trace).
 * Build: gcc -O1 -pthread -o threads_signals threads_signals.c */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long shared;
static volatile sig_atomic_t signals_seen;

static void on_signal(int sig) { signals_seen += sig > 0; }

static void* worker(void* arg) {
    long id = (long)arg;
    for (long i = 0; i < 20000; i++) {
        pthread_mutex_lock(&lock);
        shared += id;
        pthread_mutex_unlock(&lock);
        if (i % 5000 == 0) raise(SIGUSR1);
    }
    return NULL;
}

int main(void) {
    signal(SIGUSR1, on_signal);
    pid_t child = fork();
    if (child == 0) {
        long x = 0;
        for (long i = 0; i < 1000000; i++) x += i;
        _exit((int)(x & 1));
    }
    pthread_t t[4];
    for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, (void*)(i + 1));
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    int status = 0;
    waitpid(child, &status, 0);
    printf("shared %ld signals %d child %d\n", shared, (int)signals_seen, WEXITSTATUS(status));
    return 0;
}
