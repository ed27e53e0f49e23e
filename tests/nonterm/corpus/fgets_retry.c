/* fgets_retry.c: a retry loop that treats end of file as a transient error (class: read-eof).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, fgets_retry.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    char line[32];
    long tries = 0;
    FILE *f = fopen("/dev/null", "r");
    while (fgets(line, sizeof line, f) == NULL) {
        if (ferror(f))
            break;
        tries++;
        tries = tries % 4;
    }
    fclose(f);
    return tries + n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
