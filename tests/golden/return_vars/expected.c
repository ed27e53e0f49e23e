static int
clamp (int v, int lo, int hi)
{
  if (v < lo) {
    watch(lo);
    return lo;
  }
  watch(v);
  watch(hi);
  watch(hi);
  watch(v);
  return v > hi ? hi : v;
}
