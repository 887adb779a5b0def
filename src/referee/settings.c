/*
 * settings.c - the operator's choices, per game or for the whole server,
 * and `despatch show` (in text, or as JSON: docs/json.md).
 *
 * A setting is a key and a text value in the settings table; game 0 holds
 * the server's.  A game's own value wins over the server's, which wins over
 * the default written here.  Every key is known and checked when set, so a
 * typing mistake is an error, not a setting nobody reads.
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "report/json.h"
#include "report/report.h"
#include "referee/chain.h"
#include "referee/internal.h"

struct setting_def {
	const char *key;
	const char *def;
	const char *values;     /* "on|off", or "N" for a count */
	int per_game;           /* may be set for one game */
	const char *what;
};

static const struct setting_def defs[] = {
	{ "press", "on", "on|off", 1, "players may send each other messages "
	    "with PRESS TO" },
	{ "rate-limit", "30", "N", 0, "mails a sender may send in an hour "
	    "before the server stops reading them (0: no limit)" },
	{ "operator", "", "ADDR", 1, "the address of the person running the "
	    "games, told to players whose mail is a question for a person" },
	{ "deadline", "none", "TIME", 1, "time a phase stays open for orders "
	    "(48h, 2d, 90m; none: the operator plays each phase)" },
	{ "grace", "0", "TIME", 1, "time after the deadline before the phase "
	    "is played" },
	{ "reminders", "24h,2h", "TIMES", 1, "how long before the deadline "
	    "players who owe orders are reminded" },
	{ "weekdays", "off", "on|off", 1, "count only Monday to Friday toward "
	    "a deadline" },
	{ "timezone", "UTC", "TZ", 1, "the time zone deadlines are shown in "
	    "(Europe/London, America/New_York)" },
	{ "settle", "10m", "TIME", 1, "once every order is in, how long after "
	    "the last order mail the phase is played, so a player may still "
	    "correct it (0: at once; READY from every player owing plays it "
	    "sooner)" },
	{ "fixed-deadlines", "off", "on|off", 1, "play a phase only at its "
	    "deadline, not as soon as every order is in" },
	{ "nmr", "standing", "hold|standing", 1, "what a player who sends no "
	    "orders gets: their standing orders, or hold" },
	{ "retry", "60s", "TIME", 0, "first wait before mail the SMTP server "
	    "could not take is tried again; each wait after doubles, to an hour" },
	{ "nmr-limit", "2", "N", 1, "phases in a row without orders before the "
	    "operator and the other players are told (0: never)" },
	{ "nonces", "off", "on|off", 1, "players commit to a nonce with their "
	    "orders and reveal it once the phase closes; the dice depend on "
	    "the nonces (for games whose operator also plays; set before the "
	    "start)" },
	{ "observer-delay", "2", "N", 1, "phases an observer's report of a "
	    "phase is held back, so nothing in it can help a player (0: sent "
	    "at once)" },
	{ "visibility", "open", "open|fog", 1, "fog: each side's reports, maps "
	    "and JSON show only what it can see; open: everything (set before "
	    "the start)" },
	{ "upgrade", "manual", "manual|auto", 0, "when a new despatch plays "
	    "with a new rules engine: manual, each running game waits for "
	    "'despatch game upgrade'; auto, each is carried over when its next "
	    "phase is due" },
	{ "joining", "closed", "closed|open", 1, "open: LIST shows the game "
	    "to anyone who asks by mail, and a stranger may take a free seat "
	    "with JOIN GAME SIDE, until the game starts" },
	{ "absence", "extend", "extend|standing", 1, "what a player's ABSENT "
	    "does: extend, a deadline that falls in the absence is put off "
	    "to the day after it; standing, the deadline stands and the "
	    "player's standing orders play" },
	{ "absence-cap", "14", "N", 1, "the days of absence (ABSENT) a player "
	    "may take in a game, all absences counted (0: none)" },
	{ "seats", "", "SEATS", 1, "the players a side may have, set one side "
	    "at a time: despatch set GAME seats SIDE N (a side it does not "
	    "name has one seat)" },
	{ "reveal-time", "1h", "TIME", 1, "with nonces: how long after a phase "
	    "closes the nonces are awaited before it is played without the "
	    "missing ones" },
};

