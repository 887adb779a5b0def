/*
 * demo.c - despatch demo: the Battle of Cowpens played from the campaign's
 * order mails into a fresh database, every mail written out, and the
 * game's archive written and verified.  Its inputs are fixed (the seed,
 * the clock, the secrets, the ledger's published demo key), so every run
 * and every build writes the same bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/cli.h"
#include "core/battle.h"
#include "ledger/ledger.h"
#include "ledger/verify.h"
#include "map/map.h"
#include "referee/referee.h"
#include "report/report.h"
#include "scenario/scenario.h"

#ifndef DESPATCH_INSTALL_CAMPAIGN
#define DESPATCH_INSTALL_CAMPAIGN "/usr/share/despatch/campaign"
#endif

/* The demo's documented, fixed inputs: every run plays the same battle. */
#define DEMO_SEED_HEX "c0a1e5ce17a9e1781c0a1e5ce17a9e1781c0a1e5ce17a9e1781c0a1e5ce17a9e"
#define DEMO_CLOCK 1768633200  /* 2026-01-17 07:00:00 UTC */

/* --- demo -------------------------------------------------------------- */

/* Whether DIR holds the Cowpens campaign; if so its folder goes in OUT,
 * without the "bin/.." that finding it beside the program puts in. */
static int
campaign_in(const char *dir, char *out, size_t size)
{
	struct stat sb;
	char *real;
	int n;

	n = snprintf(out, size, "%s/cowpens-1781/cowpens.scenario", dir);
	if (n < 0 || (size_t)n >= size || stat(out, &sb) != 0)
		return -1;
	snprintf(out, size, "%s/cowpens-1781", dir);
	real = realpath(out, NULL);
	if (real != NULL && strlen(real) < size)
		memcpy(out, real, strlen(real) + 1);
	free(real);
	return 0;
}

/*
 * The campaign folder, looked for in this order: $DESPATCH_CAMPAIGN_DIR;
 * beside the program, as an install lays it out (BIN/../share/despatch/
 * campaign) or as a build folder at the top of a checkout sees it
 * (build/despatch, so BIN/../campaign); then the configured install's
 * data folder.  No path of the machine that built it: a package built
 * anywhere finds its data where it is installed.
 */
int
cli_find_campaign(char *out, size_t size)
{
	const char *env = getenv("DESPATCH_CAMPAIGN_DIR");
	char exe[4096], dir[4200];
	char *slash;
	ssize_t n;

	if (env && *env)
		return campaign_in(env, out, size);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%s/../share/despatch/campaign", exe);
			if (campaign_in(dir, out, size) == 0)
				return 0;
			snprintf(dir, sizeof(dir), "%s/../campaign", exe);
			if (campaign_in(dir, out, size) == 0)
				return 0;
		}
	}
	return campaign_in(DESPATCH_INSTALL_CAMPAIGN, out, size);
}

/* Is name one of the outbox's files (PREFIX...-NNNNNN-kind-who-hash.eml)
 * for one of the prefixes? */
static int
demo_mail_file(const char *name, const char *const *prefixes)
{
	size_t n = strlen(name), k;
	const char *p;

	if (n < 5 || strcmp(name + n - 4, ".eml") != 0)
		return 0;
	for (k = 0; prefixes[k] != NULL; k++)
		if (strncmp(name, prefixes[k], strlen(prefixes[k])) == 0)
			break;
	if (prefixes[k] == NULL)
		return 0;
	for (p = name; (p = strchr(p, '-')) != NULL; p++)
		if (strspn(p + 1, "0123456789") == 6 && p[7] == '-')
			return 1;
	return 0;
}

int
cli_demo_clean_mail(const char *dir, const char *const *prefixes)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4600];

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (demo_mail_file(de->d_name, prefixes)) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
	return 0;
}

void
cli_demo_fresh_db(const char *dbfile)
{
	static const char *const ext[] = { "", "-wal", "-shm", ".key.secrets" };
	char path[4600];
	size_t i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dbfile, ext[i]);
		unlink(path);
	}
}

