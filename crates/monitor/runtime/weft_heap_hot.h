/* weft heap runtime, hot part: the sizes of the woven program's own
 * allocations (see docs/invariants.md, "an allocation weft can ask the
 * size of").
 *
 * The invariants aspect rewrites each call to malloc, calloc, realloc and
 * free in a traced function around the program's own call, which keeps
 * whatever the name means there (a macro such as rpl_malloc, a function of
 * the program's):
 *
 *   malloc(N)      -> weft_heap_malloc(malloc(weft_heap_n(N)))
 *   calloc(K, N)   -> weft_heap_calloc(calloc(weft_heap_k(K), weft_heap_n(N)))
 *   realloc(P, N)  -> weft_heap_realloc(realloc(weft_heap_p(P), weft_heap_n(N)))
 *   free(P)        -> free(weft_heap_forget(P))
 *
 * The argument wrappers note each argument once, as it is evaluated, and
 * count how many are pending; the result wrapper records the block only
 * when exactly its own arguments are pending (an allocation nested in
 * another's arguments, in an unspecified order, is then not recorded:
 * never a wrong size). No libc function is called and no program name is
 * claimed. weft_heap_count answers, at a trace point, how many elements of
 * weft_e bytes the block starting at weft_a holds, or -1 (not the start of
 * a live block this process recorded). */
#ifndef WEFT_HEAP_HOT_V1
#define WEFT_HEAP_HOT_V1

static __attribute__((unused)) __SIZE_TYPE__ weft_heap_n(__SIZE_TYPE__ weft_n);
static __attribute__((unused)) __SIZE_TYPE__ weft_heap_k(__SIZE_TYPE__ weft_k);
static __attribute__((unused)) void *weft_heap_p(void *weft_p);
static __attribute__((unused)) void *weft_heap_malloc(void *weft_r);
static __attribute__((unused)) void *weft_heap_calloc(void *weft_r);
static __attribute__((unused)) void *weft_heap_realloc(void *weft_r);
static __attribute__((unused)) void *weft_heap_forget(const void *weft_p);
static __attribute__((unused)) long long weft_heap_count(const void *weft_a, __SIZE_TYPE__ weft_e);

#endif /* WEFT_HEAP_HOT_V1 */
