/*
 * deploy.c - a DEPLOY line of a battle's deployment step (core/deploy.h),
 * which the parser reads for every ruleset, in no ruleset's verb table.
 */
#include "orders/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/deploy.h"

/* "DEPLOY AT x,y [FACING n]" (rest: what follows the word) into o, for
 * the deployment step.  0, or -1 with msg. */
int
orders_parse_deploy(struct orders_parser *p, const struct battle *b, int side,
    int is_cmd, int who, const char *rest, struct order *o, char *msg,
    size_t msize)
{
	struct order_step *st = &o->steps[0];
	size_t k;
	char pt[64];
	const char *r = rest, *f;
	long v;

	memset(st, 0, sizeof(*st));
	st->verb = V_DEPLOY;
	st->angle = -1;
	while (orders_sp((unsigned char)*r))
		r++;
	if (!orders_verb_at(r, "AT", &k)) {
		snprintf(msg, msize, "DEPLOY needs the point to stand at, as in "
		    "\"DEPLOY AT 30,40 FACING 0\"");
		return -1;
	}
	r += k;
	while (orders_sp((unsigned char)*r))
		r++;
	for (k = 0; r[k] != '\0' && !orders_sp((unsigned char)r[k]) &&
	    k + 1 < sizeof(pt); k++)
		pt[k] = r[k];
	pt[k] = '\0';
	if (orders_point(p, b, pt, "DEPLOY AT", &st->pt, msg, msize) != 0)
		return -1;
	r += k;
	while (orders_sp((unsigned char)*r))
		r++;
	if (*r != '\0') {
		char *end;

		if (!orders_verb_at(r, "FACING", &k)) {
			snprintf(msg, msize, "unexpected \"%.40s\" after the point: "
			    "DEPLOY AT x,y may end with FACING and a bearing in "
			    "degrees (0 faces north, 90 east)", r);
			return -1;
		}
		f = r + k;
		while (orders_sp((unsigned char)*f))
			f++;
		v = strtol(f, &end, 10);
		while (orders_sp((unsigned char)*end))
			end++;
		if (end == f || *end != '\0' || v < 0 || v > 359) {
			snprintf(msg, msize, "FACING needs a bearing from 0 to 359 "
			    "degrees (0 faces north, 90 east), not \"%.20s\"", f);
			return -1;
		}
		st->angle = (int)v;
	}
	o->nsteps = 1;
	if (p->replay)
		return 0;
	return battle_deploy_check(b, side, is_cmd, who, st->pt, st->angle, msg,
	    msize);
}
