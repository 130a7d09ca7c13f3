"""A real SMTP server on 127.0.0.1 for Parla's email tests (aiosmtpd 1.4.6).

Run with the venv that scripts/install-deps.sh makes:

    vendor/python/bin/python scripts/test-smtp-server.py --maildir DIR [options]

Once it accepts connections it prints one line, `PORT <n>`, to stdout; it runs
until stdin reaches EOF or it gets SIGTERM (or SIGINT), then exits 0.

Each accepted message becomes DIR/<n>.eml (the DATA bytes as received, CRLF
line ends, dot-unstuffed) and then DIR/<n>.json ({"mailFrom", "rcptTos",
"tls", "authenticatedAs"}), n counting from 1. Both are renamed into place,
the .json last, so a reader that sees <n>.json can read <n>.eml.
"""

import argparse
import json
import logging
import os
import signal
import ssl
import sys
import warnings

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

# aiosmtpd's noise on stderr: it warns, once and then per connection, when AUTH
# does not require TLS (chosen below), and per successful AUTH, that it sets
# the deprecated Session.login_data itself.
warnings.filterwarnings("ignore", "Requiring AUTH while not requiring TLS")
NOISE = ("auth_require_tls == False", "Session.login_data is deprecated")
logging.getLogger("mail.log").addFilter(lambda record: not any(text in record.getMessage() for text in NOISE))


class Handler:
    def __init__(self, maildir, fail_first, rejected):
        self.maildir = maildir
        self.failures_left = fail_first
        self.rejected = {address.casefold() for address in rejected}
        self.count = 0

    # Hooks run on the controller's event loop thread, one at a time, so the
    # counters need no lock.
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.casefold() in self.rejected:
            return "550 5.1.1 No such user"
        envelope.rcpt_tos.append(address)  # a hook that answers must do this itself
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.failures_left > 0:
            self.failures_left -= 1
            return "451 4.3.0 Try again later"
        self.count += 1
        # session.ssl is only set by STARTTLS; with implicit TLS, only the
        # transport knows.
        tls = session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None
        user = session.auth_data.login.decode() if session.authenticated else None
        meta = {"mailFrom": envelope.mail_from, "rcptTos": envelope.rcpt_tos, "tls": tls, "authenticatedAs": user}
        base = os.path.join(self.maildir, str(self.count))
        write_atomically(base + ".eml", envelope.original_content)
        write_atomically(base + ".json", json.dumps(meta, indent=2).encode() + b"\n")
        return "250 OK"


def write_atomically(path, data):
    with open(path + ".tmp", "wb") as file:
        file.write(data)
    os.rename(path + ".tmp", path)


def authenticator_for(user, password):
    expected = LoginPassword(user.encode(), password.encode())

    # aiosmtpd calls this for AUTH PLAIN and LOGIN with a LoginPassword of bytes.
    # A failure must say handled=False, or aiosmtpd sends no reply at all.
    def authenticate(server, session, envelope, mechanism, auth_data):
        if auth_data == expected:
            return AuthResult(success=True, auth_data=auth_data)
        return AuthResult(success=False, handled=False)

    return authenticate


class EphemeralPortController(Controller):
    """Binds port 0 and learns the port the kernel chose, with no race.

    Controller.start() binds, then connects to self.port to build the SMTP
    instance; the listening socket is known by then, so take the port from it.
    """

    def _trigger_server(self):
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--maildir", required=True, help="where <n>.eml and <n>.json go")
    parser.add_argument("--cert", help="PEM certificate (chain): enables TLS")
    parser.add_argument("--key", help="PEM private key of --cert")
    parser.add_argument("--implicit-tls", action="store_true", help="TLS from the first byte (SMTPS) instead of STARTTLS")
    parser.add_argument("--auth", metavar="USER:PASSWORD", help="require AUTH PLAIN or LOGIN with exactly these")
    parser.add_argument("--fail-first", type=int, default=0, metavar="N", help="answer the first N DATA with 451")
    parser.add_argument("--reject-recipient", action="append", default=[], metavar="ADDRESS", help="answer RCPT TO of ADDRESS with 550 (repeatable)")
    args = parser.parse_args()
    if bool(args.cert) != bool(args.key):
        parser.error("--cert and --key go together")
    if args.implicit_tls and not args.cert:
        parser.error("--implicit-tls needs --cert and --key")
    if args.auth and ":" not in args.auth:
        parser.error("--auth takes USER:PASSWORD")

    os.makedirs(args.maildir, exist_ok=True)
    options = {
        "hostname": "127.0.0.1",  # where to listen
        "port": 0,
        "server_hostname": "localhost",  # the greeting's name; otherwise each connection calls getfqdn()
        "decode_data": False,  # keep the bytes (and offer 8BITMIME); the Controller enables SMTPUTF8
    }
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        if args.implicit_tls:
            options["ssl_context"] = context
        else:
            options.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, _, password = args.auth.partition(":")
        # aiosmtpd only counts STARTTLS as TLS for AUTH (aio-libs/aiosmtpd#274,
        # #281), so with implicit TLS, as without TLS, AUTH must not require it.
        options.update(
            auth_required=True,
            authenticator=authenticator_for(user, password),
            auth_require_tls=bool(args.cert) and not args.implicit_tls,
        )

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: sys.exit(0))
    handler = Handler(args.maildir, args.fail_first, args.reject_recipient)
    controller = EphemeralPortController(handler, **options)
    controller.start()
    print(f"PORT {controller.port}", flush=True)
    try:
        for _ in sys.stdin.buffer:  # until EOF; whatever is written is ignored
            pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
