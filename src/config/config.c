/*
 * config.c - reading despatch.conf (see config.h and despatch.conf(5)).
 *
 * inih does the INI syntax; this file knows the keys.  inih (as Debian
 * builds it) hands the handler no line number, so the reader counts the
 * lines it gives inih, and every message names the line.
 */
#include "config/config.h"

#include <ini.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct load {
	struct config *c;
	struct err *e;
	FILE *f;
	int line;
	int failed;
};

static char *
reader(char *str, int num, void *stream)
{
	struct load *l = stream;
	char *r = fgets(str, num, l->f);

	if (r != NULL)
		l->line++;
	return r;
}

static int
bad(struct load *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
bad(struct load *l, const char *fmt, ...)
{
	char what[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!l->failed)
		err_set(l->e, ERR_USER, "%s:%d: %s", l->c->path, l->line, what);
	l->failed = 1;
	return 0;
}

static int
copy(struct load *l, char *out, size_t size, const char *name,
    const char *value)
{
	if (strlen(value) >= size)
		return bad(l, "the value of %s is too long%s", name, "");
	memcpy(out, value, strlen(value) + 1);
	return 1;
}

/* A mail address as far as a From needs: one '@', no white space or
 * characters that would break a header. */
static int
plain_address(const char *a, size_t n)
{
	const char *at = memchr(a, '@', n);
	size_t i;

	if (at == NULL || at == a || at == a + n - 1)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)a[i] <= ' ' || (unsigned char)a[i] >= 127 ||
		    strchr("<>()[],;:\\\"", a[i]))
			return 0;
	return 1;
}

