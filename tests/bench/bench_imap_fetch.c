/*
 * bench_imap_fetch.c - the denominator of despatchd's IMAP ingest figure:
 * the raw rate of fetching every message of a folder with a bare libetpan
 * loop (UID FETCH BODY.PEEK[] in batches of 500 UIDs, nothing stored).
 * Run by tests/bench/bench_mail.sh, not a test.
 *
 *   bench_imap_fetch HOST PORT USER PASSWORD-FILE [FOLDER]
 *
 * Connects over TLS (the certificate is not checked: loopback lab only),
 * then fetches the folder three times and prints the best:
 *   "<messages> <bytes> <microseconds>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libetpan/libetpan.h>

#define BATCH 500

static long long
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Every UID of the folder, ascending. */
static uint32_t *
all_uids(mailimap *imap, size_t *n)
{
	struct mailimap_fetch_type *ft = mailimap_fetch_type_new_fetch_att_list_empty();
	struct mailimap_set *set = mailimap_set_new_interval(1, 0);
	clist *res = NULL;
	clistiter *c;
	uint32_t *v;
	size_t k = 0;

	mailimap_fetch_type_new_fetch_att_list_add(ft, mailimap_fetch_att_new_uid());
	if (mailimap_uid_fetch(imap, set, ft, &res) != MAILIMAP_NO_ERROR) {
		fprintf(stderr, "bench_imap_fetch: listing failed\n");
		exit(1);
	}
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	v = calloc((size_t)clist_count(res) + 1, sizeof(*v));
	for (c = clist_begin(res); v != NULL && c != NULL; c = clist_next(c)) {
		struct mailimap_msg_att *att = clist_content(c);
		clistiter *a;

		for (a = clist_begin(att->att_list); a != NULL; a = clist_next(a)) {
			struct mailimap_msg_att_item *it = clist_content(a);

			if (it->att_type == MAILIMAP_MSG_ATT_ITEM_STATIC &&
			    it->att_data.att_static->att_type == MAILIMAP_MSG_ATT_UID)
				v[k++] = it->att_data.att_static->att_data.att_uid;
		}
	}
	mailimap_fetch_list_free(res);
	*n = k;
	return v;
}

/* One pass: every message's whole text, BATCH UIDs a command. */
static void
fetch_all(mailimap *imap, const uint32_t *uids, size_t n, size_t *msgs,
    size_t *bytes)
{
	size_t i, j;

	*msgs = *bytes = 0;
	for (i = 0; i < n; i += BATCH) {
		struct mailimap_fetch_type *ft =
		    mailimap_fetch_type_new_fetch_att_list_empty();
		struct mailimap_set *set = mailimap_set_new_empty();
		clist *res = NULL;
		clistiter *c;

		for (j = i; j < n && j < i + BATCH; j++)
			mailimap_set_add_single(set, uids[j]);
		mailimap_fetch_type_new_fetch_att_list_add(ft,
		    mailimap_fetch_att_new_uid());
		mailimap_fetch_type_new_fetch_att_list_add(ft,
		    mailimap_fetch_att_new_body_peek_section(mailimap_section_new(NULL)));
		if (mailimap_uid_fetch(imap, set, ft, &res) != MAILIMAP_NO_ERROR) {
			fprintf(stderr, "bench_imap_fetch: fetch failed\n");
			exit(1);
		}
		for (c = clist_begin(res); c != NULL; c = clist_next(c)) {
			struct mailimap_msg_att *att = clist_content(c);
			clistiter *a;

			for (a = clist_begin(att->att_list); a != NULL; a = clist_next(a)) {
				struct mailimap_msg_att_item *it = clist_content(a);

				if (it->att_type == MAILIMAP_MSG_ATT_ITEM_STATIC &&
				    it->att_data.att_static->att_type ==
				    MAILIMAP_MSG_ATT_BODY_SECTION) {
					(*msgs)++;
					*bytes += it->att_data.att_static->att_data.
					    att_body_section->sec_length;
				}
			}
		}
		mailimap_fetch_list_free(res);
		mailimap_fetch_type_free(ft);
		mailimap_set_free(set);
	}
}

int
main(int argc, char **argv)
{
	mailimap *imap;
	char pw[256];
	FILE *f;
	uint32_t *uids;
	size_t n, msgs = 0, bytes = 0;
	long long best = -1;
	int r, pass;

	if (argc < 5) {
		fprintf(stderr, "usage: bench_imap_fetch HOST PORT USER "
		    "PASSWORD-FILE [FOLDER]\n");
		return 2;
	}
	f = fopen(argv[4], "r");
	if (f == NULL || fgets(pw, sizeof(pw), f) == NULL) {
		fprintf(stderr, "bench_imap_fetch: cannot read %s\n", argv[4]);
		return 1;
	}
	fclose(f);
	pw[strcspn(pw, "\r\n")] = '\0';
	imap = mailimap_new(0, NULL);
	r = mailimap_ssl_connect(imap, argv[1], (uint16_t)atoi(argv[2]));
	if ((r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED &&
	    r != MAILIMAP_NO_ERROR_AUTHENTICATED) ||
	    mailimap_login(imap, argv[3], pw) != MAILIMAP_NO_ERROR ||
	    mailimap_select(imap, argc > 5 ? argv[5] : "INBOX") !=
	    MAILIMAP_NO_ERROR) {
		fprintf(stderr, "bench_imap_fetch: cannot connect, log in or "
		    "select\n");
		return 1;
	}
	uids = all_uids(imap, &n);
	for (pass = 0; pass < 3; pass++) {
		long long t0 = now_us(), t;

		fetch_all(imap, uids, n, &msgs, &bytes);
		t = now_us() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	printf("%zu %zu %lld\n", msgs, bytes, best > 0 ? best : 1);
	free(uids);
	mailimap_logout(imap);
	mailimap_free(imap);
	return 0;
}
