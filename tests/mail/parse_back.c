/*
 * parse_back.c - reads every mail despatch wrote in a directory with
 * libetpan, as the intake reads players' mail and as many mail programs
 * do: the whole MIME tree must parse, the text must come out through
 * mail_parse, and each HTML part's cid: references must name a part of
 * its multipart/related.
 *
 *   parse_back DIR    prints what it read; exits 1 on any problem.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libetpan/libetpan.h>

#include "mail/mail.h"

static int problems;

static void
bad(const char *file, const char *what)
{
	printf("FAIL: %s: %s\n", file, what);
	problems++;
}

static const char *
content_id(struct mailmime *m)
{
	clistiter *it = NULL;

	if (m->mm_mime_fields == NULL)
		return NULL;
	for (it = clist_begin(m->mm_mime_fields->fld_list); it != NULL;
	    it = clist_next(it)) {
		struct mailmime_field *f = clist_content(it);

		if (f->fld_type == MAILMIME_FIELD_ID)
			return f->fld_data.fld_id;
	}
	return NULL;
}

static int
is_type(struct mailmime *m, int discrete, const char *sub)
{
	struct mailmime_content *ct = m->mm_content_type;

	if (ct == NULL || strcasecmp(ct->ct_subtype, sub) != 0)
		return 0;
	if (discrete < 0)
		return ct->ct_type->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE;
	return ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE &&
	    ct->ct_type->tp_data.tp_discrete_type->dt_type == discrete;
}

/* Checks a multipart/related: its HTML's cid: references are its parts. */
static void
check_related(const char *file, struct mailmime *rel, int *maps)
{
	clistiter *it = NULL;
	struct mailmime *html = NULL;
	char *text = NULL, *p;
	size_t idx = 0, len = 0;

	for (it = clist_begin(rel->mm_data.mm_multipart.mm_mp_list); it != NULL;
	    it = clist_next(it))
		if (is_type(clist_content(it), MAILMIME_DISCRETE_TYPE_TEXT, "html"))
			html = clist_content(it);
	if (html == NULL || html->mm_type != MAILMIME_SINGLE) {
		bad(file, "multipart/related without its HTML");
		return;
	}
	if (mailmime_part_parse(html->mm_data.mm_single->dt_data.dt_text.dt_data,
	    html->mm_data.mm_single->dt_data.dt_text.dt_length, &idx,
	    html->mm_data.mm_single->dt_encoding, &text, &len) !=
	    MAILIMF_NO_ERROR) {
		bad(file, "the HTML does not decode");
		return;
	}
	for (p = text; (p = strstr(p, "src=\"cid:")) != NULL; p++) {
		char ref[300];
		size_t n = strcspn(p + 9, "\"");
		int found = 0;

		snprintf(ref, sizeof(ref), "%.*s", (int)n, p + 9);
		for (it = clist_begin(rel->mm_data.mm_multipart.mm_mp_list);
		    it != NULL; it = clist_next(it)) {
			const char *cid = content_id(clist_content(it));

			if (cid != NULL && strcmp(cid, ref) == 0)
				found = 1;
		}
		if (!found)
			bad(file, "the HTML names a cid: no part has");
		else
			(*maps)++;
	}
	mmap_string_unref(text);
}

static void
walk(const char *file, struct mailmime *m, int *maps)
{
	clistiter *it = NULL;

	if (m->mm_type == MAILMIME_MESSAGE) {
		if (m->mm_data.mm_message.mm_msg_mime != NULL)
			walk(file, m->mm_data.mm_message.mm_msg_mime, maps);
		return;
	}
	if (m->mm_type != MAILMIME_MULTIPLE)
		return;
	if (is_type(m, -1, "related"))
		check_related(file, m, maps);
	for (it = clist_begin(m->mm_data.mm_multipart.mm_mp_list); it != NULL;
	    it = clist_next(it))
		walk(file, clist_content(it), maps);
}

int
main(int argc, char **argv)
{
	DIR *d = NULL;
	struct dirent *de = NULL;
	int files = 0, maps = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: parse_back DIR\n");
		return 2;
	}
	if ((d = opendir(argv[1])) == NULL) {
		perror(argv[1]);
		return 2;
	}
	while ((de = readdir(d)) != NULL) {
		char path[4096], *raw = NULL;
		size_t len = 0, idx = 0;
		long sz;
		FILE *f = NULL;
		struct mailmime *tree = NULL;
		struct mail_msg *msg = NULL;
		struct err e;

		if (strlen(de->d_name) < 5 ||
		    strcmp(de->d_name + strlen(de->d_name) - 4, ".eml") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], de->d_name);
		if ((f = fopen(path, "rb")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
		    (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
		    (raw = malloc((size_t)sz + 1)) == NULL ||
		    fread(raw, 1, (size_t)sz, f) != (size_t)sz) {
			bad(de->d_name, "cannot be read");
			if (f != NULL)
				fclose(f);
			free(raw);
			continue;
		}
		fclose(f);
		len = (size_t)sz;
		raw[len] = '\0';
		files++;
		if (mailmime_parse(raw, len, &idx, &tree) != MAILIMF_NO_ERROR)
			bad(de->d_name, "libetpan cannot parse its MIME tree");
		else {
			walk(de->d_name, tree, &maps);
			mailmime_free(tree);
		}
		err_clear(&e);
		if (mail_parse(raw, len, &msg, &e) != 0)
			bad(de->d_name, e.msg);
		else if (msg->body_len == 0)
			bad(de->d_name, "no text comes out of it");
		mail_msg_free(msg);
		free(raw);
	}
	closedir(d);
	printf("%d mails read with libetpan, %d inline maps found, %d "
	    "problems\n", files, maps, problems);
	return problems > 0 || files == 0;
}
