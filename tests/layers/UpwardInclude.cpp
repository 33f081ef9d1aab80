// Compiled with the include roots of concorde_store: the reference simulator sits above the
// store, so this include must not be found (test_layers_upward_include_fails).
#include "refsim/ReferenceSimulator.h"
