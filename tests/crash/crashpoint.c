/*
 * crashpoint.c - a preloaded library that kills the process at the Nth
 * write, pwrite, fsync, fdatasync or rename, or makes every such call
 * from the Nth on fail with ENOSPC, so the crash harness can show that
 * every interruption of despatch leaves its database whole.
 *
 *   CRASHPOINT_KILL_AT=N     SIGKILL just before the Nth call
 *   CRASHPOINT_ENOSPC_AT=N   the Nth call and every one after it fail with
 *                            ENOSPC (a full disk)
 *   CRASHPOINT_COUNT=FILE    at exit, write the number of calls seen
 *   CRASHPOINT_FULL=FILE     while FILE exists, every such call fails with
 *                            ENOSPC (a disk that fills and is freed again
 *                            while the process runs); standard output and
 *                            error are spared, so its log can be read
 *
 * Only calls on regular files count (not the terminal or a pipe), so the
 * numbering does not depend on where output goes.  Built as a shared
 * library by tests/CMakeLists.txt; used by tests/crash/harness.sh.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static long calls, kill_at = -1, enospc_at = -1;
static const char *full_file;
static int loaded;

static void
load(void)
{
	const char *v;

	if (loaded)
		return;
	loaded = 1;
	if ((v = getenv("CRASHPOINT_KILL_AT")) != NULL)
		kill_at = strtol(v, NULL, 10);
	if ((v = getenv("CRASHPOINT_ENOSPC_AT")) != NULL)
		enospc_at = strtol(v, NULL, 10);
	full_file = getenv("CRASHPOINT_FULL");
}

static void __attribute__((destructor))
report(void)
{
	const char *path = getenv("CRASHPOINT_COUNT");
	FILE *f;

	if (path == NULL)
		return;
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "%ld\n", calls);
		fclose(f);
	}
}

static int
regular(int fd)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* A write to fd fails now with CRASHPOINT_FULL (its file exists). */
static int
full(int fd)
{
	load();
	if (full_file == NULL || fd <= 2 || !regular(fd) ||
	    access(full_file, F_OK) != 0)
		return 0;
	errno = ENOSPC;
	return -1;
}

/* 0 to go on, -1 to fail with ENOSPC; does not return at the kill. */
static int
point(int counts)
{
	load();
	if (!counts)
		return 0;
	calls++;
	if (kill_at > 0 && calls == kill_at)
		raise(SIGKILL);
	if (enospc_at > 0 && calls >= enospc_at) {
		errno = ENOSPC;
		return -1;
	}
	return 0;
}

#define NEXT(type, name, args) \
	static type (*real) args; \
	if (real == NULL) \
		real = (type (*) args)dlsym(RTLD_NEXT, name)

ssize_t
write(int fd, const void *buf, size_t n)
{
	NEXT(ssize_t, "write", (int, const void *, size_t));
	if (full(fd) != 0 || point(regular(fd)) != 0)
		return -1;
	return real(fd, buf, n);
}

ssize_t
pwrite(int fd, const void *buf, size_t n, off_t off)
{
	NEXT(ssize_t, "pwrite", (int, const void *, size_t, off_t));
	if (full(fd) != 0 || point(regular(fd)) != 0)
		return -1;
	return real(fd, buf, n, off);
}

ssize_t
pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	NEXT(ssize_t, "pwrite64", (int, const void *, size_t, off64_t));
	if (full(fd) != 0 || point(regular(fd)) != 0)
		return -1;
	return real(fd, buf, n, off);
}

int
fsync(int fd)
{
	NEXT(int, "fsync", (int));
	if (full(fd) != 0 || point(regular(fd)) != 0)
		return -1;
	return real(fd);
}

int
fdatasync(int fd)
{
	NEXT(int, "fdatasync", (int));
	if (full(fd) != 0 || point(regular(fd)) != 0)
		return -1;
	return real(fd);
}

int
rename(const char *a, const char *b)
{
	NEXT(int, "rename", (const char *, const char *));
	if (point(1) != 0)
		return -1;
	return real(a, b);
}
