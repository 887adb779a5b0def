/*
 * mime.c - the body of a multipart report mail (see mail.h), built as a
 * libetpan MIME tree and written by libetpan's MIME writer.
 *
 * The tree a report gets:
 *
 *   multipart/mixed                 (only when there are attachments)
 *     multipart/alternative
 *       text/plain                  the narrative and the text map
 *       multipart/related           (only when the HTML shows images)
 *         text/html                 refers to the images as cid:...
 *         image/png ...
 *     attachments ...
 *
 * Text parts are quoted-printable, written by mail_put_qp before they
 * go into the tree (libetpan's own encoder escapes every 'F' and most
 * punctuation, which triples a text map), and handed to the writer as
 * already encoded.  Binary parts are base64, encoded by the writer.
 * Boundaries are "=_" followed by a fixed word and a hash of the message
 * id: "=_" cannot occur in quoted-printable or base64 text, so no part
 * can contain a boundary, and the same message gives the same bytes
 * (libetpan would draw a boundary from the clock and the pid).
 *
 * Workload: one call per report mail, a few per player per turn, on at
 * most a few MiB of maps and text.
 */
#include "mail/mime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libetpan/libetpan.h>

/* 64-bit FNV-1a: enough to tell one message's boundaries from another's
 * (the "=_" prefix, not the hash, is what keeps them out of the
 * content). */
static uint64_t
fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; s != NULL && *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

/* Sets the boundary parameter libetpan gave a new multipart node (drawn
 * from the clock) to ours. */
static int
set_boundary(struct mailmime *mp, const char *b)
{
	clistiter *it = NULL;

	if (mp->mm_content_type == NULL ||
	    mp->mm_content_type->ct_parameters == NULL)
		return -1;
	for (it = clist_begin(mp->mm_content_type->ct_parameters); it != NULL;
	    it = clist_next(it)) {
		struct mailmime_parameter *p = clist_content(it);
		char *v = NULL;

		if (strcasecmp(p->pa_name, "boundary") != 0)
			continue;
		if ((v = strdup(b)) == NULL)
			return -1;
		free(p->pa_value);
		p->pa_value = v;
		return 0;
	}
	return -1;
}

static struct mailmime *
multipart(const char *type, const char *word, uint64_t h)
{
	struct mailmime *mp = mailmime_multiple_new(type);
	char b[64];

	if (mp == NULL)
		return NULL;
	snprintf(b, sizeof(b), "=_despatch_%s_%016llx", word,
	    (unsigned long long)h);
	if (set_boundary(mp, b) != 0) {
		mailmime_free(mp);
		return NULL;
	}
	return mp;
}

/* Adds the parameter name=value to a content type. */
static int
add_param(struct mailmime_content *ct, const char *name, const char *value)
{
	struct mailmime_parameter *p = NULL;

	if (ct->ct_parameters == NULL &&
	    (ct->ct_parameters = clist_new()) == NULL)
		return -1;
	if ((p = mailmime_param_new_with_data((char *)name, (char *)value)) ==
	    NULL)
		return -1;
	if (clist_append(ct->ct_parameters, p) != 0) {
		mailmime_parameter_free(p);
		return -1;
	}
	return 0;
}

/* A leaf part: content type `type` (with charset=utf-8 for text), the
 * given encoding, Content-ID cid and a filename when they are set.  The
 * data is not copied: it must outlive the tree's writing.  encoded says
 * the data is already in the transfer encoding. */
