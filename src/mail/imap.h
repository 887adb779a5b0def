/*
 * imap.h - the daemon's IMAP intake: a kept connection to the umpire's
 * mailbox with libetpan, TLS verified against the system's or a named CA
 * file, IDLE when the server offers it.
 *
 * The daemon lists what is in the folder, fetches it in batches (UID
 * FETCH BODY.PEEK[], so nothing is marked read), stores a batch, and only
 * then moves its mails to the processed folder (MOVE, or COPY, \Deleted
 * and UID EXPUNGE).  Every failure is an err whose text names the server
 * and what went wrong, never a secret; the caller drops the connection and
 * reconnects with a backoff.
 */
#ifndef DESPATCH_IMAP_H
#define DESPATCH_IMAP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

struct mail_imap {
	char url[512];          /* imap[s]://host[:port][/FOLDER] */
	char user[512];
	char password[512];
	char ca_file[1024];     /* "": the system's CAs */
	char processed[128];    /* folders, made when missing */
	char quarantine[128];
	int idle;               /* use IDLE when the server offers it */
	int timeout;            /* seconds a command may take (0: 60) */
};

struct imap;

/* One mail in the folder: its UID, size and INTERNALDATE (seconds since
 * the epoch, UTC). */
struct imap_msg {
	uint32_t uid;
	uint32_t size;
	int64_t arrived;
};

/* Whether url is one imap_open can use (imap[s]://host[:port][/FOLDER]):
 * 0, or -1 with e saying what is wrong.  Reaches no server. */
int imap_url_check(const char *url, struct err *e);
/* Connects, checks the server's certificate (chain and name), logs in,
 * makes the two folders when missing and selects the watched one.  The
 * password is used for the login only and not kept.  0, or -1 with e set
 * (ERR_TEMP for what may pass, ERR_USER for a refused login or an
 * untrusted certificate). */
int imap_open(const struct mail_imap *cfg, struct imap **out, struct err *e);
/* Logs out and frees. */
void imap_close(struct imap *im);
/* Frees without a word to the server: after a failure, when it may not
 * answer. */
void imap_abort(struct imap *im);

/* "host:port, folder F, IDLE" for the log. */
const char *imap_describe(const struct imap *im);
int imap_idles(const struct imap *im);

/* The mails in the folder not marked deleted, lowest UID (oldest) first,
 * in a malloc'd array. */
int imap_list(struct imap *im, struct imap_msg **msgs, size_t *n,
    struct err *e);

/* Fetches the first max bytes of each of uids[0..n) and calls fn with
 * them (data is NUL-terminated, len <= max).  fn returning non-zero stops
 * the fetch without an error. */
int imap_fetch(struct imap *im, const uint32_t *uids, size_t n, size_t max,
    int (*fn)(void *arg, uint32_t uid, const char *data, size_t len),
    void *arg, struct err *e);

/* Moves uids[0..n) to folder (the processed or the quarantine folder). */
int imap_move(struct imap *im, const uint32_t *uids, size_t n,
    const char *folder, struct err *e);

/* Waits up to ms milliseconds for the folder to change: with IDLE, until
 * the server says something; without, it only sleeps.  extra_fd (or -1)
 * is polled too.  mask (or NULL) is the signal mask while waiting, as
 * ppoll(2) takes it: a caller that blocks its signals during commands
 * (a signal cuts a libetpan command short) lets them in here.  Returns 1
 * when the server spoke, 0 otherwise (timeout, extra_fd ready, a signal),
 * -1 with e set when the connection failed. */
int imap_wait(struct imap *im, int ms, int extra_fd, const sigset_t *mask,
    struct err *e);

#endif