int
referee_parse_time(const char *v, int64_t *secs)
{
	char *end;
	long long n;

	if (strcmp(v, "none") == 0 || strcmp(v, "0") == 0) {
		*secs = 0;
		return 0;
	}
	n = strtoll(v, &end, 10);
	if (end == v || n <= 0 || n > 10000000)
		return -1;
	if (*end == 'd')
		n *= 86400, end++;
	else if (*end == 'h')
		n *= 3600, end++;
	else if (*end == 'm')
		n *= 60, end++;
	else if (*end == 's')
		end++;
	if (*end != '\0' || n > 366LL * 86400)
		return -1;
	*secs = n;
	return 0;
}

/* 1 if path is a regular file that starts as a compiled time zone does
 * ("TZif", RFC 8536). */
static int
is_tzif(const char *path)
{
	struct stat st;
	char magic[4];
	FILE *f;
	int ok;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (f = fopen(path, "rb")) == NULL)
		return 0;
	ok = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	    memcmp(magic, "TZif", 4) == 0;
	fclose(f);
	return ok;
}

static const struct setting_def *
find_def(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (strcmp(defs[i].key, key) == 0)
			return &defs[i];
	return NULL;
}

/* Key's value for game_id, or for campaign when it is not 0 (each else
 * the server's), else its default, into out. */
static int
setting_text(struct referee *r, int64_t game_id, int64_t campaign,
    const char *key, char *out, size_t size, struct err *e)
{
	const struct setting_def *d = find_def(key);
	char *v = NULL;
	int rc;

	assert(d != NULL);
	rc = campaign != 0 ? store_campaign_setting_get(r->st, campaign, key,
	    &v, NULL, e) : store_setting_get(r->st, game_id, key, &v, NULL, e);
	if (rc < 0)
		return -1;
	snprintf(out, size, "%s", rc == 1 ? v : d->def);
	free(v);
	return 0;
}

int
referee_setting_get(struct referee *r, int64_t game_id, const char *key,
    char *out, size_t size, struct err *e)
{
	return setting_text(r, game_id, 0, key, out, size, e);
}

int
referee_campaign_setting_get(struct referee *r, int64_t campaign,
    const char *key, char *out, size_t size, struct err *e)
{
	assert(campaign > 0);
	return setting_text(r, 0, campaign, key, out, size, e);
}

int
referee_setting_on(struct referee *r, int64_t game_id, const char *key,
    struct err *e)
{
	char v[16];

	if (referee_setting_get(r, game_id, key, v, sizeof(v), e) != 0)
		return -1;
	return strcmp(v, "on") == 0;
}

/* A time setting of game_id, or of campaign when it is not 0, as
 * seconds (0 for none, or a value that does not read as a time). */
static int
setting_secs(struct referee *r, int64_t game_id, int64_t campaign,
    const char *key, int64_t *secs, struct err *e)
{
	char v[128];

	if (setting_text(r, game_id, campaign, key, v, sizeof(v), e) != 0)
		return -1;
	if (referee_parse_time(v, secs) != 0)
		*secs = 0;
	return 0;
}

int
referee_setting_secs(struct referee *r, int64_t game_id, const char *key,
    int64_t *secs, struct err *e)
{
	return setting_secs(r, game_id, 0, key, secs, e);
}

int
referee_campaign_setting_secs(struct referee *r, int64_t campaign,
    const char *key, int64_t *secs, struct err *e)
{
	assert(campaign > 0);
	return setting_secs(r, 0, campaign, key, secs, e);
}

/* The longest time of a list of times ("24h,2h"), or none. */
static int64_t
longest(const char *list, int64_t max)
{
	const char *p = list;

	while (*p != '\0') {
		char word[32];
		size_t n = strcspn(p, ",\n");
		int64_t a = 0;

		while (n > 0 && *p == ' ')
			p++, n--;
		if (n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			if (referee_parse_time(word, &a) == 0 && a > max)
				max = a;
		}
		p += n;
		if (*p != '\0')
			p++;
	}
	return max;
}

int
referee_setting_max_secs(struct referee *r, const char *key, int64_t *max,
    struct err *e)
{
	const struct setting_def *d = find_def(key);
	char *values = NULL;

	assert(d != NULL);
	if (store_setting_values(r->st, key, &values, e) != 0)
		return -1;
	*max = longest(values, longest(d->def, 0));
	free(values);
	return 0;
}

