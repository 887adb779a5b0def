/*
 * config.h - the one configuration file of despatch and despatchd
 * (despatch.conf(5), a commented example in contrib/despatch.conf).
 *
 * An INI file read with inih: `key = value`, `[section]`, comments from
 * '#' or ';' to the end of the line.  Every key is known and checked as it
 * is read; an unknown key, a bad value or a malformed line is an error
 * naming the file and the line.  Passwords are never in this file, only
 * the names of files that hold them.
 */
#ifndef DESPATCH_CONFIG_H
#define DESPATCH_CONFIG_H

#include <stdio.h>

#include "core/err.h"

#define CONFIG_PATH_MAX 1024
#define CONFIG_DEFAULT "/etc/despatch/despatch.conf"
#define CONFIG_VALUE_MAX 512

struct config_server {
	int set;                            /* the section is present */
	char url[CONFIG_VALUE_MAX];         /* imap[s]://host[:port]/FOLDER,
	                                     * smtp[s]://host[:port] */
	char user[CONFIG_VALUE_MAX];
	char password_file[CONFIG_PATH_MAX];
	char ca_file[CONFIG_PATH_MAX];      /* "" : the system's CAs */
};

struct config {
	char path[CONFIG_PATH_MAX];         /* the file read */
	char database[CONFIG_PATH_MAX];
	char key[CONFIG_PATH_MAX];          /* the ledger's signing key file;
	                                     * "": DATABASE.key */
	char templates[CONFIG_PATH_MAX];    /* a directory of narrative
	                                     * templates that replace the
	                                     * built-in ones; "": none */
	char from[CONFIG_VALUE_MAX];        /* "Name <addr>" or addr */
	char user[64];                      /* drop root to this user */
	enum { CONFIG_LOG_STDERR, CONFIG_LOG_SYSLOG } log;  /* where
	                                     * despatchd's lines go */
	struct config_server imap;
	char processed[128];                /* IMAP folder for stored mail */
	char quarantine[128];               /* ... and for mail intake failed */
	int idle;                           /* use IDLE when offered */
	int poll_ms;                        /* how often to look, when not told */
	struct {
		int set;
		char path[CONFIG_PATH_MAX];
	} maildir;
	struct config_server smtp;
};

/* The file read when none is named: env (the fronts pass
 * $DESPATCH_CONFIG; the library reads no environment) unless NULL or
 * empty, else CONFIG_DEFAULT. */
const char *config_default_path(const char *env);

/* Reads path into *c (defaults first: idle yes, poll 30 s, folders
 * Processed and Quarantine).  0, or -1 with e saying "file:line: what is
 * wrong, and what would be right" (ERR_USER). */
int config_load(const char *path, struct config *c, struct err *e);
/* The same from an open stream, its messages naming path. */
int config_read(FILE *f, const char *path, struct config *c, struct err *e);

/* "250ms", "30s", "2m", "1h" or plain seconds, as milliseconds from
 * 10 ms to a day: 0 and *out, or -1. */
int config_duration_ms(const char *v, int *out);

/* What config_check tells of each problem it finds: one line, naming
 * the file (and the setting) and what would be right. */
typedef void (*config_problem_fn)(void *arg, const char *what);

/* Checks, without starting anything or reaching any server, that what a
 * despatchd started on c would use is there and usable by this process:
 * the database's folder, the mailbox settings (a mailbox to watch, the
 * syntax of each URL), each password file (readable, private, not
 * empty), CA files, the Maildir and its new/ and cur/, the key, the
 * templates folder, the user to run as.  daemon: c is for despatchd
 * (a database and a mailbox are needed).  The number of problems, each
 * told to fn. */
int config_check(const struct config *c, int daemon, config_problem_fn fn,
    void *arg);

/* Run as root with c's user set, becomes that user, its group and its
 * other groups, for good; otherwise does nothing.  0, or -1 with e set. */
int config_become_user(const struct config *c, struct err *e);

/* Reads the first line of a password file into out (size bytes), without
 * its line end.  0, or -1 with e set. */
int config_read_secret(const char *path, char *out, size_t size,
    struct err *e);

#endif
