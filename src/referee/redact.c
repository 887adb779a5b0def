/*
 * redact.c - keeping secrets out of every stored copy of a mail.
 *
 * A player's secret is typed into order mails; none of what we keep or
 * send may hold it.  Two passes: the words after PASSWORD/SECRET (and the
 * secret as typed) are blanked, and every word that is some player's
 * secret by its keyed hash is blanked too, so a secret quoted anywhere,
 * for any game, is not kept.  The ids of the mail (Message-ID,
 * In-Reply-To, References) are searched part by part as well, since the
 * mail's own id is stored and echoed in the answer's In-Reply-To and
 * References.
 */
#include <sodium.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail.h"
#include "orders/orders.h"
#include "referee/internal.h"

/* Whether buf[i..] is the line of the SECRET GAME command: SECRET at the
 * start of a line, then (from j) one word of a game's length and the
 * line's end. */
static int
secret_command(const char *buf, size_t len, size_t i, size_t j)
{
	size_t w = j;

	if (i > 0 && buf[i - 1] != '\n')
		return 0;
	while (w < len && !isspace((unsigned char)buf[w]))
		w++;
	if (w == j || w - j >= 64)
		return 0;
	while (w < len && (buf[w] == ' ' || buf[w] == '\t' || buf[w] == '\r'))
		w++;
	return w == len || buf[w] == '\n';
}

/* Blanks, in buf, the typed secret and every word that follows PASSWORD,
 * SECRET or "secret:" (so a wrong secret, a quoted welcome or a guess is
 * not kept either), but the game of a SECRET GAME line: a secret written
 * there is still blanked, as the typed one and by its hash. */
void
referee_redact(char *buf, size_t len, const char *secret)
{
	static const char *const kw[] = { "password", "secret" };
	size_t i, k;

	if (secret != NULL && secret[0] != '\0')
		orders_blank_secret(buf, len, secret);
	for (i = 0; i < len; i++) {
		if (i > 0 && isalnum((unsigned char)buf[i - 1]))
			continue;
		for (k = 0; k < 2; k++) {
			size_t n = strlen(kw[k]), j;

			if (len - i < n || strncasecmp(buf + i, kw[k], n) != 0)
				continue;
			j = i + n;
			if (j < len && isalnum((unsigned char)buf[j]))
				continue;
			while (j < len && (buf[j] == ' ' || buf[j] == '\t' ||
			    buf[j] == ':' || buf[j] == '='))
				j++;
			if (k == 1 && secret_command(buf, len, i, j))
				continue;
			while (j < len && !isspace((unsigned char)buf[j]) &&
			    buf[j] != '<' && buf[j] != '>')
				buf[j++] = '*';
		}
	}
}

/* Blanks every word of buf that is some player's secret (by its keyed
 * hash), so a real secret quoted anywhere is not kept even when the mail
 * names no game or gives a wrong one.  Words are runs of non-space; a
 * trailing comma, full stop or the like is tried off too. */
static int
cmp32(const void *a, const void *b)
{
	return memcmp(a, b, 32);
}

/* Blanks buf[a..z) (or it less trailing punctuation) if it is a secret. */
static void
hash_blank(char *buf, size_t a, size_t z, const unsigned char *hashes, int n,
    const unsigned char key[32])
{
	int cut;

	for (cut = 0; cut < 2; cut++) {
		unsigned char h[32];
		size_t w = z - a;

		if (cut == 1) {
			while (w > 0 && ispunct((unsigned char)buf[a + w - 1]))
				w--;
			if (w == z - a)
				return;
		}
		if (w < 8 || w >= REFEREE_SECRET_MAX)
			continue;
		crypto_generichash(h, 32, (const unsigned char *)buf + a, w, key, 32);
		/* The hashes are sorted: a binary search, so a server with many
		 * players costs a mail no more than one with few.  (The hashes
		 * are keyed: how long a comparison takes tells nothing of a
		 * secret.) */
		if (bsearch(h, hashes, (size_t)n, 32, cmp32) != NULL) {
			memset(buf + a, '*', w);
			return;
		}
	}
}

void
referee_redact_known(char *buf, size_t len, const unsigned char *hashes, int n,
    const unsigned char key[32])
{
	size_t i = 0;

	if (n == 0)
		return;
	while (i < len) {
		size_t j;

		while (i < len && isspace((unsigned char)buf[i]))
			i++;
		j = i;
		while (j < len && !isspace((unsigned char)buf[j]))
			j++;
		/* The whole run, then each part of it between quotes,
		 * brackets, '=', ':' or ',' (as in pw=secret or "secret."),
		 * with trailing punctuation tried off. */
		{
			size_t a = i;

			hash_blank(buf, i, j, hashes, n, key);
			while (a < j) {
				size_t z = a;

				while (z < j && !strchr("\"'()<>[]=:,;", buf[z]))
					z++;
				if (a != i || z != j)
					hash_blank(buf, a, z, hashes, n, key);
				a = z + 1;
			}
		}
		i = j;
	}
}

/* Blanks every part of the msg-ids in buf[0..len) that is a known
 * secret.  Clients build ids of parts joined by '.', '@' and a few other
 * characters (a time, a counter, a word of the program's choosing, the
 * host), and a client or a script that takes the word from the subject,
 * or a player's own script given the secret, puts a secret in one. */
static void
redact_id_parts(char *buf, size_t len, const unsigned char *hashes, int n,
    const unsigned char key[32])
{
	size_t a = 0, z;

	while (a < len) {
		z = a;
		while (z < len && !isspace((unsigned char)buf[z]) &&
		    !strchr("<>\"'()[],;:=.@/+_$%&", buf[z]))
			z++;
		if (z > a)
			hash_blank(buf, a, z, hashes, n, key);
		a = z + 1;
	}
}

/* Length of the header block at the start of buf (the whole of it when
 * there is no empty line). */
static size_t
header_len(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (buf[i] == '\n' && (buf[i + 1] == '\n' ||
		    (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')))
			return i + 1;
	return len;
}

void
referee_redact_ids(struct intake *in, const unsigned char *hashes, int n,
    const unsigned char key[32])
{
	char *ids[2];
	int k;

	if (n > 0)
		redact_id_parts(in->stored, header_len(in->stored,
		    in->stored_len), hashes, n, key);
	if (in->m == NULL)
		return;
	ids[0] = in->m->message_id;
	ids[1] = in->m->in_reply_to;
	for (k = 0; k < 2; k++) {
		size_t len;

		if (ids[k] == NULL)
			continue;
		len = strlen(ids[k]);
		referee_redact(ids[k], len, in->secret);
		referee_redact_known(ids[k], len, hashes, n, key);
		if (n > 0)
			redact_id_parts(ids[k], len, hashes, n, key);
	}
}

int
referee_has_ci(const char *buf, size_t len, const char *what)
{
	size_t n = strlen(what), i;

	for (i = 0; i + n <= len; i++)
		if (strncasecmp(buf + i, what, n) == 0)
			return 1;
	return 0;
}
