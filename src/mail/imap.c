/*
 * imap.c - the daemon's IMAP intake over libetpan (imap.h).
 *
 * libetpan does the protocol, the TLS handshake and IDLE, but with GnuTLS
 * it does not check the server's certificate at all: it hands back the
 * chain the server sent.  So this file checks it with GnuTLS itself (the
 * chain against the system's CAs or the configured CA file, then the
 * name), before the password is ever sent.  That check is the one piece
 * written here rather than taken from a library, because no Debian library
 * offers it for a libetpan stream.
 */
#define _GNU_SOURCE    /* ppoll */
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <libetpan/libetpan.h>

#include "mail/imap.h"

#define CHAIN_MAX 16
#define IDLE_MAX_MS (25 * 60 * 1000)   /* RFC 2177: renew IDLE within 29 min */

struct imap {
	mailimap *imap;
	char host[256];
	uint16_t port;
	int tls;                /* imaps://, or STARTTLS taken */
	char folder[256];
	int has_idle, has_move, has_uidplus, use_idle;
	char desc[1024];
};

/* The server's last words, for an error: its response text, without the
 * line end. */
static const char *
said(const struct imap *im)
{
	static char buf[200];
	const char *s = im->imap != NULL ? im->imap->imap_response : NULL;
	size_t i;

	if (s == NULL || *s == '\0')
		return "no reason given";
	for (i = 0; s[i] != '\0' && i + 1 < sizeof(buf); i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : ' ';
	buf[i] = '\0';
	return buf;
}

static const char *
why(int rc)
{
	switch (rc) {
	case MAILIMAP_ERROR_CONNECTION_REFUSED:
		return "the connection was refused or the host is unreachable";
	case MAILIMAP_ERROR_STREAM:
		return "the connection was lost or timed out";
	case MAILIMAP_ERROR_SSL:
		return "the TLS handshake failed";
	case MAILIMAP_ERROR_STARTTLS:
		return "STARTTLS failed";
	case MAILIMAP_ERROR_PARSE:
		return "the server's answer could not be read";
	case MAILIMAP_ERROR_MEMORY:
		return "out of memory";
	case MAILIMAP_ERROR_DONT_ACCEPT_CONNECTION:
		return "the server does not accept connections now";
	default:
		return "the server refused the command";
	}
}

/* imap[s]://host[:port][/folder], folder %-decoded, INBOX by default. */
static int
parse_url(const char *url, struct imap *im, struct err *e)
{
	const char *p, *h, *end;
	size_t n, o;
	long port;

	if (strncmp(url, "imaps://", 8) == 0) {
		im->tls = 1;
		p = url + 8;
		port = 993;
	} else if (strncmp(url, "imap://", 7) == 0) {
		p = url + 7;
		port = 143;
	} else
		return err_set(e, ERR_USER, "imap url %s: it must start imap:// "
		    "or imaps://", url);
	if (*p == '[') {
		h = p + 1;
		end = strchr(h, ']');
		if (end == NULL)
			return err_set(e, ERR_USER, "imap url %s: no ']' after the "
			    "IPv6 address", url);
		p = end + 1;
	} else {
		h = p;
		end = p + strcspn(p, ":/");
		p = end;
	}
	n = (size_t)(end - h);
	if (n == 0 || n >= sizeof(im->host))
		return err_set(e, ERR_USER, "imap url %s: no host name", url);
	memcpy(im->host, h, n);
	im->host[n] = '\0';
	if (*p == ':') {
		char *q;

		port = strtol(p + 1, &q, 10);
		if (q == p + 1 || port < 1 || port > 65535 ||
		    (*q != '\0' && *q != '/'))
			return err_set(e, ERR_USER, "imap url %s: the port must be a "
			    "number from 1 to 65535", url);
		p = q;
	}
	im->port = (uint16_t)port;
	if (*p == '/')
		p++;
	for (o = 0; *p != '\0' && o + 1 < sizeof(im->folder); p++) {
		if (*p == '%' && isxdigit((unsigned char)p[1]) &&
		    isxdigit((unsigned char)p[2])) {
			char hex[3] = { p[1], p[2], '\0' };

			im->folder[o++] = (char)strtol(hex, NULL, 16);
			p += 2;
		} else
			im->folder[o++] = *p;
	}
	im->folder[o] = '\0';
	if (o == 0)
		snprintf(im->folder, sizeof(im->folder), "INBOX");
	return 0;
}

static int
is_address(const char *host)
{
	unsigned char buf[16];

	return inet_pton(AF_INET, host, buf) == 1 ||
	    inet_pton(AF_INET6, host, buf) == 1;
}

/* This machine: the only place a login may go without TLS.  Addresses
 * only (127/8, ::1) and the name localhost; never a name that merely
 * starts with "127.". */
static int
is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (strcmp(host, "localhost") == 0)
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	return inet_pton(AF_INET6, host, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6);
}

