/*
 * smtp.c - sending one queued mail over SMTP with libcurl (RFC 5321; TLS
 * by smtps:// or STARTTLS when the server offers it, RFC 3207).
 *
 * The bytes sent are the bytes stored: the message was composed when it
 * was queued, with its Message-ID, so a mail sent again after a crash
 * between the server's 250 and our record of it is recognisably the same
 * mail.  What the server said decides what happens next: 2xx sent, 5xx a
 * permanent failure for this mail, anything else (4xx, no connection, a
 * TLS or login failure) a passing one, tried again later.
 */
#include "mail/mail.h"
#include "mail/curl_lazy.h"

#include <stdio.h>
#include <string.h>

struct upload {
	const char *p;
	size_t left;
};

static size_t
read_cb(char *buf, size_t size, size_t n, void *arg)
{
	struct upload *u = arg;
	size_t want = size * n;

	if (want > u->left)
		want = u->left;
	memcpy(buf, u->p, want);
	u->p += want;
	u->left -= want;
	return want;
}

/* The addr-spec of "Name <addr>" or of a bare address, in out. */
static void
addr_spec(const char *from, char *out, size_t size)
{
	const char *lt = strchr(from, '<'), *gt;

	if (lt != NULL && (gt = strchr(lt, '>')) != NULL) {
		snprintf(out, size, "<%.*s>", (int)(gt - lt - 1), lt + 1);
		return;
	}
	snprintf(out, size, "<%s>", from);
}

void *
mail_smtp_session_new(void)
{
	const struct mail_curl *k = mail_curl(NULL, 0);

	return k != NULL ? k->easy_init() : NULL;
}

void
mail_smtp_session_free(void *session)
{
	const struct mail_curl *k;

	if (session != NULL && (k = mail_curl(NULL, 0)) != NULL)
		k->easy_cleanup(session);
}

int
mail_smtp_send(const struct mail_smtp *s, const char *from, const char *to,
    const char *raw, size_t len, char *why, size_t whysize)
{
	return mail_smtp_send_on(NULL, s, from, to, raw, len, why, whysize);
}

int
mail_smtp_send_on(void *session, const struct mail_smtp *s, const char *from,
    const char *to, const char *raw, size_t len, char *why, size_t whysize)
{
	const struct mail_curl *k = mail_curl(why, whysize);
	CURL *c;
	struct curl_slist *rcpt = NULL;
	struct upload u = { raw, len };
	char url[700], mfrom[300], rto[300], errbuf[CURL_ERROR_SIZE] = "";
	long code = 0;
	CURLcode rc;
	int result;

	if (k == NULL)
		return MAIL_SMTP_RETRY;   /* why says which library, and why */
	if ((c = session != NULL ? session : k->easy_init()) == NULL) {
		snprintf(why, whysize, "curl could not start");
		return MAIL_SMTP_RETRY;
	}
	/* The EHLO name is the URL's path (curl's own choice otherwise). */
	snprintf(url, sizeof(url), "%s/%s", s->url, s->helo[0] ? s->helo :
	    "localhost");
	addr_spec(from, mfrom, sizeof(mfrom));
	snprintf(rto, sizeof(rto), "<%s>", to);
	rcpt = k->slist_append(NULL, rto);
	k->easy_setopt(c, CURLOPT_URL, url);
	k->easy_setopt(c, CURLOPT_MAIL_FROM, mfrom);
	k->easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
	k->easy_setopt(c, CURLOPT_UPLOAD, 1L);
	k->easy_setopt(c, CURLOPT_READFUNCTION, read_cb);
	k->easy_setopt(c, CURLOPT_READDATA, &u);
	k->easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	k->easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	k->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
	k->easy_setopt(c, CURLOPT_TIMEOUT, 120L);
	k->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	/* STARTTLS when the server offers it; smtps:// is TLS throughout.
	 * Certificates are always verified. */
	k->easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
	if (s->ca_file[0] != '\0') {
		/* The named CAs instead of the system's, as for IMAP: and
		 * libcurl then need not load and keep the system's store. */
		k->easy_setopt(c, CURLOPT_CAINFO, s->ca_file);
		k->easy_setopt(c, CURLOPT_CAPATH, NULL);
	}
	if (s->user[0] != '\0') {
		k->easy_setopt(c, CURLOPT_USERNAME, s->user);
		k->easy_setopt(c, CURLOPT_PASSWORD, s->password);
	}
	rc = k->easy_perform(c);
	k->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	if (rc == CURLE_OK) {
		snprintf(why, whysize, "sent (%ld)", code);
		result = MAIL_SMTP_SENT;
	} else if (code >= 500 && code < 600 && rc != CURLE_LOGIN_DENIED) {
		snprintf(why, whysize, "refused by the server (%ld): %s", code,
		    errbuf[0] ? errbuf : k->easy_strerror(rc));
		result = MAIL_SMTP_FAILED;
	} else {
		snprintf(why, whysize, "%s%s%s", k->easy_strerror(rc),
		    errbuf[0] ? ": " : "", errbuf);
		result = MAIL_SMTP_RETRY;
	}
	k->slist_free_all(rcpt);
	/* A session keeps its connection for the next mail. */
	if (session == NULL)
		k->easy_cleanup(c);
	else
		k->easy_setopt(c, CURLOPT_MAIL_RCPT, NULL);
	return result;
}
