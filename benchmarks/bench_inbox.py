"""Mail intake speed: 1,000 strategy mails read, checked, filed and answered.

    python benchmarks/bench_inbox.py [--mails N] [--trials T]

Each trial is a fresh copy of the demo fed receiving N mails for week 1 in a Maildir (each
a full strategy from the right owner, its own text as players' are, one in ten spoofed);
the whole `intake` is timed, in this process (start-up is `bench_tick.py`'s). Each trial keeps
what it parses in a cache folder of its own, empty at the start (FEDTOOL_CACHE_DIR): the mails'
texts are the same from one trial and one run of this script to the next, and a mail that
comes in is a text never read before, so a cache the trials shared would measure what no
intake meets (`--cache off`: FEDTOOL_CACHE_DIR="", nothing kept, for comparison).

Side by side, in the same run and on the same mails: a plain standard-library reference
that does the least an intake can do per mail (parse it, read its body, load the YAML with
LibYAML's CSafeLoader, build an answer and write it to a file of its own), with none of the
checks, filing or records. Prints best and median of each and the ratio.
"""

from __future__ import annotations

import argparse
import mailbox
import os
import resource
import shutil
import statistics
import tempfile
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import yaml

from fedtool.fed.settings import Fed
from fedtool.mail.intake import intake

ROOT = Path(__file__).resolve().parent.parent
OWNERS = {"brother-bob": "bob@players.example", "friendly-sam": "sam@players.example", "big-earl": "earl@players.example",
          "rocky-ridge": "hank@players.example", "relampago": "luis@players.example"}


def make_mailbox(folder: Path, week: Path, n: int) -> None:
    box = mailbox.Maildir(folder, create=True)
    texts = {wid: (week / f"{wid}.yaml").read_text() for wid in OWNERS}
    for i in range(n):
        wid = list(OWNERS)[i % len(OWNERS)]
        m = EmailMessage()
        m["From"] = OWNERS[wid] if i % 10 else "spoofer@attacker.example"
        m["Subject"] = f"Week 1 {wid}"
        m["Message-ID"] = f"<bench-{i}@players.example>"
        m.set_content(texts[wid] + f"# mail {i}\n")  # each strategy its own text: nothing parsed for one mail serves the next
        box.add(m)


def reference(source: Path, out: Path) -> int:
    """The least an intake does per mail, with the standard library and LibYAML."""
    parser = BytesParser(policy=policy.default)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out.mkdir()
    count = 0
    box = mailbox.Maildir(source, factory=None, create=False)
    for key in sorted(box.keys()):
        with box.get_file(key) as handle:
            message = parser.parsebytes(handle.read())
        body = message.get_body(("plain",)).get_content()
        data = yaml.load(body, Loader=loader)  # noqa: S506 - a safe loader
        reply = EmailMessage()
        reply["From"] = "fedhead@dcw.example"
        reply["To"] = message["From"]
        reply["Subject"] = "Re: " + message["Subject"]
        reply["Message-ID"] = f"<re-{count}@dcw.example>"
        reply["In-Reply-To"] = message["Message-ID"]
        reply.set_content(f"Accepted: {len(data)} fields.\n\n" + body)
        (out / f"{count}.eml").write_bytes(bytes(reply))
        count += 1
    return count


def cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the intake's workers)."""
    return sum(getattr(resource.getrusage(who), field) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN) for field in ("ru_utime", "ru_stime"))


TARGET = 2.0  # seconds for 1,000 mails (issue 18: "Intake of 1,000 mails under 2 s")


def measure(n: int = 1000, trials: int = 3, cache: str = "fresh") -> dict:
    """Each trial: the intake, then the reference, on the same mails (interleaved); the
    intake's cache a fresh folder each trial, or off (`cache="off"`)."""
    times, refs, cpus, ref_cpus = [], [], [], []
    before = os.environ.get("FEDTOOL_CACHE_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        for trial in range(trials):
            base = Path(tmp) / f"trial-{trial}"
            os.environ["FEDTOOL_CACHE_DIR"] = str(base / "cache") if cache == "fresh" else ""
            fed_dir = base / "fed"
            for name in ("rosters", "strategies", "templates"):
                shutil.copytree(ROOT / name, fed_dir / name)
            make_mailbox(base / "Maildir", fed_dir / "strategies/week-01", n)
            fed = Fed.load(fed_dir)
            start, used = time.perf_counter(), cpu()  # interleaved: target, then reference, each trial
            report = intake(fed, base / "Maildir")
            times.append(time.perf_counter() - start)
            cpus.append(cpu() - used)
            start, used = time.perf_counter(), cpu()
            reference(base / "Maildir", base / "reference")
            refs.append(time.perf_counter() - start)
            ref_cpus.append(cpu() - used)
            shutil.rmtree(base)
    if before is None:
        os.environ.pop("FEDTOOL_CACHE_DIR", None)
    else:
        os.environ["FEDTOOL_CACHE_DIR"] = before
    return {"n": n, "times": times, "refs": refs, "cpus": cpus, "ref_cpus": ref_cpus, "report": report}


def figures(n: int = 1000, trials: int = 3, measured: dict | None = None) -> list[dict]:
    """The intake's wall time beside the reference's (best and median), and its CPU time beside
    the reference's, as the lead's one script gathers them."""
    m = measured or measure(n, trials)
    best, median = min(m["times"]), statistics.median(m["times"])
    ref_best, ref_median = min(m["refs"]), statistics.median(m["refs"])
    target = TARGET * n / 1000
    return [
        {"what": f"intake of {n:,} mails (wall)", "best": best, "median": median, "unit": "s", "floor_best": ref_best, "floor_median": ref_median,
         "ratio": median / ref_median, "target": target, "met": best < target and median < target},
        {"what": f"intake of {n:,} mails (CPU, all processes)", "best": min(m["cpus"]), "median": statistics.median(m["cpus"]), "unit": "s",
         "floor_best": min(m["ref_cpus"]), "floor_median": statistics.median(m["ref_cpus"]),
         "ratio": statistics.median(m["cpus"]) / statistics.median(m["ref_cpus"]), "target": None, "met": None},
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--cache", choices=("fresh", "off"), default="fresh", help="each trial's cache: a fresh folder, or off")
    args = parser.parse_args()
    n = args.mails
    m = measure(n, args.trials, args.cache)
    times, refs, cpus, ref_cpus, report = m["times"], m["refs"], m["cpus"], m["ref_cpus"], m["report"]
    best, median = min(times), statistics.median(times)
    print(f"intake of {n:,} mails: best {best:.2f} s, median {median:.2f} s over {len(times)} trials ({n / median:,.0f} mails/s); "
          f"{report.count('accepted')} accepted, {report.count('refused')} refused, {len(report.replies)} answers")
    print(f"reference (stdlib parse, body, CSafeLoader YAML, answer written): best {min(refs):.2f} s, median {statistics.median(refs):.2f} s")
    print(f"ratio intake / reference: best {best / min(refs):.2f}x, median {median / statistics.median(refs):.2f}x")
    print(f"CPU time (all processes; what a loaded machine does not hide): intake best {min(cpus):.2f} s, median {statistics.median(cpus):.2f} s; "
          f"reference best {min(ref_cpus):.2f} s, median {statistics.median(ref_cpus):.2f} s; "
          f"ratio {min(cpus) / min(ref_cpus):.2f}x best, {statistics.median(cpus) / statistics.median(ref_cpus):.2f}x median")
    target = TARGET * n / 1000
    print(f"target: under {target:.2f} s, best and median: {'met' if best < target and median < target else 'NOT met'}")


if __name__ == "__main__":
    main()
