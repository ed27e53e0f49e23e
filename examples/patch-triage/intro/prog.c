/* Grade from score: reads a score, an integer from 0 to 100, and prints
   the student's grade: A from 90, B from 80, C from 70, D from 60, a
   failure below 60. Anything else is an invalid score (exit status 1). */
#include <stdio.h>

int
main (void)
{
  int score;

  if (scanf ("%d", &score) != 1 || score < 0 || score > 100)
    {
      printf ("Invalid score\n");
      return 1;
    }
  if (score > 90)
    printf ("Student has an A grade\n");
  else if (score > 80)
    printf ("Student has a B grade\n");
  else if (score > 70)
    printf ("Student has a C grade\n");
  else if (score > 60)
    printf ("Student has a D grade\n");
  else
    printf ("Student has failed the course\n");
  return 0;
}
