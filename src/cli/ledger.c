/*
 * ledger.c - the ledger from the command line: the server's signing key
 * (key show), a game's chain of records as stored (ledger GAME), its
 * archive written (export) and checked from scratch (verify).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ledger/cverify.h"
#include "ledger/ledger.h"
#include "ledger/verify.h"
#include "referee/referee.h"
#include "report/json.h"

int
cmd_key(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	unsigned char pk[32];
	char path[4200], hex[65];
	int rc;

	err_clear(&e);
	if ((rc = cli_help_or_usage(argc, argv, argc != 2 ||
	    strcmp(argv[1], "show") != 0,
	    "usage: despatch key show\n\n"
	    "Prints the public half of the key that signs every game's ledger, "
	    "and the\nfile it is in (the database's name with .key, or the "
	    "configuration's key),\nmaking it if there is none yet. Publish the "
	    "public key: players check the\nsignatures on their reports and "
	    "archives against it.\n")) >= 0)
		return rc;
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_key(r, pk, path, sizeof(path), &e);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	ledger_hex(pk, 32, hex);
	printf("public key %s\nkey file   %s\n", hex, path);
	return 0;
}

int
cmd_ledger(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	const char *game = NULL;
	int rc, i, as_json = 0;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch ledger GAME [--json]\n\n"
	    "Lists the game's ledger: its genesis record and one record for "
	    "each step\nplayed, each with its head, and checks the chain as "
	    "stored: every head the\nhash of its record and signed by the key "
	    "the genesis names, each record\nlinked to the one before, each "
	    "revealed seed hashing down to the committed\nS_0, each orders "
	    "root and dice seed made of what it should be. Exits 0 if\nall "
	    "holds, else 1 naming the first record and field that fails.\n"
	    "With --json, one object (docs/json.md): the records, and whether "
	    "the chain\nholds, with the failure if not; the exit status is "
	    "the same.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			as_json = 1;
		else if (argv[i][0] == '-' && argv[i][1] != '\0')
			return cli_unknown_option("ledger", argv[i]);
		else if (game == NULL)
			game = argv[i];
		else
			return cli_usage_error("ledger", "takes one game");
	}
	if (game == NULL)
		return cli_usage_error("ledger", "takes one game");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_ledger_print(r, game, stdout, as_json, &e);
	referee_free(r);
	return rc < 0 ? cli_fail(&e) : rc == 0 ? 0 : EXIT_FAILURE;
}

int
cmd_export(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	const char *game = NULL, *file = NULL;
	int with_addresses = 0, i, rc;
	char tmp[4200];
	FILE *out;

	err_clear(&e);
	if (cli_help(argc, argv,
	    "usage: despatch export GAME FILE [--with-addresses]\n\n"
	    "Writes the game's archive to FILE (despatch-archive(5)): the "
	    "scenario, every\nledger record with what it hashes (each "
	    "order set with its salt, each\nstep's events and the state "
	    "after it), so that anyone can check the battle\nwith 'despatch "
	    "verify' without the database. The battle is played again\n"
	    "first: an archive that would not verify is not written.\n"
	    "Players' addresses are left out (the records hold "
	    "only their hashes)\nunless --with-addresses. In a fog game the "
	    "archive reveals\nevery seed and order: give it to the players "
	    "when the battle is over.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--with-addresses") == 0)
			with_addresses = 1;
		else if (argv[i][0] == '-' && argv[i][1] != '\0')
			return cli_unknown_option("export", argv[i]);
		else if (game == NULL)
			game = argv[i];
		else if (file == NULL)
			file = argv[i];
		else
			return cli_usage_error("export", "takes a game and a file");
	}
	if (game == NULL || file == NULL)
		return cli_usage_error("export", "takes a game and a file");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	/* Written beside, then renamed: a failed export leaves no half
	 * archive under the name. */
	snprintf(tmp, sizeof(tmp), "%s.part", file);
	out = strcmp(file, "-") == 0 ? stdout : cli_fopen_public(tmp);
	if (out == NULL) {
		err_set(&e, ERR_USER, "cannot write %s: %s", tmp, strerror(errno));
		referee_free(r);
		return cli_fail(&e);
	}
	{
		/* A campaign's name: the archive of the whole campaign, every
		 * battle included (docs/campaign.md, Archive). */
		int is_campaign = 0;
		char *names = referee_campaign_names(r);

		if (names != NULL) {
			const char *p = names;
			size_t gl = strlen(game);

			while (*p) {
				const char *nl = strchr(p, '\n');
				size_t l = nl ? (size_t)(nl - p) : strlen(p);

				if (l == gl && strncasecmp(p, game, l) == 0)
					is_campaign = 1;
				p += l + (nl ? 1 : 0);
			}
			free(names);
		}
		rc = is_campaign ? referee_campaign_export(r, game, out, &e) :
		    referee_export(r, game, out, with_addresses, &e);
	}
	referee_free(r);
	if (out != stdout) {
		if (fclose(out) != 0 && rc == 0)
			rc = err_set(&e, ERR_TEMP, "cannot write %s: %s", tmp,
			    strerror(errno));
		if (rc == 0 && rename(tmp, file) != 0)
			rc = err_set(&e, ERR_TEMP, "cannot rename %s: %s", tmp,
			    strerror(errno));
		if (rc != 0)
			unlink(tmp);
	}
	if (rc != 0)
		return cli_fail(&e);
	return 0;
}

