/*
 * test_campaign_orders.c - the campaign order language
 * (src/orders/campaign.c, docs/campaign.md "Campaign orders"): every
 * verb read with its fields, every order written back and read again the
 * same, names read as battle names are (case, curly apostrophes, a
 * letter or two off), and every refusal saying what is wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"

/* tests/unit/campaign's small campaign, with named roads, a dead end
 * (Eden), a place a prefix of another's name (Dunmore Hill), and two
 * columns a side.  Places: 0 Ashby, 1 Bell's Ford, 2 Carr's Mill,
 * 3 Dunmore, 4 Eden, 5 Dunmore Hill.  Roads: 0 Ashby-Bell's Ford (Green
 * River Road), 1 Bell's Ford-Carr's Mill, 2 Carr's Mill-Dunmore (Swamp
 * Track), 3 Ashby-Dunmore (Long Road), 4 Ashby-Eden, 5 Dunmore-Dunmore
 * Hill.  Columns: 0 Redcoats (brigades 0 Foot, 1 Grenadiers) and 1 Horse
 * (2 Dragoons) at Ashby; 2 Blues (3 Line) at Dunmore, 3 Morgan's Column
 * (4 Riflemen) at Carr's Mill. */
static const char text[] =
    "campaign \"The test of the orders\"\n"
    "ruleset vnb-wing\n"
    "calendar 1781-01-16 to 1781-01-31 turn day\n"
    "place \"Ashby\" kind town at 10,10\n"
    "place \"Bell's Ford\" kind ford at 20,10\n"
    "place \"Carr's Mill\" kind plantation at 32,10 ground wooded\n"
    "place \"Dunmore\" kind crossroads at 62,10\n"
    "place \"Eden\" kind town at 10,20\n"
    "place \"Dunmore Hill\" kind hill at 62,13\n"
    "road \"Ashby\" to \"Bell's Ford\" miles 10 name \"Green River Road\"\n"
    "road \"Bell's Ford\" to \"Carr's Mill\" miles 12 river \"Deep\"\n"
    "road \"Carr's Mill\" to \"Dunmore\" miles 30 track name \"Swamp Track\"\n"
    "road \"Ashby\" to \"Dunmore\" miles 70 name \"Long Road\"\n"
    "road \"Ashby\" to \"Eden\" miles 10\n"
    "road \"Dunmore\" to \"Dunmore Hill\" miles 3\n"
    "side crown \"Crown forces\" nation british\n"
    "  column \"Redcoats\" commander \"Lord Ashe\" at \"Ashby\"\n"
    "    brigade \"Foot\" commander \"Col. Bray\"\n"
    "      unit \"33rd Foot\" type british-line stands 2 sp 2,2 line\n"
    "    brigade \"Grenadiers\" commander \"Maj. Gore\"\n"
    "      unit \"Light Company\" type british-line stands 1 sp 2 line\n"
    "  column \"Horse\" commander \"Maj. Colt\" at \"Ashby\"\n"
    "    brigade \"Dragoons\" commander \"Capt. Dane\"\n"
    "      unit \"17th Dragoons\" type light-dragoons stands 1 sp 2 mounted\n"
    "  depot \"Ashby\"\n"
    "side continental \"Continentals\" nation continental\n"
    "  column \"Blues\" commander \"Gen. Eaton\" at \"Dunmore\"\n"
    "    brigade \"Line\" commander \"Col. Finch\"\n"
    "      unit \"1st Maryland\" type continentals-post-1778 stands 2 sp 3,2\n"
    "  column \"Morgan's Column\" commander \"Gen. Morgan\" at \"Carr's Mill\"\n"
    "    brigade \"Riflemen\" commander \"Maj. Mcdowell\"\n"
    "      unit \"2nd Maryland\" type continentals-post-1778 stands 2 sp 3,3\n";

enum { CROWN = 0, CONT = 1 };