static void
tls_setup(struct mailstream_ssl_context *ctx, void *arg)
{
	struct imap *im = arg;

	/* SNI: a name only, never an address (RFC 6066). */
	if (!is_address(im->host))
		mailstream_ssl_set_server_name(ctx, im->host);
}

/* Checks the certificate chain the server sent: signed by a trusted CA
 * (ca_file, else the system's), in date, and for the host we asked for. */
static int
verify_peer(struct imap *im, const char *ca_file, struct err *e)
{
	carray *chain = mailstream_get_certificate_chain(im->imap->imap_stream);
	gnutls_x509_crt_t certs[CHAIN_MAX];
	gnutls_x509_trust_list_t tl = NULL;
	unsigned int n = 0, i, status = 0;
	int rc = -1, r;

	if (chain == NULL || carray_count(chain) == 0) {
		err_set(e, ERR_USER, "%s:%u sent no certificate", im->host,
		    im->port);
		goto out;
	}
	for (i = 0; i < carray_count(chain) && n < CHAIN_MAX; i++) {
		MMAPString *der = carray_get(chain, i);
		gnutls_datum_t d = { (unsigned char *)der->str,
		    (unsigned int)der->len };

		if (gnutls_x509_crt_init(&certs[n]) < 0)
			break;
		if (gnutls_x509_crt_import(certs[n], &d, GNUTLS_X509_FMT_DER) < 0) {
			gnutls_x509_crt_deinit(certs[n]);
			err_set(e, ERR_USER, "%s:%u sent a certificate that cannot "
			    "be read", im->host, im->port);
			goto out;
		}
		n++;
	}
	if (gnutls_x509_trust_list_init(&tl, 0) < 0) {
		err_set(e, ERR_TEMP, "cannot check certificates: out of memory");
		goto out;
	}
	if (ca_file != NULL && ca_file[0] != '\0')
		r = gnutls_x509_trust_list_add_trust_file(tl, ca_file, NULL,
		    GNUTLS_X509_FMT_PEM, 0, 0);
	else
		r = gnutls_x509_trust_list_add_system_trust(tl, 0, 0);
	if (r <= 0) {
		err_set(e, ERR_USER, "no trusted certificate could be read from "
		    "%s (%s)", ca_file != NULL && ca_file[0] != '\0' ? ca_file :
		    "the system's CA store", r < 0 ? gnutls_strerror(r) :
		    "it holds none");
		goto out;
	}
	{
		/* The leaf must be meant for a TLS server. */
		gnutls_typed_vdata_st purpose = { GNUTLS_DT_KEY_PURPOSE_OID,
		    (unsigned char *)GNUTLS_KP_TLS_WWW_SERVER, 0 };

		r = gnutls_x509_trust_list_verify_crt2(tl, certs, n, &purpose, 1,
		    0, &status, NULL);
	}
	if (r < 0 || status != 0) {
		gnutls_datum_t txt = { NULL, 0 };

		if (r >= 0)
			gnutls_certificate_verification_status_print(status,
			    GNUTLS_CRT_X509, &txt, 0);
		err_set(e, ERR_USER, "the certificate of %s:%u is not trusted: %s "
		    "(name the CA that signed it with ca-file in [imap])",
		    im->host, im->port, r < 0 ? gnutls_strerror(r) :
		    txt.data != NULL ? (const char *)txt.data : "rejected");
		gnutls_free(txt.data);
		goto out;
	}
	if (!gnutls_x509_crt_check_hostname2(certs[0], im->host, 0)) {
		err_set(e, ERR_USER, "the certificate of %s:%u is for another "
		    "name than %s", im->host, im->port, im->host);
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		gnutls_x509_crt_deinit(certs[i]);
	if (tl != NULL)
		gnutls_x509_trust_list_deinit(tl, 1);
	if (chain != NULL)
		mailstream_certificate_chain_free(chain);
	return rc;
}

static int
capabilities(struct imap *im, struct err *e)
{
	struct mailimap_capability_data *cap = NULL;
	int rc = mailimap_capability(im->imap, &cap);

	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: CAPABILITY failed: %s",
		    im->host, im->port, why(rc));
	mailimap_capability_data_free(cap);
	return 0;
}

