/* read_short_pipe.twin.c: reading a fixed amount from a pipe whose writer closed early -- fixed (class: read-eof).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, read_short_pipe.c, is
 * the same program with the bug fixed; it terminates. read() returns 0 at end of file,
 * which the loop takes for "nothing yet". */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long fill(int fd, long want)
{
    char buf[8];
    long have = 0, got;
    while (have < want) {
        got = read(fd, buf, sizeof buf);
        if (got <= 0)
            break;
        have += got;
    }
    return have;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    int p[2];
    if (pipe(p) != 0 || write(p[1], "hello", 5) != 5)
        return 1;
    close(p[1]);
    printf("%ld\n", fill(p[0], 4 * n));
    close(p[0]);
    return 0;
}