static int
setup(void **state)
{
	struct campaign *c = NULL;
	struct err e;

	err_clear(&e);
	if (campaign_parse(text, strlen(text), "t.campaign", NULL, &c, &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	*state = c;
	return 0;
}

static int
teardown(void **state)
{
	campaign_free(*state);
	return 0;
}

static char msg[512];

static int
rd(const struct campaign *c, int side, const char *line, struct cp_order *o)
{
	memset(msg, 'x', sizeof(msg));
	msg[sizeof(msg) - 1] = '\0';
	return campaign_order_line(c, side, line, o, msg, sizeof(msg));
}

/* The line is refused, and the message has each of the words wanted. */
static void
refused(const struct campaign *c, int side, const char *line,
    const char *want, const char *want2)
{
	struct cp_order o;
	int rr = rd(c, side, line, &o);

	if (rr != -1)
		fail_msg("\"%s\" gave %d, not -1", line, rr);
	if (strstr(msg, want) == NULL ||
	    (want2 != NULL && strstr(msg, want2) == NULL))
		fail_msg("\"%s\": got \"%s\", want \"%s\"%s%s", line, msg, want,
		    want2 != NULL ? " and " : "", want2 != NULL ? want2 : "");
}

/* The line is read; the order is returned for its fields. */
static struct cp_order
ok(const struct campaign *c, int side, const char *line)
{
	struct cp_order o;
	int rr = rd(c, side, line, &o);

	if (rr != 1)
		fail_msg("\"%s\" gave %d: %s", line, rr, msg);
	return o;
}

static int
bit(const struct cp_order *o, int i)
{
	return o->brigades[i / 8] >> (i % 8) & 1;
}

static void
every_verb_and_its_fields(void **state)
{
	const struct campaign *c = *state;
	struct cp_order o;
	int i;

	o = ok(c, CROWN, "Redcoats: MARCH TO Dunmore");
	assert_int_equal(o.column, 0);
	assert_int_equal(o.kind, CO_MARCH);
	assert_int_equal(o.dest, 3);
	assert_int_equal(o.by, -1);
	assert_int_equal(o.target, -1);
	assert_string_equal(o.name, "");
	for (i = 0; i < (int)sizeof(o.brigades); i++)
		assert_int_equal(o.brigades[i], 0);
	assert_string_equal(msg, "");          /* exact: nothing to note */
	/* BY a road's name, or the place the road leads to */
	o = ok(c, CROWN, "Redcoats: MARCH TO Dunmore BY Long Road");
	assert_int_equal(o.by, 3);
	o = ok(c, CROWN, "Redcoats: MARCH TO Dunmore BY Bell's Ford");
	assert_int_equal(o.by, 0);
	o = ok(c, CROWN, "Redcoats: MARCH TO Carr's Mill BY Green River Road");
	assert_int_equal(o.dest, 2);
	assert_int_equal(o.by, 0);
	o = ok(c, CROWN, "Horse: FORCED MARCH TO Carr's Mill");
	assert_int_equal(o.column, 1);
	assert_int_equal(o.kind, CO_FORCED);
	assert_int_equal(o.dest, 2);
	assert_int_equal(o.by, -1);
	o = ok(c, CROWN, "Redcoats: RETREAT TO Eden BY Eden");
	assert_int_equal(o.kind, CO_RETREAT);
	assert_int_equal(o.dest, 4);
	assert_int_equal(o.by, 4);
	o = ok(c, CROWN, "Redcoats: HOLD");
	assert_int_equal(o.kind, CO_HOLD);
	assert_int_equal(o.dest, -1);
	assert_int_equal(o.by, -1);
	assert_int_equal(o.target, -1);
	o = ok(c, CROWN, "Redcoats: REST");
	assert_int_equal(o.kind, CO_REST);
	o = ok(c, CROWN, "Horse: SCOUT");
	assert_int_equal(o.kind, CO_SCOUT);
	assert_int_equal(o.column, 1);
	o = ok(c, CROWN, "Redcoats: DETACH Grenadiers AS \"Flank Guard\"");
	assert_int_equal(o.kind, CO_DETACH);
	assert_int_equal(o.dest, -1);
	assert_int_equal(o.target, -1);
	assert_true(bit(&o, 1));
	assert_false(bit(&o, 0));
	assert_false(bit(&o, 2));
	assert_string_equal(o.name, "Flank Guard");
	o = ok(c, CROWN, "Redcoats: detach grenadiers as Flank Guard");
	assert_true(bit(&o, 1));
	assert_string_equal(o.name, "Flank Guard");
	o = ok(c, CROWN, "Horse: JOIN Redcoats");
	assert_int_equal(o.kind, CO_JOIN);
	assert_int_equal(o.target, 0);
	assert_int_equal(o.dest, -1);
	o = ok(c, CONT, "Morgan's Column: JOIN Blues");
	assert_int_equal(o.column, 3);
	assert_int_equal(o.target, 2);
	/* a comment after the order, and the whole name or a prefix */
	o = ok(c, CONT, "Blues: MARCH TO Dunmore Hill  # to the hill");
	assert_int_equal(o.dest, 5);
	o = ok(c, CONT, "Blues: MARCH TO Dunmore Hi");
	assert_int_equal(o.dest, 5);
	o = ok(c, CONT, "Morgan's Column: MARCH TO Dunmore");
	assert_int_equal(o.dest, 3);           /* the whole name wins */
	o = ok(c, CONT, "Morgan: HOLD");
	assert_int_equal(o.column, 3);
}

static void
lines_without_an_order(void **state)
{
	const struct campaign *c = *state;
	struct cp_order o;

	assert_int_equal(rd(c, CROWN, "", &o), 0);
	assert_int_equal(rd(c, CROWN, "   \t ", &o), 0);
	assert_int_equal(rd(c, CROWN, "\xc2\xa0\r\n", &o), 0);  /* NBSP */
	assert_int_equal(rd(c, CROWN, "# the orders for the 17th", &o), 0);
}

/* Every kind, written back and read again: the same order, and the text
 * it is written as is a fixed point. */
static void
round_trip(const struct campaign *c, int side, const char *line,
    const char *want)
{
	struct cp_order a, b;
	char t1[256], t2[256];

	a = ok(c, side, line);
	campaign_order_text(c, &a, t1, sizeof(t1));
	if (want != NULL)
		assert_string_equal(t1, want);
	b = ok(c, side, t1);
	assert_string_equal(msg, "");   /* read back exactly */
	assert_int_equal(a.column, b.column);
	assert_int_equal(a.kind, b.kind);
	assert_int_equal(a.dest, b.dest);
	assert_int_equal(a.by, b.by);
	assert_int_equal(a.target, b.target);
	assert_memory_equal(a.brigades, b.brigades, sizeof(a.brigades));
	assert_string_equal(a.name, b.name);
	campaign_order_text(c, &b, t2, sizeof(t2));
	assert_string_equal(t1, t2);
}

static void
orders_read_back_the_same(void **state)
{
	struct campaign *c = *state;

	round_trip(c, CROWN, "redcoats: march to dunmore",
	    "Redcoats: MARCH TO Dunmore");
	round_trip(c, CROWN, "Redcoats: march to dunmore by bell's ford",
	    "Redcoats: MARCH TO Dunmore BY Green River Road");
	round_trip(c, CROWN, "Redcoats: MARCH TO Dunmore BY long",
	    "Redcoats: MARCH TO Dunmore BY Long Road");
	round_trip(c, CROWN, "horse: forced march to carrs mill",
	    "Horse: FORCED MARCH TO Carr's Mill");
	round_trip(c, CROWN, "Redcoats: retreat to eden by eden",
	    "Redcoats: RETREAT TO Eden BY Eden");
	round_trip(c, CROWN, "Redcoats: hold", "Redcoats: HOLD");
	round_trip(c, CROWN, "Redcoats: rest", "Redcoats: REST");
	round_trip(c, CROWN, "horse: scout", "Horse: SCOUT");
	round_trip(c, CROWN, "Redcoats: detach grenadiers as Flank Guard",
	    "Redcoats: DETACH Grenadiers AS \"Flank Guard\"");
	round_trip(c, CROWN, "horse: join redcoats", "Horse: JOIN Redcoats");
	round_trip(c, CONT, "morgans column: join blues",
	    "Morgan's Column: JOIN Blues");
	round_trip(c, CONT, "Blues: MARCH TO Dunmore Hill BY Dunmore Hill",
	    "Blues: MARCH TO Dunmore Hill BY Dunmore Hill");
	/* two brigades leave, a column keeps a third */
	c->brigades[2].column = 0;             /* the dragoons go to the foot */
	round_trip(c, CROWN, "Redcoats: DETACH Dragoons, Foot AS Van",
	    "Redcoats: DETACH Foot, Dragoons AS \"Van\"");
	c->brigades[2].column = 1;
	/* names that need quotes to read back */
	snprintf(c->columns[1].name, sizeof(c->columns[1].name),
	    "Horse: the Legion");
	round_trip(c, CROWN, "\"Horse: the Legion\": HOLD",
	    "\"Horse: the Legion\": HOLD");
	snprintf(c->places[4].name, sizeof(c->places[4].name), "Eden by Sea");
	round_trip(c, CROWN, "Redcoats: MARCH TO Eden by Sea by Eden by Sea",
	    "Redcoats: MARCH TO \"Eden by Sea\" BY \"Eden by Sea\"");
	/* a column out on a road since yesterday: BY its road's far end */
	c->columns[0].road = 1;
	c->columns[0].from = 1;
	c->columns[0].along100 = 300;
	round_trip(c, CROWN, "Redcoats: MARCH TO Dunmore BY Carr's Mill",
	    "Redcoats: MARCH TO Dunmore BY Carr's Mill");
	round_trip(c, CROWN, "Redcoats: MARCH TO Dunmore BY Bell's Ford",
	    "Redcoats: MARCH TO Dunmore BY Carr's Mill");
	/* back the way it came: where it set out from is no refusal */
	round_trip(c, CROWN, "Redcoats: MARCH TO Bell's Ford", NULL);
}

static void
names_as_battle_names(void **state)
{
	const struct campaign *c = *state;
	struct cp_order o;

	/* case */
	o = ok(c, CROWN, "REDCOATS: march TO dunmore BY LONG ROAD");
	assert_int_equal(o.dest, 3);
	assert_int_equal(o.by, 3);
	/* curly apostrophes, the apostrophe left out, or the possessive */
	o = ok(c, CROWN, "Redcoats: MARCH TO Bell\xe2\x80\x99s Ford");
	assert_int_equal(o.dest, 1);
	assert_string_equal(msg, "");
	o = ok(c, CROWN, "Redcoats: MARCH TO Bells Ford");
	assert_int_equal(o.dest, 1);
	o = ok(c, CROWN, "Redcoats: MARCH TO Bell Ford");
	assert_int_equal(o.dest, 1);
	o = ok(c, CONT, "Morgan\xe2\x80\x98s Column: HOLD");
	assert_int_equal(o.column, 3);
	/* an en dash for a space, with a curly apostrophe */
	o = ok(c, CROWN, "Redcoats: MARCH TO Carr\xe2\x80\x99s\xe2\x80\x93Mill");
	assert_int_equal(o.dest, 2);
	assert_string_equal(msg, "");
	/* no-break spaces, and curly quotes round a new name */
	o = ok(c, CROWN, "Redcoats:\xc2\xa0MARCH\xc2\xa0TO Carr's\xc2\xa0Mill");
	assert_int_equal(o.dest, 2);
	o = ok(c, CROWN, "Redcoats: DETACH \xe2\x80\x9cGrenadiers\xe2\x80\x9d "
	    "AS \xe2\x80\x9c" "Flank Guard\xe2\x80\x9d");
	assert_string_equal(o.name, "Flank Guard");
	/* a letter or two off: taken, and said so */
	o = ok(c, CROWN, "Redcaots: MARCH TO Carrs Mlil BY Lnog Road");
	assert_int_equal(o.column, 0);
	assert_int_equal(o.dest, 2);
	assert_int_equal(o.by, 3);
	assert_non_null(strstr(msg, "read \"Redcaots\" as \"Redcoats\""));
	assert_non_null(strstr(msg, "\"Carrs Mlil\" as \"Carr's Mill\""));
	assert_non_null(strstr(msg, "\"Lnog Road\" as \"Long Road\""));
	o = ok(c, CROWN, "Redcoats: DETACH Grenadeirs AS Guard");
	assert_true(bit(&o, 1));
	o = ok(c, CROWN, "Horse: JOIN Redcots");
	assert_int_equal(o.target, 0);
	/* as near to two places: both named */
	refused(c, CONT, "Blues: MARCH TO Dunmoor",
	    "\"Dunmoor\" could be more than one place, each a letter off",
	    "\"Dunmore\" or \"Dunmore Hill\"");
	/* a prefix two places share: both named */
	refused(c, CONT, "Blues: MARCH TO Dun",
	    "\"Dun\" could be more than one place", "\"Dunmore\" or \"Dunmore Hill\"");
	/* too far off to take: the nearest suggested */
	refused(c, CROWN, "Redcoats: MARCH TO Dxnmxxe",
	    "no place \"Dxnmxxe\": did you mean \"Dunmore\"", NULL);
	refused(c, CROWN, "Redcoats: MARCH TO Zanzibar", "no place \"Zanzibar\"",
	    "\"Ashby\"");
	refused(c, CROWN, "Redcxxxs: HOLD", "no column \"Redcxxxs\": did you "
	    "mean \"Redcoats\"", NULL);
	refused(c, CROWN, "Lancers: HOLD", "no column \"Lancers\"",
	    "(yours: \"Redcoats\", \"Horse\")");
}

static void
refusals_say_what_is_wrong(void **state)
{
	struct campaign *c = *state;

	/* the column */
	refused(c, CROWN, "Blues: HOLD", "\"Blues\" is not a column of yours",
	    "(yours: \"Redcoats\", \"Horse\")");
	refused(c, CROWN, "Morgans Colum: HOLD",
	    "\"Morgan's Column\" is not a column of yours", NULL);
	refused(c, CROWN, "HOLD", "a colon", "\"Redcoats: HOLD\"");
	refused(c, CROWN, ": HOLD", "a column's name is needed", NULL);
	refused(c, CROWN, "Redcoats:", "the order is missing", NULL);
	/* the verb */
	refused(c, CROWN, "Redcoats: MRACH TO Dunmore",
	    "not an order I know", "did you mean MARCH TO?");
	refused(c, CROWN, "Redcoats: MARCH Dunmore", "did you mean MARCH TO?",
	    NULL);
	refused(c, CROWN, "Redcoats: FORCED Dunmore",
	    "did you mean FORCED MARCH TO?", NULL);
	refused(c, CROWN, "Redcoats: ADVANCE TO Dunmore",
	    "not a campaign order", "did you mean MARCH TO?");
	refused(c, CROWN, "Redcoats: HOLF", "did you mean HOLD?", NULL);
	refused(c, CROWN, "Redcoats: PARLEY", "the orders are MARCH TO, "
	    "FORCED MARCH TO, RETREAT TO, HOLD, REST, SCOUT, DETACH and JOIN",
	    NULL);
	refused(c, CROWN, "Redcoats: HOLD fast", "HOLD takes nothing after it",
	    NULL);
	/* where to */
	refused(c, CROWN, "Redcoats: MARCH TO", "MARCH TO needs a place", NULL);
	refused(c, CROWN, "Redcoats: MARCH TO Ashby",
	    "\"Redcoats\" is at Ashby already", "HOLD or REST");
	refused(c, CROWN, "Redcoats: MARCH TO Dunmore BY",
	    "BY needs a road", NULL);
	refused(c, CROWN, "Redcoats: MARCH TO Dunmore BY Carr's Mill",
	    "no road from Ashby to Carr's Mill",
	    "the roads out of Ashby: \"Green River Road\"");
	refused(c, CROWN, "Redcoats: MARCH TO Dunmore BY Swamp Track",
	    "\"Swamp Track\" does not leave Ashby", NULL);
	refused(c, CROWN, "Redcoats: MARCH TO Dunmore BY Eden",
	    "no way from Ashby to Dunmore by the road to Eden", NULL);
	refused(c, CROWN, "Redcoats: MARCH TO Dunmore BY Pike",
	    "no road \"Pike\" out of Ashby", NULL);
	/* scouting */
	refused(c, CROWN, "Redcoats: SCOUT", "scouting needs cavalry", NULL);
	c->units[2].sp[0] = 0;                  /* the dragoons, spent */
	refused(c, CROWN, "Horse: SCOUT", "scouting needs cavalry", NULL);
	c->units[2].sp[0] = 2;
	c->units[2].gone = 1;
	refused(c, CROWN, "Horse: SCOUT", "scouting needs cavalry", NULL);
	c->units[2].gone = 0;
	/* detaching */
	refused(c, CROWN, "Redcoats: DETACH Foot, Grenadiers AS Van",
	    "cannot detach every brigade", "at least one must stay");
	refused(c, CROWN, "Redcoats: DETACH Dragoons AS Van",
	    "\"Dragoons\" is in \"Horse\", not in \"Redcoats\"", NULL);
	refused(c, CROWN, "Redcoats: DETACH Line AS Van",
	    "\"Line\" is not a brigade of yours", NULL);
	refused(c, CROWN, "Redcoats: DETACH Lancers AS Van",
	    "no brigade \"Lancers\" in \"Redcoats\"", "\"Foot\" and \"Grenadiers\"");
	refused(c, CROWN, "Redcoats: DETACH Grenadiers AS Horse",
	    "there is a column \"Horse\" already", NULL);
	refused(c, CROWN, "Redcoats: DETACH Grenadiers AS \"blues\"",
	    "there is a column \"Blues\" already", NULL);
	refused(c, CROWN, "Redcoats: DETACH Grenadiers", "DETACH needs AS",
	    NULL);
	refused(c, CROWN, "Redcoats: DETACH Grenadiers AS", "AS needs the new "
	    "column's name", NULL);
	refused(c, CROWN, "Redcoats: DETACH AS Van", "DETACH needs the brigades",
	    NULL);
	refused(c, CROWN, "Redcoats: DETACH Grenadiers, AS Van",
	    "a brigade's name is missing", NULL);
	refused(c, CROWN, "Redcoats: DETACH Grenadiers AS \"Van: the\"",
	    "cannot have a double quote or a colon", NULL);
	/* joining */
	refused(c, CROWN, "Redcoats: JOIN Redcoats", "cannot join itself", NULL);
	refused(c, CROWN, "Redcoats: JOIN Blues",
	    "\"Blues\" is not a column of yours", NULL);
	refused(c, CROWN, "Redcoats: JOIN", "JOIN needs the column", NULL);
	/* gone */
	c->columns[1].gone = 1;
	refused(c, CROWN, "Redcoats: JOIN Horse", "\"Horse\" is gone", NULL);
	refused(c, CROWN, "Horse: HOLD", "\"Horse\" is gone", "no orders");
	refused(c, CROWN, "Blues: HOLD", "(yours: \"Redcoats\")", NULL);
	c->columns[1].gone = 0;
	/* on a road, BY can name only that road */
	c->columns[0].road = 1;
	c->columns[0].from = 1;
	c->columns[0].along100 = 300;
	refused(c, CROWN, "Redcoats: MARCH TO Dunmore BY Long Road",
	    "on the road from Bell's Ford to Carr's Mill",
	    "BY can name only that road");
	refused(c, CROWN, "Redcoats: MARCH TO Dunmore BY Ashby",
	    "BY can name only that road", NULL);
	/* the side is the campaign's */
	refused(c, 7, "Redcoats: HOLD", "no side 7", NULL);
}

/* Lines made of the language's pieces, some orders and most not: every
 * line read is written back and read again as the same order, and every
 * line refused says why.  A fixed sequence, so a failure repeats. */
static void
made_up_lines(void **state)
{
	static const char *const cols[] = { "Redcoats", "Horse", "Blues",
		"Morgan's Column", "redcoat", "\"Horse\"", "Morgans", "Redcaots" };
	static const char *const vs[] = { "MARCH TO", "forced march to",
		"RETREAT TO", "HOLD", "REST", "SCOUT", "DETACH", "JOIN" };
	static const char *const parts[] = { "Dunmore", "Eden", "Bell's Ford",
		"Bell\xe2\x80\x99s Ford", "Carr's Mill", "Ashby", "Dunmore Hill",
		"Dun", "Long Road", "Green River Road", "Swamp Track", "Foot",
		"Grenadiers", "Dragoons", "Line", "Redcoats", "Horse", "Blues",
		"Carrs Mlil", "\"Eden\"", "x", "BY", "AS", ",", "by", "#", ":",
		"\xe2\x80\x9c", "\xc2\xa0", "Van" };
	struct campaign *c = *state;
	uint32_t seed = 12345;
	int it, accepted = 0;

#define NEXT(n) (seed = seed * 1103515245u + 12345u, (int)((seed >> 16) % (n)))
	for (it = 0; it < 20000; it++) {
		struct cp_order a, b;
		char line[400], t[300];
		size_t k;
		int m, i, rr;

		k = (size_t)snprintf(line, sizeof(line), "%s: %s",
		    cols[NEXT(8)], vs[NEXT(8)]);
		for (m = NEXT(5), i = 0; i < m; i++)
			k += (size_t)snprintf(line + k, sizeof(line) - k, " %s",
			    parts[NEXT((int)(sizeof(parts) / sizeof(parts[0])))]);
		/* the foot out on a road a third of the time */
		c->columns[0].road = it % 3 == 0 ? 1 : -1;
		c->columns[0].from = 1;
		c->columns[0].along100 = 300;
		rr = rd(c, it % 2, line, &a);
		if (rr == -1) {
			if (msg[0] == '\0')
				fail_msg("\"%s\" refused without a word", line);
			continue;
		}
		if (rr != 1)
			fail_msg("\"%s\" gave %d", line, rr);
		accepted++;
		campaign_order_text(c, &a, t, sizeof(t));
		if (rd(c, it % 2, t, &b) != 1 || a.column != b.column ||
		    a.kind != b.kind || a.dest != b.dest || a.by != b.by ||
		    a.target != b.target ||
		    memcmp(a.brigades, b.brigades, sizeof(a.brigades)) != 0 ||
		    strcmp(a.name, b.name) != 0)
			fail_msg("\"%s\" was written \"%s\", read back otherwise: %s",
			    line, t, msg);
	}
#undef NEXT
	/* enough of them were orders to mean something */
	assert_true(accepted > 500);
}

/* A message cut to a small buffer stays a string; no buffer at all is
 * no message. */
static void
small_buffers(void **state)
{
	const struct campaign *c = *state;
	struct cp_order o;
	char small[16], t[12];

	assert_int_equal(campaign_order_line(c, CROWN, "Blues: HOLD", &o, small,
	    sizeof(small)), -1);
	assert_true(strlen(small) < sizeof(small));
	assert_int_equal(campaign_order_line(c, CROWN, "Blues: HOLD", &o, NULL,
	    0), -1);
	assert_int_equal(campaign_order_line(c, CROWN, "Redcoats: HOLD", &o,
	    NULL, 0), 1);
	campaign_order_text(c, &o, t, sizeof(t));
	assert_string_equal(t, "Redcoats: H");
}

/* In a mail, the remarks around the orders are passed over; what reads
 * as an order (its words, or a column's name before a colon, of either
 * side, or near one) is not, and gets its answer. */
static void
remarks_around_the_orders(void **state)
{
	const struct campaign *c = *state;
	static const char *const remarks[] = {
		"Sir,", "Orders:", "Your obedient servant,", "Cornwallis",
		"P.S.: the roads are mud.", "Thanks, nothing new today.",
		"Dear General Morgan: all is well",
	};
	static const char *const orders[] = {
		"Redcoats: HOLD", "Redcoat: HOLD", "Redcaots: HOLD",
		"Blues: HOLD", "Anybody: MARCH TO Dunmore", "Foot: REST",
		"Redcoats MARCH TO Dunmore", "HOLD", "Redcoats retreat to Ashby",
		"Redcoats: halt", "Horse:",
	};
	size_t i;

	for (i = 0; i < sizeof(remarks) / sizeof(remarks[0]); i++)
		if (!campaign_line_prose(c, CROWN, remarks[i]))
			fail_msg("\"%s\" was not read as a remark", remarks[i]);
	for (i = 0; i < sizeof(orders) / sizeof(orders[0]); i++)
		if (campaign_line_prose(c, CROWN, orders[i]))
			fail_msg("\"%s\" was read as a remark", orders[i]);
	/* Blank lines and comments are neither: no order, no remark. */
	assert_false(campaign_line_prose(c, CROWN, ""));
	assert_false(campaign_line_prose(c, CROWN, "# a comment"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_verb_and_its_fields, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(lines_without_an_order, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(orders_read_back_the_same, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(names_as_battle_names, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(refusals_say_what_is_wrong, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(made_up_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(small_buffers, setup, teardown),
		cmocka_unit_test_setup_teardown(remarks_around_the_orders, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
