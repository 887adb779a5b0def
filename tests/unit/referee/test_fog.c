/*
 * test_fog.c - a fog game as its players get it, through the referee: a
 * side's mails (the welcome, each report's text and text map, its HTML
 * and its JSON) show the side's own units and the enemy it can see, and
 * not one word of an enemy unit out of its sight; a stand removed from
 * play sees nothing for its side.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <libetpan/libetpan.h>

#include "referee/referee.h"
#include "referee/internal.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

#define CROWN "howe@crown.example.org"

/* A wood between the crown's line and the 2nd Virginia hides it from
 * every crown commander and from the 23rd Foot; the Light Company,
 * beyond the wood's east end, alone has it in sight. */
static const char spot_scenario[] =
    "scenario \"The Spotter\"\n"
    "ruleset vnb-wing\n"
    "table 48 x 48\n"
    "turns 2\n"
    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 24,4\n"
    "  brigade \"1st\" commander \"Grey\" at 24,6\n"
    "    unit \"23rd Foot\" type british-line stands 4 sp 3 at 24,8 facing 0\n"
    "    unit \"Light Company\" type british-line stands 1 sp 2 at 42,26 facing 0\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,40\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,32 facing 180\n";

/* The same under the bb7 rules, whose sight goes through at most 6" of
 * woods: the wood is 8" deep. */
static const char spot_bb7_scenario[] =
    "scenario \"The Spotter\"\n"
    "ruleset bb7\n"
    "table 48 x 48\n"
    "turns 2\n"
    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 24,4\n"
    "  brigade \"1st\" commander \"Grey\" at 24,6\n"
    "    unit \"23rd Foot\" type british-regulars stands 4 sp 5 frontage 2.4 at 24,8 facing 0\n"
    "    unit \"Light Company\" type british-regulars stands 1 sp 5 frontage 2.4 at 42,26 facing 0\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,40\n"
    "    unit \"2nd Virginia\" type regulars stands 2 sp 6 frontage 2.4 at 24,32 facing 180\n";

/* The same wood hides the 2nd Virginia; the 3rd Virginia stands in the
 * open to the crown's east, in sight. */
static const char hidden_scenario[] =
    "scenario \"Hidden\"\n"
    "ruleset vnb-wing\n"
    "table 48 x 36\n"
    "turns 2\n"
    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 24,4\n"
    "  brigade \"1st\" commander \"Grey\" at 24,6\n"
    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,8 facing 0\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,34\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,33\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,30 facing 180\n"
    "    unit \"3rd Virginia\" type continentals-post-1778 stands 2 sp 2 at 44,12 facing 180\n";

/* The crown's 23rd Foot, 1.75" from a continental gun of 1 SP in the
 * open, shoots it away in the crown's first phase; the gun's brigade,
 * exhausted by it and hit, collapses, and the collapse removes the
 * Spartan Militia, routed before (the test marks it so), behind the
 * wood.  The Light Company sees the militia at the start, past the
 * wood's east end, and marches south behind the wood in that phase, so
 * that nothing of the crown's sees it go. */
static const char gun_scenario[] =
    "scenario \"The Gun\"\n"
    "ruleset vnb-wing\n"
    "table 48 x 48\n"
    "turns 2\n"
    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 44,2\n"
    "  brigade \"1st\" commander \"Grey\" at 40,4\n"
    "    unit \"23rd Foot\" type british-line stands 1 sp 3 at 44,6 facing 0\n"
    "  brigade \"Lights\" commander \"Abercromby\" at 41,21\n"
    "    unit \"Light Company\" type british-line stands 1 sp 2 at 40,26 facing 180\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,44\n"
    "  brigade \"Militia\" commander \"Pickens\" at 30,40\n"
    "    unit \"Continental Artillery\" type light-artillery stands 1 sp 1 at 44,10 facing 180\n"
    "    unit \"Spartan Militia\" type raw-militia stands 1 sp 1 at 12,23 facing 0\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,46\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,44 facing 180\n";

