"""Mail intake speed: 1,000 strategy mails read, checked, filed and answered.

    python benchmarks/bench_inbox.py [--mails N]

A copy of the demo fed receives N mails for week 1 (each a full strategy from the right
owner, a few bad or spoofed among them) in a Maildir; the whole `intake` is timed.
"""

from __future__ import annotations

import argparse
import mailbox
import shutil
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

from fedtool.fed.settings import Fed
from fedtool.mail.intake import intake

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mails", type=int, default=1000)
    n = parser.parse_args().mails
    with tempfile.TemporaryDirectory() as tmp:
        fed_dir = Path(tmp) / "fed"
        for name in ("rosters", "strategies", "templates"):
            shutil.copytree(ROOT / name, fed_dir / name)
        fed = Fed.load(fed_dir)
        week = fed_dir / "strategies/week-01"
        owners = {"brother-bob": "bob@players.example", "friendly-sam": "sam@players.example", "big-earl": "earl@players.example",
                  "rocky-ridge": "hank@players.example", "relampago": "luis@players.example"}
        box = mailbox.Maildir(Path(tmp) / "Maildir", create=True)
        for i in range(n):
            wid = list(owners)[i % len(owners)]
            m = EmailMessage()
            m["From"] = owners[wid] if i % 10 else "spoofer@attacker.example"
            m["Subject"] = f"Week 1 {wid}"
            m["Message-ID"] = f"<bench-{i}@players.example>"
            m.set_content((week / f"{wid}.yaml").read_text())
            box.add(m)
        start = time.perf_counter()
        report = intake(fed, Path(tmp) / "Maildir")
        elapsed = time.perf_counter() - start
    print(f"intake of {n:,} mails: {elapsed:.1f} s ({n / elapsed:,.0f} mails/s); "
          f"{report.count('accepted')} accepted, {report.count('refused')} refused, {len(report.replies)} answers")


if __name__ == "__main__":
    main()
