/* The specification of prog.c, written independently of it: a score from
   0 to 100 gets A from 90, B from 80, C from 70, D from 60, and fails
   below 60; input that is not such a score prints "Invalid score" and
   exits with status 1. */
#include <stdio.h>

int
main (void)
{
  static const struct { int from; const char *line; } grades[] = {
    { 90, "Student has an A grade" },
    { 80, "Student has a B grade" },
    { 70, "Student has a C grade" },
    { 60, "Student has a D grade" },
    { 0, "Student has failed the course" },
  };
  int score, i;

  if (scanf ("%d", &score) != 1 || score < 0 || score > 100)
    {
      puts ("Invalid score");
      return 1;
    }
  for (i = 0; score < grades[i].from; i++)
    continue;
  puts (grades[i].line);
  return 0;
}
