/*
 * check.c - what a despatchd started on a configuration would use, looked
 * at before anything starts (config.h: config_check).
 *
 * despatchd runs it at start and at every reload, and 'despatch check'
 * runs it alone, as 'postfix check' does.  It reaches no server: an
 * unreachable server at boot is a network blip to wait out, not a broken
 * configuration.  Everything local it can look at, it does, as the user
 * it runs as: the folders it will write, the files it will read, the
 * syntax of each URL (the IMAP one with the parser the daemon uses, the
 * SMTP one with libcurl's, which sends it).
 */
#include "config/config.h"

#include "mail/curl_lazy.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail/imap.h"

struct check {
	const struct config *c;
	config_problem_fn fn;
	void *arg;
	int n;
};

static void
problem(struct check *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
problem(struct check *k, const char *fmt, ...)
{
	char what[1200];
	int at;
	va_list ap;

	at = snprintf(what, sizeof(what), "%s: ", k->c->path);
	if (at < 0 || (size_t)at >= sizeof(what))
		at = 0;
	va_start(ap, fmt);
	vsnprintf(what + at, sizeof(what) - (size_t)at, fmt, ap);
	va_end(ap);
	k->n++;
	if (k->fn != NULL)
		k->fn(k->arg, what);
}

/* The folder a file is in, "." for a bare name. */
static void
folder_of(const char *file, char *out, size_t size)
{
	const char *slash = strrchr(file, '/');

	if (slash == NULL)
		snprintf(out, size, ".");
	else if (slash == file)
		snprintf(out, size, "/");
	else
		snprintf(out, size, "%.*s", (int)(slash - file), file);
}

/* p must be a folder (dir) or a file that this process may use as mode
 * asks; made: a missing file is no problem when its folder can take it
 * (it is made at the first use). */
static void
usable(struct check *k, const char *setting, const char *p, int dir,
    int mode, int made)
{
	char in[CONFIG_PATH_MAX];
	struct stat st;

	if (stat(p, &st) != 0) {
		if (made && errno == ENOENT) {
			folder_of(p, in, sizeof(in));
			usable(k, setting, in, 1, W_OK | X_OK, 0);
		} else {
			problem(k, "%s: %s: %s", setting, p, strerror(errno));
		}
	} else if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
		problem(k, "%s: %s is not a %s", setting, p, dir ? "folder" : "file");
	} else if (access(p, mode) != 0) {
		problem(k, "%s: %s cannot be %s by this user (uid %d): %s", setting,
		    p, !(mode & W_OK) ? "read" : dir ? "written" :
		    "read and written", (int)geteuid(), strerror(errno));
	}
}

static void
secret(struct check *k, const char *sect, const char *file)
{
	char buf[512];
	struct err e;

	err_clear(&e);
	if (config_read_secret(file, buf, sizeof(buf), &e) != 0)
		problem(k, "[%s] password-file: %s", sect, e.msg);
	else if (buf[0] == '\0')
		problem(k, "[%s] password-file: %s: its first line is empty",
		    sect, file);
	explicit_bzero(buf, sizeof(buf));
}

/* smtp[s]://host[:port], as libcurl, which sends the mail, reads it. */
static void
smtp_url(struct check *k, const char *url)
{
	char why[400];
	const struct mail_curl *c = mail_curl(why, sizeof(why));
	CURLU *u;
	char *scheme = NULL, *host = NULL;
	CURLUcode rc;

	if (c == NULL) {
		problem(k, "[smtp] url: %s", why);
		return;
	}
	if ((u = c->url()) == NULL) {
		problem(k, "[smtp] url: out of memory");
		return;
	}
	rc = c->url_set(u, CURLUPART_URL, url, 0);
	if (rc != CURLUE_OK)
		problem(k, "[smtp] url %s: %s; write it smtps://host[:port] or "
		    "smtp://host[:port]", url, c->url_strerror(rc));
	else if (c->url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    (strcasecmp(scheme, "smtp") != 0 && strcasecmp(scheme, "smtps") != 0))
		problem(k, "[smtp] url %s: it must start smtp:// or smtps://", url);
	else if (c->url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    host[0] == '\0')
		problem(k, "[smtp] url %s: no host name", url);
	c->free(scheme);
	c->free(host);
	c->url_cleanup(u);
}

static void
maildir(struct check *k, const char *dir)
{
	static const char *const sub[] = { "new", "cur" };
	char p[CONFIG_PATH_MAX + 8];
	const char *why = NULL;
	struct stat st;
	size_t i;

	if (stat(dir, &st) != 0)
		why = strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = "not a folder";
	if (why != NULL) {
		problem(k, "[maildir] path %s: %s; make it with 'mkdir -p %s/new "
		    "%s/cur %s/tmp', owned by the user despatchd runs as", dir,
		    why, dir, dir, dir);
		return;
	}
	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, sub[i]);
		usable(k, "[maildir] path", p, 1, W_OK | X_OK, 0);
	}
}