static int
valid_from(const char *v)
{
	const char *lt = strchr(v, '<'), *gt = strrchr(v, '>');
	const char *p;

	for (p = v; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			return 0;
	if (lt == NULL)
		return plain_address(v, strlen(v));
	return gt != NULL && gt > lt && gt[1] == '\0' &&
	    plain_address(lt + 1, (size_t)(gt - lt - 1));
}

int
config_duration_ms(const char *v, int *out)
{
	char *end;
	int64_t n, unit = 1000;

	/* 64 bits whatever long is: "24000h" times an hour's milliseconds
	 * would wrap a 32-bit long and come out looking small. */
	errno = 0;
	n = strtoll(v, &end, 10);
	if (end == v || errno != 0 || n < 0 || n > 86400000 ||
	    !isdigit((unsigned char)*v))
		return -1;
	if (strcmp(end, "ms") == 0)
		unit = 1, end += 2;
	else if (*end == 'm')
		unit = 60000, end++;
	else if (*end == 'h')
		unit = 3600000, end++;
	else if (*end == 's' || *end == '\0')
		end += *end == 's';
	n *= unit;
	if (*end != '\0' || n < 10 || n > 86400000)
		return -1;
	*out = (int)n;
	return 0;
}

/* poll, in [imap] or [maildir]: how often to look without being told. */
static int
poll_key(struct load *l, struct config *c, const char *value)
{
	if (config_duration_ms(value, &c->poll_ms) == 0)
		return 1;
	return bad(l, "poll takes a time such as 30s, 2m, 1h or 250ms (10ms "
	    "to 24h), not \"%s\"%s", value, "");
}

static int
server_key(struct load *l, struct config_server *s, const char *sect,
    const char *name, const char *value)
{
	s->set = 1;
	if (strcmp(name, "url") == 0) {
		int imap = strcmp(sect, "imap") == 0;
		const char *want = imap ? "imap://" : "smtp://";
		const char *wants = imap ? "imaps://" : "smtps://";

		if (strncmp(value, want, strlen(want)) != 0 &&
		    strncmp(value, wants, strlen(wants)) != 0)
			return bad(l, "url must start %s (or %s)", want, wants);
		return copy(l, s->url, sizeof(s->url), "url", value);
	}
	if (strcmp(name, "user") == 0)
		return copy(l, s->user, sizeof(s->user), "user", value);
	if (strcmp(name, "password") == 0)
		return bad(l, "a password never goes in this file: put it in a "
		    "file of its own, readable only by despatch, and name it "
		    "with password-file%s%s", "", "");
	if (strcmp(name, "password-file") == 0)
		return copy(l, s->password_file, sizeof(s->password_file),
		    "password-file", value);
	if (strcmp(name, "ca-file") == 0)
		return copy(l, s->ca_file, sizeof(s->ca_file), "ca-file", value);
	return -1;
}

static int
handler(void *user, const char *section, const char *name, const char *v0)
{
	struct load *l = user;
	struct config *c = l->c;
	char value[CONFIG_PATH_MAX];
	char *hash;
	size_t n;
	int rc = -1;

	/* A comment after a value: "poll = 30s   # seconds". */
	snprintf(value, sizeof(value), "%s", v0);
	for (hash = value; (hash = strchr(hash, '#')) != NULL; hash++)
		if (hash == value || isspace((unsigned char)hash[-1])) {
			*hash = '\0';
			break;
		}
	n = strlen(value);
	while (n > 0 && isspace((unsigned char)value[n - 1]))
		value[--n] = '\0';
	if (l->failed)
		return 1;
	if (value[0] == '\0')
		return bad(l, "%s has no value%s", name, "");
	if (section[0] == '\0') {
		if (strcmp(name, "database") == 0)
			rc = copy(l, c->database, sizeof(c->database), name, value);
		else if (strcmp(name, "from") == 0)
			rc = valid_from(value) ? copy(l, c->from, sizeof(c->from),
			    name, value) : bad(l, "from must be an address, or a "
			    "name and an address: despatch <umpire@club.example>, "
			    "not \"%s\"%s", value, "");
		else if (strcmp(name, "user") == 0)
			rc = copy(l, c->user, sizeof(c->user), name, value);
		else if (strcmp(name, "key") == 0)
			rc = copy(l, c->key, sizeof(c->key), name, value);
		else if (strcmp(name, "templates") == 0)
			rc = copy(l, c->templates, sizeof(c->templates), name, value);
		else if (strcmp(name, "log") == 0) {
			if (strcmp(value, "stderr") == 0)
				c->log = CONFIG_LOG_STDERR, rc = 1;
			else if (strcmp(value, "syslog") == 0)
				c->log = CONFIG_LOG_SYSLOG, rc = 1;
			else
				rc = bad(l, "log takes stderr (the journal, under "
				    "systemd) or syslog (the mail facility), not "
				    "\"%s\"%s", value, "");
		}
	} else if (strcmp(section, "imap") == 0) {
		rc = server_key(l, &c->imap, section, name, value);
		if (rc < 0 && strcmp(name, "processed") == 0)
			rc = copy(l, c->processed, sizeof(c->processed), name, value);
		else if (rc < 0 && strcmp(name, "quarantine") == 0)
			rc = copy(l, c->quarantine, sizeof(c->quarantine), name,
			    value);
		else if (rc < 0 && strcmp(name, "idle") == 0) {
			if (strcasecmp(value, "yes") == 0)
				c->idle = 1, rc = 1;
			else if (strcasecmp(value, "no") == 0)
				c->idle = 0, rc = 1;
			else
				rc = bad(l, "idle takes yes or no, not \"%s\"%s", value,
				    "");
		} else if (rc < 0 && strcmp(name, "poll") == 0)
			rc = poll_key(l, c, value);
	} else if (strcmp(section, "smtp") == 0) {
		rc = server_key(l, &c->smtp, section, name, value);
	} else if (strcmp(section, "maildir") == 0) {
		c->maildir.set = 1;
		if (strcmp(name, "path") == 0)
			rc = copy(l, c->maildir.path, sizeof(c->maildir.path), name,
			    value);
		else if (strcmp(name, "poll") == 0)
			rc = poll_key(l, c, value);
	} else {
		return bad(l, "there is no section [%s]; the sections are [imap], "
		    "[maildir] and [smtp]%s", section, "");
	}
	if (rc < 0)
		return bad(l, "unknown key \"%s\"%s; see despatch.conf(5)", name,
		    section[0] ? (strcmp(section, "imap") == 0 ? " in [imap]" :
		    strcmp(section, "smtp") == 0 ? " in [smtp]" : " in [maildir]") :
		    " before the first section");
	return rc;
}

const char *
config_default_path(const char *env)
{
	return env != NULL && *env != '\0' ? env : CONFIG_DEFAULT;
}

int
config_load(const char *path, struct config *c, struct err *e)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (f == NULL) {
		memset(c, 0, sizeof(*c));
		return err_set(e, ERR_USER, "%s: cannot read the configuration: %s",
		    path, strerror(errno));
	}
	rc = config_read(f, path, c, e);
	fclose(f);
	return rc;
}

