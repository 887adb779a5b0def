/*
 * despatchd.c - the despatch daemon: takes mail in, answers it, plays the
 * phases that are due and sends what is queued, by itself.
 *
 *   despatchd [-c FILE] [-f] [--once]
 *
 * Intake: an IMAP folder ([imap] in despatch.conf(5)), a local Maildir
 * ([maildir]), or both.  Each mail goes through the same intake as
 * 'despatch submit', in batches: a batch is stored in one transaction,
 * and only once it has committed are its mails moved out (IMAP: to the
 * processed folder; Maildir: new/ to cur/).  A crash in between feeds
 * them again, and the intake knows them as duplicates.  A mail that makes
 * the intake fail for a reason that will not pass is moved to the
 * quarantine folder and never blocks the mail behind it; a passing
 * failure (the database busy or full) leaves it for the next round.
 *
 * IMAP: one kept connection (imap.h), TLS verified; IDLE when the server
 * offers it, else a look every poll period; a mail's arrival time is its
 * INTERNALDATE.  A lost or refused connection is logged and tried again
 * after 1, 2, 4 ... seconds, at most 5 minutes apart.  Maildir: new/ is
 * watched with inotify and rescanned every poll period.
 *
 * Outbox: sent over SMTP ([smtp]) after every round, with the retries of
 * 'despatch outbox send'.  Clock: 'despatch tick' every round.
 *
 * Process: the configuration is checked first (config_check: every
 * local file, folder and URL it will use) and a problem is exit 78, which
 * the unit does not restart on; a server out of reach is not a problem,
 * only retried.  Started as root with 'user =' set, it becomes that user
 * before it touches a file.  One daemon a database (a lock file beside
 * it); SIGTERM and SIGINT finish the round and exit; SIGHUP reloads the
 * configuration (reload() says what it applies).  It logs one line an
 * event, with a level: to stderr (with the journal's priority prefixes
 * when stderr is the journal) or to syslog.  With libsystemd it tells
 * the service manager when it is ready (Type=notify).  Daemon glue may
 * exit on errors; the library never does.
 */
#define _GNU_SOURCE    /* ppoll */
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>
#ifdef DESPATCH_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "campaign/campaign.h"
#include "config/config.h"
#include "core/crash.h"
#include "ledger/engine.h"
#include "ledger/ledger.h"
#include "mail/imap.h"
#include "mail/mail.h"
#include "referee/referee.h"
#include "scenario/scenario.h"

#define INTAKE_MAX (4u * 1024u * 1024u + 1u)
#define BATCH_MAX  256  /* mails spooled in one transaction */
#define READ_BATCH 64   /* spooled mails read in one transaction */
#define BATCH_BYTES (32u * 1024u * 1024u)  /* ... and bytes fetched for one */
#define BACKOFF_MAX 300 /* seconds between tries to reach the IMAP server */

static volatile sig_atomic_t stop_asked, reload_asked;
static const char *conf_path;

/* Where the lines go: stderr, with sd-daemon's "<N>" priority before
 * each when stderr is the journal's stream (systemd says so in
 * $JOURNAL_STREAM), so that 'journalctl -p err' finds the errors; or
 * syslog's mail facility, beside the MTA's own lines (log = syslog). */
static int log_journal, log_syslog;
/* Warnings and errors logged since the round began: --once's exit. */
static int round_troubles;

static int
priority_of(const char *level)
{
	if (strcmp(level, "fatal") == 0)
		return LOG_CRIT;
	if (strcmp(level, "error") == 0)
		return LOG_ERR;
	if (strcmp(level, "warning") == 0)
		return LOG_WARNING;
	return LOG_INFO;
}

/* Whether fd 2 is the stream $JOURNAL_STREAM ("DEVICE:INODE") names. */
static int
stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (js == NULL || sscanf(js, "%llu:%llu", &dev, &ino) != 2 ||
	    fstat(2, &st) != 0)
		return 0;
	return (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino;
}

static void
log_to(int where)
{
	if (where == CONFIG_LOG_SYSLOG && !log_syslog)
		openlog("despatchd", LOG_PID, LOG_MAIL);
	else if (where != CONFIG_LOG_SYSLOG && log_syslog)
		closelog();
	log_syslog = where == CONFIG_LOG_SYSLOG;
}