/* The folder, made when it is missing. */
static int
ensure_folder(struct imap *im, const char *name, struct err *e)
{
	clist *found = NULL;
	int rc, n;

	rc = mailimap_list(im->imap, "", name, &found);
	if (rc != MAILIMAP_NO_ERROR && found != NULL)
		mailimap_list_result_free(found);
	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: LIST %s failed: %s (%s)",
		    im->host, im->port, name, why(rc), said(im));
	n = clist_count(found);
	mailimap_list_result_free(found);
	if (n > 0)
		return 0;
	rc = mailimap_create(im->imap, name);
	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: the folder %s is missing and "
		    "cannot be made: %s", im->host, im->port, name, said(im));
	return 0;
}

int
imap_url_check(const char *url, struct err *e)
{
	struct imap im;

	memset(&im, 0, sizeof(im));
	return parse_url(url, &im, e);
}

int
imap_open(const struct mail_imap *cfg, struct imap **out, struct err *e)
{
	struct imap *im = calloc(1, sizeof(*im));
	int rc;

	*out = NULL;
	if (im == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	if (parse_url(cfg->url, im, e) != 0)
		goto fail;
	im->imap = mailimap_new(0, NULL);
	if (im->imap == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto fail;
	}
	mailimap_set_timeout(im->imap, cfg->timeout > 0 ? cfg->timeout : 60);
	if (im->tls)
		rc = mailimap_ssl_connect_with_callback(im->imap, im->host,
		    im->port, tls_setup, im);
	else
		rc = mailimap_socket_connect(im->imap, im->host, im->port);
	if (rc != MAILIMAP_NO_ERROR_AUTHENTICATED &&
	    rc != MAILIMAP_NO_ERROR_NON_AUTHENTICATED) {
		err_set(e, ERR_TEMP, "cannot connect to %s:%u: %s", im->host,
		    im->port, why(rc));
		goto fail;
	}
	if (!im->tls) {
		/* imap://: STARTTLS when the server offers it, as for SMTP. */
		if (capabilities(im, e) != 0)
			goto fail;
		if (mailimap_has_extension(im->imap, "STARTTLS")) {
			rc = mailimap_socket_starttls_with_callback(im->imap,
			    tls_setup, im);
			if (rc != MAILIMAP_NO_ERROR) {
				err_set(e, ERR_TEMP, "%s:%u: STARTTLS failed: %s",
				    im->host, im->port, why(rc));
				goto fail;
			}
			im->tls = 1;
		} else if (!is_loopback(im->host)) {
			err_set(e, ERR_USER, "%s:%u offers no STARTTLS, and the "
			    "password is never sent in the clear to another machine: "
			    "use imaps://, or a server that offers STARTTLS",
			    im->host, im->port);
			goto fail;
		}
	}
	if (im->tls && verify_peer(im, cfg->ca_file, e) != 0)
		goto fail;
	rc = mailimap_login(im->imap, cfg->user, cfg->password);
	if (rc != MAILIMAP_NO_ERROR) {
		if (rc == MAILIMAP_ERROR_LOGIN)
			err_set(e, ERR_USER, "%s:%u refused the login of user %s: "
			    "%s (check user and password-file in [imap])", im->host,
			    im->port, cfg->user, said(im));
		else
			err_set(e, ERR_TEMP, "%s:%u: login failed: %s", im->host,
			    im->port, why(rc));
		goto fail;
	}
	if (capabilities(im, e) != 0)
		goto fail;
	im->has_idle = mailimap_has_idle(im->imap);
	im->has_move = mailimap_has_extension(im->imap, "MOVE");
	im->has_uidplus = mailimap_has_extension(im->imap, "UIDPLUS");
	im->use_idle = cfg->idle && im->has_idle;
	if (ensure_folder(im, cfg->processed, e) != 0 ||
	    ensure_folder(im, cfg->quarantine, e) != 0)
		goto fail;
	rc = mailimap_select(im->imap, im->folder);
	if (rc != MAILIMAP_NO_ERROR) {
		err_set(e, rc == MAILIMAP_ERROR_SELECT ? ERR_USER : ERR_TEMP,
		    "%s:%u: cannot open the folder %s: %s", im->host, im->port,
		    im->folder, rc == MAILIMAP_ERROR_SELECT ? said(im) : why(rc));
		goto fail;
	}
	snprintf(im->desc, sizeof(im->desc), "%s:%u, folder %s, %s%s",
	    im->host, im->port, im->folder, im->use_idle ? "IDLE" : "polling",
	    im->tls ? "" : ", without TLS (this machine; the server offers no "
	    "STARTTLS)");
	*out = im;
	return 0;
fail:
	/* No LOGOUT to a server that failed us: it may not answer. */
	imap_abort(im);
	return -1;
}

static void
imap_free(struct imap *im, int logout)
{
	if (im == NULL)
		return;
	if (im->imap != NULL) {
		if (logout && im->imap->imap_stream != NULL)
			mailimap_logout(im->imap);
		mailimap_free(im->imap);
	}
	free(im);
}

void
imap_close(struct imap *im)
{
	imap_free(im, 1);
}

void
imap_abort(struct imap *im)
{
	imap_free(im, 0);
}

const char *
imap_describe(const struct imap *im)
{
	return im->desc;
}

int
imap_idles(const struct imap *im)
{
	return im->use_idle;
}

/* INTERNALDATE as seconds since the epoch. */
static int64_t
internaldate(const struct mailimap_date_time *d)
{
	struct tm tm;
	time_t t;
	int z = d->dt_zone < 0 ? -d->dt_zone : d->dt_zone;
	int64_t off = (int64_t)(z / 100) * 3600 + (z % 100) * 60;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = d->dt_year - 1900;
	tm.tm_mon = d->dt_month - 1;
	tm.tm_mday = d->dt_day;
	tm.tm_hour = d->dt_hour;
	tm.tm_min = d->dt_min;
	tm.tm_sec = d->dt_sec;
	t = timegm(&tm);
	/* A date the calendar or this time_t cannot hold is no date. */
	if (t == (time_t)-1 && (d->dt_year != 1969 || d->dt_month != 12 ||
	    d->dt_day != 31))
		return 0;
	return (int64_t)t - (d->dt_zone < 0 ? -off : off);
}

static int
has_deleted(const struct mailimap_msg_att_dynamic *dyn)
{
	clistiter *c;

	if (dyn == NULL || dyn->att_list == NULL)
		return 0;
	for (c = clist_begin(dyn->att_list); c != NULL; c = clist_next(c)) {
		const struct mailimap_flag_fetch *f = clist_content(c);

		if (f->fl_type == MAILIMAP_FLAG_FETCH_OTHER && f->fl_flag != NULL &&
		    f->fl_flag->fl_type == MAILIMAP_FLAG_DELETED)
			return 1;
	}
	return 0;
}

/* UID FETCH of set with the attributes atts[0..natt) (NULL ends early:
 * an allocation that failed).  Takes set and every attribute, whatever
 * happens; a libetpan code, the responses in *result. */
static int
uid_fetch(struct imap *im, struct mailimap_set *set,
    struct mailimap_fetch_att **atts, int natt, clist **result)
{
	struct mailimap_fetch_type *ft = mailimap_fetch_type_new_fetch_att_list_empty();
	int i, rc = ft != NULL && set != NULL ? MAILIMAP_NO_ERROR :
	    MAILIMAP_ERROR_MEMORY;

	for (i = 0; i < natt; i++) {
		if (atts[i] == NULL)
			rc = MAILIMAP_ERROR_MEMORY;
		else if (rc != MAILIMAP_NO_ERROR ||
		    mailimap_fetch_type_new_fetch_att_list_add(ft, atts[i]) != 0) {
			mailimap_fetch_att_free(atts[i]);
			rc = MAILIMAP_ERROR_MEMORY;
		}
	}
	if (rc == MAILIMAP_NO_ERROR)
		rc = mailimap_uid_fetch(im->imap, set, ft, result);
	if (ft != NULL)
		mailimap_fetch_type_free(ft);
	if (set != NULL)
		mailimap_set_free(set);
	return rc;
}

static int
uid_cmp(const void *a, const void *b)
{
	const struct imap_msg *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

int
imap_list(struct imap *im, struct imap_msg **msgs, size_t *n, struct err *e)
{
	clist *result = NULL;
	clistiter *c;
	struct imap_msg *v = NULL;
	size_t cap = 0, k = 0;
	int rc;

	*msgs = NULL;
	*n = 0;
	{
		struct mailimap_fetch_att *atts[] = { mailimap_fetch_att_new_uid(),
		    mailimap_fetch_att_new_rfc822_size(),
		    mailimap_fetch_att_new_internaldate(),
		    mailimap_fetch_att_new_flags() };

		rc = uid_fetch(im, mailimap_set_new_interval(1, 0), atts, 4,
		    &result);
	}
	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: listing %s failed: %s",
		    im->host, im->port, im->folder, why(rc));
	for (c = clist_begin(result); c != NULL; c = clist_next(c)) {
		struct mailimap_msg_att *att = clist_content(c);
		struct imap_msg m = { 0, 0, 0 };
		int deleted = 0, sized = 0, dated = 0;
		clistiter *a;

		for (a = clist_begin(att->att_list); a != NULL; a = clist_next(a)) {
			struct mailimap_msg_att_item *it = clist_content(a);

			if (it->att_type == MAILIMAP_MSG_ATT_ITEM_DYNAMIC) {
				deleted |= has_deleted(it->att_data.att_dyn);
				continue;
			}
			if (it->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
				continue;
			switch (it->att_data.att_static->att_type) {
			case MAILIMAP_MSG_ATT_UID:
				m.uid = it->att_data.att_static->att_data.att_uid;
				break;
			case MAILIMAP_MSG_ATT_RFC822_SIZE:
				m.size = it->att_data.att_static->att_data.att_rfc822_size;
				sized = 1;
				break;
			case MAILIMAP_MSG_ATT_INTERNALDATE:
				if (it->att_data.att_static->att_data.att_internal_date) {
					m.arrived = internaldate(it->att_data.att_static->
					    att_data.att_internal_date);
					dated = 1;
				}
				break;
			default:
				break;
			}
		}
		/* Only answers to this FETCH carry all three: a server may send
		 * flag changes (with their UID, under CONDSTORE) among them. */
		if (m.uid == 0 || !sized || !dated || deleted)
			continue;
		if (k == cap) {
			struct imap_msg *nv;

			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (nv == NULL) {
				free(v);
				mailimap_fetch_list_free(result);
				return err_set(e, ERR_TEMP, "out of memory");
			}
			v = nv;
		}
		v[k++] = m;
	}
	mailimap_fetch_list_free(result);
	if (k > 1) {
		size_t i, o = 1;

		qsort(v, k, sizeof(*v), uid_cmp);
		for (i = 1; i < k; i++)
			if (v[i].uid != v[o - 1].uid)
				v[o++] = v[i];
		k = o;
	}
	*msgs = v;
	*n = k;
	return 0;
}

static struct mailimap_set *
uid_set(const uint32_t *uids, size_t n)
{
	struct mailimap_set *set = mailimap_set_new_empty();
	size_t i;

	for (i = 0; set != NULL && i < n; i++)
		if (mailimap_set_add_single(set, uids[i]) != 0) {
			mailimap_set_free(set);
			return NULL;
		}
	return set;
}

int
imap_fetch(struct imap *im, const uint32_t *uids, size_t n, size_t max,
    int (*fn)(void *arg, uint32_t uid, const char *data, size_t len),
    void *arg, struct err *e)
{
	clist *result = NULL;
	clistiter *c;
	char *got;
	size_t j;
	int rc;

	if (n == 0)
		return 0;
	{
		struct mailimap_section *sec = mailimap_section_new(NULL);
		struct mailimap_fetch_att *atts[] = { mailimap_fetch_att_new_uid(),
		    sec != NULL ? mailimap_fetch_att_new_body_peek_section_partial(sec,
		    0, (uint32_t)max) : NULL };

		if (sec != NULL && atts[1] == NULL)
			mailimap_section_free(sec);
		rc = uid_fetch(im, uid_set(uids, n), atts, 2, &result);
	}
	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: fetching %zu mails failed: %s",
		    im->host, im->port, n, why(rc));
	rc = 0;
	got = calloc(n, 1);
	for (c = clist_begin(result); got != NULL && c != NULL && rc == 0;
	    c = clist_next(c)) {
		struct mailimap_msg_att *att = clist_content(c);
		const char *body = NULL;
		char *copy;
		size_t len = 0;
		uint32_t uid = 0;
		clistiter *a;

		for (a = clist_begin(att->att_list); a != NULL; a = clist_next(a)) {
			struct mailimap_msg_att_item *it = clist_content(a);
			struct mailimap_msg_att_static *st;

			if (it->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
				continue;
			st = it->att_data.att_static;
			if (st->att_type == MAILIMAP_MSG_ATT_UID)
				uid = st->att_data.att_uid;
			else if (st->att_type == MAILIMAP_MSG_ATT_BODY_SECTION &&
			    st->att_data.att_body_section != NULL) {
				body = st->att_data.att_body_section->sec_body_part;
				len = st->att_data.att_body_section->sec_length;
			}
		}
		/* Only a body asked for, once: a FETCH response may be a flag
		 * change, or for a mail not asked for, and a mail without its
		 * body must stay where it is, not be taken as empty. */
		for (j = 0; j < n && uids[j] != uid; j++)
			;
		if (uid == 0 || j == n || got[j] || body == NULL)
			continue;
		got[j] = 1;
		if (len > max)
			len = max;
		/* A copy of its own size, NUL-terminated, freed at once: a
		 * buffer of the largest size kept for all would stay resident. */
		copy = malloc(len + 1);
		if (copy == NULL) {
			free(got);
			got = NULL;
			break;
		}
		memcpy(copy, body, len);
		copy[len] = '\0';
		rc = fn(arg, uid, copy, len);
		free(copy);
	}
	mailimap_fetch_list_free(result);
	if (got == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	free(got);
	return 0;
}

int
imap_move(struct imap *im, const uint32_t *uids, size_t n,
    const char *folder, struct err *e)
{
	struct mailimap_set *set;
	int rc;

	if (n == 0)
		return 0;
	set = uid_set(uids, n);
	if (set == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	if (im->has_move) {
		rc = mailimap_uid_move(im->imap, set, folder);
	} else {
		struct mailimap_flag_list *fl = mailimap_flag_list_new_empty();
		struct mailimap_store_att_flags *sf = NULL;

		rc = mailimap_uid_copy(im->imap, set, folder);
		if (rc == MAILIMAP_NO_ERROR) {
			if (fl == NULL || mailimap_flag_list_add(fl,
			    mailimap_flag_new_deleted()) != 0 ||
			    (sf = mailimap_store_att_flags_new_add_flags_silent(fl)) ==
			    NULL)
				rc = MAILIMAP_ERROR_MEMORY;
			else {
				fl = NULL;
				rc = mailimap_uid_store(im->imap, set, sf);
			}
		}
		if (sf != NULL)
			mailimap_store_att_flags_free(sf);
		if (fl != NULL)
			mailimap_flag_list_free(fl);
		if (rc == MAILIMAP_NO_ERROR)
			rc = im->has_uidplus ? mailimap_uid_expunge(im->imap, set) :
			    mailimap_expunge(im->imap);
	}
	mailimap_set_free(set);
	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: moving %zu mails to %s "
		    "failed: %s (%s)", im->host, im->port, n, folder, why(rc),
		    said(im));
	return 0;
}

/* poll(2) for ms milliseconds with the signal mask (or the current one). */
static int
wait_fds(struct pollfd *p, nfds_t np, int ms, const sigset_t *mask)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	return ppoll(p, np, &ts, mask);
}

int
imap_wait(struct imap *im, int ms, int extra_fd, const sigset_t *mask,
    struct err *e)
{
	struct pollfd p[2];
	nfds_t np = 0;
	int rc, spoke = 0;

	if (ms < 0)
		ms = 0;
	if (!im->use_idle) {
		if (extra_fd >= 0) {
			p[0].fd = extra_fd;
			p[0].events = POLLIN;
			np = 1;
		}
		(void)wait_fds(p, np, ms, mask);
		return 0;
	}
	if (ms > IDLE_MAX_MS)
		ms = IDLE_MAX_MS;
	rc = mailimap_idle(im->imap);
	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: IDLE failed: %s", im->host,
		    im->port, why(rc));
	/* What came with the server's go-ahead is already read in. */
	if (im->imap->imap_stream->read_buffer_len > 0)
		spoke = 1;
	else {
		p[0].fd = mailimap_idle_get_fd(im->imap);
		p[0].events = POLLIN;
		np = 1;
		if (extra_fd >= 0) {
			p[1].fd = extra_fd;
			p[1].events = POLLIN;
			np = 2;
		}
		if (wait_fds(p, np, ms, mask) > 0 && (p[0].revents & (POLLIN |
		    POLLHUP | POLLERR)))
			spoke = 1;
	}
	rc = mailimap_idle_done(im->imap);
	if (rc != MAILIMAP_NO_ERROR)
		return err_set(e, ERR_TEMP, "%s:%u: the connection was lost while "
		    "waiting for mail: %s", im->host, im->port, why(rc));
	return spoke;
}