/* The fixture's folder and players, the game `game` from `text`, made a
 * fog game before its start (a sandbox game, whose dice the test
 * scripts, with sandbox set). */
static int
setup_fog_with(void **state, const char *game, const char *text, int sandbox)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[400], secret[REFEREE_SECRET_MAX];
	struct err e;
	FILE *fp;

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/despatch-test-fog-%d",
	    (int)getpid());
	mkdir(f->dir, 0700);
	snprintf(f->db, sizeof(f->db), "%s/t.db", f->dir);
	unlink(f->db);
	snprintf(path, sizeof(path), "%s/%s.scenario", f->dir, game);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	if (store_open(f->db, 1, -1, &f->st, &e) != 0)
		fail_msg("%s", e.msg);
	referee_init(&f->r, f->st);
	f->r.fixed_now = 1700000000;
	if (referee_new_game(&f->r, game, path, sandbox, NULL, &e) != 0 ||
	    referee_player_add(&f->r, game, "crown", CROWN, "red-coat-secret",
	    NULL, secret, &e) != 0 ||
	    referee_player_add(&f->r, game, "continental",
	    "greene@cont.example.org", "blue-coat-secret", NULL, secret, &e) != 0 ||
	    referee_setting_set(&f->r, game, "visibility", "fog", &e) != 0)
		fail_msg("%s", e.msg);
	*state = f;
	return 0;
}

static int
setup_fog(void **state, const char *game, const char *text)
{
	return setup_fog_with(state, game, text, 0);
}

static int
setup_gun(void **state)
{
	struct fx *f;
	struct err e;

	setup_fog_with(state, "gun", gun_scenario, 1);
	f = *state;
	/* The Spartan Militia routed already: both markers. */
	if (store_exec(f->st, &e, "UPDATE stands SET flags = flags | 3 WHERE "
	    "unit_idx = 3", "") != 0)
		fail_msg("%s", e.msg);
	return 0;
}

static int
setup_spot(void **state)
{
	return setup_fog(state, "spot", spot_scenario);
}

static int
setup_spot_bb7(void **state)
{
	return setup_fog(state, "spot", spot_bb7_scenario);
}

static int
setup_hidden(void **state)
{
	return setup_fog(state, "hidden", hidden_scenario);
}

static void
start_game(struct fx *f, const char *game)
{
	struct err e;

	if (referee_start(&f->r, game, &e) != 0)
		fail_msg("%s", e.msg);
}

/* The crown player asks for everything beside the report's text: the
 * HTML, the maps and the side's JSON. */
static void
crown_mail_full(struct fx *f, const char *game)
{
	struct submit_result res;
	char hdr[200], *m;

	snprintf(hdr, sizeof(hdr), "GAME %s SIDE crown PASSWORD red-coat-secret"
	    "\r\nSET MAIL FULL\r\n", game);
	m = mail("full@crown.example.org", CROWN, hdr);
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "commands");
}

/* --- reading a mail as any client could ------------------------------ */

/* Calls fn with every leaf part of the MIME tree m, decoded: its
 * subtype ("plain", "json", ...) and its bytes (NUL-terminated). */
static void
each_part(struct mailmime *m, void (*fn)(const char *, const char *, size_t,
    void *), void *arg)
{
	clistiter *it;

	switch (m->mm_type) {
	case MAILMIME_MESSAGE:
		if (m->mm_data.mm_message.mm_msg_mime != NULL)
			each_part(m->mm_data.mm_message.mm_msg_mime, fn, arg);
		break;
	case MAILMIME_MULTIPLE:
		for (it = clist_begin(m->mm_data.mm_multipart.mm_mp_list);
		    it != NULL; it = clist_next(it))
			each_part(clist_content(it), fn, arg);
		break;
	default: {
		struct mailmime_data *d = m->mm_data.mm_single;
		char *res = NULL, *out;
		size_t idx = 0, rlen = 0;

		assert_int_equal(mailmime_part_parse(d->dt_data.dt_text.dt_data,
		    d->dt_data.dt_text.dt_length, &idx, d->dt_encoding, &res,
		    &rlen), MAILIMF_NO_ERROR);
		out = malloc(rlen + 1);
		assert_non_null(out);
		memcpy(out, res, rlen);
		out[rlen] = '\0';
		mmap_string_unref(res);
		fn(m->mm_content_type != NULL ? m->mm_content_type->ct_subtype :
		    "plain", out, rlen, arg);
		free(out);
		break;
	}
	}
}

