/* weft range runtime, cold part (record format v1; see docs/runtime.md).
 *
 * Follows the common part (weft_out.h) at the END of each woven unit. At
 * load time (a constructor, so it also runs in shared libraries) each unit
 * creates its own record file WEFT_OUT/<unit>.<pid>.ranges, maps it shared
 * and points the unit's table at the mapping. A fork handler gives each
 * child process a fresh file of its own. The header's layout words are the
 * slot size, the slot count and the size of the names section. */
#ifndef WEFT_RANGES_COLD_V1
#define WEFT_RANGES_COLD_V1

/* Compile-time layout checks: a negative array size stops the build. */
typedef char weft_slot_is_32_bytes[sizeof(struct weft_slot) == 32 ? 1 : -1];

/* What the cold code needs to know about one woven translation unit. */
struct weft_tu {
    const char *weft_id;               /* file-name stem of its records */
    unsigned int weft_count;           /* number of slots */
    const char *const *weft_names;     /* 5 strings per slot */
    struct weft_slot *weft_fallback;   /* static slots used when no file */
    struct weft_slot **weft_table;     /* the pointer the updates go through */
    void *weft_map;                    /* current mapping, or 0 */
    size_t weft_map_len;
};

/* The empty slot of a value type, named as in the entry names ("i64",
 * "u64" or "f64"): what a slot holds before its first update. */
static struct weft_slot weft_rt_empty(const char *weft_type)
{
    static const struct weft_slot weft_i = WEFT_EMPTY_I64, weft_u = WEFT_EMPTY_U64, weft_d = WEFT_EMPTY_F64;
    return weft_type[0] == 'i' ? weft_i : weft_type[0] == 'u' ? weft_u : weft_d;
}

/* Gives the unit a new record file and points its table at it. With
 * weft_keep, slots updated before this ran (other constructors) are copied
 * in; a fork child starts from empty slots instead, so each file holds only
 * what its own process saw. On any failure the table stays on the static slots:
 * updates still work, nothing is written (in a child, the static slots may
 * hold the parent's early values, but they are never written anywhere). */
static void weft_rt_attach(struct weft_tu *weft_t, int weft_keep)
{
    struct weft_header weft_h;
    size_t weft_slots_len = (size_t)weft_t->weft_count * sizeof(struct weft_slot);
    size_t weft_len = sizeof weft_h + weft_slots_len;
    size_t weft_names_len = 0;
    unsigned int weft_i;
    void *weft_map;
    int weft_fd;

    if (weft_t->weft_map != 0) {
        weft_sys_unmap(weft_t->weft_map, weft_t->weft_map_len);
        weft_t->weft_map = 0;
    }
    *weft_t->weft_table = weft_t->weft_fallback;
    weft_fd = weft_rt_create(weft_t->weft_id, "ranges");
    if (weft_fd < 0)
        return;
    for (weft_i = 0; weft_i < 5 * weft_t->weft_count; weft_i++)
        weft_names_len += weft_rt_strlen(weft_t->weft_names[weft_i]) + 1;

    weft_rt_header(&weft_h, "WEFTRNG", 1, (unsigned int)sizeof(struct weft_slot), weft_t->weft_count,
                   (unsigned int)weft_names_len);

    /* Header, then a hole of zero slots, then the names. */
    if (!weft_rt_write_all(weft_fd, &weft_h, sizeof weft_h)
        || weft_sys_lseek(weft_fd, (long)weft_len, WEFT_SEEK_SET) != (long)weft_len) {
        weft_sys_close(weft_fd);
        return;
    }
    for (weft_i = 0; weft_i < 5 * weft_t->weft_count; weft_i++) {
        const char *weft_s = weft_t->weft_names[weft_i];
        if (!weft_rt_write_all(weft_fd, weft_s, weft_rt_strlen(weft_s) + 1)) {
            weft_sys_close(weft_fd);
            return;
        }
    }
    weft_map = weft_sys_map(weft_len, weft_fd, 0);
    weft_sys_close(weft_fd);
    if (weft_map == 0)
        return;
    weft_t->weft_map = weft_map;
    weft_t->weft_map_len = weft_len;
    {
        struct weft_slot *weft_slots = (struct weft_slot *)((char *)weft_map + sizeof weft_h);
        for (weft_i = 0; weft_i < weft_t->weft_count; weft_i++)
            weft_slots[weft_i] = weft_keep ? weft_t->weft_fallback[weft_i]
                                           : weft_rt_empty(weft_t->weft_names[5 * weft_i + 4]);
        *weft_t->weft_table = weft_slots;
    }
}

#endif /* WEFT_RANGES_COLD_V1 */
