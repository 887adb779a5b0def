/*
 * zip.c - text kept compressed, whichever backend keeps it.
 *
 * zlib's (RFC 1950) stream after a 4-byte big-endian count of the bytes
 * it holds: a library does this job, and the count lets uncompress() be
 * given the exact size.
 */
#include "store/store.h"

#include <zlib.h>

#include <stdlib.h>

#define TEXT_MAX (16u << 20)   /* no text of ours comes near it */

int
store_zip(const char *text, size_t n, unsigned char **out, size_t *outlen)
{
	uLongf cap = compressBound((uLong)n);
	unsigned char *z;

	*out = NULL;
	*outlen = 0;
	if (n > TEXT_MAX)
		return -1;
	z = malloc(4 + cap);
	if (z == NULL)
		return -1;
	z[0] = (unsigned char)(n >> 24);
	z[1] = (unsigned char)(n >> 16);
	z[2] = (unsigned char)(n >> 8);
	z[3] = (unsigned char)n;
	if (compress2(z + 4, &cap, (const Bytef *)text, (uLong)n, 9) != Z_OK) {
		free(z);
		return -1;
	}
	*out = z;
	*outlen = 4 + cap;
	return 0;
}

char *
store_unzip(const unsigned char *z, size_t n)
{
	uLongf want, got;
	char *t;

	if (n < 4)
		return NULL;
	want = (uLongf)z[0] << 24 | (uLongf)z[1] << 16 | (uLongf)z[2] << 8 | z[3];
	if (want > TEXT_MAX)
		return NULL;
	t = malloc(want + 1);
	if (t == NULL)
		return NULL;
	got = want;
	if (uncompress((Bytef *)t, &got, z + 4, (uLong)(n - 4)) != Z_OK ||
	    got != want) {
		free(t);
		return NULL;
	}
	t[want] = '\0';
	return t;
}
