// The binary16 conversions are inline in half.h (they run once per element of
// every fp16 kernel); this translation unit only checks that the header compiles alone.
#include "quant/half.h"
