/*
 * curl_lazy.h - libcurl, loaded when mail is first sent.
 *
 * libcurl-gnutls brings some twenty libraries with it (Kerberos, LDAP,
 * SSH, RTMP, ...), and loading them was half of the start of every
 * despatch command: 20 ms of the 41 ms `despatch --version` took, paid
 * again by every mail an MTA pipes to `despatch submit`, which sends
 * nothing.  So the programs are not linked with it: the few functions
 * the project calls are looked up with dlopen(3) the first time one is
 * needed, from the library the build was configured with (its SONAME,
 * DESPATCH_CURL_SONAME).
 */
#ifndef DESPATCH_MAIL_CURL_LAZY_H
#define DESPATCH_MAIL_CURL_LAZY_H

#include <stddef.h>

#include <curl/curl.h>

struct mail_curl {
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	CURLU *(*url)(void);
	void (*url_cleanup)(CURLU *);
	CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
	CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
	const char *(*url_strerror)(CURLUcode);
	void (*free)(void *);
};

/* libcurl's functions, loaded on the first call and kept; NULL, with why
 * in why (the library's name and dlerror's words), when it cannot be
 * loaded or lacks one of them. */
const struct mail_curl *mail_curl(char *why, size_t whysize);

/* Whether libcurl has been loaded in this process (for the test that
 * what sends nothing does not load it). */
int mail_curl_loaded(void);

#endif
