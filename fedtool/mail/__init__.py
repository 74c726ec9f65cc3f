"""Mail: strategies in, answers, results and reminders out.

- `intake`: strategy mails from a Maildir, mbox, .eml folder or IMAP, checked, filed, answered.
- `imap`: the IMAP source (standard library imaplib).
- `outgoing`: `fedtool send` over SMTP, once per mail; reminders.
- `passwords`: players' strategy-mail passwords, salted scrypt hashes.
"""
