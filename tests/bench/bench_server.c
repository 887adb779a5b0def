/*
 * bench_server.c - whether the server's cost follows its work: `tick`
 * with many games of which few are due, and `submit` of one mail, each
 * beside what it is compared with.
 *
 * A benchmark run by hand, not a test: it prints figures and says whether
 * each target is met, and exits 0 unless it could not run.
 *
 *   bench_server [--games G] [--due D] [--runs N] [--dir DIR]
 *
 * 1. tick: two databases made through the referee, one of D games (all
 *    due) and one of G games (default 1,000) of which the same D
 *    (default 10) are due: half with their deadline passed, half with a
 *    reminder due; the others running with their deadline two days off.
 *    Each is ticked by the built `despatch tick` as a whole process
 *    (fork/exec, on a fresh copy each run; its CPU time, user + system,
 *    from wait4, and its wall time), and by referee_tick in this process
 *    (CPU time of that call alone).  The figure is the ratio of the
 *    medians, tick(G games, D due) / tick(D games): target under 5x.
 * 2. submit: `despatch submit` of one order mail (a fresh Message-ID each
 *    run) as a whole process, into a database holding one game, beside
 *    the `sqlite3` command line inserting one row into a WAL,
 *    synchronous=FULL database in the same directory (so on the same file
 *    system), also as a whole process: medians of N wall times (default
 *    15), and their ratio: target under 3x.
 *
 * DIR (default a new one in /tmp) is where the databases go; the figures
 * mean most on the file system a server keeps its database on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "referee/referee.h"
#include "referee/internal.h"
#include "store/store.h"

#include "bench_util.h"

#define die(...) bench_die("bench_server", __VA_ARGS__)

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif
#ifndef DESPATCH_BINARY
#define DESPATCH_BINARY "despatch"
#endif
#ifdef NDEBUG
#define BENCH_ASSERTS "off"
#else
#define BENCH_ASSERTS "on (not an optimised build?)"
#endif

#define TARGET_TICK    5.0
#define TARGET_SUBMIT  3.0
#define RUNS_MAX       1000

static char dir[256];
static char keypath[300];

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	size_t n;

	if (in == NULL || out == NULL)
		die("copying %s to %s: %s", from, to, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			die("writing %s: %s", to, strerror(errno));
	fclose(in);
	if (fclose(out) != 0)
		die("writing %s: %s", to, strerror(errno));
}

/* A fresh copy of the database from into to, with no WAL of an earlier
 * run beside it. */
static void
fresh_copy(const char *from, const char *to)
{
	char p[400];

	snprintf(p, sizeof(p), "%s-wal", to);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", to);
	unlink(p);
	copy_file(from, to);
	if (chmod(to, 0600) != 0)
		die("chmod %s: %s", to, strerror(errno));
}

/* Runs argv as a whole process with stdin from the file in (NULL: none)
 * and its output thrown away: its wall time in *wall, its CPU time (user
 * and system) in *cpu; dies unless it exits 0. */
