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

#include <sodium.h>

#include "campaign/campaign.h"
#include "ledger/ledger.h"
#include "ledger/record.h"
#include "referee/chain.h"
#include "referee/internal.h"
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

static int
valid_email(const char *a)
{
	const char *at = strchr(a, '@');
	size_t i;

	if (at == NULL || at == a || strchr(at + 1, '@') != NULL ||
	    strchr(at + 1, '.') == NULL || strlen(a) > 254)
		return 0;
	for (i = 0; a[i]; i++)
		if ((unsigned char)a[i] <= ' ' || strchr("<>()[],;:\\\"", a[i]))
			return 0;
	return at[1] != '.' && a[strlen(a) - 1] != '.';
}

/* Battlefields from the store's copies. */
struct stored_fields {
	const struct store_cfield *f;
	int n;
};

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
static int
load(struct referee *r, const struct store_campaign *sc,
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
    int sandbox, struct err *e)
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

int
referee_campaign_player_add(struct referee *r, const char *name,
    const char *side, const char *email, const char *password,
    char *secret_out, struct err *e)
{
	struct store_campaign sc;
	struct store_cplayer pl[MAX_CPLAYERS];
	struct campaign *c = NULL;
	unsigned char hash[32];
	int n, i, rc = -1;

	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (sc.status != GAME_SETUP) {
		err_set(e, ERR_USER, "campaign \"%s\" has started: its players are "
		    "fixed", name);
		goto out;
	}
	if (load(r, &sc, &c, e) != 0)
		goto out;
	if (campaign_find_side(c, side) < 0) {
		char list[256] = "";

		for (i = 0; i < c->nsides; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
			    "%s%s", i ? ", " : "", c->sides[i].id);
		err_set(e, ERR_USER, "campaign \"%s\" has no side '%s' (its sides: "
		    "%s)", name, side, list);
		goto out;
	}
	if (!valid_email(email)) {
		err_set(e, ERR_USER, "\"%s\" is not an email address", email);
		goto out;
	}
	n = store_campaign_players(r->st, sc.id, pl, MAX_CPLAYERS, e);
	if (n < 0)
		goto out;
	for (i = 0; i < n; i++)
		if (strcasecmp(pl[i].email, email) == 0) {
			err_set(e, ERR_USER, "%s already plays in campaign \"%s\"",
			    email, name);
			goto out;
		}
	if (n == MAX_CPLAYERS) {
		err_set(e, ERR_USER, "campaign \"%s\" has %d players, the most it "
		    "may have", name, MAX_CPLAYERS);
		goto out;
	}
	if (password != NULL)
		snprintf(secret_out, REFEREE_SECRET_MAX, "%s", password);
	else
		referee_make_secret(secret_out);
	if (referee_secret_hash(r, secret_out, hash, e) != 0 ||
	    store_campaign_player_add(r->st, sc.id, c->sides[campaign_find_side(c,
	    side)].id, email, hash, referee_now(r), e) != 0)
		goto out;
	rc = 0;
out:
	campaign_free(c);
	store_campaign_clear(&sc);
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
	unsigned char head[LEDGER_HASH], sig[LEDGER_SIG];
	int n, nf = 0, i, s, rc = -1;

	text_init(&st, 4u * 1024 * 1024);
	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (sc.status != GAME_SETUP) {
		err_set(e, ERR_USER, "campaign \"%s\" has started already", name);
		goto out;
	}
	if (load(r, &sc, &c, e) != 0)
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
	g->engine = CAMPAIGN_ENGINE;
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
	ledger_chain_at(sc.seed_secret, g->turns, 0, g->s0);
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

/* Where a column is, in words. */
static void
where(const struct campaign *c, const struct cp_column *col, char *out,
    size_t size)
{
	if (col->road < 0) {
		snprintf(out, size, "at %s", c->places[col->place].name);
	} else {
		const struct cp_road *rd = &c->roads[col->road];
		int to = col->from == rd->a ? rd->b : rd->a;

		snprintf(out, size, "on the road from %s to %s, %d.%02d miles out",
		    c->places[col->from].name, c->places[to].name,
		    col->along100 / 100, col->along100 % 100);
	}
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
	if (load(r, &sc, &c, e) != 0) {
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
			where(c, col, at, sizeof(at));
			fprintf(out, "%s column \"%s\" (%s) %s: strength %d of %d%s\n",
			    c->sides[col->side].id, col->name, col->commander, at,
			    campaign_column_sp(c, k), column_full(c, k),
			    campaign_in_supply(c, k) ? "" : ", out of supply");
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
		fprintf(out, ",\"supplied\":%s,\"strength\":%d,\"brigades\":[",
		    campaign_in_supply(c, k) ? "true" : "false",
		    campaign_column_sp(c, k));
		for (b = 0, i = 0; b < c->nbrigades; b++) {
			int j = 0;

			if (c->brigades[b].column != k)
				continue;
			fprintf(out, "%s{\"name\":", i++ ? "," : "");
			json_str(out, c->brigades[b].name);
			fprintf(out, ",\"commander\":");
			json_str(out, c->brigades[b].commander);
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
	if (load(r, &sc, &c, e) != 0 ||
	    (n = store_campaign_players(r->st, sc.id, pl, MAX_CPLAYERS, e)) < 0 ||
	    store_campaign_records(r->st, sc.id, &rec, &nrec, e) != 0) {
		campaign_free(c);
		store_campaign_clear(&sc);
		return -1;
	}
	campaign_date_fmt(c->start_day, a, sizeof(a));
	campaign_date_fmt(c->end_day, b, sizeof(b));
	fprintf(out, "campaign %s: \"%s\"\n", sc.name, c->title);
	fprintf(out, "file: %s (%s)\n", sc.file_name, c->ruleset);
	fprintf(out, "status: %s, %d of %d turns played\n",
	    status_word(sc.status), c->turn, campaign_turns(c));
	fprintf(out, "calendar: %s to %s, a turn is %s\n", a, b,
	    c->halves == 1 ? "a day" : "half a day");
	fprintf(out, "map: %d places, %d roads\n", c->nplaces, c->nroads);
	for (s = 0; s < c->nsides; s++) {
		int any = 0;

		fprintf(out, "side %s \"%s\":", c->sides[s].id, c->sides[s].name);
		for (i = 0; i < n; i++)
			if (strcmp(pl[i].side, c->sides[s].id) == 0) {
				fprintf(out, " %s", pl[i].email);
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