/* A campaign's archive checked: every record, every battle. */
static int
verify_campaign(const char *file, FILE *in, int as_json)
{
	struct cverify_result *cr = calloc(1, sizeof(*cr));
	char hex[65];
	int rc;

	if (cr == NULL) {
		fprintf(stderr, "despatch: out of memory\n");
		return EXIT_FAILURE;
	}
	rc = ledger_campaign_verify(in, cr);
	if (as_json) {
		struct jw j;

		jw_init(&j, stdout);
		jw_obj(&j, NULL);
		jw_bool(&j, "ok", rc == 0);
		jw_str(&j, "archive", file);
		jw_str(&j, "campaign", cr->campaign[0] ? cr->campaign : NULL);
		jw_int(&j, "records", cr->records);
		jw_int(&j, "turns", cr->turns);
		jw_int(&j, "battles", cr->battles);
		if (cr->engine > 0)
			jw_int(&j, "engine", cr->engine);
		jw_bool(&j, "over", cr->over);
		jw_str(&j, "winner", cr->winner_id[0] ? cr->winner_id : NULL);
		if (rc == 0) {
			ledger_hex(cr->head, 32, hex);
			jw_str(&j, "head", hex);
		}
		if (rc != 0) {
			jw_int(&j, "line", cr->line);
			jw_int(&j, "record", cr->seq);
			jw_str(&j, "field", cr->field);
			jw_str(&j, "error", cr->msg);
		}
		jw_end_obj(&j);
		printf("\n");
		free(cr);
		return rc != 0 ? EXIT_FAILURE : 0;
	}
	if (rc != 0) {
		printf("FAILED: line %d, record %d, %s: %s\n", cr->line, cr->seq,
		    cr->field, cr->msg);
		free(cr);
		return EXIT_FAILURE;
	}
	ledger_hex(cr->head, 32, hex);
	printf("archive of campaign %s: %d record%s, %d turn%s played again, "
	    "%d battle%s verified and carried back; %s\n", cr->campaign,
	    cr->records + 1, cr->records ? "s" : "", cr->turns,
	    cr->turns == 1 ? "" : "s", cr->battles, cr->battles == 1 ? "" : "s",
	    cr->over ? (cr->winner_id[0] ? "the campaign is over" :
	    "the campaign is over, a draw") : "the campaign goes on");
	if (cr->winner_id[0])
		printf("won by %s\n", cr->winner_id);
	printf("played by campaign engine %d\n", cr->engine);
	printf("head %s\n", hex);
	ledger_hex(cr->pk, 32, hex);
	printf("signed by key %s\n", hex);
	free(cr);
	return 0;
}