void
referee_operator_note(struct referee *r, int64_t game_id, char *out,
    size_t size)
{
	char addr[300];
	struct err e;

	if (referee_setting_get(r, game_id, "operator", addr, sizeof(addr),
	    &e) != 0)
		addr[0] = '\0';
	if (addr[0] != '\0')
		snprintf(out, size, "No person reads this address: it is a program. "
		    "Questions for the person\nrunning the game go to %s.\n",
		    addr);
	else
		snprintf(out, size, "No person reads this address: it is a program. "
		    "Questions for the person\nrunning the game go to them "
		    "directly.\n");
}

void
referee_setting_help(FILE *f)
{
	size_t i;

	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		fprintf(f, "  %-12s %-8s (default %s%s)\n      %s\n", defs[i].key,
		    defs[i].values, defs[i].def[0] ? defs[i].def : "none",
		    defs[i].per_game ? "" :
		    "; server only", defs[i].what);
}

/* "SIDE N" (what `despatch set GAME seats SIDE N` gives) merged into the
 * game's seats setting, "side=N,side=N", into out; the side must be one
 * of the game's and N from 0 to 64.  0, or -1 with e set. */
static int
seats_merge(struct referee *r, const struct store_game *g,
    const char *value, char *out, size_t size, struct err *e)
{
	char side[64], extra[2], old[512], *tok, *save = NULL;
	struct battle *b = NULL;
	int n = -1, s, got;
	size_t k = 0;

	got = sscanf(value, "%63s %d %1s", side, &n, extra);
	if (got != 2 || n < 0 || n > 64)
		return err_set(e, ERR_USER, "seats takes a side and a number of "
		    "seats from 0 to 64, as in 'despatch set %s seats crown 2', "
		    "not \"%s\"", g->name, value);
	if (store_battle_load(r->st, g, &b, e) != 0)
		return -1;
	for (s = 0; s < b->nsides; s++)
		if (strcasecmp(b->sides[s].id, side) == 0)
			break;
	if (s == b->nsides) {
		char list[256] = "";
		int i;

		for (i = 0; i < b->nsides; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
			    "%s%s", i ? ", " : "", b->sides[i].id);
		battle_free(b);
		return err_set(e, ERR_USER, "game %s has no side \"%s\"; its sides "
		    "are %s", g->name, side, list);
	}
	snprintf(side, sizeof(side), "%s", b->sides[s].id);
	battle_free(b);
	if (referee_setting_get(r, g->id, "seats", old, sizeof(old), e) != 0)
		return -1;
	out[0] = '\0';
	for (tok = strtok_r(old, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		size_t l = strlen(side);

		if (strncmp(tok, side, l) == 0 && tok[l] == '=')
			continue;
		k += (size_t)snprintf(out + k, k < size ? size - k : 0, "%s%s",
		    k ? "," : "", tok);
	}
	k += (size_t)snprintf(out + k, k < size ? size - k : 0, "%s%s=%d",
	    k ? "," : "", side, n);
	if (k >= size)
		return err_set(e, ERR_USER, "seats: too many sides named");
	return 0;
}

/* Whether value is one setting d takes: 0, or -1 with e saying what is
 * wrong with it and what would be right.  A game's, the server's and a
 * campaign's values are all checked here, so each gets the same answer. */
static int
check_value(const struct setting_def *d, const char *value, struct err *e)
{
	if (strcmp(d->values, "TIME") == 0 || strcmp(d->values, "TIMES") == 0) {
		char copy[128], *tok, *save = NULL;
		int64_t t;

		if (strlen(value) >= sizeof(copy))
			return err_set(e, ERR_USER, "%s: the value is too long",
			    d->key);
		snprintf(copy, sizeof(copy), "%s", value);
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save))
			if (referee_parse_time(tok, &t) != 0 ||
			    (strcmp(d->values, "TIME") == 0 && strchr(value, ',')))
				return err_set(e, ERR_USER, "%s takes %s such as 48h, "
				    "2d or 90m (or none), not \"%s\"", d->key,
				    strcmp(d->values, "TIMES") == 0 ? "times, comma-"
				    "separated," : "a time", value);
		if (strcmp(d->key, "reveal-time") == 0 &&
		    (referee_parse_time(value, &t) != 0 || t < 60))
			return err_set(e, ERR_USER, "reveal-time takes a time of a "
			    "minute or more (players need the time to reveal), not "
			    "\"%s\"", value);
	} else if (strcmp(d->values, "TZ") == 0) {
		char zone[300];

		/* A zone is a TZif file of the tz database, not merely a
		 * path that is there ("Europe" is a directory). */
		snprintf(zone, sizeof(zone), "/usr/share/zoneinfo/%s", value);
		if (strcmp(value, "UTC") != 0 && (strstr(value, "..") != NULL ||
		    value[0] == '/' || !is_tzif(zone)))
			return err_set(e, ERR_USER, "%s: no time zone called \"%s\" "
			    "(names as in /usr/share/zoneinfo: Europe/London)",
			    d->key, value);
	} else if (strcmp(d->values, "ADDR") == 0) {
		const char *p;

		for (p = value; *p; p++)
			if ((unsigned char)*p <= ' ' || (unsigned char)*p == 0x7f ||
			    strchr("<>()[],;:\\\"", *p))
				break;
		if (*p != '\0' || strchr(value, '@') == NULL ||
		    strlen(value) > 254)
			return err_set(e, ERR_USER, "%s takes a mail address such as "
			    "umpire@club.example, not \"%s\"", d->key, value);
	} else if (strcmp(d->values, "N") == 0) {
		const char *p = value;

		while (isdigit((unsigned char)*p))
			p++;
		if (*value == '\0' || *p != '\0' || strlen(value) > 6)
			return err_set(e, ERR_USER, "%s takes a whole number, such "
			    "as %s, not \"%s\"", d->key, d->def, value);
	} else if (strchr(d->values, '|') != NULL) {
		/* One of two words: on|off, hold|standing, open|fog ... */
		const char *bar = strchr(d->values, '|');
		size_t l = (size_t)(bar - d->values);

		if ((strlen(value) != l || strncmp(value, d->values, l) != 0) &&
		    strcmp(value, bar + 1) != 0)
			return err_set(e, ERR_USER, "%s takes %.*s or %s, not \"%s\"",
			    d->key, (int)l, d->values, bar + 1, value);
	}
	return 0;
}

