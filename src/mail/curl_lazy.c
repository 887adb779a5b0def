/*
 * curl_lazy.c - libcurl, loaded when mail is first sent (curl_lazy.h).
 *
 * The library is named by its SONAME, as the dynamic linker would have
 * named it had the program been linked with it: the ABI the headers
 * above were compiled against.  A failure is kept, so a daemon whose
 * libcurl was removed says why on each try without retrying dlopen
 * for every mail.  The programs are single-threaded.
 */
#include "mail/curl_lazy.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifndef DESPATCH_CURL_SONAME
#define DESPATCH_CURL_SONAME "libcurl-gnutls.so.4"
#endif

static struct mail_curl fns;
static int state;          /* 0 not tried, 1 loaded, -1 failed */
static char failure[300];

/* The symbol name beside where its address goes. */
#define SYM(field, name) { (void **)(void *)&fns.field, name }

static int
load(void)
{
	static const struct {
		void **slot;
		const char *name;
	} syms[] = {
		SYM(easy_init, "curl_easy_init"),
		SYM(easy_cleanup, "curl_easy_cleanup"),
		SYM(easy_setopt, "curl_easy_setopt"),
		SYM(easy_perform, "curl_easy_perform"),
		SYM(easy_getinfo, "curl_easy_getinfo"),
		SYM(easy_strerror, "curl_easy_strerror"),
		SYM(slist_append, "curl_slist_append"),
		SYM(slist_free_all, "curl_slist_free_all"),
		SYM(url, "curl_url"),
		SYM(url_cleanup, "curl_url_cleanup"),
		SYM(url_set, "curl_url_set"),
		SYM(url_get, "curl_url_get"),
		SYM(url_strerror, "curl_url_strerror"),
		SYM(free, "curl_free"),
	};
	void *h;
	size_t i;

	/* RTLD_NOW: a missing symbol shows here, not in the middle of a
	 * sending. */
	if ((h = dlopen(DESPATCH_CURL_SONAME, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		const char *d = dlerror();

		snprintf(failure, sizeof(failure), "cannot load %s, which "
		    "sends the mail: %s (apt install libcurl3-gnutls)",
		    DESPATCH_CURL_SONAME, d ? d : "unknown error");
		return -1;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		/* POSIX: a data pointer to a function pointer through the
		 * object's bytes. */
		void *p = dlsym(h, syms[i].name);

		if (p == NULL) {
			snprintf(failure, sizeof(failure), "%s has no %s: a "
			    "libcurl older than 7.62", DESPATCH_CURL_SONAME,
			    syms[i].name);
			dlclose(h);
			memset(&fns, 0, sizeof(fns));
			return -1;
		}
		memcpy(syms[i].slot, &p, sizeof(p));
	}
	return 0;   /* h is kept for the life of the process */
}

const struct mail_curl *
mail_curl(char *why, size_t whysize)
{
	if (state == 0)
		state = load() == 0 ? 1 : -1;
	if (state < 0) {
		if (why != NULL && whysize > 0)
			snprintf(why, whysize, "%s", failure);
		return NULL;
	}
	return &fns;
}

int
mail_curl_loaded(void)
{
	return state == 1;
}