int
config_read(FILE *f, const char *path, struct config *c, struct err *e)
{
	struct load l;
	int rc;

	memset(c, 0, sizeof(*c));
	memset(&l, 0, sizeof(l));
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->idle = 1;
	c->poll_ms = 30000;
	snprintf(c->processed, sizeof(c->processed), "Processed");
	snprintf(c->quarantine, sizeof(c->quarantine), "Quarantine");
	l.c = c;
	l.e = e;
	l.f = f;
	rc = ini_parse_stream(reader, &l, handler, &l);
	if (l.failed)
		return -1;
	if (rc > 0)
		return err_set(e, ERR_USER, "%s:%d: not a 'key = value' line, a "
		    "[section] or a comment", path, rc);
	if (rc < 0)
		return err_set(e, ERR_INTERNAL, "%s: reading the configuration "
		    "failed", path);
	if ((c->imap.set && c->imap.url[0] == '\0') ||
	    (c->smtp.set && c->smtp.url[0] == '\0'))
		return err_set(e, ERR_USER, "%s: [%s] needs a url", path,
		    c->imap.set && c->imap.url[0] == '\0' ? "imap" : "smtp");
	if (c->maildir.set && c->maildir.path[0] == '\0')
		return err_set(e, ERR_USER, "%s: [maildir] needs a path", path);
	return 0;
}

/* Whether a password file is despatch's alone: nobody but its owner may
 * read it, or (the Debian way for a file root hands a daemon) root owns
 * it and only the group we run in may read it too.  Writable by anyone
 * but its owner, it is not. */
static int
secret_private(const struct stat *st)
{
	gid_t groups[256];
	int n, i;

	if ((st->st_mode & 077) == 0)
		return 1;
	if ((st->st_mode & 037) != 0 || st->st_uid != 0)
		return 0;
	if (st->st_gid == getegid())
		return 1;
	n = getgroups((int)(sizeof(groups) / sizeof(groups[0])), groups);
	for (i = 0; i < n; i++)
		if (groups[i] == st->st_gid && st->st_gid != 0)
			return 1;
	return 0;
}

int
config_read_secret(const char *path, char *out, size_t size, struct err *e)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	size_t n;

	if (f == NULL)
		return err_set(e, ERR_USER, "%s: cannot read the password file: %s",
		    path, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && !secret_private(&st)) {
		fclose(f);
		return err_set(e, ERR_USER, "%s: the password file may be read by "
		    "others; make it readable by despatch alone (chmod 600, or "
		    "chown root:GROUP and chmod 640 where GROUP is despatchd's "
		    "group)", path);
	}
	if (fgets(out, (int)size, f) == NULL) {
		fclose(f);
		return err_set(e, ERR_USER, "%s: the password file is empty", path);
	}
	fclose(f);
	n = strcspn(out, "\r\n");
	out[n] = '\0';
	return 0;
}
