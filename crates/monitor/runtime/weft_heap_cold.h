/* weft heap runtime, cold part: the table of live blocks (see
 * weft_heap_hot.h and docs/invariants.md).
 *
 * One table per process, shared by every woven unit: a weak definition in
 * each unit, which the linker makes one object (a shared library built
 * with hidden symbols has its own). Fixed size, open addressing with
 * linear probing and backward-shift deletion (no tombstones), so it never
 * allocates; when WEFT_HEAP_LIVE blocks are recorded, further blocks are
 * not (their pointers give no sequence). A spin lock guards the table
 * (as the trace runtime's sample lock does); the pending arguments are per
 * thread. A block freed or reallocated by code weft did not weave stays
 * recorded until its address is handed out again by a woven allocation:
 * should code weft did not weave allocate it first, a pointer to it reads
 * as many elements as the old block held (noise, never a fault: arrays are
 * read with the kernel's guarded copy). */
#ifndef WEFT_HEAP_COLD_V1
#define WEFT_HEAP_COLD_V1

#define WEFT_HEAP_SLOTS 4096u   /* a power of two */
#define WEFT_HEAP_LIVE 3072u    /* blocks recorded at most */

struct weft_heap_table {
    int weft_lock;
    unsigned int weft_live;
    unsigned long long weft_at[WEFT_HEAP_SLOTS]; /* addresses; 0: empty */
    unsigned long long weft_bytes[WEFT_HEAP_SLOTS];
};

__attribute__((weak)) struct weft_heap_table weft_heap_blocks;

/* The arguments noted for the allocation being made by this thread. */
static __thread unsigned int weft_heap_pending;
static __thread __SIZE_TYPE__ weft_heap_size, weft_heap_items;
static __thread unsigned long long weft_heap_old;

/* Addresses are kept as integers: a freed block's address is a key, never
 * a pointer to use (and compilers warn about pointers used after free). */
static unsigned int weft_heap_home(unsigned long long weft_a)
{
    return (unsigned int)(((weft_a >> 4) * 0x9E3779B97F4A7C15ull) >> 40) & (WEFT_HEAP_SLOTS - 1);
}

/* The slot holding weft_a, or the empty slot where it would go. Called
 * with the lock held. */
static unsigned int weft_heap_slot(unsigned long long weft_a)
{
    unsigned int weft_i = weft_heap_home(weft_a);
    while (weft_heap_blocks.weft_at[weft_i] != 0 && weft_heap_blocks.weft_at[weft_i] != weft_a)
        weft_i = (weft_i + 1) & (WEFT_HEAP_SLOTS - 1);
    return weft_i;
}

static void weft_heap_lock(void)
{
    while (__atomic_test_and_set(&weft_heap_blocks.weft_lock, __ATOMIC_ACQUIRE))
        ;
}

static void weft_heap_unlock(void)
{
    __atomic_clear(&weft_heap_blocks.weft_lock, __ATOMIC_RELEASE);
}

/* Removes slot weft_i, shifting back the entries of its probe run that
 * would no longer be found. Called with the lock held. */
static void weft_heap_remove(unsigned int weft_i)
{
    unsigned int weft_j = weft_i, weft_home;
    weft_heap_blocks.weft_at[weft_i] = 0;
    weft_heap_blocks.weft_live--;
    for (;;) {
        weft_j = (weft_j + 1) & (WEFT_HEAP_SLOTS - 1);
        if (weft_heap_blocks.weft_at[weft_j] == 0)
            return;
        weft_home = weft_heap_home(weft_heap_blocks.weft_at[weft_j]);
        /* Stays when its home lies cyclically in (weft_i, weft_j]. */
        if (((weft_j - weft_home) & (WEFT_HEAP_SLOTS - 1)) < ((weft_j - weft_i) & (WEFT_HEAP_SLOTS - 1)))
            continue;
        weft_heap_blocks.weft_at[weft_i] = weft_heap_blocks.weft_at[weft_j];
        weft_heap_blocks.weft_bytes[weft_i] = weft_heap_blocks.weft_bytes[weft_j];
        weft_heap_blocks.weft_at[weft_j] = 0;
        weft_i = weft_j;
    }
}

/* Forgets weft_old (when not null), then records weft_new (when not null)
 * as weft_bytes long. */
