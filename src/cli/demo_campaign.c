/*
 * demo_campaign.c - despatch demo --campaign: the southern campaign of
 * January to March 1781 played to its end from its scripted orders
 * (campaign/southern-1781/orders/turn-NN-SIDE.txt), every battle it
 * opens fought as a game of its own, then the campaign's archive written
 * and verified.  Its inputs are fixed (the seed, the clock, the secrets,
 * the published demo key), so every run writes the same archive.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "core/text.h"
#include "cli/cli.h"
#include "ledger/cverify.h"
#include "ledger/ledger.h"
#include "referee/referee.h"
#include "scenario/scenario.h"

#define DEMO_CAMPAIGN_SEED_HEX \
    "50717e4ac0a1e5ce1781505717e4ac0a1e5ce1781505717e4ac0a1e5ce17815a"
#define DEMO_CAMPAIGN_CLOCK 1768374000   /* 2026-01-14 07:00:00 UTC */

/* The players of the demo: the Cowpens demo's, so that its order mails
 * are theirs in the campaign's Cowpens. */
static const struct {
	const char *side, *email, *secret;
} demo_players[2] = {
	{ "crown", "tarleton@crown.example.org", "scarlet-bugle-thistle-harbour" },
	{ "continental", "morgan@continental.example.org",
	  "hickory-ember-cove-wren" },
};

/* A plain order mail from side's player into t: its first line names
 * what (GAME or CAMPAIGN) name, the side, the turn and the secret, then
 * body.  0, or -1 for a side with no player. */
static int
plain_mail(struct text *t, const char *what, const char *name,
    const char *side, int turn, const char *body)
{
	int i;

	for (i = 0; i < 2 && strcmp(demo_players[i].side, side) != 0; i++)
		;
	if (i == 2)
		return -1;
	text_add(t, "Message-ID: <%s-t%02d-%s@demo.example.org>\r\n"
	    "From: <%s>\r\nTo: despatch <despatch@referee.example.org>\r\n"
	    "Subject: %s turn %d orders\r\n"
	    "Content-Type: text/plain; charset=UTF-8\r\n\r\n"
	    "%s %s SIDE %s TURN %d PASSWORD %s\r\n\r\n%s", name, turn, side,
	    demo_players[i].email, name, turn, what, name, side, turn,
	    demo_players[i].secret, body);
	return 0;
}

/* Submits a scripted mail: every line of it must be taken (the script is
 * the demo's, and one gone stale must not be played half). */
static int
submit_all(struct referee *r, const char *raw, size_t len, const char *what,
    struct err *e)
{
	struct submit_result res;
	int n = 0, bad = -1;

	if (referee_submit(r, raw, len, NULL, &res, e) != 0)
		return -1;
	/* "3 orders, 0 lines not understood", "1 order, ..." */
	if (strcmp(res.status, "orders") != 0 ||
	    sscanf(res.note, "%d order", &n) != 1 ||
	    strchr(res.note, ',') == NULL ||
	    sscanf(strchr(res.note, ',') + 1, "%d", &bad) != 1 || bad != 0)
		return err_set(e, ERR_DATA, "%s: the demo's orders were not all "
		    "taken (%s: %s)", what, res.status, res.note);
	return 0;
}

/* The order mail for one phase of a battle, or NULL (*e clear) where the
 * demo scripts none.  Where eml is set, the battle is the Cowpens demo's
 * (eml/tNN-SIDE.eml, written for game `was`), its GAME line made this
 * game's; else script (may be NULL) is the prefix of plain order files,
 * script-tNN-SIDE.txt, each made a mail from the side's player. */
static char *
phase_mail(const char *game, const char *eml, const char *was,
    const char *script, int turn, const char *side, size_t *len,
    struct err *e)
{
	char path[4700], from[80], to[200];
	char *raw = NULL, *p;
	struct stat sb;
	struct text t;

	if (eml != NULL)
		snprintf(path, sizeof(path), "%s/t%02d-%s.eml", eml, turn, side);
	else if (script != NULL)
		snprintf(path, sizeof(path), "%s-t%02d-%s.txt", script, turn, side);
	else
		return NULL;
	if (stat(path, &sb) != 0)
		return NULL;
	if (scenario_read_file(path, SUBMIT_MAX, &raw, len, e) != 0)
		return NULL;
	text_init(&t, SUBMIT_MAX);
	if (eml != NULL) {
		snprintf(from, sizeof(from), "GAME %s ", was);
		snprintf(to, sizeof(to), "GAME %s ", game);
		for (p = raw; *p; ) {
			if (strncmp(p, from, strlen(from)) == 0) {
				text_add(&t, "%s", to);
				p += strlen(from);
			} else {
				text_add(&t, "%c", *p++);
			}
		}
	} else if (plain_mail(&t, "GAME", game, side, turn, raw) != 0) {
		free(raw);
		text_free(&t);
		err_set(e, ERR_DATA, "%s: no player of side %s", path, side);
		return NULL;
	}
	free(raw);
	if (t.over || t.s == NULL) {
		text_free(&t);
		err_set(e, ERR_DATA, "%s: too large for an order mail", path);
		return NULL;
	}
	*len = t.len;
	return t.s;
}