static void
logmsg(const char *level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
logmsg(const char *level, const char *fmt, ...)
{
	char line[2048];
	int prio = priority_of(level);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (prio <= LOG_WARNING)
		round_troubles++;
	if (log_syslog) {
		syslog(prio, "%s: %s", level, line);
		return;
	}
	if (log_journal)
		fprintf(stderr, "<%d>%s: %s\n", prio, level, line);
	else
		fprintf(stderr, "despatchd: %s: %s\n", level, line);
	fflush(stderr);
}

/* The service manager told what the daemon is doing (Type=notify): ready
 * once its checks passed, reloading, stopping, and each round's status
 * line.  Without libsystemd at build, nothing is told. */
static void
notify(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
notify(const char *fmt, ...)
{
#ifdef DESPATCH_HAVE_SYSTEMD
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	(void)sd_notify(0, msg);
#else
	(void)fmt;
#endif
}

/* snprintf into a path buffer; -1 (and an empty path) when it would not
 * fit, never a cut path. */
static int
path(char *out, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
path(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

static void
on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_asked = 1;
	else
		stop_asked = 1;
}

static int
names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Moves dir/new/name to dir/<sub>/name (cur: with the Seen flag). */
static int
maildir_move(const char *dir, const char *name, const char *to_dir,
    int seen)
{
	char from[2048], to[2048];

	if (path(from, sizeof(from), "%s/new/%s", dir, name) != 0 ||
	    path(to, sizeof(to), "%s/%s%s", to_dir, name,
	    seen && strchr(name, ':') == NULL ? ":2,S" : "") != 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return rename(from, to);
}

/* The Maildir++ folder dir/.NAME, made when missing. */
static int
maildir_folder(const char *dir, const char *name, char *out, size_t size)
{
	static const char *const subs[] = { "", "/cur", "/new", "/tmp" };
	size_t i;

	if (path(out, size, "%s/.%s", dir, name) != 0)
		return -1;
	for (i = 0; i < 4; i++) {
		char p[2100];

		if (path(p, sizeof(p), "%s%s", out, subs[i]) != 0 ||
		    (mkdir(p, 0700) != 0 && errno != EEXIST))
			return -1;
	}
	return path(out + strlen(out), size - strlen(out), "/cur");
}

/* The delivery time a Maildir name starts with (0 if it does not). */
static int64_t
maildir_time(const char *name)
{
	char *end;
	long long t = strtoll(name, &end, 10);

	return end != name && *end == '.' && t > 0 ? (int64_t)t : 0;
}

/* One pass over new/: each mail stored, then moved.  Returns how many
 * were taken; stops at a passing failure. */
static int
maildir_round(struct referee *r, const struct config *c)
{
	char newdir[2048], cur[2048], quarantine[2100];
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;
	int taken = 0;

	if (path(newdir, sizeof(newdir), "%s/new", c->maildir.path) != 0 ||
	    path(cur, sizeof(cur), "%s/cur", c->maildir.path) != 0)
		return 0;
	d = opendir(newdir);
	if (d == NULL) {
		logmsg("error", "%s: %s", newdir, strerror(errno));
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (nn == NULL)
				break;
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (names[n] != NULL)
			n++;
	}
	closedir(d);
	/* Maildir names start with the delivery time: oldest first. */
	if (n > 1)
		qsort(names, n, sizeof(*names), names_cmp);
	/* Batches of mails, each batch stored in one transaction and then
	 * moved: one sync a batch, and nothing moved that is not durable. */
	for (i = 0; i < n && !stop_asked;) {
		size_t first = i, k;
		char *done = calloc(BATCH_MAX, 1);
		int passing = 0;

		if (done == NULL || referee_batch_begin(r, &(struct err){ 0 }) != 0) {
			free(done);
			logmsg("warning", "cannot start a batch now; tried again later");
			break;
		}
		for (; i < n && i - first < BATCH_MAX && !passing; i++) {
			char file[2100], *raw = NULL;
			size_t len = 0;
			struct err e;

			if (path(file, sizeof(file), "%s/%s", newdir, names[i]) != 0)
				continue;
			err_clear(&e);
			if (scenario_read_file(file, INTAKE_MAX, &raw, &len, &e) != 0) {
				/* Too large to read whole: the first part is what
				 * the intake answers about (the limit). */
				FILE *f = fopen(file, "rb");

				raw = f ? malloc(INTAKE_MAX + 1) : NULL;
				len = raw ? fread(raw, 1, INTAKE_MAX, f) : 0;
				if (f != NULL)
					fclose(f);
				if (raw == NULL) {
					logmsg("error", "%s: cannot read it: %s", names[i],
					    e.msg);
					continue;
				}
				raw[len] = '\0';
				err_clear(&e);
			}
			if (referee_spool_add(r, raw, len, maildir_time(names[i]),
			    names[i], &e) == 0) {
				done[i - first] = 1;
			} else if (e.kind == ERR_TEMP) {
				logmsg("warning", "%s: not stored now, tried again later: "
				    "%s", names[i], e.msg);
				passing = 1;
			} else if (maildir_folder(c->maildir.path, "Quarantine",
			    quarantine, sizeof(quarantine)) == 0 &&
			    maildir_move(c->maildir.path, names[i], quarantine,
			    0) == 0) {
				logmsg("error", "%s: quarantined: %s", names[i], e.msg);
			} else {
				logmsg("error", "%s: cannot be taken in or quarantined: "
				    "%s", names[i], e.msg);
			}
			free(raw);
		}
		{
			struct err ce;

			err_clear(&ce);
			crash_point("batch-spooled");
			if (referee_batch_commit(r, &ce) != 0) {
				logmsg("warning", "a batch of %zu mails could not be "
				    "stored now (%s); tried again later", i - first,
				    ce.msg);
				free(done);
				break;
			}
		}
		crash_point("after-store");
		for (k = first; k < i; k++) {
			if (!done[k - first])
				continue;
			if (maildir_move(c->maildir.path, names[k], cur, 1) != 0)
				logmsg("error", "%s: stored, but not moved to cur/: %s "
				    "(it will be seen as a duplicate)", names[k],
				    strerror(errno));
			else
				crash_point("after-move");
			taken++;
		}
		free(done);
		if (passing)
			break;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return taken;
}

/* The IMAP intake's connection and when to try again after a failure. */
struct imap_link {
	struct imap *im;
	time_t next_try;
	int backoff;            /* seconds to the next try after a failure */
	int single;             /* a batch fetch failed: one mail a fetch */
	uint32_t bad_uid;       /* ... and this mail's fetch failed */
	int bad_tries;          /* ... so many times in a row */
	char state[600];        /* for 'despatch status' */
};

#define FETCH_TRIES 3   /* a mail that cannot be fetched so often is set aside */

/* Drops the connection: quietly with a LOGOUT when why is NULL (a stop,
 * a reload), else as a failure, logged, with the next try put off. */
static void
imap_drop(struct imap_link *l, const char *why)
{
	if (l->im != NULL) {
		if (why == NULL)
			imap_close(l->im);
		else
			imap_abort(l->im);
		l->im = NULL;
	}
	if (why != NULL) {
		l->next_try = time(NULL) + l->backoff;
		logmsg("error", "imap: %s; trying again in %d s", why, l->backoff);
		snprintf(l->state, sizeof(l->state), "imap: not connected: %s",
		    why);
		l->backoff = l->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX :
		    l->backoff * 2;
	}
}

/* Connects when not connected and a try is due.  1 when connected. */
static int
imap_link_up(struct imap_link *l, const struct config *c)
{
	struct mail_imap cfg;
	struct err e;
	int rc;

	if (l->im != NULL)
		return 1;
	if (time(NULL) < l->next_try)
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.url, sizeof(cfg.url), "%s", c->imap.url);
	snprintf(cfg.user, sizeof(cfg.user), "%s", c->imap.user);
	snprintf(cfg.ca_file, sizeof(cfg.ca_file), "%s", c->imap.ca_file);
	snprintf(cfg.processed, sizeof(cfg.processed), "%s", c->processed);
	snprintf(cfg.quarantine, sizeof(cfg.quarantine), "%s", c->quarantine);
	cfg.idle = c->idle;
	err_clear(&e);
	rc = c->imap.password_file[0] == '\0' ? 0 :
	    config_read_secret(c->imap.password_file, cfg.password,
	    sizeof(cfg.password), &e);
	if (rc == 0)
		rc = imap_open(&cfg, &l->im, &e);
	sodium_memzero(cfg.password, sizeof(cfg.password));
	if (rc != 0) {
		if (l->backoff < 1)
			l->backoff = 1;
		/* A signal to stop cuts a login short: not the server's fault. */
		imap_drop(l, stop_asked ? NULL : e.msg);
		return 0;
	}
	/* The backoff is reset by a whole round, not by a login: a server
	 * that lets us in and then fails us is not hammered either. */
	logmsg("info", "imap: connected to %s", imap_describe(l->im));
	snprintf(l->state, sizeof(l->state), "imap: connected to %s",
	    imap_describe(l->im));
	return 1;
}

/* One batch of fetched mails, stored as they come. */
struct imap_batch {
	struct referee *r;
	const struct imap_msg *msgs;
	size_t n;
	uint32_t done[BATCH_MAX];
	size_t ndone;
	int passing;            /* stopped on a passing failure */
};

static int
imap_take(void *arg, uint32_t uid, const char *data, size_t len)
{
	struct imap_batch *b = arg;
	struct err e;
	char source[32];
	int64_t arrived = 0;
	size_t i;

	crash_point("after-fetch");
	if (b->ndone >= BATCH_MAX)
		return 1;
	for (i = 0; i < b->n; i++)
		if (b->msgs[i].uid == uid)
			arrived = b->msgs[i].arrived;
	snprintf(source, sizeof(source), "imap uid %u", (unsigned)uid);
	err_clear(&e);
	if (referee_spool_add(b->r, data, len, arrived, source, &e) == 0) {
		b->done[b->ndone++] = uid;
		return 0;
	}
	/* Only the database refuses an insert: it stays for later. */
	logmsg("warning", "%s: not stored now, tried again later: %s", source,
	    e.msg);
	b->passing = 1;
	return 1;
}

/* One pass over the IMAP folder: batches fetched, stored, then moved.
 * Returns how many mails were taken. */
static int
imap_round(struct referee *r, const struct config *c, struct imap_link *l)
{
	struct imap_msg *msgs = NULL;
	size_t n = 0, i = 0;
	struct err e;
	struct timespec t0, t1;
	int taken = 0;

	if (!imap_link_up(l, c))
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err_clear(&e);
	if (imap_list(l->im, &msgs, &n, &e) != 0) {
		imap_drop(l, e.msg);
		return 0;
	}
	/* A mail whose fetch keeps failing (or breaks the connection) is set
	 * aside, so it never blocks the mail behind it. */
	if (l->bad_tries >= FETCH_TRIES) {
		if (imap_move(l->im, &l->bad_uid, 1, c->quarantine, &e) != 0) {
			free(msgs);
			imap_drop(l, e.msg);
			return 0;
		}
		logmsg("error", "imap uid %u: could not be fetched in %d tries; "
		    "moved to %s", (unsigned)l->bad_uid, FETCH_TRIES,
		    c->quarantine);
		l->bad_tries = 0;
		free(msgs);
		if (imap_list(l->im, &msgs, &n, &e) != 0) {
			imap_drop(l, e.msg);
			return 0;
		}
	}
	while (i < n && !stop_asked) {
		struct imap_batch b;
		uint32_t uids[BATCH_MAX];
		size_t k = 0, bytes = 0;

		memset(&b, 0, sizeof(b));
		b.r = r;
		b.msgs = msgs + i;
		/* At most BATCH_MAX mails and BATCH_BYTES a batch, and always
		 * at least one. */
		while (i + k < n && k < (l->single ? 1 : BATCH_MAX) && (k == 0 ||
		    bytes + msgs[i + k].size <= BATCH_BYTES)) {
			uids[k] = msgs[i + k].uid;
			bytes += msgs[i + k].size < INTAKE_MAX ? msgs[i + k].size :
			    INTAKE_MAX;
			k++;
		}
		b.n = k;
		if (referee_batch_begin(r, &e) != 0) {
			logmsg("warning", "cannot start a batch now (%s); tried again "
			    "later", e.msg);
			break;
		}
		if (imap_fetch(l->im, uids, k, INTAKE_MAX, imap_take, &b, &e) != 0) {
			referee_batch_abort(r);
			if (k > 1)
				l->single = 1;
			else if (l->bad_uid == uids[0])
				l->bad_tries++;
			else
				l->bad_uid = uids[0], l->bad_tries = 1;
			imap_drop(l, e.msg);
			free(msgs);
			return taken;
		}
		crash_point("batch-spooled");
		if (referee_batch_commit(r, &e) != 0) {
			logmsg("warning", "a batch of %zu mails could not be stored now "
			    "(%s); tried again later", k, e.msg);
			free(msgs);
			return taken;
		}
		crash_point("after-store");
		if (imap_move(l->im, b.done, b.ndone, c->processed, &e) != 0) {
			/* Stored: the next round sees them as duplicates. */
			imap_drop(l, e.msg);
			free(msgs);
			return taken + (int)b.ndone;
		}
		taken += (int)b.ndone;
		if (b.passing) {
			free(msgs);
			return taken;
		}
		i += k;
	}
	free(msgs);
	if (taken > 1) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		logmsg("info", "imap: %d mails stored in the spool and moved to %s "
		    "in %ld us", taken, c->processed, (long)((t1.tv_sec -
		    t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000));
	}
	/* A whole round went well: the next failure starts the backoff
	 * afresh, and batches are whole again. */
	if (i >= n) {
		l->backoff = 1;
		l->single = 0;
		l->bad_tries = 0;
	}
	return taken;
}

static void
spool_said(void *arg, const char *source, const struct submit_result *res,
    const struct err *e)
{
	(void)arg;
	if (res != NULL)
		logmsg("info", "%s: %s: %s", source, res->outcome ==
		    SUBMIT_DUPLICATE ? "duplicate" : res->status, res->note);
	else if (e->kind == ERR_TEMP)
		logmsg("warning", "%s: not read now, tried again later: %s", source,
		    e->msg);
	else
		logmsg("error", "%s: the intake failed on it; it is kept in the "
		    "spool: %s", source, e->msg);
}

static long
ms_between(const struct timespec *a, const struct timespec *b)
{
	return (long)((b->tv_sec - a->tv_sec) * 1000 +
	    (b->tv_nsec - a->tv_nsec) / 1000000);
}

/* Reads and answers what the intake spooled. */
static void
spool_round(struct referee *r)
{
	struct spool_result res;
	struct err e;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	err_clear(&e);
	if (referee_spool_run(r, READ_BATCH, spool_said, NULL, &res, &e) != 0)
		logmsg("warning", "spool: %s; tried again later", e.msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (res.read + res.failed > 1)
		logmsg("info", "spool: %d mails read and answered in %ld ms",
		    res.read, (long)((t1.tv_sec - t0.tv_sec) * 1000 +
		    (t1.tv_nsec - t0.tv_nsec) / 1000000));
}

static int
smtp_of(const struct config *c, struct mail_smtp *s)
{
	struct err e;

	memset(s, 0, sizeof(*s));
	if (!c->smtp.set)
		return 0;
	snprintf(s->url, sizeof(s->url), "%s", c->smtp.url);
	snprintf(s->user, sizeof(s->user), "%s", c->smtp.user);
	snprintf(s->ca_file, sizeof(s->ca_file), "%s", c->smtp.ca_file);
	if (c->smtp.password_file[0] != '\0' &&
	    config_read_secret(c->smtp.password_file, s->password,
	    sizeof(s->password), &e) != 0) {
		logmsg("error", "%s", e.msg);
		return -1;
	}
	return 1;
}

/* Records what the daemon is doing, for 'despatch status'; 0, or -1
 * (said in the log unless quiet). */
static int
status_set(struct referee *r, const char *state, const char *detail,
    int quiet)
{
	struct err e;

	if (referee_daemon_says(r, (int)getpid(), state, detail,
	    (int64_t)time(NULL), &e) == 0)
		return 0;
	if (!quiet)
		logmsg("warning", "cannot record the status: %s", e.msg);
	return -1;
}

static void
status(struct referee *r, const char *state, const char *detail)
{
	(void)status_set(r, state, detail, 0);
}

/* A full disk: nothing can be stored or marked sent, so intake and
 * sending wait, said once; each round tries a small write, and the work
 * resumes by itself once one goes through. */
static int disk_full;

/* 1 while the disk stays full (the round is skipped). */
static int
full_wait(struct referee *r)
{
	if (!disk_full && !referee_store_full(r))
		return 0;
	if (!disk_full) {
		disk_full = 1;
		logmsg("error", "the disk is full: the database cannot be written; "
		    "intake and sending wait, and resume by themselves once it "
		    "can be");
		return 1;
	}
	if (status_set(r, "paused", "the disk is full: intake and sending wait",
	    1) != 0)
		return 1;
	disk_full = 0;
	logmsg("info", "the database can be written again: intake and sending "
	    "resume");
	return 0;
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: despatchd [-c FILE] [-f] [--once]\n\n"
	    "The despatch daemon: takes in the mail of the [imap] folder or the\n"
	    "[maildir] in FILE (despatch.conf(5); default $DESPATCH_CONFIG, else\n"
	    "/etc/despatch/despatch.conf), answers it, plays the phases the game\n"
	    "clock says are due and sends queued mail over [smtp].\n\n"
	    "It checks FILE first and exits 78 on any problem, one line each\n"
	    "('despatch check' runs the same check). It stays in the foreground\n"
	    "(-f is accepted for systemd units) and logs to stderr, with the\n"
	    "journal's priorities under systemd, or to syslog (log = syslog).\n"
	    "--once does one round and exits, 1 if the round logged a warning\n"
	    "or an error. SIGTERM or SIGINT finish the round and exit; SIGHUP\n"
	    "reloads FILE, refusing a broken one.\n");
}

/* The Maildir's new/ watched with inotify (-1 when it cannot be). */
static int
maildir_watch(const struct config *c)
{
	char newdir[2048];
	int ino;

	if (!c->maildir.set || path(newdir, sizeof(newdir), "%s/new",
	    c->maildir.path) != 0)
		return -1;
	ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ino >= 0 && inotify_add_watch(ino, newdir, IN_MOVED_TO | IN_CREATE |
	    IN_CLOSE_WRITE) < 0) {
		close(ino);
		ino = -1;
	}
	return ino;
}

/* The SMTP session kept from round to round: the connection, its TLS and
 * its login serve the next round's mail too (libcurl makes a new one when
 * the server has closed it). */
static void *smtp_session;

/* Sends what the outbox holds that is due, over [smtp]. */
static void
outbox_round(struct referee *r, const struct config *c)
{
	struct mail_smtp smtp;
	struct send_result res;
	struct err e;

	if (smtp_of(c, &smtp) <= 0)
		return;
	if (smtp_session == NULL)
		smtp_session = mail_smtp_session_new();
	err_clear(&e);
	if (referee_outbox_send_on(r, &smtp, smtp_session, 0, &res, &e) != 0)
		logmsg("warning", "outbox: %s", e.msg);
	else if (res.sent + res.deferred + res.failed > 0)
		logmsg(res.deferred || res.failed ? "warning" : "info",
		    "outbox: %d sent, %d put off, %d failed%s%s", res.sent,
		    res.deferred, res.failed, res.deferred ? ": " : "",
		    res.last_error);
	sodium_memzero(smtp.password, sizeof(smtp.password));
}

/* Exit statuses a service manager can tell apart (sysexits.h): a
 * configuration it is no use restarting on (the unit's
 * RestartPreventExitStatus), and trouble that may pass. */
#define EXIT_CONFIG 78
#define EXIT_TEMP   75

static void
problem_said(void *arg, const char *what)
{
	(void)arg;
	logmsg("error", "%s", what);
}

/* The referee's options from c, else the environment's (read here: the
 * library reads none of it). */
static void
ropts_of(const struct config *c, struct referee_opts *o)
{
	memset(o, 0, sizeof(*o));
	if (getenv("DESPATCH_BUSY_TIMEOUT") != NULL)
		o->busy_ms = strtol(getenv("DESPATCH_BUSY_TIMEOUT"), NULL, 10);
	o->from = c->from[0] != '\0' ? c->from : getenv("DESPATCH_FROM");
	o->key_path = c->key[0] != '\0' ? c->key : getenv("DESPATCH_KEY");
	o->templates = c->templates[0] != '\0' ? c->templates :
	    getenv("DESPATCH_TEMPLATES");
}

/* The key must be the one every game being played was begun with.
 * 0, or -1 (said). */
static int
key_agrees(struct referee *r)
{
	char games[600];
	struct err e;
	int rc;

	err_clear(&e);
	rc = referee_key_agrees(r, games, sizeof(games), &e);
	if (rc < 0)
		logmsg("fatal", "%s", e.msg);
	else if (rc > 0)
		logmsg("fatal", "the ledger key is not the one these games were "
		    "begun with: %s; their chains cannot take another key's "
		    "signature: put the old key file back (see 'despatch ledger "
		    "GAME' for the key each game names)", games);
	return rc == 0 ? 0 : -1;
}

/* SIGHUP: the file read and checked again; what can change while games
 * run is applied, what cannot is said.  A broken file is refused whole
 * and the running configuration kept. */
static int
reload(struct referee *r, struct config *conf, struct imap_link *link,
    int *ino)
{
	static struct config fresh;
	struct referee_opts o;
	struct err e;

	notify("RELOADING=1");
	err_clear(&e);
	if (config_load(conf_path, &fresh, &e) != 0) {
		logmsg("error", "reload refused, the running configuration kept: "
		    "%s", e.msg);
		return -1;
	}
	if (config_check(&fresh, 1, problem_said, NULL) > 0) {
		logmsg("error", "reload refused, the running configuration kept: "
		    "%s has the problems above", conf_path);
		return -1;
	}
	if (strcmp(fresh.key, conf->key) != 0) {
		logmsg("error", "reload refused, the running configuration kept: "
		    "key changed from \"%s\" to \"%s\"; a running despatchd keeps "
		    "the key its games are signed with (a restart takes a new one "
		    "only when no game being played was begun with the old)",
		    conf->key, fresh.key);
		return -1;
	}
	ropts_of(&fresh, &o);
	if (referee_reconfigure(r, &o, &e) != 0) {
		logmsg("error", "reload refused, the running configuration kept: "
		    "%s", e.msg);
		return -1;
	}
	if (strcmp(fresh.database, conf->database) != 0) {
		logmsg("warning", "reload: database changed to %s: that takes a "
		    "restart; serving %s until then", fresh.database,
		    conf->database);
		memcpy(fresh.database, conf->database, sizeof(fresh.database));
	}
	if (strcmp(fresh.user, conf->user) != 0) {
		logmsg("warning", "reload: user changed to \"%s\": that takes a "
		    "restart", fresh.user);
		memcpy(fresh.user, conf->user, sizeof(fresh.user));
	}
	*conf = fresh;
	log_to(conf->log);
	/* New servers or folders take effect now. */
	imap_drop(link, NULL);
	link->next_try = 0;
	mail_smtp_session_free(smtp_session);
	smtp_session = NULL;
	if (*ino >= 0)
		close(*ino);
	*ino = maildir_watch(conf);
	logmsg("info", "reloaded %s: templates %s, from %s for games made from "
	    "now on, the mailbox settings anew", conf_path, conf->templates[0] ?
	    conf->templates : "built in", referee_from(r));
	return 0;
}

int
main(int argc, char **argv)
{
	static struct config conf;
	struct referee *r = NULL;
	struct referee_opts ropts;
	struct err e;
	struct sigaction sa;
	struct imap_link link;
	struct timespec r0, r1, r2, r3, r4;
	time_t last_tick = 0;
	sigset_t blocked, waitmask;
	char lock[CONFIG_PATH_MAX + 16];
	int once = 0, i, lockfd, ino, troubles = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
			conf_path = argv[++i];
		else if (strncmp(argv[i], "--config=", 9) == 0 && argv[i][9])
			conf_path = argv[i] + 9;
		else if (strcmp(argv[i], "-f") == 0)
			;
		else if (strcmp(argv[i], "--once") == 0)
			once = 1;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("despatchd %s\n", DESPATCH_VERSION);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	/* The same default as despatch(1): $DESPATCH_CONFIG, else the
	 * system's file. */
	if (conf_path == NULL)
		conf_path = config_default_path(getenv("DESPATCH_CONFIG"));
	log_journal = stderr_is_journal();
	/* A daemon lives for months: large buffers (a battle, a 4 MB mail)
	 * come from mmap and go back when freed, rather than raising glibc's
	 * threshold and staying in the heap for good. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	mallopt(M_TRIM_THRESHOLD, 512 * 1024);
	(void)ledger_engine_test(getenv("DESPATCH_TEST_ENGINE"));
	campaign_engine_test(getenv("DESPATCH_TEST_CAMPAIGN_ENGINE"));
	crash_init(getenv("DESPATCH_CRASH"), getenv("DESPATCH_FAULT"));
	if (sodium_init() < 0) {
		logmsg("fatal", "libsodium failed to initialise");
		return 1;
	}
	err_clear(&e);
	if (config_load(conf_path, &conf, &e) != 0) {
		logmsg("fatal", "%s", e.msg);
		return EXIT_CONFIG;
	}
	log_to(conf.log);
	/* Everything from here is done as the user the daemon runs as, and
	 * checked as that user: what it cannot read now it could not read
	 * at the first turn either. */
	if (config_become_user(&conf, &e) != 0) {
		logmsg("fatal", "%s", e.msg);
		return EXIT_CONFIG;
	}
	if (config_check(&conf, 1, problem_said, NULL) > 0) {
		logmsg("fatal", "%s: not started: the configuration has the "
		    "problems above ('despatch check' lists them too)", conf_path);
		return EXIT_CONFIG;
	}
	ropts_of(&conf, &ropts);
	/* One daemon a database. */
	path(lock, sizeof(lock), "%s.despatchd.lock", conf.database);
	lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lockfd < 0) {
		logmsg("fatal", "%s: the lock cannot be made or opened: %s",
		    lock, strerror(errno));
		return EXIT_CONFIG;
	}
	(void)fchmod(lockfd, 0600);   /* an old one made 0644 too */
	/* 'despatch status' holds it shared for an instant to look: wait
	 * that out (a second), never another daemon. */
	for (i = 0; flock(lockfd, LOCK_EX | LOCK_NB) != 0; i++) {
		if (errno != EWOULDBLOCK) {
			logmsg("fatal", "%s: the lock cannot be taken: %s", lock,
			    strerror(errno));
			close(lockfd);
			return 1;
		}
		if (i == 20) {
			logmsg("fatal", "%s: another despatchd serves this database "
			    "(it holds this lock)", lock);
			close(lockfd);
			return 1;
		}
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	/* A damaged file is refused before any mail is spooled into it; a
	 * busy one may pass. */
	if (referee_open(conf.database, 0, &ropts, &r, &e) != 0 ||
	    referee_store_check(r, &e) != 0) {
		logmsg("fatal", "%s", e.msg);
		referee_free(r);
		return e.kind == ERR_TEMP ? EXIT_TEMP : EXIT_CONFIG;
	}
	{
		const char *copy = NULL;
		int now, from = referee_store_upgraded(r, &now, &copy);

		if (from > 0)
			logmsg("info", "%s was at schema version %d and is now at %d; "
			    "a copy of it as it was is kept as %s", conf.database,
			    from, now, copy);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* The signals wait for the pause between rounds: one in the middle of
	 * a network call would cut it short (libetpan takes EINTR for a lost
	 * connection), and a round is never long. */
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGHUP);
	sigprocmask(SIG_BLOCK, &blocked, &waitmask);
	{
		/* The ledger's key, read (or made) now: a key it cannot read
		 * should stop it here, not at the first turn; and a key other
		 * than the one the games being played were begun with. */
		unsigned char pk[32];
		char kp[4200], hex[65];
		struct err ke;

		err_clear(&ke);
		if (referee_key(r, pk, kp, sizeof(kp), &ke) != 0) {
			logmsg("fatal", "%s", ke.msg);
			goto refused;
		}
		ledger_hex(pk, 32, hex);
		logmsg("info", "ledger key %s in %s", hex, kp);
		if (key_agrees(r) != 0)
			goto refused;
		/* An operator's templates with a mistake stop the daemon
		 * here, naming the line, rather than a turn later. */
		if (referee_templates_check(r, &ke) != 0) {
			logmsg("fatal", "%s", ke.msg);
			goto refused;
		}
		/* Keys an older despatch kept in the database go to their
		 * file, and out of the database for good. */
		if (referee_keys_settle(r, &ke) != 0) {
			logmsg("fatal", "%s", ke.msg);
			if (ke.kind == ERR_TEMP) {
				referee_free(r);
				close(lockfd);
				return EXIT_TEMP;
			}
			goto refused;
		}
		/* A daemon killed between an intake's commit and drawing the
		 * replies' maps left them held for ten minutes: they go now,
		 * as text. */
		{
			int held = referee_previews_orphaned(r, &ke);

			if (held < 0)
				logmsg("warning", "held order replies: %s", ke.msg);
			else if (held > 0)
				logmsg("info", "%d order repl%s held for a map by a "
				    "daemon that stopped: sent now, as text", held,
				    held == 1 ? "y" : "ies");
		}
	}
	memset(&link, 0, sizeof(link));
	link.backoff = 1;
	ino = maildir_watch(&conf);
	logmsg("info", "serving %s from%s%s%s%s", conf.database,
	    conf.imap.set ? " IMAP " : "", conf.imap.set ? conf.imap.url : "",
	    conf.maildir.set ? " Maildir " : "",
	    conf.maildir.set ? conf.maildir.path : "");
	status(r, "running", "starting");
	notify("READY=1\nSTATUS=serving %s", conf.database);
	while (!stop_asked) {
		struct tick_result tr;
		int taken = 0, ms;
		char detail[900];

		if (reload_asked) {
			reload_asked = 0;
			(void)reload(r, &conf, &link, &ino);
			notify("READY=1");
		}
		troubles += round_troubles;
		round_troubles = 0;
		clock_gettime(CLOCK_MONOTONIC, &r0);
		if (full_wait(r))
			goto wait;
		if (conf.imap.set)
			taken += imap_round(r, &conf, &link);
		if (conf.maildir.set)
			taken += maildir_round(r, &conf);
		if (full_wait(r))
			goto wait;
		spool_round(r);
		clock_gettime(CLOCK_MONOTONIC, &r1);
		/* The answers first: they should not wait for the clock. */
		if (taken > 0 && !full_wait(r))
			outbox_round(r, &conf);
		clock_gettime(CLOCK_MONOTONIC, &r2);
		if (full_wait(r))
			goto wait;
		/* The clock looks at every game: at most once a second (its
		 * times are whole seconds), and whenever mail came, which may
		 * have completed a phase. */
		memset(&tr, 0, sizeof(tr));
		if (taken > 0 || r2.tv_sec != last_tick) {
			last_tick = r2.tv_sec;
			if (referee_tick(r, &tr, &e) != 0)
				logmsg("warning", "tick: %s", e.msg);
			else if (tr.played > 0 || tr.reminders > 0 || tr.errors > 0 ||
			    tr.campaign_turns > 0)
				logmsg(tr.errors ? "error" : "info", "clock: %d played, "
				    "%d reminders, %d campaign turns; %s", tr.played,
				    tr.reminders, tr.campaign_turns, tr.last);
		}
		clock_gettime(CLOCK_MONOTONIC, &r3);
		/* Reports, reminders, and the retries that are due. */
		if (!full_wait(r))
			outbox_round(r, &conf);
		clock_gettime(CLOCK_MONOTONIC, &r4);
		snprintf(detail, sizeof(detail), "%s%slast round: %d mail taken in; "
		    "intake %ld ms, answers and clock %ld ms, outbox %ld ms",
		    conf.imap.set ? link.state : "", conf.imap.set ? "; " : "",
		    taken, ms_between(&r0, &r1), ms_between(&r1, &r3),
		    ms_between(&r3, &r4));
		/* "mail-failing" while the IMAP server cannot be reached: what
		 * 'despatch status' warns of (exit 1). */
		if (!full_wait(r))
			status(r, conf.imap.set && link.im == NULL ? "mail-failing" :
			    "running", detail);
		notify("STATUS=%s", detail);
wait:
		/* Pages freed in the round go back to the system before the
		 * wait (a round's battles and mails come and go; without this the
		 * heap keeps its high-water mark for good). */
		malloc_trim(0);
		if (once || stop_asked)
			break;
		/* Wait for new mail, or the poll period (which also serves
		 * the clock and the outbox's retries). */
		ms = conf.poll_ms;
		if (conf.imap.set && link.im == NULL) {
			long due = (long)(link.next_try - time(NULL)) * 1000;

			if (due < ms)
				ms = due > 0 ? (int)due : 0;
		}
		if (link.im != NULL) {
			if (imap_wait(link.im, ms, ino, &waitmask, &e) < 0)
				imap_drop(&link, e.msg);
		} else {
			struct pollfd pfd = { ino, POLLIN, 0 };
			struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

			(void)ppoll(&pfd, ino >= 0 ? 1 : 0, &ts, &waitmask);
		}
		if (ino >= 0) {
			char buf[4096];

			while (read(ino, buf, sizeof(buf)) > 0)
				;
		}
	}
	troubles += round_troubles;
	notify("STOPPING=1");
	status(r, "stopped", stop_asked ? "asked to stop" : "one round done");
	logmsg("info", "stopping");
	imap_drop(&link, NULL);
	mail_smtp_session_free(smtp_session);
	referee_free(r);
	if (ino >= 0)
		close(ino);
	close(lockfd);
	/* --once is a check a script or a timer can trust: a round with a
	 * warning or an error in it did not all go through. */
	if (once && troubles > 0) {
		fprintf(stderr, "despatchd: the round had %d warning%s or error%s "
		    "(above)\n", troubles, troubles == 1 ? "" : "s",
		    troubles == 1 ? "" : "s");
		return 1;
	}
	return 0;
refused:
	referee_free(r);
	close(lockfd);
	return EXIT_CONFIG;
}
