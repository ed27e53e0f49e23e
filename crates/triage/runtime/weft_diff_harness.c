/* weft triage's differential harness, built with afl-cc and driven by
 * afl-fuzz: runs the meta program once per revision on the same input and
 * aborts (a "crash" for afl-fuzz) when two revisions answer differently:
 * another exit status or signal, or other bytes on stdout.
 *
 *   weft_diff_harness STDIN TIMEOUT_MS REVISIONS COMMAND...
 *
 * STDIN is the file fed on the command's stdin, or `-` for none (the
 * command then names the input itself); REVISIONS is a comma list. Each run
 * gets WEFT_REV=<revision>, and the command is started directly (execvp),
 * under a timer that kills it with SIGALRM after TIMEOUT_MS.
 * afl-fuzz's fork server descriptors (198, 199) are closed in the runs, so
 * that an instrumented meta program adds its coverage to the harness's map
 * without taking the fork server for its own. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define CAP (1 << 20)

struct answer {
	int status;
	size_t length;
	unsigned char *bytes;
};

static void run(const char *input, long timeout_ms, const char *revision, char **command,
		struct answer *answer)
{
	int out[2];
	if (pipe(out) != 0)
		exit(2);
	pid_t child = fork();
	if (child < 0)
		exit(2);
	if (child == 0) {
		close(198);
		close(199);
		setenv("WEFT_REV", revision, 1);
		int in = strcmp(input, "-") == 0 ? open("/dev/null", O_RDONLY) : open(input, O_RDONLY);
		if (in < 0)
			_exit(127);
		dup2(in, 0);
		dup2(out[1], 1);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		close(out[0]);
		/* The timer survives exec: a run past its time dies of SIGALRM. */
		struct itimerval limit = {{0, 0}, {timeout_ms / 1000, timeout_ms % 1000 * 1000}};
		setitimer(ITIMER_REAL, &limit, NULL);
		execvp(command[0], command);
		_exit(127);
	}
	close(out[1]);
	answer->length = 0;
	ssize_t n;
	char spill[4096];
	while ((n = read(out[0], answer->length < CAP ? (char *)answer->bytes + answer->length : spill,
			 answer->length < CAP ? CAP - answer->length : sizeof spill)) > 0)
		if (answer->length < CAP)
			answer->length += (size_t)n;
	close(out[0]);
	int status = 0;
	waitpid(child, &status, 0);
	answer->status = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? -1 : status;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: %s STDIN TIMEOUT_MS REVISIONS COMMAND...\n", argv[0]);
		return 2;
	}
	long timeout_ms = atol(argv[2]);
	char *revisions = strdup(argv[3]);
	struct answer first = {0, 0, malloc(CAP)}, other = {0, 0, malloc(CAP)};
	int runs = 0;
	for (char *r = strtok(revisions, ","); r; r = strtok(NULL, ",")) {
		struct answer *a = runs++ == 0 ? &first : &other;
		run(argv[1], timeout_ms, r, argv + 4, a);
		/* A timeout is no answer: a slow input is not a distinguishing one. */
		if (a->status == -1)
			return 0;
		if (a != &first &&
		    (a->status != first.status || a->length != first.length ||
		     memcmp(a->bytes, first.bytes, a->length) != 0))
			abort();
	}
	return 0;
}