struct find {
	const char *name;
	int found;
	json_t *json;   /* the mail's JSON part, parsed */
};

static void
find_in_part(const char *subtype, const char *data, size_t len, void *arg)
{
	struct find *fd = arg;
	size_t n = strlen(fd->name), i;

	/* Byte by byte: a PNG part has NULs in it. */
	for (i = 0; i + n <= len; i++)
		if (memcmp(data + i, fd->name, n) == 0)
			fd->found++;
	if (strcasecmp(subtype, "json") == 0 && fd->json == NULL) {
		json_error_t je;

		fd->json = json_loadb(data, len, 0, &je);
		if (fd->json == NULL)
			fail_msg("the report's JSON does not read: %s", je.text);
	}
}

/* How many times `name` is written in the mails to `to` whose subject
 * has `what` in it (each read whole as it was queued, and every part of
 * it decoded); with json, the JSON part of the last of them that has one
 * (json_decref it). */
static int
named_in_mails_to(struct fx *f, const char *to, const char *what,
    const char *name, json_t **json)
{
	struct store_mail *m = NULL;
	struct find fd;
	int n = 0, k;
	struct err e;

	memset(&fd, 0, sizeof(fd));
	fd.name = name;
	if (json != NULL)
		*json = NULL;
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (k = 0; k < n; k++) {
		struct mailmime *tree = NULL;
		size_t idx = 0;

		if (strcmp(m[k].recipient, to) != 0 ||
		    strstr(m[k].subject, what) == NULL)
			continue;
		if (strstr(m[k].raw, name) != NULL)
			fd.found++;
		assert_int_equal(mailmime_parse(m[k].raw, m[k].len, &idx, &tree),
		    MAILIMF_NO_ERROR);
		each_part(tree, find_in_part, &fd);
		mailmime_free(tree);
		if (fd.json != NULL) {
			if (json != NULL) {
				json_decref(*json);
				*json = fd.json;
			} else {
				json_decref(fd.json);
			}
			fd.json = NULL;
		}
	}
	store_mails_free(m, n);
	return fd.found;
}

/* The decoded text of the last mail to `to` whose subject has `what`. */
static char *
text_of(struct fx *f, const char *to, const char *what)
{
	char *out = mail_to(f, to, what);

	if (out == NULL)
		fail_msg("no mail to %s about \"%s\"", to, what);
	return out;
}

/* The part of report text from the heading `title` to the heading
 * `next` (NULL: to the end), malloc'd; fails when there is none. */
static char *
section_of(const char *text, const char *title, const char *next)
{
	const char *at = strstr(text, title), *end;
	char *out;

	if (at == NULL)
		fail_msg("no section \"%s\" in:\n%s", title, text);
	end = next != NULL ? strstr(at, next) : NULL;
	if (end == NULL && next != NULL)
		fail_msg("no section \"%s\" after \"%s\" in:\n%s", next, title,
		    text);
	if (end == NULL)
		end = at + strlen(at);
	out = strndup(at, (size_t)(end - at));
	assert_non_null(out);
	return out;
}

/* 1 if the units of the JSON report's state have one called name. */
static int
json_has_unit(json_t *js, const char *name)
{
	json_t *units = json_object_get(json_object_get(js, "state"), "units");
	json_t *u;
	size_t i;

	assert_true(json_is_array(units));
	json_array_foreach(units, i, u)
		if (strcmp(json_string_value(json_object_get(u, "name")),
		    name) == 0)
			return 1;
	return 0;
}

/* --- tests ------------------------------------------------------------ */

