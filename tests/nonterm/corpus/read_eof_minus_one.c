/* read_eof_minus_one.c: read() returns 0 at end of file, not -1 (class: read-eof).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, read_eof_minus_one.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

static long run(long n)
{
    char buf[16];
    long total = 0, got;
    int fd = open("/dev/null", O_RDONLY);
    while ((got = read(fd, buf, sizeof buf)) != -1)
        total += got + n;
    close(fd);
    return total;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
