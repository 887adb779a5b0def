/*
 * include.c - a scenario file that takes in another (`include "FILE"`):
 * a ratings overlay names its own title and ruleset, includes a battle
 * written for another ruleset, and adds its own lines (docs/scenario.md,
 * Including another scenario).
 *
 * The include is expanded when the file is read, into one text that
 * stands alone: a game stores that text and never reads the files again.
 * The included file's own `scenario` and `ruleset` lines become comments
 * (the including file gives both), and comments mark where its lines
 * begin and end.  A line map kept meanwhile lets an error in the
 * expanded text name the file and line it came from.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

struct piece {
	const char *name;   /* the file's name as written in errors */
	int first;          /* its first line in the expanded text */
	int nlines;         /* how many */
	int line0;          /* the line of its own file it starts at */
};

struct expansion {
	char *buf;
	size_t len, cap;
	int lines;          /* lines written so far */
	struct piece map[8];
	int nmap;
	char names[2][1600];
};

static int
put(struct expansion *x, const char *s, size_t n, struct err *e)
{
	if (x->len + n + 1 > x->cap) {
		size_t cap = x->cap ? x->cap : 4096;
		char *nb;

		while (cap < x->len + n + 1)
			cap *= 2;
		if (cap > SCENARIO_MAX_BYTES + 4096) {
			err_set(e, ERR_USER, "the scenario with what it includes is "
			    "larger than %u bytes", SCENARIO_MAX_BYTES);
			return -1;
		}
		if ((nb = realloc(x->buf, cap)) == NULL) {
			err_set(e, ERR_INTERNAL, "out of memory");
			return -1;
		}
		x->buf = nb;
		x->cap = cap;
	}
	memcpy(x->buf + x->len, s, n);
	x->len += n;
	x->buf[x->len] = '\0';
	return 0;
}

static int
put_line(struct expansion *x, const char *s, size_t n, struct err *e)
{
	if (put(x, s, n, e) != 0 || put(x, "\n", 1, e) != 0)
		return -1;
	x->lines++;
	return 0;
}

/* The first word of line l (n bytes) and where it ends, or NULL. */
static const char *
first_word(const char *l, size_t n, size_t *wl)
{
	size_t i = 0, j;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	for (j = i; j < n && isalpha((unsigned char)l[j]); j++)
		;
	*wl = j - i;
	return j > i ? l + i : NULL;
}

/* The quoted file name of an include line into out: 0, or -1. */
static int
include_name(const char *l, size_t n, char *out, size_t size)
{
	const char *q = memchr(l, '"', n), *z;
	size_t k;

	if (q == NULL || (z = memchr(q + 1, '"', n - (size_t)(q + 1 - l))) ==
	    NULL || z == q + 1 || (size_t)(z - q - 1) >= size)
		return -1;
	for (k = (size_t)(z + 1 - l); k < n; k++) {
		if (l[k] == '#')
			break;
		if (l[k] != ' ' && l[k] != '\t' && l[k] != '\r')
			return -1;
	}
	memcpy(out, q + 1, (size_t)(z - q - 1));
	out[z - q - 1] = '\0';
	return 0;
}

/* Starts a piece of the map: the next lines come from `name`, from its
 * line line0. */
static void
map_piece(struct expansion *x, int file, int line0)
{
	struct piece *p;

	if (x->nmap > 0) {
		p = &x->map[x->nmap - 1];
		p->nlines = x->lines - p->first;
	}
	p = &x->map[x->nmap++];
	p->name = x->names[file];
	p->first = x->lines;
	p->line0 = line0;
	p->nlines = 0;
}

/* Copies text (of file `file`) into x line by line; an include line is
 * replaced by the included file (depth 0 only); an included file's
 * scenario and ruleset lines become comments. */