int
cli_demo_maps(const char *dir, const char *game, const struct battle *b,
    const char *when, const char *subtitle, struct err *e)
{
	char path[4200], title[300];
	struct map_opts o;

	snprintf(path, sizeof(path), "%s/maps", dir);
	if (referee_mkdir_p(path, 0755) != 0)
		return err_set(e, ERR_USER, "cannot make %s: %s", path,
		    strerror(errno));
	snprintf(title, sizeof(title), "%s (game %s)", b->title, game);
	memset(&o, 0, sizeof(o));
	o.title = title;
	o.subtitle = subtitle;
	snprintf(path, sizeof(path), "%s/maps/%s-%s.png", dir, game, when);
	if (map_write(b, &o, path, e) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/maps/%s-%s.svg", dir, game, when);
	return map_write(b, &o, path, e);
}

int
cmd_demo(int argc, char **argv)
{
	char camp[4096], path[4600], dbfile[4200], maildir[4200];
	const char *dir = "./demo-out";
	unsigned char seed[32];
	struct referee *r = NULL;
	struct err e;
	struct referee_game g;
	struct battle *b = NULL;
	FILE *pf = NULL;
	char line[512];
	int step, steps, written = 0, rc = EXIT_FAILURE;
	int submitted = 0;

	if (argc >= 2 && strcmp(argv[1], "--campaign") == 0)
		return cmd_demo_campaign(argc - 1, argv + 1);
	err_clear(&e);
	memset(&g, 0, sizeof(g));
	if (cli_help(argc, argv, "usage: despatch demo [DIR]\n"
	    "       despatch demo --campaign [DIR]\n\n"
	    "Plays the Battle of Cowpens (17 January 1781) end to end without a\n"
	    "mail server: makes a fresh database DIR/demo.db, adds the two\n"
	    "players, submits the order mails in campaign/cowpens-1781/orders,\n"
	    "adjudicates every phase and writes every mail the server sends\n"
	    "into DIR/mail/. The dice seed, the clock and the players' secrets\n"
	    "are fixed, so every run on any machine writes the same reports.\n"
	    "DIR defaults to ./demo-out.\n"
	    "--campaign: plays the southern campaign of January to March 1781\n"
	    "instead, with its scripted orders, to its end (every battle fought\n"
	    "as a game), and writes and verifies the campaign's archive.\n"
	    "DIR defaults to ./demo-campaign.\n"))
		return 0;
	if (argc > 2)
		return cli_usage_error("demo", "too many arguments");
	if (argc == 2)
		dir = argv[1];
	if (cli_find_campaign(camp, sizeof(camp)) != 0) {
		fprintf(stderr, "despatch: cannot find campaign/cowpens-1781 (set "
		    "DESPATCH_CAMPAIGN_DIR to the campaign folder)\n");
		return EXIT_FAILURE;
	}
	snprintf(maildir, sizeof(maildir), "%s/mail", dir);
	if (referee_mkdir_p(maildir, 0700) != 0) {
		fprintf(stderr, "despatch: cannot make %s: %s\n", maildir,
		    strerror(errno));
		return EXIT_FAILURE;
	}
	/* A fresh database and mail folder each run. */
	snprintf(dbfile, sizeof(dbfile), "%s/demo.db", dir);
	cli_demo_fresh_db(dbfile);
	if (cli_demo_clean_mail(maildir, (const char *const[]){ "cowpens-",
	    NULL }) != 0) {
		fprintf(stderr, "despatch: cannot clear %s: %s\n", maildir,
		    strerror(errno));
		return EXIT_FAILURE;
	}
	{
		struct referee_opts o = *cli_referee_opts();

		o.from = "despatch <despatch@referee.example.org>";
		o.domain = "referee.example.org";
		o.fixed_now = DEMO_CLOCK;
		o.key_demo = 1;  /* the published key: the same bytes every run */
		if (referee_open(dbfile, 1, &o, &r, &e) != 0)
			return cli_fail(&e);
	}
	ledger_unhex(DEMO_SEED_HEX, seed, 32);
	snprintf(path, sizeof(path), "%s/cowpens.scenario", camp);
	if (referee_new_game(r, "cowpens", path, 0, seed, &e) != 0)
		goto out;
	snprintf(path, sizeof(path), "%s/players", camp);
	pf = fopen(path, "r");
	if (pf == NULL) {
		err_set(&e, ERR_USER, "%s: %s", path, strerror(errno));
		goto out;
	}
	while (fgets(line, sizeof(line), pf) != NULL) {
		char side[64], email[256], pw[REFEREE_SECRET_MAX], secret[REFEREE_SECRET_MAX];

		if (line[0] == '#' || sscanf(line, "player %63s %255s %127s", side,
		    email, pw) != 3)
			continue;
		if (referee_player_add(r, "cowpens", side, email, pw, NULL, secret, &e) != 0)
			goto out;
	}
	fclose(pf);
	pf = NULL;
	if (referee_start(r, "cowpens", &e) != 0)
		goto out;
	if (referee_game_load(r, "cowpens", &g, &b, &e) != 0)
		goto out;
	if (cli_demo_maps(dir, "cowpens", b, "start", "The field at the start", &e) != 0)
		goto out;
	steps = battle_steps(b);
	printf("despatch demo: %s\n", b->title);
	printf("  database:  %s\n  scenario:  %s/cowpens.scenario\n", dbfile, camp);
	printf("  dice seed: %s (fixed for the demo)\n\n", DEMO_SEED_HEX);
	for (step = 1; step <= steps; step++) {
		int turn = battle_step_turn(b, step), side = battle_step_side(b, step);
		struct turn_result tr;
		char *raw = NULL;
		size_t len = 0;
		struct stat sb;

		snprintf(path, sizeof(path), "%s/orders/t%02d-%s.eml", camp, turn,
		    b->sides[side].id);
		if (stat(path, &sb) == 0) {
			struct submit_result res;

			if (scenario_read_file(path, SUBMIT_MAX, &raw, &len, &e) != 0)
				goto out;
			if (referee_submit(r, raw, len, NULL, &res, &e) != 0) {
				free(raw);
				goto out;
			}
			free(raw);
			submitted++;
			printf("  turn %d %-12s orders from %s: %s\n", turn,
			    b->sides[side].id, strrchr(path, '/') + 1, res.note);
		} else {
			printf("  turn %d %-12s no orders: its units hold\n", turn,
			    b->sides[side].id);
		}
		if (referee_turn(r, "cowpens", NULL, 0, &tr, &e) != 0)
			goto out;
		printf("  turn %d %-12s adjudicated: %d event%s, %d %s\n", turn,
		    b->sides[side].id, tr.events, tr.events == 1 ? "" : "s",
		    tr.rolls, tr.rolls == 1 ? "die" : "dice");
		if (tr.finished)
			break;
	}
	battle_free(b);
	b = NULL;
	if (referee_game_load(r, "cowpens", &g, &b, &e) != 0)
		goto out;
	if (cli_outbox_write(r, maildir, 1, &written, &e) != 0 ||
	    cli_demo_maps(dir, "cowpens", b, "end",
	    "The field at the end of the battle", &e) != 0)
		goto out;
	{
		/* The mail is delivered (written out): what the database kept
		 * of it is given back, as a server does when a battle ends. */
		struct vacuum_result vr;

		if (referee_vacuum(r, &vr, &e) != 0)
			goto out;
	}
	printf("\nThe battle after %d turns:\n", battle_step_turn(b,
	    step > steps ? steps : step));
	{
		struct text t;

		text_init(&t, 64 * 1024);
		report_totals(&t, b);
		report_standing(&t, b, step > steps ? steps : step);
		fputs(t.s ? t.s : "", stdout);
		text_free(&t);
	}
	/* The archive, written and then checked from scratch. */
	{
		char apath[4200];
		struct verify_opts vo;
		struct verify_result *vr = calloc(1, sizeof(*vr));
		FILE *af;
		int vrc;

		snprintf(apath, sizeof(apath), "%s/archive.jsonl", dir);
		af = cli_fopen_public(apath);
		if (vr == NULL || af == NULL) {
			free(vr);
			if (af != NULL)
				fclose(af);
			err_set(&e, ERR_TEMP, "cannot write %s", apath);
			goto out;
		}
		vrc = referee_export(r, "cowpens", af, 0, &e);
		if (fclose(af) != 0 && vrc == 0)
			vrc = err_set(&e, ERR_TEMP, "cannot write %s", apath);
		if (vrc != 0) {
			free(vr);
			goto out;
		}
		af = fopen(apath, "r");
		memset(&vo, 0, sizeof(vo));
		vrc = af != NULL ? ledger_verify(af, &vo, vr) : -1;
		if (af != NULL)
			fclose(af);
		printf("\nThe archive:     %s\n", apath);
		if (vrc == 0)
			printf("Verified:        %d steps played again from the scenario "
			    "and the orders, every\n                 roll and result "
			    "as recorded (signed with the demo's published key)\n",
			    vr->steps);
		else
			printf("NOT VERIFIED:    line %d, %s: %s\n", vr->line,
			    vr->field, vr->msg);
		free(vr);
		if (vrc != 0) {
			err_set(&e, ERR_INTERNAL, "the demo's own archive did not verify");
			goto out;
		}
	}
	printf("\n%d order mails submitted; %d mails written to %s/\n", submitted,
	    written, maildir);
	printf("Read a report:   ls %s/ (the *-report-*.eml files)\n", maildir);
	printf("See the state:   despatch --db %s state cowpens --json\n", dbfile);
	printf("See every roll:  despatch --db %s events cowpens --json\n", dbfile);
	printf("Check it again:  despatch verify %s/archive.jsonl\n", dir);
	printf("See the field:   %s/maps/ (the start and the end, PNG and SVG)\n",
	    dir);
	rc = 0;
out:
	if (pf != NULL)
		fclose(pf);
	battle_free(b);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	return 0;
}