int
referee_setting_set(struct referee *r, const char *game, const char *key,
    const char *value, struct err *e)
{
	const struct setting_def *d = find_def(key);
	struct store_game g;
	char merged[512];
	int64_t gid = 0;
	int rc;

	memset(&g, 0, sizeof(g));
	if (d == NULL) {
		char list[256] = "";
		size_t i;

		for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, defs[i].key, sizeof(list) - strlen(list) - 1);
		}
		return err_set(e, ERR_USER, "there is no setting \"%s\"; the "
		    "settings are %s (see 'despatch set --help')", key, list);
	}
	if (check_value(d, value, e) != 0)
		return -1;
	if (strcmp(d->values, "SEATS") == 0 && game == NULL)
		return err_set(e, ERR_USER, "seats are set for one game: "
		    "despatch set GAME seats SIDE N");
	if (game != NULL && !d->per_game)
		return err_set(e, ERR_USER, "%s is set for the whole server: "
		    "'despatch set --server %s %s'", key, key, value);
	if (store_begin(r->st, e) != 0)
		return -1;
	if (game != NULL) {
		if (store_game_get(r->st, game, &g, e) != 0)
			goto fail;
		gid = g.id;
		/* The NMR policy decides some frozen order sets of a closed
		 * phase. */
		if (strcmp(key, "nmr") == 0) {
			int64_t closed = 0;

			if (store_game_closed(r->st, g.id, &closed, NULL, e) != 0)
				goto fail;
			if (closed > 0) {
				err_set(e, ERR_USER, "game \"%s\" has a phase closed "
				    "while its nonces are revealed: change nmr once it "
				    "has been played", game);
				goto fail;
			}
		}
		/* The time for nonces is part of the promise made at the
		 * start: it cannot be cut once players rely on it. */
		if (strcmp(key, "reveal-time") == 0 && g.status != GAME_SETUP) {
			int on = chain_nonces(r, g.id, e);

			if (on < 0)
				goto fail;
			if (on) {
				err_set(e, ERR_USER, "reveal-time is fixed when a game "
				    "with nonces starts: game \"%s\" has started", game);
				goto fail;
			}
		}
		/* The genesis records whether a game uses nonces, and whether
		 * its seeds are told as it goes (open) or at the end (fog). */
		if ((strcmp(key, "nonces") == 0 || strcmp(key, "visibility") ==
		    0) && g.status != GAME_SETUP) {
			err_set(e, ERR_USER, "%s is fixed when a game starts: "
			    "game \"%s\" has started", key, game);
			goto fail;
		}
		if (strcmp(key, "visibility") == 0 &&
		    store_game_set_visibility(r->st, g.id, value, e) != 0)
			goto fail;
	} else if (strcmp(key, "nonces") == 0 || strcmp(key, "visibility") == 0) {
		err_set(e, ERR_USER, "%s is set for one game before it starts: "
		    "despatch set GAME %s %s", key, key, value);
		goto fail;
	} else if (strcmp(key, "nmr") == 0 || strcmp(key, "reveal-time") == 0) {
		/* The server's value stands in for games without their own: it
		 * must not move under a closed phase, or a running nonce game. */
		int64_t busy = 0;

		if (store_games_nonce_bound(r->st, strcmp(key, "reveal-time") ==
		    0, &busy, e) != 0)
			goto fail;
		if (busy > 0) {
			err_set(e, ERR_USER, "%s cannot change for the whole server "
			    "while a game with nonces is running or has a phase closed; "
			    "set it per game", key);
			goto fail;
		}
	}
	if (strcmp(d->values, "SEATS") == 0) {
		if (seats_merge(r, &g, value, merged, sizeof(merged), e) != 0)
			goto fail;
		value = merged;
	}
	if (store_setting_set(r->st, gid, key, value, e) != 0)
		goto fail;
	/* A deadline given to a running game whose open phase has none (or
	 * taken away) applies to that phase at once, counted from now. */
	if (strcmp(key, "deadline") == 0 && game != NULL &&
	    g.status == GAME_RUNNING) {
		struct store_clock c;

		if (store_game_clock(r->st, gid, &c, e) != 0)
			goto fail;
		if ((c.deadline == 0 || strcmp(value, "none") == 0 ||
		    strcmp(value, "0") == 0) &&
		    referee_clock_open_step(r, gid, referee_now(r), e) != 0)
			goto fail;
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	store_game_clear(&g);
	return 0;
fail:
	rc = -1;
	store_rollback(r->st);
	store_game_clear(&g);
	return rc;
}


