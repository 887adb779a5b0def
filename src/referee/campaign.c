/*
 * campaign.c - the referee's campaigns (issue 26): made from a campaign
 * file, players added by side, started with a signed genesis, shown.
 *
 * A campaign keeps its file and every battlefield file it names in the
 * store, so it is read back from there and never from the files again;
 * its state is campaign_state_write's text, which its ledger hashes.
 * Playing its turns (the march, battles as games, the carry-over) is the
 * next slice of issue 26.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <sodium.h>

#include "campaign/campaign.h"
#include "ledger/cverify.h"
#include "ledger/ledger.h"
#include "map/map.h"
#include "ledger/record.h"
#include "referee/chain.h"
#include "referee/internal.h"
#include "report/report.h"
#include "mail/mail.h"
#include "scenario/scenario.h"
#include "store/store.h"

#define MAX_CPLAYERS LEDGER_MAX_SEATS

static int
valid_name(const char *n)
{
	size_t i, len = strlen(n);

	if (len == 0 || len > 40 || !isalnum((unsigned char)n[0]))
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)n[i]) && n[i] != '-' && n[i] != '_')
			return 0;
	return 1;
}


/* Battlefields from the store's copies. */
struct stored_fields {
	const struct store_cfield *f;
	int n;
};

/* A 32-byte value made from the campaign's secret for one use named by
 * tag: BLAKE2b keyed by the secret.  The secret itself is never revealed:
 * the seed chain's tip is one such value (the last turn reveals it), each
 * battle's secret another, so no revealed seed tells a battle's dice. */
static void
from_secret(const unsigned char secret[32], const char *tag,
    unsigned char out[32])
{
	crypto_generichash(out, 32, (const unsigned char *)tag, strlen(tag),
	    secret, 32);
}

static int
read_stored(void *ctx, const char *path, char **text, size_t *len,
    struct err *e)
{
	const struct stored_fields *sf = ctx;
	int i;

	for (i = 0; i < sf->n; i++)
		if (strcmp(sf->f[i].path, path) == 0) {
			*text = malloc(sf->f[i].len + 1);
			if (*text == NULL)
				return err_set(e, ERR_INTERNAL, "out of memory");
			memcpy(*text, sf->f[i].text, sf->f[i].len);
			(*text)[sf->f[i].len] = '\0';
			*len = sf->f[i].len;
			return 0;
		}
	return err_set(e, ERR_DATA, "the store keeps no battlefield \"%s\"",
	    path);
}

/* The campaign as stored: its file parsed from the store's copies, its
 * state read onto it (once started).  *out: campaign_free. */
int
referee_campaign_load(struct referee *r, const struct store_campaign *sc,
    struct campaign **out, struct err *e)
{
	struct store_cfield *f = NULL;
	struct stored_fields sf;
	struct cp_fields cf = { read_stored, &sf };
	int n = 0, rc;

