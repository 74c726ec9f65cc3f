"""Counts in the messages people read are in words that agree with them (kernel/words.py):
"read 1 mail", never "read 1 mails"."""

from fedtool.kernel.words import counted


def test_one_is_singular_and_every_other_count_plural():
    assert counted(1, "mail") == "1 mail"
    assert counted(0, "mail") == "0 mails"
    assert counted(2, "reminder") == "2 reminders"
    assert counted(1, "copy", "copies") == "1 copy"
    assert counted(11, "copy", "copies") == "11 copies"
    assert counted(1, "mail command") == "1 mail command"