/* The settings a campaign has of its own: its clock's.  Every other one is
 * a game's or the server's (a campaign's battles are games, and take them
 * as any game does). */
static const char *const campaign_keys[] = { "deadline", "settle",
    "reminders" };
#define NCAMPAIGN_KEYS (sizeof(campaign_keys) / sizeof(campaign_keys[0]))

static int
is_campaign_key(const char *key)
{
	size_t i;

	for (i = 0; i < NCAMPAIGN_KEYS; i++)
		if (strcmp(campaign_keys[i], key) == 0)
			return 1;
	return 0;
}

int
referee_campaign_setting_set(struct referee *r, const char *name,
    const char *key, const char *value, struct err *e)
{
	const struct setting_def *d = find_def(key);
	struct store_campaign sc;
	int rc;

	if (d != NULL && !is_campaign_key(key))
		return err_set(e, ERR_USER, "%s is not set per campaign: a "
		    "campaign sets its clock, deadline, settle and reminders; "
		    "%s is a game's or the server's ('despatch set GAME %s "
		    "VALUE', 'despatch set --server %s VALUE'), and the "
		    "campaign's battles take it as games do", key, key, key, key);
	if (d == NULL)
		return err_set(e, ERR_USER, "there is no campaign setting "
		    "\"%s\"; a campaign's are deadline, settle and reminders "
		    "(see 'despatch campaign --help')", key);
	if (check_value(d, value, e) != 0)
		return -1;
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_campaign_get(r->st, name, &sc, e) != 0) {
		store_rollback(r->st);
		return -1;
	}
	rc = store_campaign_setting_set(r->st, sc.id, key, value, e);
	store_campaign_clear(&sc);
	if (rc != 0 || store_commit(r->st, e) != 0) {
		store_rollback(r->st);
		return -1;
	}
	return 0;
}