static int
copy(struct expansion *x, const char *text, size_t len, int file, int depth,
    const char *dir, struct err *e)
{
	size_t pos = 0;
	int line = 0, included = 0;

	map_piece(x, file, 1);
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - l) : len - pos, wl;
		const char *w = first_word(l, n, &wl);

		pos += n + (nl != NULL);
		line++;
		if (w != NULL && wl == 7 && strncmp(w, "include", 7) == 0) {
			char name[512], path[1600];
			char *inc = NULL;
			size_t ilen = 0;
			int rc;

			if (depth > 0) {
				err_set(e, ERR_USER, "%s:%d: an included scenario may "
				    "not include another", x->names[file], line);
				return -1;
			}
			if (included) {
				err_set(e, ERR_USER, "%s:%d: a scenario includes one "
				    "other scenario at most", x->names[file], line);
				return -1;
			}
			if (include_name(l, n, name, sizeof(name)) != 0) {
				err_set(e, ERR_USER, "%s:%d: expected 'include \"FILE\"' "
				    "(a scenario file, its path relative to this "
				    "one's folder)", x->names[file], line);
				return -1;
			}
			included = 1;
			snprintf(path, sizeof(path), "%s%s", name[0] == '/' ? "" :
			    dir, name);
			if (scenario_read_file(path, SCENARIO_MAX_BYTES, &inc, &ilen,
			    e) != 0) {
				char why[ERR_MSG_MAX];

				snprintf(why, sizeof(why), "%s", e->msg);
				err_set(e, ERR_USER, "%s:%d: cannot include: %s",
				    x->names[file], line, why);
				return -1;
			}
			snprintf(x->names[1], sizeof(x->names[1]), "%s", path);
			snprintf(path, sizeof(path), "# --- included: %s ---", name);
			if (put_line(x, path, strlen(path), e) != 0) {
				free(inc);
				return -1;
			}
			rc = copy(x, inc, ilen, 1, depth + 1, dir, e);
			free(inc);
			if (rc != 0)
				return -1;
			snprintf(path, sizeof(path), "# --- end of %s ---", name);
			if (put_line(x, path, strlen(path), e) != 0)
				return -1;
			map_piece(x, file, line + 1);
			continue;
		}
		if (depth > 0 && w != NULL && ((wl == 8 &&
		    strncmp(w, "scenario", 8) == 0) || (wl == 7 &&
		    strncmp(w, "ruleset", 7) == 0))) {
			/* The including file names the battle and its rules. */
			if (put(x, "# (the including file's own) ", 29, e) != 0 ||
			    put_line(x, l, n, e) != 0)
				return -1;
			continue;
		}
		if (put_line(x, l, n, e) != 0)
			return -1;
	}
	x->map[x->nmap - 1].nlines = x->lines - x->map[x->nmap - 1].first;
	return 0;
}

/* Rewrites "expanded:N: ..." in e to name the file and line N came from. */
static void
map_error(const struct expansion *x, const char *path, struct err *e)
{
	size_t pl = strlen(path);
	char rest[ERR_MSG_MAX];
	int n, i;
	char *end;

	if (strncmp(e->msg, path, pl) != 0 || e->msg[pl] != ':')
		return;
	n = (int)strtol(e->msg + pl + 1, &end, 10);
	if (end == e->msg + pl + 1 || *end != ':')
		return;
	snprintf(rest, sizeof(rest), "%s", end);
	for (i = 0; i < x->nmap; i++) {
		const struct piece *p = &x->map[i];

		if (n - 1 >= p->first && n - 1 < p->first + p->nlines) {
			snprintf(e->msg, sizeof(e->msg), "%.400s:%d%.*s", p->name,
			    p->line0 + (n - 1 - p->first),
			    (int)sizeof(e->msg) - 420, rest);
			return;
		}
	}
}

/* Reads path with what it includes into *text, *len (x keeps the line
 * map); 0, or -1 with e set. */
static int
expand(const char *path, struct expansion *x, char **text, size_t *len,
    struct err *e)
{
	char *raw = NULL, dir[1024];
	const char *slash = strrchr(path, '/');
	size_t rlen = 0;

	*text = NULL;
	if (scenario_read_file(path, SCENARIO_MAX_BYTES, &raw, &rlen, e) != 0)
		return -1;
	memset(x, 0, sizeof(*x));
	snprintf(x->names[0], sizeof(x->names[0]), "%s", path);
	snprintf(dir, sizeof(dir), "%.*s", slash != NULL ?
	    (int)(slash - path + 1) : 0, path);
	if (copy(x, raw, rlen, 0, 0, dir, e) != 0) {
		free(raw);
		free(x->buf);
		return -1;
	}
	if (x->nmap == 1) {
		/* Nothing included: the file's own bytes, as they were. */
		free(x->buf);
		x->buf = raw;
		x->len = rlen;
	} else {
		free(raw);
	}
	*text = x->buf;
	*len = x->len;
	return 0;
}

int
scenario_expand_file(const char *path, char **text, size_t *len,
    struct err *e)
{
	struct expansion x;

	return expand(path, &x, text, len, e);
}

int
scenario_load_file(const char *path, char **text, size_t *len,
    struct battle **out, struct err *e)
{
	struct expansion x;

	*out = NULL;
	if (expand(path, &x, text, len, e) != 0)
		return -1;
	if (scenario_parse(*text, *len, path, 0, out, e) != 0) {
		map_error(&x, path, e);
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}