/* verify --json: what the text says, as one object (docs/json.md). */
static void
verify_json(const char *file, int ok, const struct verify_result *res)
{
	struct jw j;
	char hex[65];

	jw_init(&j, stdout);
	jw_obj(&j, NULL);
	jw_bool(&j, "ok", ok);
	jw_str(&j, "archive", file);
	jw_str(&j, "game", res->game[0] ? res->game : NULL);
	jw_str(&j, "ruleset", res->ruleset[0] ? res->ruleset : NULL);
	if (res->have_head) {
		ledger_hex(res->head, 32, hex);
		jw_str(&j, "head", hex);
		ledger_hex(res->pk, 32, hex);
		jw_str(&j, "key", hex);
		jw_bool(&j, "demo_key", res->demo_key);
	} else {
		jw_null(&j, "head");
		jw_null(&j, "key");
	}
	if (ok) {
		jw_int(&j, "engine", res->engine_now);
		jw_int(&j, "steps_checked", res->steps);
		jw_int(&j, "chain_steps", res->chain);
		jw_bool(&j, "finished", res->finished);
		jw_bool(&j, "conceded", res->conceded);
		jw_bool(&j, "drawn", res->drawn);
		jw_int(&j, "acts", res->acts);
		jw_int(&j, "upgrades", res->upgrades);
		jw_bool(&j, "sandbox", res->sandbox);
		jw_int(&j, "scripted_steps", res->scripted);
		if (res->head_step >= 0)
			jw_int(&j, "head_kept_step", res->head_step);
		else
			jw_null(&j, "head_kept_step");
		if (res->unplayed > 0) {
			jw_obj(&j, "not_replayed");
			jw_int(&j, "steps", res->unplayed);
			jw_int(&j, "from_step", res->unplayed_from);
			jw_int(&j, "engine", res->unplayed_engine);
			jw_str(&j, "build", res->unplayed_build);
			jw_int(&j, "spans", res->unplayed_spans);
			jw_end_obj(&j);
		} else {
			jw_null(&j, "not_replayed");
		}
		jw_null(&j, "error");
	} else {
		jw_obj(&j, "error");
		if (res->line > 0)
			jw_int(&j, "line", res->line);
		else
			jw_null(&j, "line");
		if (res->step > 0)
			jw_int(&j, "step", res->step);
		else
			jw_null(&j, "step");
		jw_str(&j, "field", res->field);
		jw_str(&j, "message", res->msg);
		jw_end_obj(&j);
	}
	jw_end_obj(&j);
	jw_done(&j);
}

static void
progress(int done, int total, void *arg)
{
	(void)arg;
	fprintf(stderr, "\rverifying: step %d of %d", done, total);
	if (done == total)
		fputs("\r\033[K", stderr);
}