/* The files despatchd writes beside its database: its lock, SQLite's
 * journal files.  One that another user made (despatch or an older
 * despatchd run as root) would stop it at its first write, so it is
 * named now, with the way to mend it. */
static void
beside_database(struct check *k, const char *db)
{
	static const char *const suffix[] = { ".despatchd.lock", "-wal",
	    "-shm", "-journal" };
	char p[CONFIG_PATH_MAX + 32];
	struct passwd *pw;
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", db, suffix[i]);
		if (access(p, F_OK) != 0 || access(p, R_OK | W_OK) == 0)
			continue;
		pw = getpwuid(geteuid());
		problem(k, "database: %s cannot be read and written by this user "
		    "(uid %d): %s; another user made it (despatch or despatchd "
		    "run as root?): 'chown %s %s' mends it", p, (int)geteuid(),
		    strerror(errno), pw != NULL ? pw->pw_name : "USER", p);
	}
}

int
config_check(const struct config *c, int daemon, config_problem_fn fn,
    void *arg)
{
	struct check k = { c, fn, arg, 0 };
	struct stat st;

	if (c->database[0] != '\0' && daemon && stat(c->database, &st) != 0 &&
	    errno == ENOENT)
		problem(&k, "database: %s does not exist yet; despatchd serves "
		    "the games made with 'despatch new GAME SCENARIO', which "
		    "makes it", c->database);
	else if (c->database[0] != '\0') {
		usable(&k, "database", c->database, 0, R_OK | W_OK, 1);
		beside_database(&k, c->database);
	}
	else if (daemon)
		problem(&k, "no database: despatchd needs 'database = FILE' "
		    "(/var/lib/despatch/despatch.db, say)");
	if (daemon && !c->imap.set && !c->maildir.set)
		problem(&k, "no mailbox to watch: despatchd needs an [imap] "
		    "section or a [maildir]");
	if (c->key[0] != '\0')
		usable(&k, "key", c->key, 0, R_OK, 1);
	if (c->templates[0] != '\0')
		usable(&k, "templates", c->templates, 1, R_OK | X_OK, 0);
	if (c->user[0] != '\0' && getpwnam(c->user) == NULL)
		problem(&k, "user: there is no user %s on this system (make it "
		    "with 'adduser --system --group %s')", c->user, c->user);
	if (c->imap.set) {
		struct err e;

		err_clear(&e);
		if (imap_url_check(c->imap.url, &e) != 0)
			problem(&k, "[imap] %s", e.msg);
		if (c->imap.user[0] == '\0')
			problem(&k, "[imap] needs user, the mailbox's login");
		if (c->imap.password_file[0] == '\0')
			problem(&k, "[imap] needs password-file, a file holding the "
			    "mailbox's password");
		else
			secret(&k, "imap", c->imap.password_file);
		if (c->imap.ca_file[0] != '\0')
			usable(&k, "[imap] ca-file", c->imap.ca_file, 0, R_OK, 0);
	}
	if (c->smtp.set) {
		smtp_url(&k, c->smtp.url);
		if (c->smtp.password_file[0] != '\0')
			secret(&k, "smtp", c->smtp.password_file);
		else if (c->smtp.user[0] != '\0')
			problem(&k, "[smtp] has a user but no password-file");
		if (c->smtp.ca_file[0] != '\0')
			usable(&k, "[smtp] ca-file", c->smtp.ca_file, 0, R_OK, 0);
	}
	if (c->maildir.set)
		maildir(&k, c->maildir.path);
	return k.n;
}

int
config_become_user(const struct config *c, struct err *e)
{
	struct passwd *pw;

	if (geteuid() != 0 || c->user[0] == '\0')
		return 0;
	errno = 0;
	pw = getpwnam(c->user);
	if (pw == NULL)
		return err_set(e, ERR_USER, "%s: user \"%s\" %s; run as root, "
		    "despatch and despatchd only become it (make the user, or set "
		    "'user' to the daemon's)", c->path, c->user, errno != 0 ?
		    strerror(errno) : "does not exist on this machine");
	if (pw->pw_uid == 0)
		return 0;
	if (initgroups(pw->pw_name, pw->pw_gid) != 0 ||
	    setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
		return err_set(e, ERR_USER, "%s: user: cannot become user %s: %s",
		    c->path, c->user, strerror(errno));
	return 0;
}