	*out = NULL;
	if (store_campaign_fields(r->st, sc->id, &f, &n, e) != 0)
		return -1;
	sf.f = f;
	sf.n = n;
	rc = campaign_parse_with(sc->file_text, sc->file_len, sc->file_name, &cf,
	    out, e);
	store_cfields_free(f, n);
	if (rc != 0)
		return -1;
	if (sc->state_text != NULL && campaign_state_read(*out, sc->state_text,
	    sc->state_len, e) != 0) {
		campaign_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int
referee_campaign_new(struct referee *r, const char *name, const char *path,
    int sandbox, const unsigned char *seed_secret, struct err *e)
{
	struct campaign *c = NULL;
	struct store_cfield fields[LEDGER_MAX_FIELDS];
	struct store_campaign seen;
	unsigned char secret[32];
	char *text = NULL;
	const char *base;
	size_t len = 0;
	int64_t id;
	int nf = 0, i, k, rc = -1;

	if (!valid_name(name))
		return err_set(e, ERR_USER, "\"%s\" is not a usable campaign name: "
		    "use 1 to 40 letters, digits, '-' or '_', starting with a letter "
		    "or digit", name);
	if (scenario_read_file(path, CAMPAIGN_MAX_BYTES, &text, &len, e) != 0)
		return -1;
	if (campaign_load_file(path, &c, e) != 0) {
		free(text);
		return -1;
	}
	/* Each battlefield once, by the path the file writes. */
	for (i = 0; i < c->nplaces; i++) {
		const struct cp_place *pl = &c->places[i];

		if (pl->field_text == NULL)
			continue;
		for (k = 0; k < nf; k++)
			if (strcmp(fields[k].path, pl->field_path) == 0)
				break;
		if (k < nf)
			continue;
		if (nf == LEDGER_MAX_FIELDS) {
			err_set(e, ERR_USER, "%s: more than %d battlefield files",
			    path, LEDGER_MAX_FIELDS);
			goto out;
		}
		snprintf(fields[nf].path, sizeof(fields[nf].path), "%s",
		    pl->field_path);
		fields[nf].text = pl->field_text;
		fields[nf].len = pl->field_len;
		nf++;
	}
	if (seed_secret != NULL)
		memcpy(secret, seed_secret, sizeof(secret));
	else
		randombytes_buf(secret, sizeof(secret));
	if (store_begin(r->st, e) != 0)
		goto out;
	if (store_campaign_get(r->st, name, &seen, e) == 0) {
		store_campaign_clear(&seen);
		store_rollback(r->st);
		err_set(e, ERR_USER, "a campaign called \"%s\" already exists in "
		    "this database", name);
		goto out;
	}
	err_clear(e);
	base = strrchr(path, '/');
	if (store_campaign_insert(r->st, name, c->title, c->ruleset,
	    base ? base + 1 : path, text, len, fields, nf, sandbox, secret,
	    referee_now(r), &id, e) != 0 || store_commit(r->st, e) != 0) {
		store_rollback(r->st);
		goto out;
	}
	rc = 0;
out:
	sodium_memzero(secret, sizeof(secret));
	campaign_free(c);
	free(text);
	return rc;
}

/* The number of turns on the calendar: the length of the seed chain. */
static int
campaign_turns(const struct campaign *c)
{
	return (c->end_day - c->start_day + 1) * c->halves;
}

int
referee_campaign_start(struct referee *r, const char *name, struct err *e)
{
	struct store_campaign sc;
	struct store_cplayer pl[MAX_CPLAYERS];
	struct store_cfield *f = NULL;
	struct ledger_cgenesis *g = NULL;
	const struct ledger_key *k;
	struct campaign *c = NULL;
	struct lbuf rec = { 0 };
	struct text st;
	unsigned char head[LEDGER_HASH], sig[LEDGER_SIG], tip[LEDGER_HASH];
	int n, nf = 0, i, s, rc = -1;

	text_init(&st, 4u * 1024 * 1024);
	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (sc.status != GAME_SETUP) {
		err_set(e, ERR_USER, "campaign \"%s\" has started already", name);
		goto out;
	}
	if (referee_campaign_load(r, &sc, &c, e) != 0)
		goto out;
	n = store_campaign_players(r->st, sc.id, pl, MAX_CPLAYERS, e);
	if (n < 0)
		goto out;
	for (s = 0; s < c->nsides; s++) {
		int any = 0;

		for (i = 0; i < n; i++)
			any |= strcmp(pl[i].side, c->sides[s].id) == 0;
		if (!any) {
			err_set(e, ERR_USER, "side '%s' of campaign \"%s\" has no "
			    "player: despatch campaign player add %s %s EMAIL",
			    c->sides[s].id, name, name, c->sides[s].id);
			goto out;
		}
	}
	if (chain_key(r, &k, e) != 0 ||
	    store_campaign_fields(r->st, sc.id, &f, &nf, e) != 0)
		goto out;
	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	snprintf(g->campaign, sizeof(g->campaign), "%s", sc.name);
	snprintf(g->title, sizeof(g->title), "%s", c->title);
	crypto_hash_sha256(g->file_sha256, (const unsigned char *)sc.file_text,
	    sc.file_len);
	g->nfields = nf;
	for (i = 0; i < nf; i++) {
		snprintf(g->field_path[i], sizeof(g->field_path[i]), "%s",
		    f[i].path);
		crypto_hash_sha256(g->field_sha256[i],
		    (const unsigned char *)f[i].text, f[i].len);
	}
	snprintf(g->ruleset, sizeof(g->ruleset), "%s", c->ruleset);
	g->engine = c->engine;
	g->turns = campaign_turns(c);
	g->sandbox = sc.sandbox;
	g->nsides = c->nsides;
	for (s = 0; s < c->nsides; s++)
		snprintf(g->sides[s], sizeof(g->sides[s]), "%s", c->sides[s].id);
	g->nseats = n;
	for (i = 0; i < n; i++) {
		g->seats[i].seat = i + 1;
		snprintf(g->seats[i].side, sizeof(g->seats[i].side), "%s",
		    pl[i].side);
		ledger_email_hash(pl[i].email, g->seats[i].email_hash);
	}
	campaign_state_write(c, &st);
	if (st.over) {
		err_set(e, ERR_DATA, "campaign \"%s\": its state is too large", name);
		goto out;
	}
	ledger_campaign_state_hash(st.s, st.len, g->state);
	from_secret(sc.seed_secret, "despatch/campaign-seed-tip/v1", tip);
	ledger_chain_at(tip, g->turns, 0, g->s0);
	sodium_memzero(tip, sizeof(tip));
	memcpy(g->pk, k->pk, LEDGER_PK);
	if (ledger_cgenesis_encode(g, &rec) != 0) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	ledger_head(rec.p, rec.n, head);
	ledger_sign(k, head, sig);
	if (store_begin(r->st, e) != 0)
		goto out;
	if (store_campaign_record_append(r->st, sc.id, 0, "campaign-genesis",
	    rec.p, rec.n, head, sig, referee_now(r), e) != 0 ||
	    store_campaign_set_state(r->st, sc.id, GAME_RUNNING, 0, st.s, st.len,
	    referee_now(r), e) != 0 || store_commit(r->st, e) != 0) {
		store_rollback(r->st);
		goto out;
	}
	rc = 0;
out:
	ledger_buf_free(&rec);
	free(g);
	store_cfields_free(f, nf);
	text_free(&st);
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}

static void
json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static int
column_full(const struct campaign *c, int k)
{
	int u, f = 0;

	for (u = 0; u < c->nunits; u++)
		if (c->brigades[c->units[u].brigade].column == k)
			f += campaign_unit_full(&c->units[u]);
	return f;
}

static const char *
status_word(enum game_status s)
{
	return s == GAME_RUNNING ? "running" : s == GAME_FINISHED ? "finished" :
	    "setup";
}

int
referee_campaign_state_print(struct referee *r, const char *name,
    int as_json, FILE *out, struct err *e)
{
	struct store_campaign sc;
	struct campaign *c = NULL;
	char date[32], at[256];
	int k, b, u, i, day;

	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (referee_campaign_load(r, &sc, &c, e) != 0) {
		store_campaign_clear(&sc);
		return -1;
	}
	day = c->start_day + c->turn / c->halves;
	campaign_date_fmt(day, date, sizeof(date));
	if (!as_json) {
		fprintf(out, "%s: \"%s\", %s, turn %d, %s\n", sc.name, c->title,
		    status_word(sc.status), c->turn, date);
		for (k = 0; k < c->ncolumns; k++) {
			const struct cp_column *col = &c->columns[k];

			if (col->gone)
				continue;
			campaign_where(c, k, at, sizeof(at));
			fprintf(out, "%s column \"%s\" (%s) %s: strength %d of %d%s",
			    c->sides[col->side].id, col->name, col->commander, at,
			    campaign_column_sp(c, k), column_full(c, k),
			    campaign_in_supply(c, k) ? "" : ", out of supply");
			for (b = 0, i = 0; campaign_exhaustion(c) &&
			    b < c->nbrigades; b++)
				if (c->brigades[b].column == k &&
				    c->brigades[b].spent > 0)
					fprintf(out, "%s\"%s\"", i++ ? ", " :
					    "; exhausted: ", c->brigades[b].name);
			if (campaign_exhaustion(c) && col->forced > 0)
				fprintf(out, "; %d forced-march day%s running",
				    col->forced, col->forced == 1 ? "" : "s");
			fprintf(out, "\n");
		}
		campaign_free(c);
		store_campaign_clear(&sc);
		return 0;
	}
	fprintf(out, "{\"campaign\":");
	json_str(out, sc.name);
	fprintf(out, ",\"title\":");
	json_str(out, c->title);
	fprintf(out, ",\"ruleset\":");
	json_str(out, c->ruleset);
	fprintf(out, ",\"status\":\"%s\",\"turn\":%d,\"date\":\"%s\","
	    "\"over\":%s,\"winner\":", status_word(sc.status), c->turn, date,
	    c->over ? "true" : "false");
	if (c->over && c->winner >= 0)
		json_str(out, c->sides[c->winner].id);
	else
		fprintf(out, "null");
	fprintf(out, ",\"columns\":[");
	for (k = 0, i = 0; k < c->ncolumns; k++) {
		const struct cp_column *col = &c->columns[k];

		fprintf(out, "%s{\"name\":", i++ ? "," : "");
		json_str(out, col->name);
		fprintf(out, ",\"side\":");
		json_str(out, c->sides[col->side].id);
		fprintf(out, ",\"commander\":");
		json_str(out, col->commander);
		fprintf(out, ",\"gone\":%s,\"place\":", col->gone ? "true" :
		    "false");
		if (col->road < 0)
			json_str(out, c->places[col->place].name);
		else
			fprintf(out, "null");
		fprintf(out, ",\"road\":");
		if (col->road >= 0) {
			const struct cp_road *rd = &c->roads[col->road];

			fprintf(out, "{\"from\":");
			json_str(out, c->places[col->from].name);
			fprintf(out, ",\"to\":");
			json_str(out, c->places[col->from == rd->a ? rd->b :
			    rd->a].name);
			fprintf(out, ",\"miles_out\":%d.%02d}", col->along100 / 100,
			    col->along100 % 100);
		} else {
			fprintf(out, "null");
		}
		fprintf(out, ",\"supplied\":%s,\"strength\":%d,",
		    campaign_in_supply(c, k) ? "true" : "false",
		    campaign_column_sp(c, k));
		if (campaign_exhaustion(c))
			fprintf(out, "\"forced_days\":%d,", col->forced);
		fprintf(out, "\"brigades\":[");
		for (b = 0, i = 0; b < c->nbrigades; b++) {
			int j = 0;

			if (c->brigades[b].column != k)
				continue;
			fprintf(out, "%s{\"name\":", i++ ? "," : "");
			json_str(out, c->brigades[b].name);
			fprintf(out, ",\"commander\":");
			json_str(out, c->brigades[b].commander);
			if (campaign_exhaustion(c))
				fprintf(out, ",\"exhausted\":%s,\"rest_owed\":%d",
				    c->brigades[b].spent > 0 ? "true" : "false",
				    c->brigades[b].spent);
			fprintf(out, ",\"units\":[");
			for (u = 0; u < c->nunits; u++) {
				const struct cp_unit *un = &c->units[u];
				int m;

				if (un->brigade != b)
					continue;
				fprintf(out, "%s{\"name\":", j++ ? "," : "");
				json_str(out, un->name);
				fprintf(out, ",\"gone\":%s,\"strength\":%d,\"full\":%d,"
				    "\"stands\":[", un->gone ? "true" : "false",
				    campaign_unit_sp(un), campaign_unit_full(un));
				for (m = 0; m < un->nstands; m++)
					fprintf(out, "%s[%d,%d]", m ? "," : "", un->sp[m],
					    un->full[m]);
				fprintf(out, "]}");
			}
			fprintf(out, "]}");
		}
		fprintf(out, "]}");
		i = 1;
	}
	fprintf(out, "]}\n");
	campaign_free(c);
	store_campaign_clear(&sc);
	return 0;
}

int
referee_campaign_show(struct referee *r, const char *name, FILE *out,
    struct err *e)
{
	struct store_campaign sc;
	struct store_cplayer pl[MAX_CPLAYERS];
	struct store_crecord *rec = NULL;
	struct campaign *c = NULL;
	char a[16], b[16], hex[2 * LEDGER_HASH + 1];
	int n, nrec = 0, i, s;

	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (referee_campaign_load(r, &sc, &c, e) != 0 ||
	    (n = store_campaign_players(r->st, sc.id, pl, MAX_CPLAYERS, e)) < 0 ||
	    store_campaign_records(r->st, sc.id, &rec, &nrec, e) != 0) {
		campaign_free(c);
		store_campaign_clear(&sc);
		return -1;
	}
	campaign_date_fmt(c->start_day, a, sizeof(a));
	campaign_date_fmt(c->end_day, b, sizeof(b));
	fprintf(out, "campaign %s: \"%s\"\n", sc.name, c->title);
	fprintf(out, "file: %s (%s), campaign engine %d\n", sc.file_name,
	    c->ruleset, c->engine);
	fprintf(out, "status: %s, %d of %d turns played\n",
	    status_word(sc.status), c->turn, campaign_turns(c));
	fprintf(out, "calendar: %s to %s, a turn is %s\n", a, b,
	    c->halves == 1 ? "a day" : "half a day");
	fprintf(out, "map: %d places, %d roads\n", c->nplaces, c->nroads);
	{
		char w[256];

		campaign_weather_summary(c, w, sizeof(w));
		fprintf(out, "weather: %s%s\n", w, c->engine < 2 ? " (campaign "
		    "engine 1 has none: every day fair)" : "");
	}
	for (s = 0; s < c->nsides; s++) {
		int any = 0;

		fprintf(out, "side %s \"%s\":", c->sides[s].id, c->sides[s].name);
		for (i = 0; i < n; i++)
			if (strcmp(pl[i].side, c->sides[s].id) == 0) {
				fprintf(out, "%s %s%s%s%s", any ? "," : "", pl[i].email,
				    pl[i].columns[0] ? " (commanding " : "",
				    pl[i].columns, pl[i].columns[0] ? ")" : "");
				any = 1;
			}
		fprintf(out, "%s\n", any ? "" : " (no player yet)");
	}
	for (i = 0; i < nrec; i++) {
		ledger_hex(rec[i].head, LEDGER_HASH, hex);
		fprintf(out, "record %lld %s: head %s\n", (long long)rec[i].seq,
		    rec[i].kind, hex);
	}
	if (sc.status == GAME_SETUP)
		fprintf(out, "next: despatch campaign start %s\n", sc.name);
	store_crecords_free(rec, nrec);
	campaign_free(c);
	store_campaign_clear(&sc);
	return 0;
}

/* ---- orders and turns ---------------------------------------------------- */

/* Side's orders for the next turn, from text (one a line): each line
 * answered on out (understood as, or what is wrong); those understood
 * replace the side's stored orders for the columns they name, the rest
 * stand.  A line that is wrong loses nothing stored.  The number of
 * lines refused into *refused. */
int
referee_campaign_orders(struct referee *r, const char *name, const char *side,
    int64_t player, const char *text, FILE *out, int *refused, int *taken,
    struct err *e)
{
	struct store_campaign sc;
	struct campaign *c = NULL;
	struct cp_order have[CAMPAIGN_MAX_COLUMNS];
	struct store_cplayer *pl = NULL;
	char *stored = NULL, msg[1024], canon[512];
	struct text t;
	const char *p;
	int s, nhave = 0, ln = 0, i, rc = -1, np = 0, me = -1;

	*refused = 0;
	if (taken != NULL)
		*taken = 0;
	text_init(&t, 1u << 20);
	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (sc.status != GAME_RUNNING || sc.pending != NULL) {
		err_set(e, ERR_USER, sc.status == GAME_SETUP ? "campaign \"%s\" has "
		    "not started" : sc.status == GAME_FINISHED ? "campaign \"%s\" is "
		    "over" : "campaign \"%s\" waits for its battles: orders for the "
		    "next turn are taken once they end", name);
		goto out;
	}
	if (referee_campaign_load(r, &sc, &c, e) != 0)
		goto out;
	if ((s = campaign_find_side(c, side)) < 0) {
		err_set(e, ERR_USER, "campaign \"%s\" has no side '%s'", name, side);
		goto out;
	}
	/* The player's own columns (none given: the side's every one). */
	if (player != 0) {
		pl = calloc(MAX_CPLAYERS, sizeof(*pl));
		if (pl == NULL) {
			err_set(e, ERR_TEMP, "out of memory");
			goto out;
		}
		np = store_campaign_players(r->st, sc.id, pl, MAX_CPLAYERS, e);
		if (np < 0)
			goto out;
		for (i = 0; i < np; i++)
			if (pl[i].id == player)
				me = i;
	}
	if (store_campaign_orders_get(r->st, sc.id, c->turn + 1, c->sides[s].id,
	    &stored, e) != 0)
		goto out;
	/* What stands: the stored lines, read again. */
	for (p = stored; p != NULL && *p; ) {
		const char *nl = strchr(p, '\n');
		char line[512];
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		snprintf(line, sizeof(line), "%.*s", (int)l, p);
		p += l + (nl ? 1 : 0);
		if (nhave < CAMPAIGN_MAX_COLUMNS && campaign_order_line(c, s,
		    line, &have[nhave], msg, sizeof(msg)) == 1)
			nhave++;
	}
	for (p = text; *p; ) {
		const char *nl = strchr(p, '\n');
		char line[512];
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		struct cp_order o;
		int got;

		ln++;
		snprintf(line, sizeof(line), "%.*s", (int)(l > 500 ? 500 : l), p);
		if (l > 0 && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		p += l + (nl ? 1 : 0);
		got = campaign_order_line(c, s, line, &o, msg, sizeof(msg));
		if (got == 0)
			continue;
		if (got > 0 && me >= 0 && o.column >= 0 &&
		    !referee_cplayer_commands(c, pl, np, me, o.column)) {
			snprintf(msg, sizeof(msg), "\"%s\" is not one of your "
			    "columns: you command %s; its orders come from the "
			    "player who commands it", c->columns[o.column].name,
			    pl[me].columns);
			got = -1;
		}
		if (got < 0) {
			fprintf(out, "line %d: %s\n  %s\n", ln, line, msg);
			(*refused)++;
			continue;
		}
		campaign_order_text(c, &o, canon, sizeof(canon));
		fprintf(out, "line %d: %s%s%s\n", ln, canon, msg[0] ? "\n  " : "",
		    msg);
		if (taken != NULL)
			(*taken)++;
		for (i = 0; i < nhave; i++)
			if (have[i].column == o.column)
				break;
		if (i == nhave && nhave < CAMPAIGN_MAX_COLUMNS)
			nhave++;
		have[i] = o;
	}
	for (i = 0; i < nhave; i++) {
		campaign_order_text(c, &have[i], canon, sizeof(canon));
		text_add(&t, "%s\n", canon);
	}
	if (store_campaign_orders_set(r->st, sc.id, c->turn + 1, c->sides[s].id,
	    t.s != NULL ? t.s : "", referee_now(r), e) != 0)
		goto out;
	fprintf(out, "orders of %s for turn %d now standing: %d\n", side,
	    c->turn + 1, nhave);
	for (i = 0; i < nhave; i++) {
		campaign_order_text(c, &have[i], canon, sizeof(canon));
		fprintf(out, "  %s\n", canon);
	}
	rc = 0;
out:
	free(pl);
	free(stored);
	text_free(&t);
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}

/* The campaign's last record: its seq and head. */
static int
last_record(struct referee *r, int64_t id, int64_t *seq,
    unsigned char head[LEDGER_HASH], struct err *e)
{
	struct store_crecord *rec = NULL;
	int n = 0;

	if (store_campaign_records(r->st, id, &rec, &n, e) != 0)
		return -1;
	if (n == 0) {
		store_crecords_free(rec, n);
		return err_set(e, ERR_DATA, "the campaign has no genesis");
	}
	*seq = rec[n - 1].seq;
	memcpy(head, rec[n - 1].head, LEDGER_HASH);
	store_crecords_free(rec, n);
	return 0;
}

static int
append(struct referee *r, int64_t id, int64_t seq, const char *kind,
    const struct lbuf *rec, unsigned char head[LEDGER_HASH], struct err *e)
{
	const struct ledger_key *k;
	unsigned char sig[LEDGER_SIG];

	if (rec->oom)
		return err_set(e, ERR_TEMP, "out of memory");
	if (chain_key(r, &k, e) != 0)
		return -1;
	ledger_head(rec->p, rec->n, head);
	ledger_sign(k, head, sig);
	return store_campaign_record_append(r->st, id, seq, kind, rec->p, rec->n,
	    head, sig, referee_now(r), e);
}

/* The end of a turn: every battle's final state carried back, the
 * day's upkeep, the settle record, the state. */
/* Does side's report of turn t carry the map: the first and the last
 * turn, a day one of its columns marched or fell back, a battle, or an
 * enemy column in sight.  On a quiet day nothing on the map moved. */
static int
map_day(const struct campaign *c, int side, const struct cp_turn *t,
    const struct cp_settle *st)
{
	unsigned char seen[CAMPAIGN_MAX_COLUMNS];
	int i;

	if (t->turn == 1 || c->over || st->ncarries > 0)
		return 1;
	for (i = 0; i < t->norders; i++) {
		const struct cp_order *o = &t->orders[i];

		if (c->columns[o->column].side == side && (o->kind == CO_MARCH ||
		    o->kind == CO_FORCED || o->kind == CO_RETREAT ||
		    o->kind == CO_DETACH || o->kind == CO_JOIN))
			return 1;
	}
	campaign_sees(c, side, t->orders, t->norders, t->contacts, t->ncontacts,
	    seen);
	for (i = 0; i < c->ncolumns; i++)
		if (seen[i] && c->columns[i].side != side && !c->columns[i].gone)
			return 1;
	return 0;
}

/* The day's report to each player of each side, queued with the record
 * that settles the turn (one transaction: never a turn without its
 * reports, nor reports twice). */
static int
queue_reports(struct referee *r, const struct store_campaign *sc,
    const struct campaign *c, const struct cp_turn *t,
    const struct cp_settle *st, struct err *e)
{
	struct store_cplayer pl[MAX_CPLAYERS];
	char subject[300], date[64], due[320] = "";
	int64_t opened = 0, deadline = 0;
	int n, s, i, rc = 0;

	n = store_campaign_players(r->st, sc->id, pl, MAX_CPLAYERS, e);
	if (n < 0)
		return -1;
	campaign_date_long(t->day, date, sizeof(date));
	/* By when the next orders are due: the turn opens with the record
	 * that settles this one (in the same transaction). */
	if (!c->over) {
		if (referee_campaign_deadline(r, sc, &opened, &deadline, e) != 0)
			return -1;
		if (deadline > 0) {
			char when[200], utc[40];

			referee_clock_when(r, 0, deadline, referee_now(r), when,
			    sizeof(when));
			referee_utc(REFEREE_UTC_MINUTES, deadline, utc, sizeof(utc));
			snprintf(due, sizeof(due), "\nOrders for turn %d are due by\n"
			    "  %s\n  (%s).\n", c->turn + 1, when, utc);
		}
	}
	for (s = 0; s < c->nsides && rc == 0; s++) {
		struct text body;
		struct mail_part parts[2];
		struct mail_extra x;
		unsigned char *png = NULL, *svg = NULL;
		size_t plen = 0, slen = 0;
		char title[400], sub[200], *html = NULL;
		int want_map, want_svg;

		text_init(&body, 1u << 20);
		campaign_day_report(c, sc->name, s, t, st, &body);
		text_add(&body, "%s", due);
		snprintf(subject, sizeof(subject), "[%s] Turn %d, %s: %s%s",
		    sc->name, t->turn, date, c->sides[s].name, c->over ?
		    ", the end of the campaign" : "");
		if (body.s == NULL || body.over) {
			text_free(&body);
			return err_set(e, ERR_TEMP, "out of memory");
		}
		/* The operational map as the side knows it, inline, on a day
		 * its picture may have changed (see map_day), to each player
		 * as chosen (SET MAIL): none for TEXT, the SVG of it too for
		 * FULL; the text alone on a quiet day. */
		want_map = want_svg = 0;
		for (i = 0; i < n; i++)
			if (strcmp(pl[i].side, c->sides[s].id) == 0) {
				want_map |= strcmp(pl[i].mail_format, "text") != 0;
				want_svg |= strcmp(pl[i].mail_format, "full") == 0;
			}
		if (!map_day(c, s, t, st))
			want_map = want_svg = 0;
		snprintf(title, sizeof(title), "%s (campaign %s)", c->title,
		    sc->name);
		snprintf(sub, sizeof(sub), "%s, after turn %d: as %s", date,
		    t->turn, c->sides[s].name);
		memset(&x, 0, sizeof(x));
		if ((want_map && campaign_map_render(c, s, title, sub, 0, 1, &png,
		    &plen, e) != 0) || (want_svg && campaign_map_render(c, s, title,
		    sub, 1, 0, &svg, &slen, e) != 0)) {
			free(png);
			text_free(&body);
			return -1;
		}
		snprintf(x.cid, sizeof(x.cid), "map.%.60s-turn%d-%.40s@despatch",
		    sc->name, t->turn, c->sides[s].id);
		snprintf(x.png, sizeof(x.png), "%.60s-turn%d-%.40s.png", sc->name,
		    t->turn, c->sides[s].id);
		snprintf(x.svg, sizeof(x.svg), "%.60s-turn%d-%.40s.svg", sc->name,
		    t->turn, c->sides[s].id);
		if (want_map && (html = report_html(body.s, subject, x.cid,
		    "The operational map as your side knows it")) == NULL) {
			free(png);
			free(svg);
			text_free(&body);
			return err_set(e, ERR_TEMP, "out of memory");
		}
		parts[0] = (struct mail_part){ "image/png", x.png, x.cid, png,
		    plen };
		parts[1] = (struct mail_part){ "image/svg+xml", x.svg, NULL, svg,
		    slen };
		x.html = html;
		x.parts = parts;
		for (i = 0; i < n && rc == 0; i++) {
			if (strcmp(pl[i].side, c->sides[s].id) != 0)
				continue;
			if (!want_map || strcmp(pl[i].mail_format, "text") == 0) {
				rc = referee_queue_mail(r, 0, sc->name, pl[i].email,
				    subject, "report", NULL, body.s, e);
				continue;
			}
			x.nparts = want_svg && strcmp(pl[i].mail_format, "full") ==
			    0 ? 2 : 1;
			rc = referee_queue_mail_x(r, 0, sc->name, pl[i].email,
			    subject, "report", NULL, body.s, &x, 0, e);
		}
		free(html);
		free(png);
		free(svg);
		text_free(&body);
	}
	return rc;
}

static int
settle(struct referee *r, const struct store_campaign *sc,
    struct campaign *c, struct cp_turn *t, FILE *out, struct err *e)
{
	struct battle *bs[LEDGER_MAX_CBATTLES] = { 0 };
	int played[LEDGER_MAX_CBATTLES], ended[LEDGER_MAX_CBATTLES];
	int64_t games[LEDGER_MAX_CBATTLES], seq;
	struct ledger_csettle *m = NULL;
	struct cp_settle st;
	struct lbuf rec = { 0 };
	struct text stt;
	unsigned char head[LEDGER_HASH];
	int n, i, j, rc = -1;

	memset(&st, 0, sizeof(st));
	text_init(&stt, 4u * 1024 * 1024);
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		text_free(&stt);
		return err_set(e, ERR_TEMP, "out of memory");
	}
	n = store_campaign_battles(r->st, sc->id, t->turn, games,
	    LEDGER_MAX_CBATTLES, e);
	if (n < 0)
		goto out;
	if (n != t->ncontacts) {
		err_set(e, ERR_DATA, "turn %d opened %d battles but the store "
		    "keeps %d", t->turn, t->ncontacts, n);
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct store_game g;

		if (store_game_name_of(r->st, games[i], m->game[i], e) != 0 ||
		    store_game_get(r->st, m->game[i], &g, e) != 0)
			goto out;
		if (g.status != GAME_FINISHED) {
			fprintf(out, "the battle %s goes on (step %d): the turn ends "
			    "when every battle of it has ended\n", g.name, g.step);
			store_game_clear(&g);
			rc = 1;
			goto out;
		}
		store_game_clear(&g);
		/* From its archive, verified: what verify will carry back
		 * from, by the same code. */
		{
			struct battle_outcome bo;
			char *buf = NULL, why[700];
			size_t len = 0;
			FILE *mem = open_memstream(&buf, &len);

			if (mem == NULL) {
				err_set(e, ERR_TEMP, "out of memory");
				goto out;
			}
			if (referee_export(r, m->game[i], mem, 0, e) != 0) {
				fclose(mem);
				free(buf);
				goto out;
			}
			fclose(mem);
			if (ledger_battle_outcome(buf, len, &bo, why, sizeof(why)) != 0) {
				free(buf);
				err_set(e, ERR_DATA, "battle %s: %s", m->game[i], why);
				goto out;
			}
			free(buf);
			bs[i] = bo.b;
			played[i] = m->steps[i] = bo.steps;
			ended[i] = bo.ended;
			memcpy(m->head[i], bo.head, LEDGER_HASH);
		}
	}
	if (campaign_turn_settle(c, t, bs, played, ended, &st, e) != 0)
		goto out;
	campaign_state_write(c, &stt);
	m->turn = t->turn;
	if (last_record(r, sc->id, &seq, m->prev, e) != 0)
		goto out;
	m->nbattles = n;
	ledger_campaign_state_hash(stt.s, stt.len, m->state);
	m->nsides = c->nsides;
	for (i = 0; i < c->nsides; i++)
		m->points[i] = st.points[i];
	m->over = c->over;
	m->winner = c->over ? c->winner : -1;
	if (ledger_csettle_encode(m, &rec) != 0) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	if (store_begin(r->st, e) != 0)
		goto out;
	if (append(r, sc->id, seq + 1, "campaign-settle", &rec, head, e) != 0 ||
	    store_campaign_set_pending(r->st, sc->id, NULL, 0, e) != 0 ||
	    store_campaign_set_state(r->st, sc->id, c->over ? GAME_FINISHED :
	    GAME_RUNNING, c->turn, stt.s, stt.len, referee_now(r), e) != 0 ||
	    queue_reports(r, sc, c, t, &st, e) != 0 ||
	    store_commit(r->st, e) != 0) {
		store_rollback(r->st);
		goto out;
	}
	for (i = 0; i < st.ncarries; i++) {
		const struct cp_carry *cr = &st.carries[i];

		fprintf(out, "battle %s at %s: %s\n", m->game[i],
		    c->places[cr->place].name, cr->winner < 0 ? "a draw" :
		    c->sides[cr->winner].name);
		for (j = 0; j < cr->nretreats; j++)
			fprintf(out, "  \"%s\" falls back to %s\n",
			    c->columns[cr->retreats[j].column].name,
			    c->places[cr->retreats[j].to].name);
	}
	fprintf(out, "turn %d settled", t->turn);
	for (i = 0; i < c->nsides; i++)
		fprintf(out, "%s %s %d", i ? "," : ":", c->sides[i].id,
		    st.points[i]);
	fprintf(out, "\n");
	if (c->over)
		fprintf(out, "the campaign is over: %s\n", c->winner < 0 ? "a draw" :
		    c->sides[c->winner].name);
	rc = 0;
out:
	for (i = 0; i < LEDGER_MAX_CBATTLES; i++)
		battle_free(bs[i]);
	campaign_settle_free(&st);
	ledger_buf_free(&rec);
	text_free(&stt);
	free(m);
	return rc;
}

/* A battle's game name: CAMPAIGN-tTURN-N, the campaign's part cut so
 * that it is a usable game name. */
static void
battle_name(const char *campaign, int turn, int i, char *out, size_t size)
{
	snprintf(out, size, "%.28s-t%d-%d", campaign, turn, i + 1);
}

/* Opens battle i of turn t as a game: its scenario with the head of
 * the record that opened it, the campaign's players of the sides in
 * it (their campaign secret), started. */
static int
open_battle(struct referee *r, const struct store_campaign *sc,
    const struct campaign *c, const struct cp_turn *t, int i,
    const unsigned char head[LEDGER_HASH], const char *gname, struct err *e)
{
	struct store_cplayer pl[MAX_CPLAYERS];
	struct battle *b = NULL;
	char hex[2 * LEDGER_HASH + 1];
	struct text txt;
	int64_t gid;
	int n, k, s, rc = -1;

	ledger_hex(head, LEDGER_HASH, hex);
	text_init(&txt, 2u * 1024 * 1024);
	text_add(&txt, "# A battle of campaign %s, turn %d, opened by its "
	    "record of head\n# %s\n", sc->name, t->turn, hex);
	text_add(&txt, "%.*s", (int)t->battles[i].len, t->battles[i].scenario);
	if (txt.over) {
		text_free(&txt);
		return err_set(e, ERR_DATA, "battle %s is too large", gname);
	}
	{
		/* The battle's secret, from the campaign's: as secret as it,
		 * and the same battle each time the campaign is played from
		 * the same secret (the demo). */
		unsigned char bsec[32];
		char tag[96];

		snprintf(tag, sizeof(tag), "despatch/campaign-battle-secret/v1 %d %d",
		    t->turn, i);
		from_secret(sc->seed_secret, tag, bsec);
		rc = referee_new_game_text(r, gname, gname, txt.s, txt.len,
		    sc->sandbox, bsec, &gid, e);
		sodium_memzero(bsec, sizeof(bsec));
		if (rc != 0)
			goto out;
		rc = -1;
	}
	if (scenario_parse(txt.s, txt.len, gname, 0, &b, e) != 0)
		goto out;
	n = store_campaign_players(r->st, sc->id, pl, MAX_CPLAYERS, e);
	if (n < 0)
		goto out;
	if (store_begin(r->st, e) != 0)
		goto out;
	if (store_game_set_campaign(r->st, gid, sc->id, e) != 0 ||
	    store_campaign_battle_add(r->st, sc->id, t->turn, i, gid, e) != 0)
		goto fail;
	for (k = 0; k < n; k++) {
		char brigades[1024];

		s = battle_side(b, pl[k].side);
		if (s < 0)
			continue;    /* none of that side's columns fight here */
		/* A player of some columns commands their brigades here (and
		 * the army, when his column's commander leads it); one with
		 * none of them here sits this battle out. */
		if (referee_campaign_seat(c, b, s, pl, n, k, brigades,
		    sizeof(brigades)) == 0)
			continue;
		/* The campaign's secret: the welcome says to send it. */
		if (store_player_add(r->st, gid, s, pl[k].email, pl[k].secret_hash,
		    "", brigades, referee_now(r), e) != 0)
			goto fail;
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	rc = referee_start(r, gname, e);
	goto out;
fail:
	store_rollback(r->st);
out:
	(void)c;
	battle_free(b);
	text_free(&txt);
	return rc;
}

int
referee_campaign_turn(struct referee *r, const char *name, FILE *out,
    struct err *e)
{
	struct store_campaign sc;
	struct campaign *c = NULL;
	struct cp_order given[CAMPAIGN_MAX_COLUMNS];
	struct cp_turn *tp = calloc(1, sizeof(*tp));
	struct ledger_cmarch *m = NULL;
	struct ledger_dice ld;
	struct dice d;
	struct lbuf rec = { 0 };
	struct text stt, pend;
	unsigned char head[LEDGER_HASH], tip[LEDGER_HASH];
	char msg[512];
	int64_t seq;
	int ngiven = 0, s, i, rc = -1;

	text_init(&stt, 4u * 1024 * 1024);
	text_init(&pend, 1u << 20);
	if (tp == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	if (store_campaign_get(r->st, name, &sc, e) != 0) {
		free(tp);
		return -1;
	}
	if (sc.status != GAME_RUNNING) {
		err_set(e, ERR_USER, sc.status == GAME_SETUP ? "campaign \"%s\" has "
		    "not started" : "campaign \"%s\" is over", name);
		goto out;
	}
	if (referee_campaign_load(r, &sc, &c, e) != 0)
		goto out;
	if (sc.pending != NULL) {
		/* Marched: its battles may be over now. */
		if (campaign_turn_read(sc.pending, sc.pending_len, tp, e) != 0)
			goto out;
		rc = settle(r, &sc, c, tp, out, e) < 0 ? -1 : 0;
		goto out;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	m->turn = c->turn + 1;
	if (m->turn > (c->end_day - c->start_day + 1) * c->halves) {
		err_set(e, ERR_DATA, "campaign \"%s\" has no turn %d", name, m->turn);
		goto out;
	}
	/* Each side's orders as they stand, read again on today's map. */
	for (s = 0; s < c->nsides; s++) {
		char *stored = NULL;
		const char *p;

		if (store_campaign_orders_get(r->st, sc.id, m->turn, c->sides[s].id,
		    &stored, e) != 0)
			goto out;
		for (p = stored; p != NULL && *p; ) {
			const char *nl = strchr(p, '\n');
			char line[512];
			size_t l = nl ? (size_t)(nl - p) : strlen(p);

			snprintf(line, sizeof(line), "%.*s", (int)l, p);
			p += l + (nl ? 1 : 0);
			if (ngiven < CAMPAIGN_MAX_COLUMNS && campaign_order_line(c, s,
			    line, &given[ngiven], msg, sizeof(msg)) == 1)
				ngiven++;
		}
		snprintf(m->leaf_side[s], sizeof(m->leaf_side[s]), "%s",
		    c->sides[s].id);
		free(stored);
	}
	m->nleaves = c->nsides;
	/* S_t, then the leaves with its salt, the root and the dice seed. */
	from_secret(sc.seed_secret, "despatch/campaign-seed-tip/v1", tip);
	ledger_chain_at(tip, (c->end_day - c->start_day + 1) * c->halves,
	    m->turn, m->s_turn);
	sodium_memzero(tip, sizeof(tip));
	for (s = 0; s < c->nsides; s++) {
		char *stored = NULL;

		if (store_campaign_orders_get(r->st, sc.id, m->turn, c->sides[s].id,
		    &stored, e) != 0)
			goto out;
		ledger_campaign_leaf(sc.name, m->turn, c->sides[s].id, m->s_turn,
		    stored != NULL ? stored : "", m->leaf[s]);
		free(stored);
	}
	ledger_campaign_root(sc.name, m->turn,
	    (const unsigned char (*)[LEDGER_HASH])m->leaf, m->nleaves, m->root);
	if (last_record(r, sc.id, &seq, m->prev, e) != 0)
		goto out;
	ledger_campaign_dice_seed(sc.name, m->turn, m->s_turn, m->root, m->prev,
	    m->dice_seed);
	ledger_dice_init(&ld, m->dice_seed);
	dice_init(&d, ledger_dice_next, &ld, NULL);
	if (campaign_turn_orders(c, given, ngiven, tp, e) != 0 ||
	    campaign_turn_march(c, tp, &d, e) != 0)
		goto out;
	m->rolls = d.rolls;
	campaign_state_write(c, &stt);
	ledger_campaign_state_hash(stt.s, stt.len, m->state);
	m->nbattles = tp->ncontacts;
	for (i = 0; i < tp->ncontacts; i++) {
		snprintf(m->place[i], sizeof(m->place[i]), "%s",
		    c->places[tp->contacts[i].place].name);
		battle_name(sc.name, m->turn, i, m->game[i], sizeof(m->game[i]));
	}
	if (ledger_cmarch_encode(m, &rec) != 0) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	campaign_turn_write(tp, &pend);
	if (store_begin(r->st, e) != 0)
		goto out;
	if (append(r, sc.id, seq + 1, "campaign-march", &rec, head, e) != 0 ||
	    store_campaign_set_pending(r->st, sc.id, pend.s, pend.len, e) != 0 ||
	    store_campaign_set_state(r->st, sc.id, GAME_RUNNING, c->turn, stt.s,
	    stt.len, referee_now(r), e) != 0 || store_commit(r->st, e) != 0) {
		store_rollback(r->st);
		goto out;
	}
	{
		char date[64];

		campaign_date_long(tp->day, date, sizeof(date));
		fprintf(out, "turn %d, %s: marched", m->turn, date);
		fprintf(out, tp->ncontacts ? "; %d battle%s\n" : "; no battle\n",
		    tp->ncontacts, tp->ncontacts == 1 ? "" : "s");
	}
	for (i = 0; i < tp->ncontacts; i++) {
		if (open_battle(r, &sc, c, tp, i, head, m->game[i], e) != 0)
			goto out;
		fprintf(out, "battle %s opened at %s\n", m->game[i], m->place[i]);
	}
	if (tp->ncontacts == 0) {
		/* Nothing to wait for: the day ends now. */
		rc = settle(r, &sc, c, tp, out, e) < 0 ? -1 : 0;
		goto out;
	}
	rc = 0;
out:
	campaign_turn_free(tp);
	free(tp);
	ledger_buf_free(&rec);
	text_free(&stt);
	text_free(&pend);
	free(m);
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}

/* ---- the campaign's archive ----------------------------------------------- */

static json_t *
hexj(const unsigned char *p, size_t n)
{
	char *h = malloc(2 * n + 1);
	json_t *j;

	if (h == NULL)
		return NULL;
	ledger_hex(p, (int)n, h);
	j = json_string(h);
	free(h);
	return j;
}

static int
put_line(FILE *out, json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII |
	    JSON_PRESERVE_ORDER);
	int rc;

	json_decref(o);
	if (s == NULL)
		return -1;
	rc = fprintf(out, "%s\n", s) < 0 ? -1 : 0;
	free(s);
	return rc;
}

int
referee_campaign_export(struct referee *r, const char *name, FILE *out,
    struct err *e)
{
	struct store_campaign sc;
	struct store_cfield *f = NULL;
	struct store_crecord *rec = NULL;
	struct campaign *c = NULL;
	json_t *o, *a;
	int nf = 0, nrec = 0, i, s, rc = -1;

	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (sc.status == GAME_SETUP) {
		err_set(e, ERR_USER, "campaign \"%s\" has not started: its chain "
		    "begins at 'despatch campaign start'", name);
		goto out;
	}
	if (referee_campaign_load(r, &sc, &c, e) != 0 ||
	    store_campaign_fields(r->st, sc.id, &f, &nf, e) != 0 ||
	    store_campaign_records(r->st, sc.id, &rec, &nrec, e) != 0)
		goto out;
	o = json_object();
	json_object_set_new(o, "despatch_campaign_archive", json_integer(1));
	json_object_set_new(o, "campaign", json_string(sc.name));
	json_object_set_new(o, "ruleset", json_string(c->ruleset));
	json_object_set_new(o, "finished", json_boolean(sc.status ==
	    GAME_FINISHED));
	json_object_set_new(o, "file_name", json_string(sc.file_name));
	json_object_set_new(o, "file", json_stringn(sc.file_text, sc.file_len));
	a = json_array();
	for (i = 0; i < nf; i++) {
		json_t *fo = json_object();

		json_object_set_new(fo, "path", json_string(f[i].path));
		json_object_set_new(fo, "text", json_stringn(f[i].text, f[i].len));
		json_array_append_new(a, fo);
	}
	json_object_set_new(o, "fields", a);
	if (put_line(out, o) != 0)
		goto io;
	for (i = 0; i < nrec; i++) {
		o = json_object();
		json_object_set_new(o, "seq", json_integer(rec[i].seq));
		json_object_set_new(o, "kind", json_string(rec[i].kind));
		if (strcmp(rec[i].kind, "campaign-march") == 0) {
			struct ledger_cmarch *m = calloc(1, sizeof(*m));

			if (m == NULL || ledger_cmarch_decode(rec[i].rec, rec[i].len,
			    m) != 0) {
				free(m);
				json_decref(o);
				err_set(e, ERR_DATA, "campaign \"%s\": record %lld is "
				    "damaged", name, (long long)rec[i].seq);
				goto out;
			}
			json_object_set_new(o, "turn", json_integer(m->turn));
			a = json_array();
			for (s = 0; s < c->nsides; s++) {
				json_t *so = json_object();
				char *text = NULL;

				if (store_campaign_orders_get(r->st, sc.id, m->turn,
				    c->sides[s].id, &text, e) != 0) {
					free(m);
					json_decref(so);
					json_decref(a);
					json_decref(o);
					goto out;
				}
				json_object_set_new(so, "side", json_string(
				    c->sides[s].id));
				json_object_set_new(so, "orders", json_string(
				    text != NULL ? text : ""));
				free(text);
				json_array_append_new(a, so);
			}
			json_object_set_new(o, "orders", a);
			free(m);
		}
		json_object_set_new(o, "record", hexj(rec[i].rec, rec[i].len));
		json_object_set_new(o, "head", hexj(rec[i].head, LEDGER_HASH));
		json_object_set_new(o, "sig", hexj(rec[i].sig, LEDGER_SIG));
		if (put_line(out, o) != 0)
			goto io;
	}
	/* Every battle's own archive, whole, in the order they were opened. */
	for (s = 1; s <= c->turn + (sc.pending != NULL); s++) {
		int64_t games[LEDGER_MAX_CBATTLES];
		int n = store_campaign_battles(r->st, sc.id, s, games,
		    LEDGER_MAX_CBATTLES, e);

		if (n < 0)
			goto out;
		for (i = 0; i < n; i++) {
			char gname[64], *buf = NULL;
			size_t len = 0;
			FILE *mem;

			if (store_game_name_of(r->st, games[i], gname, e) != 0)
				goto out;
			mem = open_memstream(&buf, &len);
			if (mem == NULL) {
				err_set(e, ERR_TEMP, "out of memory");
				goto out;
			}
			if (referee_export(r, gname, mem, 0, e) != 0) {
				fclose(mem);
				free(buf);
				goto out;
			}
			fclose(mem);
			o = json_object();
			json_object_set_new(o, "battle", json_string(gname));
			json_object_set_new(o, "turn", json_integer(s));
			json_object_set_new(o, "archive", json_stringn(buf, len));
			free(buf);
			if (put_line(out, o) != 0)
				goto io;
		}
	}
	rc = 0;
	goto out;
io:
	err_set(e, ERR_TEMP, "cannot write the archive");
out:
	store_crecords_free(rec, nrec);
	store_cfields_free(f, nf);
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}

char *
referee_campaign_names(struct referee *r)
{
	return store_campaign_names(r->st);
}
