// Compiled with the include roots of concorde_store: the ML model sits below the store (its
// serialized form is a store blob), so this include must be found (test_layers_downward_include).
#include "ml/CpiModel.h"
#include "store/FeatureDatabase.h"

int main() { return 0; }