int
referee_campaign_settings_print(struct referee *r, const char *name,
    FILE *out, struct err *e)
{
	struct store_campaign sc;
	int64_t opened = 0, deadline = 0;
	size_t i;
	int rc = -1;

	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	fprintf(out, "campaign %s: its clock\n", sc.name);
	for (i = 0; i < NCAMPAIGN_KEYS; i++) {
		const struct setting_def *d = find_def(campaign_keys[i]);
		char *v = NULL;
		int64_t from = 0;

		assert(d != NULL);
		if (store_campaign_setting_get(r->st, sc.id, d->key, &v, &from,
		    e) < 0)
			goto out;
		fprintf(out, "  %-16s %-8s (%s)\n", d->key, v != NULL ? v :
		    d->def, v == NULL ? "default" : from == 0 ? "server" :
		    "this campaign");
		free(v);
	}
	if (sc.status == GAME_SETUP) {
		fprintf(out, "the clock runs once the campaign starts\n");
	} else if (sc.status == GAME_FINISHED) {
		fprintf(out, "the campaign is over\n");
	} else if (sc.pending != NULL) {
		fprintf(out, "turn %d is marched and waits for its battles: no "
		    "deadline runs\n", sc.turn + 1);
	} else if (referee_campaign_deadline(r, &sc, &opened, &deadline,
	    e) != 0) {
		goto out;
	} else if (deadline == 0) {
		fprintf(out, "turn %d has no deadline: it is marched once "
		    "every side's orders are in\nand settled, or by 'despatch "
		    "campaign turn %s'\n", sc.turn + 1, sc.name);
	} else {
		char when[200], utc[40];

		referee_clock_when(r, 0, deadline, referee_now(r), when,
		    sizeof(when));
		referee_utc(REFEREE_UTC_MINUTES, deadline, utc, sizeof(utc));
		fprintf(out, "turn %d is due by\n  %s\n  (%s)\n", sc.turn + 1,
		    when, utc);
	}
	rc = 0;
out:
	store_campaign_clear(&sc);
	return rc;
}

/* One pass over the game, said as text into t, or as JSON into j (a
 * memory stream) when j is not NULL: the two say the same facts. */
