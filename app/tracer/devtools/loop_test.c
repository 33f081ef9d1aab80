/* Test program for the ctrace tool: a loop of exactly N iterations that loads a[i] and stores
 * b[i]. It prints the kernel's address and the arrays' addresses so that the trace can be checked
 * (see run_checks.sh). Build: gcc -O1 -fno-tree-vectorize -o loop_test loop_test.c */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1000
#endif

long a[N], b[N];

__attribute__((noinline)) long kernel(long n) {
    long s = 0;
    for (long i = 0; i < n; i++) {
        b[i] = a[i] + 1;
        s += a[i];
    }
    return s;
}

int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : N;
    if (n > N) n = N;
    for (long i = 0; i < n; i++) a[i] = i;
    printf("kernel %p a %p b %p n %ld elem 8\n", (void*)kernel, (void*)a, (void*)b, n);
    fflush(stdout);
    long s = kernel(n);
    printf("sum %ld\n", s);
    return 0;
}
