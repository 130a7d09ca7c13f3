"""Schemathesis hooks for scripts/fuzz-api.sh.

Every generated request is signed in as a real account of the server under
test, which also teaches (so class routes get past 403). A fresh account
is signed up when the current one is no use any more: its token refused
(the fuzzer may sign out or erase the account it runs as) or its learners
at the limit of 8 (so that learner -> course -> placement -> lesson -> game
chains can start), and every 30 seconds. The server's address comes from
PARLA_FUZZ_URL.
"""
import itertools
import json
import os
import threading
import time
import urllib.request

import schemathesis

BASE = os.environ["PARLA_FUZZ_URL"]
_numbers = itertools.count(1)
_lock = threading.Lock()
_current = {"token": None, "since": 0.0}


def _call(path, body, token=None, method="POST"):
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def _new_account():
    number = next(_numbers)
    signed_in = _call(
        "/v1/accounts",
        {
            "firstName": "Fuzz", "lastName": "Tester", "email": f"fuzz{os.getpid()}-{number}@example.com",
            "password": "correct horse battery", "acceptTerms": True, "uiLanguage": "en",
        },
    )
    token = signed_in["session"]["token"]
    _call("/v1/me/teacher", {"displayName": "Fuzz Tester"}, token=token, method="PUT")
    return token


@schemathesis.auth(refresh_interval=None)
class ParlaAccount:
    def get(self, case, ctx):
        with _lock:
            if _current["token"] is None or time.monotonic() - _current["since"] > 30:
                _current["token"], _current["since"] = _new_account(), time.monotonic()
            return _current["token"]

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = "Bearer " + data


@schemathesis.hook
def after_call(context, case, response):
    """An account that cannot go on is replaced before the next request."""
    sent = (case.headers or {}).get("Authorization", "")
    body = response.content or b""
    used_up = (response.status_code == 401 and b"authentication_required" in body) or (
        response.status_code == 409 and b"learner_limit_reached" in body
    )
    if used_up:
        with _lock:
            if _current["token"] and sent.endswith(_current["token"]):
                _current["token"] = None