static struct mailmime *
leaf(const char *type, int text, int mechanism, const char *cid,
    const char *name, const void *data, size_t len, int encoded)
{
	struct mailmime_content *ct = mailmime_content_new_with_str(type);
	struct mailmime_mechanism *mech = NULL;
	struct mailmime_disposition *dsp = NULL;
	struct mailmime_fields *f = NULL;
	struct mailmime *m = NULL;
	char *id = NULL, *fname = NULL;

	if (ct == NULL)
		return NULL;
	if ((text && add_param(ct, "charset", "utf-8") != 0) ||
	    (name != NULL && add_param(ct, "name", name) != 0))
		goto fail;
	if ((mech = mailmime_mechanism_new(mechanism, NULL)) == NULL)
		goto fail;
	if (cid != NULL && (id = strdup(cid)) == NULL)
		goto fail;
	if (name != NULL) {
		if ((fname = strdup(name)) == NULL)
			goto fail;
		/* libetpan owns fname from here, and frees it itself on some
		 * of its failures: never free it again here (at worst a leak
		 * when out of memory). */
		dsp = mailmime_disposition_new_filename(cid != NULL ?
		    MAILMIME_DISPOSITION_TYPE_INLINE :
		    MAILMIME_DISPOSITION_TYPE_ATTACHMENT, fname);
		fname = NULL;
		if (dsp == NULL)
			goto fail;
	}
	f = mailmime_fields_new_with_data(mech, id, NULL, dsp, NULL);
	if (f == NULL)
		goto fail;
	mech = NULL;
	id = NULL;
	dsp = NULL;
	if ((m = mailmime_new_empty(ct, f)) == NULL) {
		mailmime_fields_free(f);
		goto fail;
	}
	m->mm_data.mm_single = mailmime_data_new_data(mechanism, encoded,
	    data, len);
	if (m->mm_data.mm_single == NULL) {
		mailmime_free(m);
		return NULL;
	}
	return m;
fail:
	free(fname);
	free(id);
	if (dsp != NULL)
		mailmime_disposition_free(dsp);
	if (mech != NULL)
		mailmime_mechanism_free(mech);
	mailmime_content_free(ct);
	return NULL;
}

/* Adds child to parent, freeing child if it cannot. */
static int
add(struct mailmime *parent, struct mailmime *child)
{
	if (child == NULL)
		return -1;
	if (mailmime_smart_add_part(parent, child) != MAILIMF_NO_ERROR) {
		mailmime_free(child);
		return -1;
	}
	return 0;
}

/* A new multipart of type (its boundary made of word and h) holding
 * first, which it takes: freed when the multipart cannot be made.  NULL
 * out of memory. */
static struct mailmime *
around(const char *type, const char *word, uint64_t h,
    struct mailmime *first)
{
	struct mailmime *mp = multipart(type, word, h);

	if (mp == NULL) {
		mailmime_free(first);
		return NULL;
	}
	if (add(mp, first) != 0) {
		mailmime_free(mp);
		return NULL;
	}
	return mp;
}

/* Contract (mime.h). */
int
mail_mime_body(const struct mail_out *m, const char *text, size_t tlen,
    struct mtext *ctype, struct mtext *body, struct err *e)
{
	struct mtext qtext, qhtml, html;
	struct mailmime *root = NULL, *rel = NULL, *node = NULL;
	MMAPString *out = NULL;
	uint64_t h = fnv1a(m->message_id);
	int i, ninline = 0, nattach = 0, col = 0, rc = -1;
	const char *bnd = NULL;

	mail_text_init(&qtext);
	mail_text_init(&qhtml);
	mail_text_init(&html);
	if (m->nparts < 0 || m->nparts > MAIL_PARTS_MAX ||
	    (m->nparts > 0 && m->parts == NULL)) {
		err_set(e, ERR_INTERNAL, "a mail may carry at most %d parts",
		    MAIL_PARTS_MAX);
		goto out;
	}
	for (i = 0; i < m->nparts; i++) {
		const struct mail_part *p = &m->parts[i];

		if (p->type == NULL || p->name == NULL || (p->data == NULL &&
		    p->len > 0) || strpbrk(p->name, "\"\\\r\n") != NULL ||
		    (p->cid != NULL && strpbrk(p->cid, "<>\r\n ") != NULL)) {
			err_set(e, ERR_INTERNAL, "part %d of a mail has no type "
			    "or name, or a name or id that cannot be written", i);
			goto out;
		}
		if (p->cid != NULL)
			ninline++;
		else
			nattach++;
	}
	if (ninline > 0 && m->html == NULL) {
		err_set(e, ERR_INTERNAL, "a mail's inline images need its HTML");
		goto out;
	}
	if (m->html != NULL) {
		if (mail_text_put_lf(&html, m->html, strlen(m->html)) != 0)
			goto oom;
		if (!mail_text_utf8_valid(html.p, html.len)) {
			err_set(e, ERR_USER, "the HTML of the mail is not valid "
			    "UTF-8");
			goto out;
		}
		mail_put_qp(&qhtml, html.p, html.len);
	}
	mail_put_qp(&qtext, text, tlen);
	if (qtext.failed || qhtml.failed)
		goto oom;

