/* weft meta program: which revision runs (see docs/triage.md).
 *
 * WEFT_REV=n runs revision n at every site (0, or unset: the original).
 * Without WEFT_REV, __SWITCH<k>=n picks revision n at site k alone (the
 * form MSV and Prophet meta programs use); the __SWITCH variables of one
 * run must all name the same revision, since revisions are alternatives,
 * not parts to combine. A value that is not a revision ends the run with
 * status 125 and a message: a typo must not quietly run the original.
 *
 * The weaver puts this at the END of each changed translation unit, after
 * the program's own code and feature-test macros, and a prototype of
 * weft_meta_rev at its top. It is preceded by WEFT_META_REVISIONS, the
 * unit's site table weft_meta_sites and its cache weft_meta_cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static int weft_meta_value(const char *weft_name, const char *weft_text)
{
    char *weft_end;
    long weft_v = strtol(weft_text, &weft_end, 10);
    if (*weft_text == '\0' || *weft_end != '\0' || weft_v < 0 || weft_v > WEFT_META_REVISIONS) {
        fprintf(stderr, "weft meta program: %s=%s is not a revision (0 to %d)\n",
                weft_name, weft_text, WEFT_META_REVISIONS);
        exit(125);
    }
    return (int) weft_v;
}

/* Every __SWITCH<k> of the run names the same revision (or 0). */
static void weft_meta_one_revision(void)
{
    static int weft_checked = 0;
    int weft_seen = 0;
    char **weft_e;
    if (weft_checked)
        return;
    weft_checked = 1;
    for (weft_e = environ; weft_e && *weft_e; weft_e++) {
        const char *weft_eq = strchr(*weft_e, '=');
        char weft_name[64];
        size_t weft_len;
        int weft_v;
        if (strncmp(*weft_e, "__SWITCH", 8) != 0 || !weft_eq)
            continue;
        weft_len = (size_t) (weft_eq - *weft_e);
        if (weft_len >= sizeof weft_name)
            weft_len = sizeof weft_name - 1;
        memcpy(weft_name, *weft_e, weft_len);
        weft_name[weft_len] = '\0';
        weft_v = weft_meta_value(weft_name, weft_eq + 1);
        if (weft_v != 0 && weft_seen != 0 && weft_v != weft_seen) {
            fprintf(stderr, "weft meta program: the __SWITCH variables pick revisions %d and %d; "
                    "a run has one revision\n", weft_seen, weft_v);
            exit(125);
        }
        if (weft_v != 0)
            weft_seen = weft_v;
    }
}

static int weft_meta_rev(int weft_slot)
{
    const char *weft_all;
    int weft_rev;
    if (weft_meta_cache[weft_slot] >= 0)
        return weft_meta_cache[weft_slot];
    weft_all = getenv("WEFT_REV");
    if (weft_all) {
        weft_rev = weft_meta_value("WEFT_REV", weft_all);
    } else {
        char weft_name[32];
        const char *weft_one;
        weft_meta_one_revision();
        sprintf(weft_name, "__SWITCH%d", weft_meta_sites[weft_slot]);
        weft_one = getenv(weft_name);
        weft_rev = weft_one ? weft_meta_value(weft_name, weft_one) : 0;
    }
    weft_meta_cache[weft_slot] = weft_rev;
    return weft_rev;
}
