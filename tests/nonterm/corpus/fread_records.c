/* fread_records.c: counting fixed-size records until enough, from a short file (class: read-eof).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, fread_records.twin.c, is
 * the same program with the bug fixed; it terminates. fread() returns 0 at end of file,
 * and the loop adds it and asks again. */
#include <stdio.h>
#include <stdlib.h>

static long records(FILE *f, long want)
{
    char rec[4];
    long seen = 0;
    size_t got;
    while (seen < want) {
        got = fread(rec, sizeof rec, 1, f);
        seen += (long)got;
    }
    return seen;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    FILE *f = tmpfile();
    if (!f)
        return 1;
    fputs("0001000200", f);
    rewind(f);
    printf("%ld\n", records(f, n));
    fclose(f);
    return 0;
}