/* The scenario's sight lines, standing: the Light Company sees the 2nd
 * Virginia past the wood, so the crown has it in sight from the start.
 * (What makes the next test's silence mean something.) */
static void
a_stand_beyond_the_wood_spots_the_enemy(void **state)
{
	struct fx *f = *state;
	char *w, *sight;

	start_game(f, "spot");
	w = text_of(f, CROWN, "Welcome");
	sight = section_of(w, "The enemy in sight", "The field");
	assert_non_null(strstr(sight, "2nd Virginia"));
	free(sight);
	free(w);
	assert_int_equal(q(f, "SELECT count(*) FROM sightings WHERE side_idx = 0 "
	    "AND unit_idx = 2"), 1);
}

/* The Light Company eliminated, nothing of the crown's sees the 2nd
 * Virginia: a stand removed from play is no spotter.  The crown's
 * welcome does not show it in sight nor on its map, no report names it
 * (text, text map, HTML, JSON), and the crown has no sighting of it. */
static void
a_removed_stand_spots_nothing(void **state)
{
	struct fx *f = *state;
	struct err e;
	json_t *js = NULL;
	char *text, *part;

	/* Removed from play as the rules remove a stand: gone, no SP. */
	if (store_exec(f->st, &e, "UPDATE stands SET sp = 0, flags = flags | 8 "
	    "WHERE unit_idx = 1", "") != 0)
		fail_msg("%s", e.msg);
	start_game(f, "spot");
	/* The welcome: its view of the field, and its orders help too,
	 * whose example names no enemy in a fog game. */
	text = text_of(f, CROWN, "Welcome");
	part = section_of(text, "The enemy in sight", NULL);
	assert_non_null(strstr(part, "None of the enemy is in sight"));
	assert_null(strstr(part, "2nd Virginia"));
	free(part);
	assert_null(strstr(text, "2nd Virginia"));
	assert_non_null(strstr(text, " AT <an enemy unit in sight>"));
	free(text);
	crown_mail_full(f, "spot");
	play(f, "spot", 1);
	play(f, "spot", 2);
	text = text_of(f, CROWN, "continental phase (");
	part = section_of(text, "The enemy in sight", "\nAppendix");
	assert_non_null(strstr(part, "None of the enemy is in sight"));
	free(part);
	free(text);
	assert_int_equal(named_in_mails_to(f, CROWN, "Turn ", "2nd Virginia",
	    &js), 0);
	assert_non_null(js);
	assert_true(json_has_unit(js, "23rd Foot"));
	assert_false(json_has_unit(js, "2nd Virginia"));
	json_decref(js);
	assert_int_equal(q(f, "SELECT count(*) FROM sightings WHERE side_idx = 0"),
	    0);
}

/* A fog game's report to a side: its own units, the enemy it sees, and
 * of the enemy behind the wood not a word, whether it stands or moves;
 * not in the text, the text map, the HTML or the JSON. */
static void
a_fog_report_shows_the_side_and_the_enemy_in_sight_only(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	json_t *js = NULL;
	char *rep, *own, *sight, *m;

	start_game(f, "hidden");
	crown_mail_full(f, "hidden");
	play(f, "hidden", 1);
	rep = text_of(f, CROWN, "crown phase (");
	own = section_of(rep, "Your forces after the phase",
	    "The enemy in sight");
	assert_non_null(strstr(own, "23rd Foot"));
	free(own);
	sight = section_of(rep, "The enemy in sight", "\nAppendix");
	assert_non_null(strstr(sight, "3rd Virginia"));
	assert_non_null(strstr(sight, "2 stands in sight"));
	free(sight);
	free(rep);
	/* The continental phase moves the hidden unit, still behind the
	 * wood. */
	m = mail("mv@cont.example.org", "greene@cont.example.org",
	    "GAME hidden SIDE continental TURN 1 PASSWORD blue-coat-secret\r\n"
	    "2nd Virginia: ADVANCE 2\r\n");
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "orders");
	play(f, "hidden", 2);
	assert_true(q(f, "SELECT count(*) FROM events WHERE step = 2 AND "
	    "unit_idx = 1") > 0);
	rep = text_of(f, CROWN, "continental phase (");
	assert_non_null(strstr(rep, "3rd Virginia"));
	free(rep);
	/* Every mail of the phases to the crown, every part. */
	assert_int_equal(named_in_mails_to(f, CROWN, "Turn ", "2nd Virginia",
	    &js), 0);
	assert_non_null(js);
	assert_true(json_has_unit(js, "23rd Foot"));
	assert_true(json_has_unit(js, "3rd Virginia"));
	assert_false(json_has_unit(js, "2nd Virginia"));
	json_decref(js);
	/* The continental's reports do name it: the name is one a report
	 * would print, were it let. */
	assert_true(named_in_mails_to(f, "greene@cont.example.org", "Turn ",
	    "2nd Virginia", NULL) > 0);
}

