#!/usr/bin/env python3
"""what_happened.py MAIL - prints the "What happened" section of a report
mail's plain text (decoded as a mail program would), for golden tests."""
import email
import email.policy
import sys

m = email.message_from_binary_file(open(sys.argv[1], "rb"),
                                   policy=email.policy.default)
text = m.get_body(("plain",)).get_content()
start = text.index("What happened\n")
end = text.index("\nYour forces after the phase", start)
sys.stdout.write(text[start:end] + "\n")
