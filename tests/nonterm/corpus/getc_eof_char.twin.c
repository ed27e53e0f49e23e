/* getc_eof_char.twin.c: EOF compared through a char that cannot hold it -- fixed (class: read-eof).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, getc_eof_char.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    int c;
    long count = 0;
    FILE *f = fopen("/dev/null", "r");
    while ((c = getc(f)) != EOF)
        count++;
    fclose(f);
    return count;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
