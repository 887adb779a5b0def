/*
 * fuzz_orders.c - libFuzzer target for the order parser (the header in
 * body and Subject, order lines, brigade and standing orders, mail
 * commands, a shared side's brigade limit), against the minimal scenario
 * of the scenario corpus.  Built with -DDESPATCH_FUZZ=ON (clang); its
 * corpus (tests/fuzz/corpus/orders) runs as an ordinary test in
 * tests/unit/orders.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "orders/orders.h"
#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char scen[] =
    "scenario \"F\"\nruleset vnb-wing\ntable 24 x 24\nside a \"A\"\n"
    "  commander \"CA\" army at 2,2\n  brigade \"BA\" commander \"BCA\" at 4,4\n"
    "    unit \"UA\" type british-line stands 1 sp 2 at 6,6 facing 0\n"
    "side b \"B\"\n  commander \"CB\" army at 20,20\n"
    "  brigade \"BB\" commander \"BCB\" at 18,18\n"
    "    unit \"UB\" type raw-militia stands 1 sp 2 at 16,16 facing 180\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct battle *b;
	static struct orders_parser *p;
	static struct orders_result r;
	struct orders_header h;
	struct err e;
	char *text = malloc(size + 1);

	if (text == NULL)
		return 0;
	if (b == NULL && scenario_parse(scen, strlen(scen), "f", 0, &b, &e) != 0)
		abort();
	if (p == NULL && (p = orders_parser_new(ruleset_find("vnb-wing"), &e)) == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	/* The first byte chooses a limit, so the shared-side checks run. */
	orders_parser_limit(p, size > 0 && (data[0] & 1) ? 1u : 0u,
	    size > 0 && (data[0] & 2));
	orders_find_header(p, text, text, &h);
	orders_parse(p, b, 0, text, h.line, &r);
	(void)orders_bare_command(p, text, NULL);
	free(text);
	return 0;
}
