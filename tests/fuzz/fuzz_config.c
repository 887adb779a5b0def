/*
 * fuzz_config.c - libFuzzer target for the configuration file reader
 * (despatch.conf(5)): any bytes must be read or refused with a line
 * number, never crash.  Not built by default; its corpus
 * (tests/fuzz/corpus/config) runs as an ordinary test in tests/unit/config.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	struct err e;
	FILE *f;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (f == NULL)
		return 0;
	(void)config_read(f, "fuzz.conf", &c, &e);
	fclose(f);
	return 0;
}
