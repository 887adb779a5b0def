/*
 * fuzz_archive.c - libFuzzer target for the archive reader (despatch
 * verify): any bytes, as an archive, must give a verdict, never a crash.
 * Not built by default (cmake -DDESPATCH_FUZZ=ON with clang); its corpus
 * (tests/fuzz/corpus/archive) runs as an ordinary test in
 * tests/unit/ledger.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ledger/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verify_opts o = { 0 };
	struct verify_result *res = calloc(1, sizeof(*res));
	FILE *f;

	if (res == NULL || size == 0)
		goto out;
	f = fmemopen((void *)data, size, "r");
	if (f == NULL)
		goto out;
	(void)ledger_verify(f, &o, res);
	fclose(f);
out:
	free(res);
	return 0;
}
