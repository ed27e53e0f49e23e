int id(int v)
{
  return v;
}