/* The JSON report's last_seen entry for name, or NULL. */
static json_t *
json_last_seen(json_t *js, const char *name)
{
	json_t *v = json_object_get(js, "last_seen"), *x;
	size_t i;

	assert_true(json_is_array(v));
	json_array_foreach(v, i, x)
		if (strcmp(json_string_value(json_object_get(x, "unit")),
		    name) == 0)
			return x;
	return NULL;
}

/* Every fog mail of the game says it is fogged and what that means: the
 * welcome, HELP and each report. */
static void
a_fog_game_says_it_is_fogged(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *text, *m;

	start_game(f, "hidden");
	text = text_of(f, CROWN, "Welcome");
	assert_non_null(strstr(text, "This is a fog game: you see the enemy only"));
	assert_non_null(strstr(text, "by the line of sight of the vnb-wing "
	    "rules"));
	assert_non_null(strstr(text, "marked with the turn"));
	free(text);
	m = mail("help@crown.example.org", CROWN, "GAME hidden SIDE crown "
	    "PASSWORD red-coat-secret\r\nHELP\r\n");
	submit(f, m, &res);
	free(m);
	text = text_of(f, CROWN, "HELP");
	assert_non_null(strstr(text, "This is a fog game: you see the enemy only"));
	free(text);
	play(f, "hidden", 1);
	text = text_of(f, CROWN, "crown phase (");
	assert_non_null(strstr(text, "This report is for Crown.\nA fog game: "
	    "you see the enemy only as your units and"));
	free(text);
	text = text_of(f, "greene@cont.example.org", "crown phase (");
	assert_non_null(strstr(text, "A fog game: you see the enemy only"));
	free(text);
}

/* The same mails of an open game say nothing of fog. */
static void
an_open_game_says_nothing_of_fog(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *text, *m;

	start(f);
	text = text_of(f, CROWN, "Welcome");
	assert_null(strstr(text, "you see the enemy only"));
	free(text);
	m = mail("help@crown.example.org", CROWN, "GAME mill SIDE crown "
	    "PASSWORD red-coat-secret\r\nHELP\r\n");
	submit(f, m, &res);
	free(m);
	text = text_of(f, CROWN, "HELP");
	assert_null(strstr(text, "you see the enemy only"));
	free(text);
	play(f, "mill", 1);
	text = text_of(f, CROWN, "crown phase (");
	assert_null(strstr(text, "you see the enemy only"));
	free(text);
}

/* A gun the 23rd Foot shoots away in plain sight is known to be gone:
 * the report tells once that it was seen to go, and it is on no list of
 * the enemy last seen (text or JSON, which gives the map its ghosts),
 * nor in the crown's sightings.  The Spartan Militia, removed in the
 * same phase behind the wood where nothing of the crown's saw it go, is
 * still shown where it was last seen. */
