/*
 * test_curl_lazy.c - libcurl is loaded when mail is first sent, and not
 * before (src/mail/curl_lazy.h): what reads mail, as `despatch submit`
 * does, does not pay for the twenty libraries it brings.
 *
 * The tests run in order in one process: the first looks before any
 * sending, the second sends.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mail/curl_lazy.h"
#include "mail/mail.h"

/* Whether a library whose path contains name is mapped in this process. */
static int
mapped(const char *name)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int found = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, name) != NULL)
			found = 1;
	fclose(f);
	return found;
}

static void
test_reading_mail_does_not_load_libcurl(void **state)
{
	static const char raw[] = "From: a@example.org\r\nTo: b@example.org\r\n"
	    "Subject: orders\r\nMessage-ID: <1@example.org>\r\n\r\n"
	    "GAME g SIDE s\r\n";
	struct mail_msg *m = NULL;
	struct err e;

	(void)state;
	/* The sanity of the check itself: libc is mapped, by its name. */
	assert_true(mapped("libc.so"));
	assert_int_equal(mail_parse(raw, sizeof(raw) - 1, &m, &e), 0);
	mail_msg_free(m);
	assert_false(mail_curl_loaded());
	assert_false(mapped("libcurl"));
}

static void
test_sending_loads_it_and_a_refused_connection_is_retried(void **state)
{
	struct mail_smtp s;
	char why[300] = "";
	int rc;

	(void)state;
	memset(&s, 0, sizeof(s));
	/* Port 1 on loopback: nothing listens, the connection is refused. */
	snprintf(s.url, sizeof(s.url), "smtp://127.0.0.1:1");
	rc = mail_smtp_send(&s, "despatch <d@example.org>", "p@example.org",
	    "Subject: x\r\n\r\nx\r\n", 14, why, sizeof(why));
	assert_int_equal(rc, MAIL_SMTP_RETRY);
	assert_non_null(strstr(why, "onnect"));
	assert_true(mail_curl_loaded());
	assert_true(mapped("libcurl"));
	/* And the URL check of the configuration works through it. */
	assert_non_null(mail_curl(why, sizeof(why)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reading_mail_does_not_load_libcurl),
		cmocka_unit_test(test_sending_loads_it_and_a_refused_connection_is_retried),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
