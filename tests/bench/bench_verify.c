/*
 * bench_verify.c - how fast an archive is verified, beside raw SHA-256
 * over the same bytes.
 *
 * A benchmark run by hand, not a test: it prints figures and says whether
 * the target is met, and exits 0 unless it could not run.
 *
 *   bench_verify [TURNS] [--runs R]
 *
 * It plays the Cowpens scenario for TURNS turns (default 100: 200 steps)
 * in a fresh database in /tmp, with the campaign's order mails for the
 * turns they exist and the units holding after, exports the archive, then
 * times R verifications of it (default 3; the fastest counts) and R
 * passes of SHA-256 over the file's bytes.  Target: the 100-turn archive
 * verifies in under 2 s.
 */
#include <sodium.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/battle.h"
#include "ledger/verify.h"
#include "map/map.h"
#include "referee/referee.h"
#include "referee/internal.h"
#include "scenario/scenario.h"
#include "store/store.h"
#include "bench_util.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif
#define TARGET_S 2.0

static void
die(const char *what, const struct err *e)
{
	fprintf(stderr, "bench_verify: %s: %s\n", what, e != NULL ? e->msg :
	    strerror(errno));
	exit(1);
}

int
main(int argc, char **argv)
{
	const char *camp = DESPATCH_SOURCE_DIR "/campaign/cowpens-1781";
	char dir[] = "/tmp/despatch-bench-verify-XXXXXX", path[512], db[512];
	char archive[512], line[512];
	int turns = 100, runs = 3, i, steps, step;
	struct store *st = NULL;
	struct referee r;
	struct err e;
	FILE *f;
	double best = 1e9, sha_best = 1e9;
	long long bytes = 0;
	struct verify_result *res = calloc(1, sizeof(*res));
	struct battle *b = NULL;
	struct store_game g;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else
			turns = atoi(argv[i]);
	}
	if (turns < 1 || runs < 1 || res == NULL || sodium_init() < 0 ||
	    mkdtemp(dir) == NULL) {
		fprintf(stderr, "usage: bench_verify [TURNS] [--runs R]\n");
		return 1;
	}
	/* The campaign's scenario, with as many turns as asked. */
	if (bench_cowpens(camp, dir, turns, path, sizeof(path)) != 0)
		return 1;
	snprintf(db, sizeof(db), "%s/bench.db", dir);
	if (store_open(db, 1, -1, &st, &e) != 0)
		die("the database", &e);
	referee_init(&r, st);
	r.fixed_now = 1700000000;
	r.key_demo = 1;
	if (referee_new_game(&r, "cowpens", path, 0, NULL, &e) != 0)
		die("new", &e);
	snprintf(path, sizeof(path), "%s/players", camp);
	f = fopen(path, "r");
	if (f == NULL)
		die(path, NULL);
	while (fgets(line, sizeof(line), f) != NULL) {
		char side[64], email[256], pw[128], secret[REFEREE_SECRET_MAX];

		if (line[0] == '#' || sscanf(line, "player %63s %255s %127s", side,
		    email, pw) != 3)
			continue;
		if (referee_player_add(&r, "cowpens", side, email, pw, NULL, secret,
		    &e) != 0)
			die("player add", &e);
	}
	fclose(f);
	if (referee_start(&r, "cowpens", &e) != 0)
		die("start", &e);
	memset(&g, 0, sizeof(g));
	if (store_game_get(st, "cowpens", &g, &e) != 0 ||
	    store_battle_load(st, &g, &b, &e) != 0)
		die("the game", &e);
	steps = battle_steps(b);
	printf("bench_verify: despatch %s, %d turns of Cowpens (%d steps), the "
	    "campaign's orders where there are some, holding after\n",
	    DESPATCH_VERSION, turns, steps);
	for (step = 1; step <= steps; step++) {
		struct turn_result tr;
		struct stat sb;
		char *raw = NULL;
		size_t rl = 0;

		snprintf(path, sizeof(path), "%s/orders/t%02d-%s.eml", camp,
		    battle_step_turn(b, step), b->sides[battle_step_side(b, step)].id);
		if (stat(path, &sb) == 0) {
			struct submit_result sr;

			if (scenario_read_file(path, 1 << 20, &raw, &rl, &e) != 0 ||
			    referee_submit(&r, raw, rl, NULL, &sr, &e) != 0)
				die("submit", &e);
			free(raw);
		}
		if (referee_turn(&r, "cowpens", NULL, 0, &tr, &e) != 0)
			die("turn", &e);
	}
	snprintf(archive, sizeof(archive), "%s/archive.jsonl", dir);
	f = fopen(archive, "w");
	if (f == NULL || referee_export(&r, "cowpens", f, 0, &e) != 0)
		die("export", &e);
	fclose(f);
	for (i = 0; i < runs; i++) {
		struct verify_opts o;
		double t0;
		int rc;

		memset(&o, 0, sizeof(o));
		f = fopen(archive, "r");
		if (f == NULL)
			die(archive, NULL);
		t0 = bench_clock_s(CLOCK_MONOTONIC);
		rc = ledger_verify(f, &o, res);
		t0 = bench_clock_s(CLOCK_MONOTONIC) - t0;
		fclose(f);
		if (rc != 0) {
			fprintf(stderr, "bench_verify: the archive did not verify: line "
			    "%d, %s: %s\n", res->line, res->field, res->msg);
			return 1;
		}
		if (t0 < best)
			best = t0;
	}
	bytes = res->bytes;
	{
		/* The limit beside it: SHA-256 over the same bytes, read the
		 * same way. */
		unsigned char *buf = malloc((size_t)bytes), h[32];

		f = fopen(archive, "r");
		if (buf == NULL || f == NULL ||
		    fread(buf, 1, (size_t)bytes, f) != (size_t)bytes)
			die(archive, NULL);
		fclose(f);
		for (i = 0; i < runs; i++) {
			double t0 = bench_clock_s(CLOCK_MONOTONIC);

			crypto_hash_sha256(h, buf, (unsigned long long)bytes);
			t0 = bench_clock_s(CLOCK_MONOTONIC) - t0;
			if (t0 < sha_best)
				sha_best = t0;
		}
		free(buf);
	}
	printf("  archive %s: %lld bytes, %d steps\n", archive, bytes, res->steps);
	printf("1 verify             %8.3f s   %8.0f steps/s  %8.2f MB/s\n", best,
	    res->steps / best, (double)bytes / best / 1e6);
	printf("2 raw SHA-256        %8.5f s                    %8.2f MB/s\n",
	    sha_best, (double)bytes / sha_best / 1e6);
	printf("3 ratio 1/2 (MB/s)   %8.5f\n", sha_best / best);
	printf("  target: a %d-turn archive verifies in under %.0f s: %s\n", turns,
	    TARGET_S, turns >= 100 ? (best < TARGET_S ? "met" : "NOT met") :
	    "(run with 100 turns or more to judge)");
	{
		/* The map of the field as the battle left it, beside the time
		 * one step takes to play again (verify's time a step). */
		struct map_opts mo;
		double mbest = 1e9;
		char mpath[600];
		struct battle *fin = NULL;
		struct store_game g2;

		memset(&g2, 0, sizeof(g2));
		memset(&mo, 0, sizeof(mo));
		mo.title = "Cowpens";
		if (store_game_get(st, "cowpens", &g2, &e) != 0 ||
		    store_battle_load(st, &g2, &fin, &e) != 0)
			die("the game", &e);
		snprintf(mpath, sizeof(mpath), "%s/map.png", dir);
		for (i = 0; i < runs; i++) {
			double t0 = bench_clock_s(CLOCK_MONOTONIC);

			if (map_write(fin, &mo, mpath, &e) != 0)
				die("the map", &e);
			t0 = bench_clock_s(CLOCK_MONOTONIC) - t0;
			if (t0 < mbest)
				mbest = t0;
		}
		printf("4 map (PNG, %d px)   %8.1f ms\n", MAP_WIDTH_PX, mbest * 1e3);
		printf("5 a step played again %7.1f ms (verify's time a step)\n",
		    best / res->steps * 1e3);
		printf("  target: a Cowpens map in under 50 ms: %s\n", mbest < 0.050 ?
		    "met" : "NOT met");
		battle_free(fin);
		store_game_clear(&g2);
	}
	battle_free(b);
	store_game_clear(&g);
	referee_fini(&r);
	store_close(st);
	free(res);
	snprintf(line, sizeof(line), "rm -rf '%s'", dir);
	if (system(line) != 0)
		fprintf(stderr, "bench_verify: could not remove %s\n", dir);
	return 0;
}