static int
show_game(struct referee *r, const char *game, struct text *t, struct jw *j,
    struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = NULL;
	size_t i;
	int n, k, rc = -1;

	memset(&g, 0, sizeof(g));
	if (store_game_get(r->st, game, &g, e) != 0 ||
	    store_battle_load(r->st, &g, &b, e) != 0)
		goto out;
	if (j != NULL) {
		jw_obj(j, NULL);
		jw_str(j, "game", g.name);
		jw_str(j, "title", b->title);
		jw_str(j, "scenario", g.scenario_file);
		jw_str(j, "ruleset", g.ruleset);
		jw_bool(j, "sandbox", g.sandbox);
		jw_str(j, "visibility", g.visibility);
	} else {
		text_add(t, "game       %s\nscenario   %s (%s)\nruleset    %s%s\n",
		    g.name, b->title, g.scenario_file, g.ruleset, g.sandbox ?
		    " (sandbox: scripted dice allowed)" : "");
	}
	{
		char *from = NULL;

		if (store_game_from(r->st, g.id, &from, e) < 0)
			goto out;
		if (j != NULL)
			jw_str(j, "mail_from", from ? from : r->from);
		else
			text_add(t, "mail from  %s\n", from ? from : r->from);
		free(from);
	}
	if (j != NULL)
		jw_str(j, "status", store_status_name(g.status));
	else
		text_add(t, "status     %s", store_status_name(g.status));
	if (g.status == GAME_RUNNING) {
		char clock[16], when[80], iso[32];
		struct store_clock c;

		report_clock(b, battle_step_turn(b, g.step), clock, sizeof(clock));
		if (store_game_clock(r->st, g.id, &c, e) != 0)
			goto out;
		if (c.deadline > 0 && !c.paused) {
			referee_clock_format(r, g.id, c.deadline, when, sizeof(when));
			referee_utc(REFEREE_UTC_ISO, c.deadline, iso, sizeof(iso));
		}
		if (j != NULL) {
			jw_int(j, "step", g.step);
			jw_int(j, "turn", battle_step_turn(b, g.step));
			jw_int(j, "turns", b->turns);
			jw_str(j, "clock", clock);
			jw_str(j, "phase", report_phase_id(b, g.step));
			jw_bool(j, "paused", c.paused);
			jw_str(j, "deadline", c.deadline > 0 && !c.paused ? iso : NULL);
			jw_str(j, "deadline_local", c.deadline > 0 && !c.paused ? when :
			    NULL);
		} else {
			text_add(t, ": turn %d of %d (%s), %s phase",
			    battle_step_turn(b, g.step), b->turns, clock,
			    report_phase_id(b, g.step));
			if (c.paused)
				text_add(t, "\nclock      paused");
			else if (c.deadline > 0)
				text_add(t, "\ndeadline   %s", when);
			else
				text_add(t, "\ndeadline   none (phases are played by "
				    "'despatch turn')");
		}
	} else if (g.status == GAME_FINISHED) {
		char *res = NULL;

		if (store_game_result(r->st, g.id, &res, e) < 0)
			goto out;
		if (j != NULL)
			jw_str(j, "result", res);
		else if (res != NULL)
			text_add(t, ": %s", res);
		free(res);
	}
	if (j != NULL)
		jw_arr(j, "players");
	else
		text_add(t, "\n\nplayers\n");
	n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		goto out;
	for (k = 0; k < n; k++) {
		int64_t cnt = 0;

		if (g.status == GAME_RUNNING && store_orders_ahead(r->st, g.id,
		    pl[k].side, g.step, &cnt, e) != 0)
			goto out;
		if (j != NULL) {
			jw_obj(j, NULL);
			jw_str(j, "side", b->sides[pl[k].side].id);
			jw_str(j, "email", pl[k].email);
			jw_str(j, "brigades", pl[k].brigades[0] ? pl[k].brigades :
			    NULL);
			if (g.status == GAME_RUNNING)
				jw_bool(j, "orders_stored", cnt > 0);
			else
				jw_null(j, "orders_stored");
			jw_end_obj(j);
		} else {
			text_add(t, "  %-14s %s%s\n", b->sides[pl[k].side].id,
			    pl[k].email, g.status != GAME_RUNNING ? "" : cnt > 0 ?
			    "  (orders stored)" : "  (no orders stored)");
		}
	}
	if (j != NULL) {
		jw_end_arr(j);
		jw_obj(j, "settings");
	} else {
		text_add(t, "\nsettings\n");
	}
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		char *v = NULL;
		int64_t from = -1;
		int got = store_setting_get(r->st, g.id, defs[i].key, &v, &from,
		    e);
		const char *val = v ? v : defs[i].def[0] ? defs[i].def : "-";
		const char *whence = v == NULL ? "default" : from == 0 ? "server" :
		    "this game";

		if (got < 0)
			goto out;
		if (j != NULL) {
			jw_obj(j, defs[i].key);
			jw_str(j, "value", v ? v : defs[i].def[0] ? defs[i].def : NULL);
			jw_str(j, "from", v == NULL ? "default" : from == 0 ? "server" :
			    "game");
			jw_end_obj(j);
		} else {
			text_add(t, "  %-16s %-8s (%s)\n", defs[i].key, val, whence);
		}
		free(v);
	}
	if (j != NULL) {
		jw_end_obj(j);
		jw_end_obj(j);
	}
	rc = 0;
out:
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

int
referee_show(struct referee *r, const char *game, int as_json, char **out,
    struct err *e)
{
	struct text t;
	struct jw j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int rc;

	*out = NULL;
	if (as_json) {
		if ((f = open_memstream(&buf, &len)) == NULL)
			return err_set(e, ERR_TEMP, "out of memory");
		jw_init(&j, f);
		rc = show_game(r, game, NULL, &j, e);
		if (rc == 0)
			jw_done(&j);
		if (fclose(f) != 0 && rc == 0)
			rc = err_set(e, ERR_TEMP, "out of memory");
		if (rc != 0) {
			free(buf);
			return -1;
		}
		*out = buf;
		return 0;
	}
	text_init(&t, 256 * 1024);
	rc = show_game(r, game, &t, NULL, e);
	if (rc == 0) {
		*out = t.s;
		t.s = NULL;
		if (*out == NULL)
			rc = err_set(e, ERR_INTERNAL, "out of memory");
	}
	text_free(&t);
	return rc;
}
