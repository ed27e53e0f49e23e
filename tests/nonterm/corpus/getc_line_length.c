/* getc_line_length.c: a line's length counted up to its newline, at end of file (class: read-eof).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, getc_line_length.twin.c, is
 * the same program with the bug fixed; it terminates. The input's last line has no
 * newline, so getc() returns EOF forever and the length grows: no state repeats. */
#include <stdio.h>
#include <stdlib.h>

static long line_length(FILE *f)
{
    long len = 0;
    int c;
    while ((c = getc(f)) != '\n')
        len++;
    return len;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    FILE *f = tmpfile();
    if (!f)
        return 1;
    fputs("a line without its newline", f);
    rewind(f);
    printf("%ld\n", line_length(f) + n);
    fclose(f);
    return 0;
}