static void weft_heap_update(unsigned long long weft_old, unsigned long long weft_new, unsigned long long weft_bytes)
{
    unsigned int weft_i;
    weft_heap_lock();
    if (weft_old != 0) {
        weft_i = weft_heap_slot(weft_old);
        if (weft_heap_blocks.weft_at[weft_i] != 0)
            weft_heap_remove(weft_i);
    }
    if (weft_new != 0) {
        weft_i = weft_heap_slot(weft_new);
        if (weft_heap_blocks.weft_at[weft_i] != 0)
            weft_heap_blocks.weft_bytes[weft_i] = weft_bytes;
        else if (weft_heap_blocks.weft_live < WEFT_HEAP_LIVE) {
            weft_heap_blocks.weft_at[weft_i] = weft_new;
            weft_heap_blocks.weft_bytes[weft_i] = weft_bytes;
            weft_heap_blocks.weft_live++;
        }
    }
    weft_heap_unlock();
}

/* Forgets every block: after a realloc whose old pointer was not noted,
 * any recorded block may be gone. */
static void weft_heap_clear(void)
{
    unsigned int weft_i;
    weft_heap_lock();
    for (weft_i = 0; weft_i < WEFT_HEAP_SLOTS; weft_i++)
        weft_heap_blocks.weft_at[weft_i] = 0;
    weft_heap_blocks.weft_live = 0;
    weft_heap_unlock();
}

/* 1 when exactly weft_want arguments are pending; resets the count. */
static int weft_heap_noted(unsigned int weft_want)
{
    unsigned int weft_had = weft_heap_pending;
    weft_heap_pending = 0;
    return weft_had == weft_want;
}

static __SIZE_TYPE__ weft_heap_n(__SIZE_TYPE__ weft_n)
{
    weft_heap_pending++;
    weft_heap_size = weft_n;
    return weft_n;
}

static __SIZE_TYPE__ weft_heap_k(__SIZE_TYPE__ weft_k)
{
    weft_heap_pending++;
    weft_heap_items = weft_k;
    return weft_k;
}

static void *weft_heap_p(void *weft_p)
{
    weft_heap_pending++;
    weft_heap_old = (unsigned long long)(__UINTPTR_TYPE__)weft_p;
    return weft_p;
}

static void *weft_heap_malloc(void *weft_r)
{
    if (weft_heap_noted(1) && weft_r != 0)
        weft_heap_update(0, (unsigned long long)(__UINTPTR_TYPE__)weft_r, weft_heap_size);
    return weft_r;
}

static void *weft_heap_calloc(void *weft_r)
{
    /* calloc returned a block, so the product did not overflow. */
    if (weft_heap_noted(2) && weft_r != 0)
        weft_heap_update(0, (unsigned long long)(__UINTPTR_TYPE__)weft_r,
                         (unsigned long long)weft_heap_items * weft_heap_size);
    return weft_r;
}

static void *weft_heap_realloc(void *weft_r)
{
    if (!weft_heap_noted(2))
        weft_heap_clear();
    else if (weft_r != 0)
        weft_heap_update(weft_heap_old, (unsigned long long)(__UINTPTR_TYPE__)weft_r, weft_heap_size);
    else if (weft_heap_size == 0)
        /* realloc(p, 0) may free p and return null. */
        weft_heap_update(weft_heap_old, 0, 0);
    return weft_r;
}

static void *weft_heap_forget(const void *weft_p)
{
    if (weft_p != 0)
        weft_heap_update((unsigned long long)(__UINTPTR_TYPE__)weft_p, 0, 0);
    return (void *)(__UINTPTR_TYPE__)weft_p;
}

static long long weft_heap_count(const void *weft_a, __SIZE_TYPE__ weft_e)
{
    long long weft_n = -1;
    unsigned int weft_i;
    if (weft_a == 0 || weft_e == 0)
        return -1;
    weft_heap_lock();
    weft_i = weft_heap_slot((unsigned long long)(__UINTPTR_TYPE__)weft_a);
    if (weft_heap_blocks.weft_at[weft_i] != 0 && weft_heap_blocks.weft_bytes[weft_i] / weft_e <= 0x7FFFFFFFull)
        weft_n = (long long)(weft_heap_blocks.weft_bytes[weft_i] / weft_e);
    weft_heap_unlock();
    return weft_n;
}

#endif /* WEFT_HEAP_COLD_V1 */
