// Stands in for a vendor extension library: the vendor's entry point names,
// behind them an interface OpenQNN does not know, and no OpenQNN marker. The
// tools must refuse it without calling either function.
#include <cstdlib>

extern "C" __attribute__((visibility("default"))) void* createBackendInterface() { std::abort(); }
extern "C" __attribute__((visibility("default"))) void destroyBackendInterface(void*) { std::abort(); }