/* Plays every step of game until it is over, each phase's scripted mail
 * (phase_mail) submitted first; a scripted mail with a line the server
 * did not understand stops the demo, since the script is the demo's. */
static int
fight(struct referee *r, const char *game, const char *eml, const char *was,
    const char *script, int *steps, int *mails, struct err *e)
{
	struct turn_result tr;
	int guard;

	*steps = *mails = 0;
	for (guard = 0; guard < 1000; guard++) {
		struct referee_game g;
		struct battle *b = NULL;
		char sides[BATTLE_MAX_SIDES][BATTLE_ID_MAX];
		char *raw;
		size_t len = 0;
		int turn, k, ps, s, ns;

		if (referee_game_load(r, game, &g, &b, e) != 0)
			return -1;
		turn = battle_step_turn(b, g.step);
		ps = battle_step_side(b, g.step);
		/* the phasing side's mail; every side's in the deployment */
		for (s = ns = 0; s < b->nsides; s++)
			if (ps < 0 || s == ps)
				snprintf(sides[ns++], sizeof(sides[0]), "%s",
				    b->sides[s].id);
		battle_free(b);
		for (s = 0; s < ns; s++) {
			const char *side = sides[s];

			err_clear(e);
			raw = phase_mail(game, eml, was, script, turn, side, &len, e);
			if (raw == NULL && e->kind != ERR_NONE)
				return -1;
			if (raw != NULL) {
				char what[320];

				snprintf(what, sizeof(what), "battle %s, turn %d, %s",
				    game, turn, side);
				k = submit_all(r, raw, len, what, e);
				free(raw);
				if (k != 0)
					return -1;
				(*mails)++;
			}
		}
		if (referee_turn(r, game, NULL, 0, &tr, e) != 0)
			return -1;
		(*steps)++;
		if (tr.finished)
			return 0;
	}
	return err_set(e, ERR_INTERNAL, "battle %s never ended", game);
}

/* Plays the campaign's next turn (or ends it): what it said, malloc'd, or
 * NULL with e set. */