	/* The text, and beside it the HTML with its images. */
	node = leaf("text/plain", 1, MAILMIME_MECHANISM_QUOTED_PRINTABLE,
	    NULL, NULL, qtext.p, qtext.len, 1);
	if (node == NULL)
		goto oom;
	if (m->html != NULL) {
		struct mailmime *hp = NULL;

		if ((node = around("multipart/alternative", "alt", h, node)) ==
		    NULL)
			goto oom;
		hp = leaf("text/html", 1, MAILMIME_MECHANISM_QUOTED_PRINTABLE, NULL,
		    NULL, qhtml.p, qhtml.len, 1);
		if (hp == NULL)
			goto oom;
		if (ninline > 0) {
			/* RFC 2387: the root is the first part, and says its type. */
			if ((rel = around("multipart/related", "rel", h, hp)) ==
			    NULL || add_param(rel->mm_content_type, "type",
			    "text/html") != 0)
				goto oom;
			for (i = 0; i < m->nparts; i++)
				if (m->parts[i].cid != NULL && add(rel, leaf(
				    m->parts[i].type, 0, MAILMIME_MECHANISM_BASE64,
				    m->parts[i].cid, m->parts[i].name, m->parts[i].data,
				    m->parts[i].len, 0)) != 0)
					goto oom;
			hp = rel;
			rel = NULL;
		}
		if (add(node, hp) != 0)
			goto oom;
	}
	if (nattach > 0) {
		root = around("multipart/mixed", "mixed", h, node);
		node = NULL;
		if (root == NULL)
			goto oom;
		for (i = 0; i < m->nparts; i++) {
			const struct mail_part *p = &m->parts[i];

			if (p->cid != NULL)
				continue;
			/* Attachments are ours (JSON, SVG): always base64, so a
			 * long line or a stray byte cannot break the mail. */
			if (add(root, leaf(p->type, 0, MAILMIME_MECHANISM_BASE64,
			    NULL, p->name, p->data, p->len, 0)) != 0)
				goto oom;
		}
	} else {
		root = node;
		node = NULL;
	}
	if (root->mm_type != MAILMIME_MULTIPLE) {
		err_set(e, ERR_INTERNAL, "mail_mime_body: nothing to put beside "
		    "the text");
		goto out;
	}
	bnd = root->mm_content_type->ct_subtype;
	mail_text_puts(ctype, "multipart/");
	mail_text_puts(ctype, bnd);
	{
		clistiter *it = NULL;

		for (it = clist_begin(root->mm_content_type->ct_parameters);
		    it != NULL; it = clist_next(it)) {
			struct mailmime_parameter *p = clist_content(it);

			mail_text_puts(ctype, ";\r\n ");
			mail_text_puts(ctype, p->pa_name);
			mail_text_puts(ctype, "=\"");
			mail_text_puts(ctype, p->pa_value);
			mail_text_puts(ctype, "\"");
		}
	}
	if ((out = mmap_string_new("")) == NULL)
		goto oom;
	if (mailmime_write_mem(out, &col, root) != MAILIMF_NO_ERROR)
		goto oom;
	mail_text_put(body, out->str, out->len);
	if (ctype->failed || body->failed)
		goto oom;
	rc = 0;
	goto out;
oom:
	err_set(e, ERR_INTERNAL, "out of memory while writing a mail");
out:
	if (out != NULL)
		mmap_string_free(out);
	if (node != NULL)
		mailmime_free(node);
	if (rel != NULL)
		mailmime_free(rel);
	if (root != NULL)
		mailmime_free(root);
	mail_text_free(&qtext);
	mail_text_free(&qhtml);
	mail_text_free(&html);
	return rc;
}
