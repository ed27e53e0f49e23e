/* read_eof_until_full.c: reading until a buffer is full from a short file (class: read-eof).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, read_eof_until_full.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

static long run(long n)
{
    char buf[64];
    long have = 0, got;
    int fd = open("/dev/null", O_RDONLY);
    while (have < (long)sizeof buf) {
        got = read(fd, buf + have, sizeof buf - (size_t)have);
        if (got < 0)
            break;
        have += got;
    }
    close(fd);
    return have + n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
