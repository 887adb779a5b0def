/*
 * ledger.c - the ChaCha20 dice stream (see ledger.h).
 *
 * Implements RFC 8439's ChaCha20 through libsodium's
 * crypto_stream_chacha20_ietf_xor_ic with an all-zero nonce: each step
 * has its own key, so the nonce never repeats under a key.
 */
#include "ledger/ledger.h"

#include <sodium.h>

#include <string.h>

void
ledger_dice_init(struct ledger_dice *d, const unsigned char seed[LEDGER_SEED_BYTES])
{
	memset(d, 0, sizeof(*d));
	memcpy(d->key, seed, LEDGER_SEED_BYTES);
	d->pos = 64;
}

static unsigned char
next_byte(struct ledger_dice *d)
{
	if (d->pos == 64) {
		static const unsigned char zeros[64];
		unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = { 0 };

		crypto_stream_chacha20_ietf_xor_ic(d->buf, zeros, sizeof(zeros),
		    nonce, d->block++, d->key);
		d->pos = 0;
	}
	d->bytes++;
	return d->buf[d->pos++];
}

int
ledger_dice_next(void *ctx, int sides, int *out, struct err *e)
{
	struct ledger_dice *d = ctx;
	int bound;

	if (sides < 2 || sides > 256)
		return err_set(e, ERR_INTERNAL, "a d%d cannot be rolled", sides);
	bound = 256 - 256 % sides;
	for (;;) {
		int b = next_byte(d);

		if (b < bound) {
			*out = b % sides + 1;
			return 0;
		}
	}
}

void
ledger_hex(const unsigned char *in, int n, char *out)
{
	static const char hx[] = "0123456789abcdef";
	int i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hx[in[i] >> 4];
		out[2 * i + 1] = hx[in[i] & 15];
	}
	out[2 * n] = '\0';
}

static int
unhex(const char *in, unsigned char *out, int n, int upper)
{
	int i;

	if ((int)strlen(in) != 2 * n)
		return -1;
	for (i = 0; i < 2 * n; i++) {
		char c = in[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
		    c - 'a' + 10 : upper && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (v < 0)
			return -1;
		if (i % 2 == 0)
			out[i / 2] = (unsigned char)(v << 4);
		else
			out[i / 2] |= (unsigned char)v;
	}
	return 0;
}

int
ledger_unhex(const char *in, unsigned char *out, int n)
{
	return unhex(in, out, n, 1);
}

int
ledger_unhex_exact(const char *in, unsigned char *out, int n)
{
	return unhex(in, out, n, 0);
}