static void
a_unit_seen_destroyed_is_known_to_be_gone(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct err e;
	/* The 23rd's two dice, 5 and 6: two hits at short range; no return
	 * fire, no saves; the collapse roll, 1, under the two hits. */
	const int dice[] = { 5, 5, 6, 1, 1, 1 };
	json_t *js = NULL, *x;
	char *text, *part, *m;

	start_game(f, "gun");
	/* At the start the crown sees both, the militia past the wood. */
	text = text_of(f, CROWN, "Welcome");
	part = section_of(text, "The enemy in sight", "The field");
	assert_non_null(strstr(part, "Continental Artillery"));
	assert_non_null(strstr(part, "Spartan Militia"));
	free(part);
	free(text);
	crown_mail_full(f, "gun");
	m = mail("lc@crown.example.org", CROWN, "GAME gun SIDE crown TURN 1 "
	    "PASSWORD red-coat-secret\r\nLight Company: ADVANCE 6\r\n");
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "orders");
	if (referee_turn(&f->r, "gun", dice, 6, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	text = text_of(f, CROWN, "crown phase (");
	assert_int_equal(q(f, "SELECT count(*) FROM stands WHERE unit_idx IN "
	    "(2, 3) AND flags & 8 = 0"), 0);
	/* What happened: the gun's end is told. */
	part = section_of(text, "What happened", "Your forces after the phase");
	if (strstr(part, "Continental Artillery (stand 1) ") == NULL ||
	    strstr(strstr(part, "Continental Artillery (stand 1) "),
	    "was destroyed") == NULL)
		fail_msg("the gun's end is not told: %s", part);
	assert_null(strstr(part, "Spartan Militia"));
	free(part);
	part = section_of(text, "The enemy seen leaving the field",
	    "The enemy last seen");
	assert_non_null(strstr(part, "Continental Artillery"));
	assert_null(strstr(part, "Spartan Militia"));
	free(part);
	part = section_of(text, "The enemy last seen", "\nAppendix");
	assert_null(strstr(part, "Continental Artillery"));
	assert_non_null(strstr(part, "Spartan Militia"));
	assert_non_null(strstr(part, "before the battle began"));
	free(part);
	free(text);
	assert_true(named_in_mails_to(f, CROWN, "crown phase (",
	    "Spartan Militia", &js) > 0);
	assert_non_null(js);
	assert_null(json_last_seen(js, "Continental Artillery"));
	assert_non_null(x = json_last_seen(js, "Spartan Militia"));
	assert_int_equal(json_integer_value(json_object_get(x, "step")), 0);
	json_decref(js);
	assert_int_equal(q(f, "SELECT count(*) FROM sightings WHERE side_idx = 0 "
	    "AND unit_idx = 2"), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM sightings WHERE side_idx = 0 "
	    "AND unit_idx = 3"), 1);
	/* The next phase's report: the gun is not told again, the militia
	 * still where it was last seen. */
	if (referee_turn(&f->r, "gun", NULL, 0, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	text = text_of(f, CROWN, "continental phase (");
	assert_null(strstr(text, "Continental Artillery"));
	assert_null(strstr(text, "The enemy seen leaving the field"));
	part = section_of(text, "The enemy last seen", "\nAppendix");
	assert_non_null(strstr(part, "Spartan Militia"));
	free(part);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_stand_beyond_the_wood_spots_the_enemy, setup_spot, teardown),
		cmocka_unit_test_setup_teardown(a_removed_stand_spots_nothing, setup_spot, teardown),
		/* The same two under the bb7 rules, which have a sight of
		 * their own. */
		{ "a_stand_beyond_the_wood_spots_the_enemy (bb7)",
		    a_stand_beyond_the_wood_spots_the_enemy, setup_spot_bb7, teardown,
		    NULL },
		{ "a_removed_stand_spots_nothing (bb7)",
		    a_removed_stand_spots_nothing, setup_spot_bb7, teardown, NULL },
		cmocka_unit_test_setup_teardown(a_fog_report_shows_the_side_and_the_enemy_in_sight_only, setup_hidden, teardown),
		cmocka_unit_test_setup_teardown(a_fog_game_says_it_is_fogged, setup_hidden, teardown),
		cmocka_unit_test_setup_teardown(an_open_game_says_nothing_of_fog, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_unit_seen_destroyed_is_known_to_be_gone, setup_gun, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
