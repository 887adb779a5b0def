/*
 * key.c - the server's Ed25519 signing key: one file, mode 0600, made at
 * first use (docs/ledger.md says where and what losing it means).
 */
#include "ledger/record.h"
#include "ledger/ledger.h"

#include <sodium.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The demo's key seed: SHA-256 of the ASCII text "despatch demo key",
 * published so that anyone can see a demo archive proves nothing. */
static void
demo_seed(unsigned char seed[32])
{
	static const char text[] = "despatch demo key";

	crypto_hash_sha256(seed, (const unsigned char *)text, sizeof(text) - 1);
}

void
ledger_key_demo(struct ledger_key *k)
{
	unsigned char seed[32];

	demo_seed(seed);
	crypto_sign_seed_keypair(k->pk, k->sk, seed);
	k->demo = 1;
}

int
ledger_key_is_demo(const unsigned char pk[LEDGER_PK])
{
	struct ledger_key k;
	int same;

	ledger_key_demo(&k);
	same = sodium_memcmp(k.pk, pk, LEDGER_PK) == 0;
	sodium_memzero(&k, sizeof(k));
	return same;
}

int
ledger_file_make(const char *path, const void *data, size_t len,
    struct err *e)
{
	char tmp[4200], dir[4096];
	const char *slash;
	int fd;
	size_t dl;

	if (strlen(path) + 24 > sizeof(tmp))
		return err_set(e, ERR_USER, "path too long: %s", path);
	snprintf(tmp, sizeof(tmp), "%s.new.%ld", path, (long)getpid());
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && fchmod(fd, 0600) != 0) {   /* whatever the umask */
		close(fd);
		unlink(tmp);
		fd = -1;
	}
	if (fd < 0)
		return err_set(e, ERR_TEMP, "cannot create %s: %s", tmp,
		    strerror(errno));
	if (write(fd, data, len) != (ssize_t)len || fsync(fd) != 0) {
		err_set(e, ERR_TEMP, "cannot write %s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	if (link(tmp, path) != 0) {
		int err = errno;

		unlink(tmp);
		if (err == EEXIST)
			return 0;   /* another process made it first */
		return err_set(e, ERR_TEMP, "cannot create %s: %s", path,
		    strerror(err));
	}
	unlink(tmp);
	/* The new name must survive a crash too. */
	slash = strrchr(path, '/');
	dl = slash == NULL ? 1 : (size_t)(slash - path);
	if (dl == 0)
		dl = 1;
	if (dl < sizeof(dir)) {
		memcpy(dir, slash == NULL ? "." : path, dl);
		dir[dl] = '\0';
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			(void)fsync(fd);
			close(fd);
		}
	}
	return 1;
}

/* Writes a new key to path (ledger_file_make): a crash never leaves half
 * a key and an existing key is never replaced; one another process made
 * first is loaded instead. */
static int
key_create(const char *path, struct ledger_key *k, struct err *e)
{
	unsigned char seed[32];
	char hex[66];
	int rc;

	randombytes_buf(seed, sizeof(seed));
	ledger_hex(seed, 32, hex);
	hex[64] = '\n';
	rc = ledger_file_make(path, hex, 65, e);
	if (rc == 0)
		rc = ledger_key_load(path, 0, k, e);
	else if (rc == 1) {
		crypto_sign_seed_keypair(k->pk, k->sk, seed);
		k->demo = 0;
		rc = 0;
	}
	sodium_memzero(seed, sizeof(seed));
	sodium_memzero(hex, sizeof(hex));
	return rc;
}

int
ledger_key_load(const char *path, int create, struct ledger_key *k,
    struct err *e)
{
	unsigned char seed[32];
	char buf[80];
	struct stat sb;
	ssize_t n;
	int fd;

	memset(k, 0, sizeof(*k));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && create)
			return key_create(path, k, e);
		return err_set(e, errno == ENOENT ? ERR_USER : ERR_TEMP,
		    "cannot read the signing key %s: %s", path, strerror(errno));
	}
	if (fstat(fd, &sb) == 0 && (sb.st_mode & 077) != 0) {
		close(fd);
		return err_set(e, ERR_USER, "the signing key %s can be read by "
		    "others (mode %03o): run 'chmod 600 %s'", path,
		    (unsigned)(sb.st_mode & 0777), path);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
	    buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (ledger_unhex(buf, seed, 32) != 0) {
		sodium_memzero(buf, sizeof(buf));
		return err_set(e, ERR_DATA, "the signing key %s is damaged: it "
		    "should hold 64 hex digits; restore it from a backup (a new key "
		    "cannot sign on for the games the old one began)", path);
	}
	crypto_sign_seed_keypair(k->pk, k->sk, seed);
	sodium_memzero(seed, sizeof(seed));
	sodium_memzero(buf, sizeof(buf));
	return 0;
}

void
ledger_sign(const struct ledger_key *k, const unsigned char head[LEDGER_HASH],
    unsigned char sig[LEDGER_SIG])
{
	crypto_sign_detached(sig, NULL, head, LEDGER_HASH, k->sk);
}

int
ledger_sign_check(const unsigned char pk[LEDGER_PK],
    const unsigned char head[LEDGER_HASH], const unsigned char sig[LEDGER_SIG])
{
	return crypto_sign_verify_detached(sig, head, LEDGER_HASH, pk) == 0 ? 0 :
	    -1;
}