static char *
turn_said(struct referee *r, struct err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int k;

	if (mem == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		return NULL;
	}
	k = referee_campaign_turn(r, "south", mem, e);
	fclose(mem);
	if (k != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The names of the battles a turn's output opened ("battle NAME opened
 * at PLACE"), one a line, into names. */
static void
opened(const char *out, char *names, size_t size)
{
	const char *p = out;

	names[0] = '\0';
	while ((p = strstr(p, "battle ")) != NULL) {
		const char *end = strstr(p, " opened at ");
		const char *nl = strchr(p, '\n');

		if (end != NULL && (nl == NULL || end < nl))
			snprintf(names + strlen(names), size - strlen(names), "%.*s\n",
			    (int)(end - p - 7), p + 7);
		p += 7;
	}
}

int
cmd_demo_campaign(int argc, char **argv)
{
	char camp[4096], root[4200], dir_s[4300], path[4700], dbfile[4400];
	const char *dir = "./demo-campaign";
	unsigned char seed[32];
	struct referee *r = NULL;
	struct err e;
	int rc = EXIT_FAILURE, turn, battles = 0, orders = 0, over = 0;
	char *slash;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch demo --campaign [DIR]\n\n"
	    "Plays the southern campaign of January to March 1781 to its end\n"
	    "without a mail server: a fresh database DIR/campaign.db, the two\n"
	    "players, the scripted orders in campaign/southern-1781/orders, every\n"
	    "turn marched and every battle fought as a game (its units hold\n"
	    "where no orders are scripted for it), then the campaign's archive\n"
	    "DIR/southern.jsonl written and verified. The seed, the clock and the\n"
	    "secrets are fixed, so every run writes the same archive. DIR\n"
	    "defaults to ./demo-campaign.\n"))
		return 0;
	if (argc > 2)
		return cli_usage_error("demo", "too many arguments");
	if (argc == 2)
		dir = argv[1];
	if (cli_find_campaign(camp, sizeof(camp)) != 0) {
		fprintf(stderr, "despatch: cannot find the campaign folder (set "
		    "DESPATCH_CAMPAIGN_DIR to it)\n");
		return EXIT_FAILURE;
	}
	snprintf(root, sizeof(root), "%s", camp);
	slash = strrchr(root, '/');
	if (slash != NULL)
		*slash = '\0';
	snprintf(dir_s, sizeof(dir_s), "%s/southern-1781", root);
	if (referee_mkdir_p(dir, 0700) != 0) {
		fprintf(stderr, "despatch: cannot make %s: %s\n", dir,
		    strerror(errno));
		return EXIT_FAILURE;
	}
	snprintf(dbfile, sizeof(dbfile), "%s/campaign.db", dir);
	cli_demo_fresh_db(dbfile);
	{
		struct referee_opts o = *cli_referee_opts();

		o.from = "despatch <despatch@referee.example.org>";
		o.domain = "referee.example.org";
		o.fixed_now = DEMO_CAMPAIGN_CLOCK;
		o.key_demo = 1;
		if (referee_open(dbfile, 1, &o, &r, &e) != 0)
			return cli_fail(&e);
	}
	ledger_unhex(DEMO_CAMPAIGN_SEED_HEX, seed, 32);
	snprintf(path, sizeof(path), "%s/southern.campaign", dir_s);
	if (referee_campaign_new(r, "south", path, 0, seed, &e) != 0)
		goto out;
	{
		char secret[REFEREE_SECRET_MAX];
		int k;

		for (k = 0; k < 2; k++)
			if (referee_campaign_player_add(r, "south",
			    demo_players[k].side, demo_players[k].email, NULL,
			    demo_players[k].secret, secret, &e) != 0)
				goto out;
		if (referee_campaign_start(r, "south", &e) != 0)
			goto out;
	}
	printf("despatch demo --campaign: The Southern Campaign, January to "
	    "March 1781\n");
	printf("  database:  %s\n  campaign:  %s\n", dbfile, path);
	printf("  seed:      %s (fixed for the demo)\n\n", DEMO_CAMPAIGN_SEED_HEX);
	for (turn = 1; turn <= 200 && !over; turn++) {
		static const char *const sides[] = { "crown", "continental" };
		char *buf = NULL, names[2048];
		int s, k;

		for (s = 0; s < 2; s++) {
			char *text = NULL;
			size_t tl = 0;
			struct stat sb;
			struct text t;

			snprintf(path, sizeof(path), "%s/orders/turn-%02d-%s.txt", dir_s,
			    turn, sides[s]);
			if (stat(path, &sb) != 0)
				continue;
			if (scenario_read_file(path, SUBMIT_MAX, &text, &tl, &e) != 0)
				goto out;
			/* Mailed as the side's player would, and answered. */
			text_init(&t, SUBMIT_MAX);
			(void)plain_mail(&t, "CAMPAIGN", "south", sides[s], turn, text);
			free(text);
			if (t.over || t.s == NULL) {
				text_free(&t);
				err_set(&e, ERR_DATA, "%s: too large for a mail", path);
				goto out;
			}
			k = submit_all(r, t.s, t.len, path, &e);
			text_free(&t);
			if (k != 0)
				goto out;
			orders++;
			printf("  turn %2d %-12s orders mailed from %s\n", turn,
			    sides[s], strrchr(path, '/') + 1);
		}
		if ((buf = turn_said(r, &e)) == NULL)
			goto out;
		opened(buf, names, sizeof(names));
		if (names[0] != '\0') {
			const char *p = names;

			fputs(buf, stdout);
			while (*p) {
				const char *nl = strchr(p, '\n');
				char g[128];
				int steps = 0;

				snprintf(g, sizeof(g), "%.*s", (int)(nl - p), p);
				p = nl + 1;
				int mails = 0;
				char mdir[4300], script[4500], slug[128];
				struct referee_game rg;
				struct battle *bb = NULL;
				const char *eml = NULL;
				size_t q, w = 0;

				/* The campaign's Cowpens is the demo battle's: its
				 * order mails fight it.  Elsewhere the scripts in
				 * orders/ named for the place (the title up to its
				 * comma, lower case, a dash for each other run):
				 * guilford-courthouse-t01-crown.txt. */
				if (referee_game_load(r, g, &rg, &bb, &e) != 0) {
					free(buf);
					goto out;
				}
				for (q = 0; bb->title[q] && bb->title[q] != ',' &&
				    w + 2 < sizeof(slug); q++) {
					unsigned char ch = (unsigned char)bb->title[q];

					if ((ch >= 'a' && ch <= 'z') || (ch >= '0' &&
					    ch <= '9'))
						slug[w++] = (char)ch;
					else if (ch >= 'A' && ch <= 'Z')
						slug[w++] = (char)(ch - 'A' + 'a');
					else if (w > 0 && slug[w - 1] != '-')
						slug[w++] = '-';
				}
				slug[w] = '\0';
				battle_free(bb);
				snprintf(script, sizeof(script), "%s/orders/%s", dir_s,
				    slug);
				if (strcmp(slug, "cowpens") == 0) {
					snprintf(mdir, sizeof(mdir), "%s/orders", camp);
					eml = mdir;
				}
				if (fight(r, g, eml, "cowpens", script, &steps, &mails,
				    &e) != 0 || referee_game_load(r, g, &rg, &bb,
				    &e) != 0) {
					free(buf);
					goto out;
				}
				k = cli_demo_maps(dir, g, bb, "end",
				    "The field at the end of the battle", &e);
				battle_free(bb);
				if (k != 0) {
					free(buf);
					goto out;
				}
				battles++;
				if (eml != NULL)
					printf("  battle %s fought: %d phases, %d order mails "
					    "(the Cowpens demo's, campaign/cowpens-1781/"
					    "orders)\n", g, steps, mails);
				else if (mails > 0)
					printf("  battle %s fought: %d phases, %d order mail%s "
					    "(orders/%s-tNN-SIDE.txt)\n", g, steps, mails,
					    mails == 1 ? "" : "s", slug);
				else
					printf("  battle %s fought: %d phases, no orders: its "
					    "units held\n", g, steps);
			}
			free(buf);
			if ((buf = turn_said(r, &e)) == NULL)
				goto out;
			fputs(buf, stdout);
		}
		over = strstr(buf, "the campaign is over") != NULL;
		if (over && names[0] == '\0')
			fputs(strstr(buf, "the campaign is over"), stdout);
		free(buf);
	}
	/* The archive, written and then checked from scratch. */
	{
		char apath[4500];
		struct cverify_result *cr = calloc(1, sizeof(*cr));
		FILE *af;
		int vrc;

		snprintf(apath, sizeof(apath), "%s/southern.jsonl", dir);
		af = cli_fopen_public(apath);
		if (cr == NULL || af == NULL) {
			free(cr);
			if (af != NULL)
				fclose(af);
			err_set(&e, ERR_TEMP, "cannot write %s", apath);
			goto out;
		}
		vrc = referee_campaign_export(r, "south", af, &e);
		if (fclose(af) != 0 && vrc == 0)
			vrc = err_set(&e, ERR_TEMP, "cannot write %s", apath);
		if (vrc != 0) {
			free(cr);
			goto out;
		}
		af = fopen(apath, "r");
		vrc = af != NULL ? ledger_campaign_verify(af, cr) : -1;
		if (af != NULL)
			fclose(af);
		printf("\nThe archive:     %s\n", apath);
		if (vrc == 0)
			printf("Verified:        %d turns played again from the orders "
			    "and the seeds, %d battles\n                 verified and "
			    "carried back (signed with the demo's published key)\n",
			    cr->turns, cr->battles);
		else
			printf("NOT VERIFIED:    line %d, record %d, %s: %s\n",
			    cr->line, cr->seq, cr->field, cr->msg);
		free(cr);
		if (vrc != 0) {
			err_set(&e, ERR_INTERNAL, "the demo's own archive did not "
			    "verify");
			goto out;
		}
	}
	{
		/* The server's mail (answers, daily reports, the battles'
		 * welcomes, answers and reports), written out
		 * as the Cowpens demo writes its own; then what the database
		 * kept of it is given back, as a server does. */
		struct vacuum_result vr;
		char maildir[4400];
		int written = 0;

		snprintf(maildir, sizeof(maildir), "%s/mail", dir);
		if (referee_mkdir_p(maildir, 0755) != 0) {
			err_set(&e, ERR_USER, "cannot make %s: %s", maildir,
			    strerror(errno));
			goto out;
		}
		/* An earlier run's: the battles' (south-...) and the
		 * answers and reports, which are no game's (despatch-...). */
		(void)cli_demo_clean_mail(maildir, (const char *const[]){
		    "south-", "despatch-", NULL });
		if (cli_outbox_write(r, maildir, 1, &written, &e) != 0 ||
		    referee_vacuum(r, &vr, &e) != 0)
			goto out;
		printf("\n%d mails the server sent, in %s/ (the answers, the "
		    "daily campaign\nreports, despatch-*-report-*.eml, and each "
		    "battle's mail, south-tN-N-*.eml)\n", written, maildir);
		printf("Maps of each battle at its end: %s/maps/\n", dir);
	}
	printf("\n%d order files given, %d battles fought\n", orders, battles);
	printf("See the campaign: despatch --db %s campaign state south\n",
	    dbfile);
	printf("See its chain:    despatch --db %s campaign show south\n", dbfile);
	printf("Check it again:   despatch verify %s/southern.jsonl\n", dir);
	rc = 0;
out:
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	return 0;
}