static void
run(char *const argv[], const char *in, double *wall, double *cpu)
{
	struct rusage ru;
	double t0 = bench_clock_s(CLOCK_MONOTONIC);
	int status = 0;
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(in != NULL ? in : "/dev/null", O_RDONLY);
		int out = open("/dev/null", O_WRONLY);

		if (fd < 0 || out < 0)
			_exit(127);
		dup2(fd, 0);
		dup2(out, 1);
		dup2(out, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		die("wait4: %s", strerror(errno));
	*wall = bench_clock_s(CLOCK_MONOTONIC) - t0;
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("%s %s exited %d", argv[0], argv[1], WIFEXITED(status) ?
		    WEXITSTATUS(status) : -1);
}

/* --- the databases ------------------------------------------------------ */

static void
set_deadline(struct referee *r, const char *name, int64_t at)
{
	struct err e;
	int64_t id = 0, step = 0;
	enum game_status gs;

	if (store_begin(r->st, &e) != 0 ||
	    store_game_find(r->st, name, &id, &gs, &step, &e) != 1 ||
	    store_game_set_deadline(r->st, id, at, &e) != 0 ||
	    store_commit(r->st, &e) != 0)
		die("setting the deadline of %s: %s", name, e.msg);
}

/* A database at path of ngames Cowpens games, every one started with a
 * deadline two days off; of them the first ndue are due: the even ones
 * with their deadline passed (played by a tick), the odd ones with it two
 * hours off (the "2h" reminder due). */
static void
make_db(const char *path, const char *scen, int ngames, int ndue)
{
	struct referee_opts o;
	struct referee *r = NULL;
	struct err e;
	char name[64], mail[128], secret[REFEREE_SECRET_MAX];
	int64_t now = (int64_t)time(NULL);
	int i;

	memset(&o, 0, sizeof(o));
	o.key_path = keypath;
	if (referee_open(path, 1, &o, &r, &e) != 0)
		die("making %s: %s", path, e.msg);
	if (referee_setting_set(r, NULL, "deadline", "48h", &e) != 0)
		die("the deadline setting: %s", e.msg);
	/* One transaction for them all (each call's is a savepoint in it),
	 * so that making a thousand games is not a thousand syncs. */
	if (store_begin(r->st, &e) != 0)
		die("making %s: %s", path, e.msg);
	for (i = 0; i < ngames; i++) {
		snprintf(name, sizeof(name), "g%04d", i);
		if (referee_new_game(r, name, scen, 0, NULL, &e) != 0)
			die("game %s: %s", name, e.msg);
		snprintf(mail, sizeof(mail), "crown%d@crown.example.org", i);
		if (referee_player_add(r, name, "crown", mail, NULL, NULL, secret,
		    &e) != 0)
			die("game %s: %s", name, e.msg);
		snprintf(mail, sizeof(mail), "cont%d@continental.example.org", i);
		if (referee_player_add(r, name, "continental", mail, NULL, NULL,
		    secret, &e) != 0 || referee_start(r, name, &e) != 0)
			die("game %s: %s", name, e.msg);
		/* The "2h" reminder falls at the moment just after the start,
		 * so it is due by the time of the tick (one before the phase
		 * opened would be skipped). */
		if (i < ndue)
			set_deadline(r, name, i % 2 == 0 ? now - 60 :
			    (int64_t)time(NULL) + 2 * 3600);
	}
	if (store_commit(r->st, &e) != 0)
		die("making %s: %s", path, e.msg);
	referee_free(r);
}

/* --- tick ---------------------------------------------------------------- */

struct tick_figures {
	double proc_cpu, proc_wall, call_cpu;
	int played, reminders;
};

static void
bench_tick(const char *base, int runs, struct tick_figures *f)
{
	double *pc = calloc((size_t)runs, sizeof(double));
	double *pw = calloc((size_t)runs, sizeof(double));
	double *cc = calloc((size_t)runs, sizeof(double));
	char copy[400];
	char *argv[] = { DESPATCH_BINARY, "--db", copy, "tick", NULL };
	int i;

	if (pc == NULL || pw == NULL || cc == NULL)
		die("out of memory");
	snprintf(copy, sizeof(copy), "%s/tick-run.db", dir);
	for (i = 0; i < runs; i++) {
		fresh_copy(base, copy);
		run(argv, NULL, &pw[i], &pc[i]);
	}
	for (i = 0; i < runs; i++) {
		struct referee_opts o;
		struct referee *r = NULL;
		struct tick_result res;
		struct err e;
		double t0;

		fresh_copy(base, copy);
		memset(&o, 0, sizeof(o));
		o.key_path = keypath;
		if (referee_open(copy, 0, &o, &r, &e) != 0)
			die("opening %s: %s", copy, e.msg);
		t0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
		if (referee_tick(r, &res, &e) != 0)
			die("referee_tick: %s", e.msg);
		cc[i] = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - t0;
		f->played = res.played;
		f->reminders = res.reminders;
		referee_free(r);
	}
	f->proc_cpu = median(pc, runs);
	f->proc_wall = median(pw, runs);
	f->call_cpu = median(cc, runs);
	free(pc);
	free(pw);
	free(cc);
}

/* --- submit -------------------------------------------------------------- */

struct submit_figures {
	double despatch_wall, despatch_cpu, sqlite_wall, sqlite_cpu;
	double text_wall, text_cpu;     /* a player who reads text: no map */
};

/* Writes the i-th order mail of the crown's player to path. */
static void
order_mail(const char *path, int i, const char *secret, const char *line)
{
	FILE *m = fopen(path, "w");

	if (m == NULL)
		die("writing %s: %s", path, strerror(errno));
	fprintf(m, "From: Tarleton <tarleton@crown.example.org>\n"
	    "To: despatch@localhost\nSubject: orders\n"
	    "Message-ID: <bench-%d-%ld@crown.example.org>\n"
	    "Date: Wed, 2 Dec 2026 12:00:00 +0000\n\n"
	    "GAME cowpens SIDE crown TURN 1 PASSWORD %s\n%s\n", i,
	    (long)getpid(), secret, line);
	if (fclose(m) != 0)
		die("writing %s: %s", path, strerror(errno));
}

static void
bench_submit(const char *scen, int runs, struct submit_figures *f)
{
	double *dw = calloc((size_t)runs, sizeof(double));
	double *dc = calloc((size_t)runs, sizeof(double));
	double *sw = calloc((size_t)runs, sizeof(double));
	double *sc = calloc((size_t)runs, sizeof(double));
	char db[400], mail[400], raw[400], secret[REFEREE_SECRET_MAX];
	char other[REFEREE_SECRET_MAX];
	char *argv[] = { DESPATCH_BINARY, "--db", db, "submit", NULL };
	char *sq[] = { "/usr/bin/sqlite3", "-batch", "-init", "/dev/null", raw,
	    "PRAGMA synchronous=FULL; INSERT INTO t (at, body) VALUES "
	    "(strftime('%s','now'), randomblob(2000));", NULL };
	struct referee_opts o;
	struct referee *r = NULL;
	struct err e;
	int i;

	if (dw == NULL || dc == NULL || sw == NULL || sc == NULL)
		die("out of memory");
	snprintf(db, sizeof(db), "%s/submit.db", dir);
	snprintf(mail, sizeof(mail), "%s/orders.eml", dir);
	snprintf(raw, sizeof(raw), "%s/raw-full.db", dir);
	memset(&o, 0, sizeof(o));
	o.key_path = keypath;
	if (referee_open(db, 1, &o, &r, &e) != 0 ||
	    referee_new_game(r, "cowpens", scen, 0, NULL, &e) != 0 ||
	    referee_player_add(r, "cowpens", "crown", "tarleton@crown.example.org",
	    NULL, NULL, secret, &e) != 0 ||
	    referee_player_add(r, "cowpens", "continental",
	    "morgan@continental.example.org", NULL, NULL, other, &e) != 0 ||
	    referee_start(r, "cowpens", &e) != 0 ||
	    referee_setting_set(r, NULL, "rate-limit", "999999", &e) != 0)
		die("the submit database: %s", e.msg);
	referee_free(r);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "/usr/bin/sqlite3 -batch -init /dev/null "
		    "'%s' 'PRAGMA journal_mode=WAL; CREATE TABLE t (id INTEGER "
		    "PRIMARY KEY, at INTEGER, body BLOB);' >/dev/null", raw);
		if (system(cmd) != 0)
			die("the sqlite3 command line is needed (apt install sqlite3)");
	}
	for (i = 0; i < runs * 2; i++) {
		char line[64];

		snprintf(line, sizeof(line), "7th Foot: ADVANCE %d", 1 + i % 6);
		order_mail(mail, i, secret, line);
		/* Alternately, so that neither has the disk to itself. */
		if (i % 2 == 0)
			run(argv, mail, &dw[i / 2], &dc[i / 2]);
		else
			run(sq, NULL, &sw[i / 2], &sc[i / 2]);
	}
	f->despatch_wall = median(dw, runs);
	f->despatch_cpu = median(dc, runs);
	f->sqlite_wall = median(sw, runs);
	f->sqlite_cpu = median(sc, runs);
	/* The same player, reading text (SET MAIL TEXT): the reply has no
	 * map to draw, which shows what the intake itself costs. */
	order_mail(mail, runs * 2, secret, "SET MAIL TEXT");
	run(argv, mail, &dw[0], &dc[0]);
	for (i = 0; i < runs; i++) {
		char line[64];

		snprintf(line, sizeof(line), "7th Foot: ADVANCE %d", 1 + i % 6);
		order_mail(mail, runs * 2 + 1 + i, secret, line);
		run(argv, mail, &dw[i], &dc[i]);
	}
	f->text_wall = median(dw, runs);
	f->text_cpu = median(dc, runs);
	free(dw);
	free(dc);
	free(sw);
	free(sc);
}

