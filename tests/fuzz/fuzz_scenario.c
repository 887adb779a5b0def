/*
 * fuzz_scenario.c - libFuzzer target for the scenario parser.  Not built by
 * default; its corpus (tests/fuzz/corpus/scenario) runs as an ordinary test
 * in tests/unit/scenario.
 *   clang -fsanitize=fuzzer,address -Isrc tests/fuzz/fuzz_scenario.c \
 *     build/libdespatch_lib.a $(pkg-config --libs ...) -o fuzz_scenario
 */
#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct battle *b = NULL;
	struct err e;

	if (scenario_parse((const char *)data, size, "fuzz", 0, &b, &e) == 0)
		battle_free(b);
	return 0;
}