int
cmd_verify(int argc, char **argv)
{
	struct verify_opts o;
	struct verify_result *res;
	const char *file = NULL;
	char hex[65];
	FILE *in;
	int i, rc, as_json = 0;

	memset(&o, 0, sizeof(o));
	if (cli_help(argc, argv,
	    "usage: despatch verify ARCHIVE [--head HEX] [--json]\n\n"
	    "Checks a game's archive from scratch, without any database: "
	    "every signature\nand link of its ledger, the seed chain down "
	    "to S_0, each order set against\nits leaf, each root and dice "
	    "seed, and the battle played again from the\nscenario and the "
	    "orders, each step's events and state against its record.\n"
	    "--head checks the archive holds the head a report gave you. "
	    "Prints a\nsummary and exits 0, or names the first line, step "
	    "and field that fails\nand exits 1. With --json the same as one "
	    "object (docs/json.md): ok, the\nhead, the steps checked, and the "
	    "error when it fails. It reads no\nconfiguration and no database.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			as_json = 1;
		} else if (strcmp(argv[i], "--head") == 0) {
			if (++i >= argc)
				return cli_usage_error("verify", "--head needs a head "
				    "(64 hex digits)");
			o.head_hex = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return cli_unknown_option("verify", argv[i]);
		} else if (file == NULL) {
			file = argv[i];
		} else {
			return cli_usage_error("verify", "takes one archive");
		}
	}
	if (file == NULL)
		return cli_usage_error("verify", "takes one archive");
	res = calloc(1, sizeof(*res));
	if (res == NULL) {
		fprintf(stderr, "despatch: out of memory\n");
		return EXIT_FAILURE;
	}
	in = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (in == NULL) {
		snprintf(res->field, sizeof(res->field), "read");
		snprintf(res->msg, sizeof(res->msg), "cannot read %s: %s", file,
		    strerror(errno));
		if (as_json)
			verify_json(file, 0, res);
		else
			fprintf(stderr, "despatch: %s\n", res->msg);
		free(res);
		return EXIT_FAILURE;
	}
	{
		int ch = fgetc(in);

		if (ch != EOF)
			ungetc(ch, in);
		/* A campaign's archive begins with its own key. */
		if (ch == '{') {
			char peek[32] = "";
			long at = ftell(in);

			if (at >= 0 && fread(peek, 1, 29, in) > 0 &&
			    fseek(in, at, SEEK_SET) == 0 &&
			    ledger_is_campaign_archive(peek, strlen(peek))) {
				free(res);
				rc = verify_campaign(file, in, as_json);
				if (in != stdin)
					fclose(in);
				return rc;
			}
		}
	}
	if (isatty(2))
		o.progress = progress;
	rc = ledger_verify(in, &o, res);
	if (in != stdin)
		fclose(in);
	if (as_json) {
		verify_json(file, rc == 0, res);
		free(res);
		return rc != 0 ? EXIT_FAILURE : 0;
	}
	if (rc != 0) {
		if (res->line > 0)
			printf("FAILED: line %d, ", res->line);
		else
			printf("FAILED: ");
		if (res->step > 0)
			printf("step %d, ", res->step);
		printf("%s: %s\n", res->field, res->msg);
		free(res);
		return EXIT_FAILURE;
	}
	ledger_hex(res->pk, 32, hex);
	printf("archive of game %s (%s, rules engine %d): %d step%s of %d, %s\n",
	    res->game, res->ruleset, res->engine_now, res->steps,
	    res->steps == 1 ? "" : "s", res->chain, res->finished ?
	    "the battle is over" : "the battle goes on");
	if (!res->finished)
		printf("note: the battle goes on, so this shows the archive is whole "
		    "as far as it goes;\nonly a head kept from a report (--head) "
		    "shows it was not cut short\n");
	if (res->conceded)
		printf("the battle ended with a side's concession, signed in the "
		    "chain\n");
	if (res->drawn)
		printf("the battle ended drawn, every seat's proposal of a draw "
		    "signed in the chain\n");
	if (res->acts > 0)
		printf("%d act%s of the operator or the players (pauses, "
		    "extensions, replacements, new secrets, draws) signed in the "
		    "chain\n", res->acts,
		    res->acts == 1 ? "" : "s");
	if (res->upgrades > 0)
		printf("%d upgrade%s carried the game to a new rules engine; each "
		    "checkpoint is the state\nthe step before it signed\n",
		    res->upgrades, res->upgrades == 1 ? "" : "s");
	if (res->unplayed == 0)
		printf("every signature, link and seed holds; every order set "
		    "matches its leaf;\nevery step played again gives the events "
		    "and state its record signed\nsigned by %s\n", hex);
	else
		printf("every signature, link and seed holds; every order set "
		    "matches its leaf;\nthe %d other step%s, played again, give%s "
		    "the events and state %s signed\nsigned by %s\n"
		    "NOT REPLAYED: %d step%s (from step %d, rules engine %d%s) "
		    "played by an engine this\nbuild does not replay; their events"
		    "%s are as signed, but to see that\nthe rules gave them, verify "
		    "this archive with %s%s\n",
		    res->steps - res->unplayed, res->steps - res->unplayed == 1 ?
		    "" : "s", res->steps - res->unplayed == 1 ? "s" : "",
		    res->steps - res->unplayed == 1 ? "its record" : "their records",
		    hex, res->unplayed, res->unplayed == 1 ? "" : "s",
		    res->unplayed_from, res->unplayed_engine,
		    res->unplayed_spans > 1 ? ", and others" : "",
		    res->upgrades > 0 ? " and the checkpoint" : "",
		    res->unplayed_build, res->unplayed_spans > 1 ? " (and the "
		    "builds of the other engines named in its records)" : "");
	if (res->demo_key)
		printf("note: signed with the demo's published key, so this shows "
		    "the archive is whole,\nnot who ran the game\n");
	if (res->sandbox)
		printf("note: a sandbox game: %d step%s played with dice the "
		    "operator chose\n", res->scripted, res->scripted == 1 ? " was" :
		    "s were");
	if (res->head_step == 0)
		printf("the head you kept is the genesis record's\n");
	else if (res->head_step > 0)
		printf("the head you kept is step %d's record's, and every record "
		    "to it holds\n", res->head_step);
	free(res);
	return 0;
}
