/*
 * merge.c - a mail's orders merged into the set a player has stored for
 * a phase, the convention of the Diplomacy judges: the mail's orders
 * replace the stored orders of the units and commanders they name (a
 * brigade line names each of its units; a line in the ruleset's own
 * words names what its ruleset says), and every other stored order
 * stands.  CLEAR at the top of a mail starts from nothing.  A line the
 * mail got wrong is not in its set, so the order stored before for that
 * unit stands too.
 *
 * An order kept keeps the mail it came in, its line there and its text
 * as written: the set as stored is the merged set, which is what the
 * salt, the leaf and the COMMIT are taken over (docs/ledger.md).
 */
#include "referee/internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"
#include "orders/orders.h"
#include "store/store.h"

/* Two orders for the same thing: the same unit or commander, or lines
 * of the ruleset's own with the same number, whatever they say. */
static int
same_key(const struct order *a, const struct order *b)
{
	if (a->special != 0 || b->special != 0)
		return a->special == b->special;
	return a->is_commander == b->is_commander && a->who == b->who;
}

/* The stored rows' orders, read again (as a turn reads them): out->set
 * holds them, out->set.orders[k].line the row's index + 1.  0, or -1
 * when they do not read back line for line (then nothing is merged). */
static int
read_rows(struct orders_parser *p, const struct battle *b, int side,
    const struct store_order_row *rows, int n, struct orders_result *out)
{
	struct text t;
	int i, rc;

	text_init(&t, 4u << 20);
	for (i = 0; i < n; i++)
		text_add(&t, "%s\n", rows[i].canonical);
	if (t.over) {
		text_free(&t);
		return -1;
	}
	orders_parser_replay(p, 1);
	orders_parse(p, b, side, t.s != NULL ? t.s : "", 0, out);
	orders_parser_replay(p, 0);
	text_free(&t);
	rc = out->nerrors == 0 && out->set.n == n ? 0 : -1;
	for (i = 0; rc == 0 && i < n; i++)
		if (out->set.orders[i].line != i + 1)
			rc = -1;
	return rc;
}

/* A line of the list of the set as it stands. */
static void
list_line(struct text *t, const char *mark, const char *canon)
{
	text_add(t, "  %-4s %.*s%s\n", mark, 100, canon,
	    strlen(canon) > 100 ? "..." : "");
}

/* The mail's order j, stored as the set's seq-th and listed as new. */
static int
insert_new(struct referee *r, const struct battle *b, int64_t game, int step,
    int side, int64_t player, int64_t msg_row, const struct orders_result *res,
    int j, int seq, struct text *list, struct err *e)
{
	const struct order *o = &res->set.orders[j];
	char canon[ORDERS_TEXT_MAX];

	orders_canonical(b, o, canon, sizeof(canon));
	if (store_order_insert(r->st, game, step, side, player, msg_row, seq,
	    o->line, orders_line_raw(res, o->line), canon, e) != 0)
		return -1;
	list_line(list, "new", canon);
	return 0;
}

int
referee_orders_merge(struct referee *r, struct orders_parser *p,
    const struct battle *b, int64_t game, int step, int side, int64_t player,
    int64_t msg_row, const struct orders_result *res, int clear,
    struct merge_result *mr, struct err *e)
{
	struct store_order_row *rows = NULL;
	struct orders_result *old = NULL;
	unsigned char *used = NULL;
	int nrows = 0, had = 0, i, j, seq = 0, rc = -1, merge;

	memset(mr, 0, sizeof(*mr));
	text_init(&mr->list, 1u << 20);
	if (store_orders_rows(r->st, game, step, side, player, &rows, &nrows,
	    e) != 0)
		return -1;
	mr->had = nrows;
	used = calloc((size_t)res->set.n + 1, 1);
	old = calloc(1, sizeof(*old));
	if (used == NULL || old == NULL) {
		err_set(e, ERR_TEMP, "out of memory merging the orders");
		goto out;
	}
	merge = !clear && nrows > 0;
	if (merge && read_rows(p, b, side, rows, nrows, old) != 0) {
		/* A stored set that no longer reads as it did is replaced
		 * whole, as before sets were merged, and the reply says so. */
		merge = 0;
		mr->unread = 1;
	}
	if (store_orders_supersede(r->st, game, step, side, player, &had,
	    e) != 0)
		goto out;
	for (i = 0; merge && i < nrows; i++) {
		const struct order *o = &old->set.orders[i];

		for (j = 0; j < res->set.n && !same_key(o, &res->set.orders[j]);
		    j++)
			;
		if (j == res->set.n) {
			/* Named by nothing in the mail: it stands. */
			if (store_order_insert(r->st, game, step, side, player,
			    rows[i].message, ++seq, rows[i].line, rows[i].raw,
			    rows[i].canonical, e) != 0)
				goto out;
			mr->kept++;
			list_line(&mr->list, "kept", rows[i].canonical);
			continue;
		}
		mr->replaced++;
		if (used[j])
			continue;
		/* The mail's order takes the place of the one it replaces. */
		used[j] = 1;
		if (insert_new(r, b, game, step, side, player, msg_row, res, j,
		    ++seq, &mr->list, e) != 0)
			goto out;
	}
	for (j = 0; j < res->set.n; j++) {
		if (used[j])
			continue;
		if (insert_new(r, b, game, step, side, player, msg_row, res, j,
		    ++seq, &mr->list, e) != 0)
			goto out;
		mr->added++;
	}
	mr->now = seq;
	mr->dropped = nrows - mr->kept - mr->replaced;
	/* The set as it now stands, read back as a turn will read it: what
	 * the preview warns of and draws. */
	store_order_rows_free(rows, nrows);
	rows = NULL;
	nrows = 0;
	if (store_orders_rows(r->st, game, step, side, player, &rows, &nrows,
	    e) != 0)
		goto out;
	mr->set = malloc(sizeof(*mr->set));
	if (mr->set == NULL) {
		err_set(e, ERR_TEMP, "out of memory merging the orders");
		goto out;
	}
	if (nrows > 0 && read_rows(p, b, side, rows, nrows, old) == 0) {
		/* Each order of this mail by its line there; one kept from
		 * an earlier mail by none (line 0: referee_preview_text). */
		*mr->set = old->set;
		for (i = 0; i < nrows; i++)
			mr->set->orders[i].line = rows[i].message == msg_row ?
			    rows[i].line : 0;
	} else {
		*mr->set = res->set;
	}
	rc = 0;
out:
	free(used);
	free(old);
	store_order_rows_free(rows, nrows);
	return rc;
}

void
referee_merge_result_free(struct merge_result *mr)
{
	text_free(&mr->list);
	free(mr->set);
	mr->set = NULL;
}

void
referee_preview_text(struct text *t, const char *warn)
{
	const char *s = warn;

	while (*s != '\0') {
		const char *nl = strchr(s, '\n');
		size_t n = nl != NULL ? (size_t)(nl - s) + 1 : strlen(s);

		if (strncmp(s, "  line 0: ", 10) == 0)
			text_add(t, "  kept: %.*s", (int)(n - 10), s + 10);
		else
			text_add(t, "%.*s", (int)n, s);
		s += n;
	}
}
