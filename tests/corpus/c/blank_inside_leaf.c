#include "m.h"
#define X /
local int add OF((int a, int b));
