"""A throwaway Dovecot IMAP server on loopback for the tests: Debian's /usr/sbin/dovecot
(package dovecot-imapd) started in the foreground with its own configuration in a temporary
folder, never the system's. It listens on 127.0.0.1 only, on two free high ports: imaps
(TLS on a self-signed certificate made here with openssl) and plain imap. One user, a known
password, mail kept as Maildir in the folder. Run as root, it runs as `nobody` (Dovecot's
login processes refuse root); otherwise as the current user. Nothing of the system's
Dovecot (/etc/dovecot, /run/dovecot, ports 143 and 993) is read or touched."""

from __future__ import annotations

import os
import pwd
import grp
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

DOVECOT = Path("/usr/sbin/dovecot")
USER, PASSWORD = "fedhead@dcw.example", "s3cret pass"
START_TIMEOUT = 15.0  # seconds for both ports to accept connections


def missing() -> str | None:
    """Why a Dovecot cannot be started here, or None."""
    if not DOVECOT.exists():
        return f"{DOVECOT} is not installed (apt-get install dovecot-imapd)"
    if not shutil.which("openssl"):
        return "the openssl command is not installed (it makes the test server's certificate)"
    return None


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def self_signed(folder: Path, name: str) -> Path:
    """A self-signed certificate for 127.0.0.1 and localhost: `name`.pem, key in `name`.key."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(folder / f"{name}.key"), "-out", str(folder / f"{name}.pem"), "-days", "2",
                    "-subj", "/CN=fedtool test IMAP", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    return folder / f"{name}.pem"


CONFIG = """\
# fedtool's test server: nothing here comes from /etc/dovecot
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
protocols = imap
auth_failure_delay = 0  # a wrong password is answered at once, not after 2 s
listen = 127.0.0.1
ssl = required
ssl_cert = <{d}/server.pem
ssl_key = <{d}/server.key
default_login_user = {user}
default_internal_user = {user}
default_internal_group = {group}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {d}/users
}}
userdb {{
  driver = static
  args = uid={user} gid={group} home={d}/home/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""


class Dovecot:
    """A running test server: its ports, its certificate (`cafile`), a client to fill it."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="fedtool-dovecot-"))
        self.folder.chmod(0o755)
        if os.geteuid() == 0:
            who = pwd.getpwnam("nobody")
            self.user, self.group = who.pw_name, grp.getgrgid(who.pw_gid).gr_name
        else:
            self.user, self.group = pwd.getpwuid(os.geteuid()).pw_name, grp.getgrgid(os.getegid()).gr_name
        self.imap_port, self.imaps_port = _free_ports(2)
        d = self.folder
        self.cafile = self_signed(d, "server")
        self.other_cert = self_signed(d, "stranger")  # a certificate that did not sign the server's
        (d / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
        (d / "home").mkdir()
        (d / "dovecot.conf").write_text(CONFIG.format(d=d, user=self.user, group=self.group, imap=self.imap_port, imaps=self.imaps_port))
        started = time.monotonic()
        as_user = {"user": self.user, "group": self.group, "extra_groups": []} if os.geteuid() == 0 else {}
        if as_user:
            for path in [d, *d.rglob("*")]:
                os.chown(path, pwd.getpwnam(self.user).pw_uid, grp.getgrnam(self.group).gr_gid)
        self.process = subprocess.Popen([str(DOVECOT), "-F", "-c", str(d / "dovecot.conf")], stdin=subprocess.DEVNULL,
                                        stdout=(d / "stdout.txt").open("wb"), stderr=subprocess.STDOUT, **as_user)
        try:
            self._wait_for_ports()
        except BaseException:
            self.stop()
            raise
        self.start_seconds = time.monotonic() - started

    def _wait_for_ports(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        for port in (self.imap_port, self.imaps_port):
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(f"dovecot stopped (exit {self.process.returncode}): {self.log()}")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"dovecot's port {port} accepts no connection after {START_TIMEOUT} s: {self.log()}")
                    time.sleep(0.01)  # polling the port, bounded by the deadline

    def log(self) -> str:
        return "".join(p.read_text(errors="replace") for p in (self.folder / "stdout.txt", self.folder / "dovecot.log") if p.exists())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def source(self, mailbox: str = "INBOX", secure: bool = True) -> str:
        """The address fedtool reads: imaps://fedhead%40dcw.example@127.0.0.1:PORT/MAILBOX."""
        scheme, port = ("imaps", self.imaps_port) if secure else ("imap", self.imap_port)
        return f"{scheme}://{USER.replace('@', '%40')}@127.0.0.1:{port}/{mailbox.replace(' ', '%20')}"

    def client(self):
        """A logged-in IMAPClient over TLS, trusting the server's certificate."""
        from imapclient import IMAPClient

        client = IMAPClient("127.0.0.1", self.imaps_port, ssl=True, ssl_context=ssl.create_default_context(cafile=str(self.cafile)), timeout=10)
        client.login(USER, PASSWORD)
        return client
