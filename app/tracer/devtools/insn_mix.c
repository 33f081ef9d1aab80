/* Test program for ctrace's instruction classification: one labelled instance of each kind of
 * instruction, between the labels mix_begin and mix_end (see run_checks.sh for the expected
 * classes). Build: gcc -O1 -mavx2 -mfma -o insn_mix insn_mix.c */
#include <stdio.h>
#include <string.h>

static double dsrc[4] = {1.5, 2.5, 3.5, 4.5};
static float fsrc[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static char bufa[64], bufb[64];
static long counter;

static long callee(long x) { return x + 1; }
long (*volatile fp)(long) = callee;

int main(void) {
    long r = 0;
    printf("mix at %p\n", (void*)&main);
    __asm__ volatile(
        ".globl mix_begin\n mix_begin:\n"
        "mov $7, %%rax\n"              /* int-alu */
        "mov $3, %%rcx\n"              /* int-alu */
        "imul %%rcx, %%rax\n"          /* int-mul */
        "xor %%edx, %%edx\n"           /* int-alu */
        "div %%rcx\n"                  /* int-div */
        "movsd %[d], %%xmm0\n"         /* load */
        "addsd %%xmm0, %%xmm0\n"       /* fp-add */
        "mulsd %%xmm0, %%xmm0\n"       /* fp-mul */
        "divsd %%xmm0, %%xmm0\n"       /* fp-div */
        "sqrtsd %%xmm0, %%xmm1\n"      /* fp-div */
        "addpd %%xmm1, %%xmm0\n"       /* simd */
        "vmovups %[f], %%ymm2\n"       /* load */
        "vaddps %%ymm2, %%ymm2, %%ymm3\n" /* simd */
        "vfmadd231sd %%xmm0, %%xmm0, %%xmm1\n" /* fp-mul */
        "vpxor %%ymm4, %%ymm4, %%ymm4\n" /* simd */
        "fldl %[d]\n"                  /* fp-add (x87) */
        "fmul %%st(0), %%st(0)\n"      /* fp-mul */
        "fstpl %[d]\n"                 /* fp-add/store (x87) */
        "lock addq $1, %[cnt]\n"       /* fence (atomic) */
        "mfence\n"                     /* fence */
        "push %%rbx\n"                 /* store */
        "pop %%rbx\n"                  /* load */
        "lea 8(%%rsp), %%rdx\n"        /* int-alu */
        "cmp $1, %%rax\n"              /* int-alu */
        "cmovg %%rcx, %%rdx\n"         /* int-alu */
        "lea %[a], %%rsi\n"            /* int-alu */
        "lea %[b], %%rdi\n"            /* int-alu */
        "mov $16, %%rcx\n"             /* int-alu */
        "rep movsb\n"                  /* rep: 16 records */
        "nop\n"                        /* nop */
        "nopw 0(%%rax,%%rax,1)\n"      /* nop */
        "vzeroupper\n"                 /* simd */
        ".globl mix_end\n mix_end:\n"
        : "=&a"(r), [d] "+m"(dsrc[0]), [cnt] "+m"(counter), [a] "+m"(bufa), [b] "+m"(bufb)
        : [f] "m"(fsrc[0])
        : "rbx", "rcx", "rdx", "rsi", "rdi", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "memory",
          "cc", "st");
    r += fp(r); /* indirect call */
    printf("%ld %s\n", r, bufb);
    return 0;
}