int
main(int argc, char **argv)
{
	const char *camp = DESPATCH_SOURCE_DIR "/campaign/cowpens-1781";
	char scen[300], small[400], big[400];
	struct tick_figures ts, tb;
	struct submit_figures sf;
	int games = 1000, due = 10, runs = 15, own_dir = 1, i;
	double t0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
			games = atoi(argv[++i]);
		else if (strcmp(argv[i], "--due") == 0 && i + 1 < argc)
			due = atoi(argv[++i]);
		else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc) {
			snprintf(dir, sizeof(dir), "%s", argv[++i]);
			own_dir = 0;
		} else
			die("usage: bench_server [--games G] [--due D] [--runs N] "
			    "[--dir DIR]");
	}
	if (due < 1 || games < due || runs < 1 || runs > RUNS_MAX)
		die("need 1 <= D <= G and 1 <= N <= %d", RUNS_MAX);
	if (own_dir) {
		snprintf(dir, sizeof(dir), "/tmp/bench_server.XXXXXX");
		if (mkdtemp(dir) == NULL)
			die("mkdtemp: %s", strerror(errno));
	} else if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		die("%s: %s", dir, strerror(errno));
	}
	if (access(DESPATCH_BINARY, X_OK) != 0)
		die("%s: not built", DESPATCH_BINARY);
	/* The children read no configuration of the machine's. */
	snprintf(keypath, sizeof(keypath), "%s/server.key", dir);
	setenv("DESPATCH_CONFIG", "", 1);
	setenv("DESPATCH_KEY", keypath, 1);
	unsetenv("DESPATCH_DB");
	snprintf(scen, sizeof(scen), "%s/cowpens.scenario", camp);

	printf("bench_server: asserts %s; databases in %s\n", BENCH_ASSERTS, dir);
	snprintf(small, sizeof(small), "%s/tick-%d.db", dir, due);
	snprintf(big, sizeof(big), "%s/tick-%d.db", dir, games);
	t0 = bench_clock_s(CLOCK_MONOTONIC);
	make_db(small, scen, due, due);
	make_db(big, scen, games, due);
	printf("  made the databases (%d and %d games) in %.1f s\n", due, games,
	    bench_clock_s(CLOCK_MONOTONIC) - t0);
	bench_tick(small, runs, &ts);
	bench_tick(big, runs, &tb);
	bench_submit(scen, runs, &sf);

	printf("\ntick (medians of %d; each run on a fresh copy)\n", runs);
	printf("  %-34s %12s %12s %16s %s\n", "", "process CPU", "process wall",
	    "referee_tick CPU", "played/reminded");
	printf("  %-34s %9.1f ms %9.1f ms %13.2f ms %d/%d\n", "D games, all due",
	    ts.proc_cpu * 1e3, ts.proc_wall * 1e3, ts.call_cpu * 1e3, ts.played,
	    ts.reminders);
	printf("  %-34s %9.1f ms %9.1f ms %13.2f ms %d/%d\n", "G games, D of them due",
	    tb.proc_cpu * 1e3, tb.proc_wall * 1e3, tb.call_cpu * 1e3, tb.played,
	    tb.reminders);
	printf("  (D = %d, G = %d)\n", due, games);
	printf("  ratio tick(G, D due) / tick(D), whole process CPU: %.2fx "
	    "(target < %.0fx: %s)\n", tb.proc_cpu / ts.proc_cpu, TARGET_TICK,
	    tb.proc_cpu / ts.proc_cpu < TARGET_TICK ? "met" : "NOT met");
	printf("  the same, whole process wall:                 %.2fx\n",
	    tb.proc_wall / ts.proc_wall);
	printf("  the same, referee_tick alone (CPU):           %.2fx\n",
	    tb.call_cpu / ts.call_cpu);
	if (games > due)
		printf("  a game with nothing due costs a tick %.1f us of CPU (the "
		    "difference over %d games)\n", (tb.proc_cpu - ts.proc_cpu) /
		    (games - due) * 1e6, games - due);

	printf("\nsubmit of one order mail (medians of %d, whole processes, "
	    "taken in turn)\n", runs);
	printf("  %-46s %9.1f ms wall %7.1f ms CPU\n", "despatch submit",
	    sf.despatch_wall * 1e3, sf.despatch_cpu * 1e3);
	printf("  %-46s %9.1f ms wall %7.1f ms CPU\n",
	    "sqlite3 INSERT, WAL, synchronous=FULL", sf.sqlite_wall * 1e3,
	    sf.sqlite_cpu * 1e3);
	printf("  ratio submit / sqlite3, wall: %.2fx (target < %.0fx: %s)\n",
	    sf.despatch_wall / sf.sqlite_wall, TARGET_SUBMIT,
	    sf.despatch_wall / sf.sqlite_wall < TARGET_SUBMIT ? "met" : "NOT met");
	printf("  the same, CPU:                %.2fx\n",
	    sf.despatch_cpu / sf.sqlite_cpu);
	printf("  %-46s %9.1f ms wall %7.1f ms CPU (%.2fx sqlite3's wall)\n",
	    "despatch submit, its player reading text", sf.text_wall * 1e3,
	    sf.text_cpu * 1e3, sf.text_wall / sf.sqlite_wall);
	printf("  (a reply's map is drawn in submit, after the mail is stored: "
	    "the difference)\n");

	if (own_dir) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "bench_server: could not remove %s\n", dir);
	}
	return 0;
}
