#!/usr/bin/env python3
"""Closed-loop load on the lesson answers endpoint, standard library only.

Signs up LEARNERS accounts one after another (bcrypt makes that slow on
purpose), then runs one simulated learner per keep-alive HTTP/1.1 connection:
start a teacher-mode lesson, answer every question with an option picked at
random among those not yet tried, start another lesson when it is finished,
with no think time. Only POST .../lessons/{id}/answers is timed. The first
WARMUP seconds are discarded, the next DURATION seconds are measured, and a
markdown report is printed on stdout (problems go to stderr).

It also holds what the other load clients share (course_load.py,
spelling_load.py, soak.py): the connection, sign-ups, the clock, the
figures and the report's tables; the `signup` and `run` command line of
course_load.py and spelling_load.py (load_main); and the helpers of the
benchmarks' own reports (nested, WRK_HEAD, wrk_row).
"""

import argparse
import asyncio
import json
import math
import os
import random
import secrets
import sys
import time

LANGUAGES = ["fr", "it", "de", "es", "en"]
TYPES = ["translationToTarget", "translationFromTarget", "listening", "picture", "gapFill"]
LESSON_LENGTH = 12
REQUEST_TIMEOUT = 60.0
ERROR_BODIES_SHOWN = 5


class HTTPError(Exception):
    """The connection broke or the response could not be read."""


class Connection:
    """One keep-alive HTTP/1.1 connection with a minimal request/response codec."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        self.reader = self.writer = None

    def _encode(self, method, path, body, headers):
        payload = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: keep-alive",
                 "Accept: application/json", f"Content-Length: {len(payload)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload

    async def request(self, method, path, body=None, headers=None):
        """Sends a request and reads the whole response.

        Returns (status, headers as a lower-cased dict, body bytes, seconds
        from sending to the last byte). A reused connection that the server
        closed before answering is opened again and the request sent once more.
        """
        data = self._encode(method, path, body, headers)
        for attempt in (1, 2):
            reused = self.writer is not None
            if not reused:
                await self.open()
            started = time.perf_counter()
            try:
                try:
                    self.writer.write(data)
                    await self.writer.drain()
                except (ConnectionError, OSError) as error:
                    raise _ClosedBeforeResponse() from error
                status, response_headers, response_body = await self._read_response(method)
            except _ClosedBeforeResponse:
                await self.close()
                if reused and attempt == 1:
                    continue
                raise HTTPError("the server closed the connection without answering")
            except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as error:
                await self.close()
                raise HTTPError(f"{type(error).__name__}: {error}") from error
            elapsed = time.perf_counter() - started
            if response_headers.get("connection", "").lower() == "close":
                await self.close()
            return status, response_headers, response_body, elapsed
        raise AssertionError("unreachable")

    async def _read_response(self, method):
        while True:
            try:
                head = await self.reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as error:
                if not error.partial:
                    raise _ClosedBeforeResponse() from error
                raise
            except ConnectionResetError as error:
                raise _ClosedBeforeResponse() from error
            status_line, *header_lines = head[:-4].decode("latin-1").split("\r\n")
            version, code, *_ = status_line.split(" ", 2)
            if not version.startswith("HTTP/1."):
                raise ValueError(f"not an HTTP/1.x status line: {status_line!r}")
            status = int(code)
            headers = {}
            for line in header_lines:
                name, _, value = line.partition(":")
                name, value = name.strip().lower(), value.strip()
                headers[name] = f"{headers[name]}, {value}" if name in headers else value
            if 100 <= status < 200:
                continue  # an interim response: the real one follows
            break
        if method == "HEAD" or status in (204, 304):
            body = b""
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            body = await self._read_chunked()
        elif "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        else:
            body = await self.reader.read()  # delimited by the end of the connection
            headers["connection"] = "close"
        return status, headers, body

    async def _read_chunked(self):
        parts = []
        while True:
            size_line = await self.reader.readuntil(b"\r\n")
            size = int(size_line.split(b";", 1)[0].strip(), 16)
            if size == 0:
                while await self.reader.readuntil(b"\r\n") != b"\r\n":
                    pass  # trailers
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            if await self.reader.readexactly(2) != b"\r\n":
                raise ValueError("a chunk not followed by CRLF")


class _ClosedBeforeResponse(Exception):
    pass


class Stats:
    def __init__(self):
        self.right, self.wrong = [], []  # latencies in seconds, measured window only
        self.errors = 0  # non-200 answers and broken answer requests, measured window
        self.errors_total = 0  # including warm-up
        self.start_errors = 0  # lesson starts that failed, any time
        self.lessons_completed = 0  # finished within the measured window
        self.shown = {}

    def show(self, kind, what, detail):
        """Prints the first few problems of each kind (answer, start) on stderr."""
        show_problem(self.shown, kind, what, detail)


def show_problem(shown, kind, what, detail):
    """Prints the first few problems of each kind on stderr; `shown` counts them."""
    if shown.get(kind, 0) < ERROR_BODIES_SHOWN:
        shown[kind] = shown.get(kind, 0) + 1
        print(f"{what}: {detail}", file=sys.stderr)


class Clock:
    def __init__(self, warmup, duration):
        self.started = time.perf_counter()
        self.measure_from = self.started + warmup
        self.end = self.measure_from + duration

    def measuring(self, moment):
        return self.measure_from <= moment <= self.end


async def sign_up(connection, index, suffix, prefix="lesson", ui_language=None):
    """A new account on the trial; returns its token and its learner's id."""
    body = {"firstName": "Bench", "lastName": "Mark", "email": f"{prefix}{index}-{suffix}@example.com",
            "password": "benchmark password", "acceptTerms": True}
    if ui_language:
        body["uiLanguage"] = ui_language
    status, _, payload, _ = await connection.request("POST", "/v1/accounts", body)
    if status != 201:
        raise SystemExit(f"sign-up {index} failed: HTTP {status} {payload[:500].decode(errors='replace')}")
    account = json.loads(payload)
    # The free plan allows ten lessons a day and opens the first pack of each
    # section of the course: the trial opens all, without limit.
    status, _, payload, _ = await connection.request(
        "POST", "/v1/me/plan/trial", {}, {"Authorization": f"Bearer {account['session']['token']}"})
    if status != 201:
        raise SystemExit(f"trial {index} failed: HTTP {status} {payload[:500].decode(errors='replace')}")
    return account["session"]["token"], account["learners"][0]["id"]


class LoadStats:
    """What the learners of a load client with `signup` and `run` count alike
    (course_load.py, spelling_load.py): each client's Stats adds its own."""

    def __init__(self):
        self.starts = []  # seconds per start (a lesson, a game), measured window only
        self.errors = 0  # timed requests not 200 or broken, measured window
        self.errors_total = 0  # including warm-up
        self.start_problems = {}  # starts refused or broken, by status, any time
        self.stuck = 0  # nothing left to try (a screen, a word), any time
        self.shown = {}

    def show(self, kind, what, detail):
        """Prints the first few problems of each kind on stderr."""
        show_problem(self.shown, kind, what, detail)

    def error(self, counted, kind, what, detail):
        """A request not 200 or broken: counted (in the measured window too when `counted`) and shown."""
        self.errors_total += 1
        if counted:
            self.errors += 1
        self.show(kind, what, detail)

    async def refused(self, status, what, payload):
        """A start refused or broken: counted by status and shown, then a pause before the next."""
        self.start_problems[status] = self.start_problems.get(status, 0) + 1
        self.show("start", what, payload[:500].decode(errors="replace"))
        await asyncio.sleep(0.2)  # no hot loop against a server that refuses


async def timed(connection, method, path, body, headers):
    """(status, payload, seconds); status None when the request broke."""
    try:
        status, _, payload, elapsed = await asyncio.wait_for(
            connection.request(method, path, body, headers), REQUEST_TIMEOUT)
        return status, payload, elapsed
    except (HTTPError, asyncio.TimeoutError) as error:
        await connection.close()
        return None, repr(error).encode(), None


def own_language(language):
    """The UI language (the learner's own) of a learner of `language`."""
    return "fr" if language == "en" else "en"


async def sign_up_learners(args):
    """`signup`: args.learners accounts on the trial (sign_up: no daily limit),
    the languages in turn; prints token, learner id and language, a line each."""
    suffix = secrets.token_hex(4)
    connection = Connection(args.host, args.port)
    started = time.perf_counter()
    for index in range(args.learners):
        language = LANGUAGES[index % len(LANGUAGES)]
        token, learner_id = await sign_up(connection, index, suffix, args.email, own_language(language))
        print(token, learner_id, language, flush=True)
    await connection.close()
    print(f"{args.learners} sign-ups in {time.perf_counter() - started:.1f} s", file=sys.stderr)


THINK_RULE = "--think takes MIN,MAX seconds, 0 <= MIN <= MAX"


def think_range(text):
    """--think's MIN,MAX seconds as a pair, or None when not 0 <= MIN <= MAX."""
    think = tuple(float(part) for part in text.split(","))
    return think if len(think) == 2 and 0 <= think[0] <= think[1] else None


def run_inputs(args):
    """`run`'s think times and the accounts of --accounts (token, learner id,
    language: signup's lines); exits when either is wrong."""
    think = think_range(args.think)
    if think is None:
        raise SystemExit(THINK_RULE)
    accounts = []
    with open(args.accounts) as lines:
        for line in lines:
            if line.strip():
                token, learner_id, language = line.split()
                accounts.append((token, learner_id, language))
    if not accounts:
        raise SystemExit(f"no accounts in {args.accounts}")
    return think, accounts


async def gather_measuring_cpu(clock, duration, learners):
    """Runs the learners (coroutines) to the end; returns the client's own CPU
    time over the measured window, a share of one core."""
    cpu = {}

    async def client_cpu():
        await asyncio.sleep(max(0.0, clock.measure_from - time.perf_counter()))
        cpu["from"] = time.process_time()
        await asyncio.sleep(max(0.0, clock.end - time.perf_counter()))
        cpu["to"] = time.process_time()

    await asyncio.gather(client_cpu(), *learners)
    return (cpu.get("to", 0) - cpu.get("from", 0)) / duration


def load_main(doc, run, email, port, seed_help, think_help, summary_help):
    """The command line of a load client whose learners sign up first
    (`signup`: the lines of --accounts) and take the load next (`run`, the
    coroutine run(args)); each client says its emails' prefix, port and help
    texts. Exits 130 on ^C."""
    try:
        parser = argparse.ArgumentParser(description=doc.splitlines()[0])
        commands = parser.add_subparsers(dest="command", required=True)
        up = commands.add_parser("signup", help="sign up learners on the trial; prints token, learner id, language")
        up.add_argument("--learners", type=int, default=64)
        up.add_argument("--email", default=email, help="the emails' prefix")
        load = commands.add_parser("run", help="the load, on the learners of --accounts")
        load.add_argument("--accounts", required=True, help="lines of token, learner id, language (from signup)")
        load.add_argument("--duration", type=float, default=20, help="measured seconds")
        load.add_argument("--warmup", type=float, default=3, help="seconds discarded first")
        load.add_argument("--seed", type=int, help=seed_help)
        load.add_argument("--think", default="0,0", help=think_help)
        load.add_argument("--label", default="", help="the report's title says it")
        load.add_argument("--summary", help=summary_help)
        for command in (up, load):
            command.add_argument("--host", default="127.0.0.1")
            command.add_argument("--port", type=int, default=port)
        args = parser.parse_args()
        if args.command == "signup":
            if args.learners < 1:
                parser.error("learners must be at least 1")
            asyncio.run(sign_up_learners(args))
        else:
            if args.duration <= 0 or args.warmup < 0:
                parser.error("duration must be positive, warmup not negative")
            asyncio.run(run(args))
    except KeyboardInterrupt:
        sys.exit(130)


async def learner(host, port, token, learner_id, language, clock, stats, rng, think):
    connection = Connection(host, port)
    headers = {"Authorization": f"Bearer {token}"}
    lessons_path = f"/v1/learners/{learner_id}/lessons"
    start_body = {"language": language, "mode": "teacher", "length": LESSON_LENGTH, "types": TYPES}
    try:
        while time.perf_counter() < clock.end:
            # Start (or resume) a lesson; not timed.
            try:
                status, _, payload, _ = await asyncio.wait_for(
                    connection.request("POST", lessons_path, start_body, headers), REQUEST_TIMEOUT)
            except (HTTPError, asyncio.TimeoutError) as error:
                await connection.close()
                stats.start_errors += 1
                stats.show("start", "lesson start failed", repr(error))
                await asyncio.sleep(0.2)
                continue
            if status not in (200, 201):
                stats.start_errors += 1
                stats.show("start", f"lesson start HTTP {status}", payload[:500].decode(errors="replace"))
                await asyncio.sleep(0.2)  # no hot loop against a server that refuses
                continue
            lesson = json.loads(payload)
            answers_path = f"{lessons_path}/{lesson['id']}/answers"
            while lesson.get("status") == "inProgress" and lesson.get("question"):
                if time.perf_counter() >= clock.end:
                    return
                question = lesson["question"]
                options = [option["id"] for option in question.get("options", []) if not option.get("disabled")]
                if not options:
                    stats.start_errors += 1
                    stats.show("start", "a question without an option left to try", json.dumps(question)[:500])
                    return  # resuming would bring the same question back
                # A learner reads the question before answering (none with --think 0,0).
                pause = rng.uniform(*think)
                if pause > 0:
                    await asyncio.sleep(pause)
                answer = {"questionId": question["id"], "optionId": rng.choice(options),
                          "responseTimeMs": int(pause * 1000) if pause > 0 else rng.randint(800, 4000)}
                status, payload, elapsed = await timed(connection, "POST", answers_path, answer, headers)
                done = time.perf_counter()
                counted = clock.measuring(done)
                if status != 200:
                    stats.errors_total += 1
                    if counted:
                        stats.errors += 1
                    stats.show("answer", f"answer HTTP {status}", payload[:500].decode(errors="replace"))
                    break  # start (resume) the lesson again
                reply = json.loads(payload)
                if counted:
                    (stats.right if reply.get("correct") else stats.wrong).append(elapsed)
                lesson = reply["lesson"]
                if lesson.get("status") == "finished" and counted:
                    stats.lessons_completed += 1
    finally:
        await connection.close()


def nearest_rank(ordered, percent):
    if not ordered:
        return float("nan")
    rank = max(1, math.ceil(percent / 100 * len(ordered)))
    return ordered[rank - 1]


def row(name, latencies, duration):
    ordered = sorted(latencies)
    if not ordered:
        return f"| {name} | 0 | 0.0 | - | - | - | - |"
    ms = [nearest_rank(ordered, p) * 1000 for p in (50, 90, 99)] + [ordered[-1] * 1000]
    return (f"| {name} | {len(ordered)} | {len(ordered) / duration:.1f} | "
            + " | ".join(f"{value:.1f}" for value in ms) + " |")


def figure(ordered, percent):
    """A percentile of sorted seconds in ms, None when there are none."""
    return nearest_rank(ordered, percent) * 1000 if ordered else None


def pace(think, when):
    """How the learners answer, for a report: `when` says before what they think."""
    return ("closed loop without think time" if think[1] == 0
            else f"each taking {think[0]:g}-{think[1]:g} s (uniform) {when}")


def language_mix(accounts):
    """The learners per language of accounts (token, learner id, language), for a report."""
    return ", ".join(f"{language} {sum(1 for a in accounts if a[2] == language)}" for language in LANGUAGES
                     if any(a[2] == language for a in accounts))


def client_note(used):
    """The report's line on the client, `used` its share of a core while measured."""
    return (f"The client (Python asyncio, one process, {used:.0%} of a core while measured) runs on the same "
            f"{os.cpu_count()} cores as Parla and PostgreSQL; release build.\n")


def table_head(name, counted):
    """The head of a table of rows (row): what each row times, and what it counts."""
    return (f"| {name} | {counted} | {counted}/s | p50 ms | p90 ms | p99 ms | max ms |\n"
            "|---|---:|---:|---:|---:|---:|---:|")


def problem_counts(problems):
    """Problems by status, for a report: "HTTP 503: 2, ..." or "none"."""
    return ", ".join(f"HTTP {status}: {count}" for status, count in sorted(problems.items(), key=str)) or "none"


def write_summary(path, learners, duration, figures, stats, cpu):
    """--summary (nothing without a path): the run's figures as JSON, the
    client's own between its learners and duration and its stats' errors."""
    if path:
        with open(path, "w") as summary:
            json.dump({"learners": learners, "duration": duration, **figures, "errors": stats.errors,
                       "errorsTotal": stats.errors_total, "startProblems": sum(stats.start_problems.values()),
                       "stuck": stats.stuck, "clientCpu": cpu}, summary)


# The benchmarks' own reports (python3 heredocs of course.sh, spelling.sh):
# a load client's report as a section, and wrk's figures (server.sh's measure).
def nested(report):
    """A markdown report one heading level down, to stand as a section of another."""
    return report.replace("\n# ", "\n## ").replace("# ", "## ", 1) if report.startswith("# ") else report


WRK_HEAD = "| request | connections | requests/s | p50 ms | p99 ms | non-2xx |\n|---|---:|---:|---:|---:|---:|"


def wrk_row(name, connections, figures):
    """A row under WRK_HEAD: figures are measure's fields (name, path, requests/s, p50 ms, p99 ms, non-2xx)."""
    return f"| {name} | {connections} | {figures[2]} | {figures[3]} | {figures[4]} | {figures[5]} |"


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=18082)
    parser.add_argument("--learners", type=int, default=32)
    parser.add_argument("--duration", type=float, default=20, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3, help="seconds discarded first")
    parser.add_argument("--seed", type=int, help="for the answers chosen (emails stay unique)")
    parser.add_argument("--think", default="0,0", help="seconds each learner takes before an answer: MIN,MAX (uniform)")
    args = parser.parse_args()
    think = think_range(args.think)
    if think is None:
        parser.error(THINK_RULE)
    if args.learners < 1 or args.duration <= 0 or args.warmup < 0:
        parser.error("learners must be at least 1, duration positive, warmup not negative")

    rng = random.Random(args.seed)
    suffix = secrets.token_hex(4)
    accounts = []
    signup = Connection(args.host, args.port)
    signup_started = time.perf_counter()
    for index in range(args.learners):
        accounts.append(await sign_up(signup, index, suffix))
    await signup.close()
    signup_seconds = time.perf_counter() - signup_started
    print(f"{args.learners} sign-ups in {signup_seconds:.1f} s", file=sys.stderr)

    stats = Stats()
    clock = Clock(args.warmup, args.duration)
    await asyncio.gather(*(
        learner(args.host, args.port, token, learner_id, LANGUAGES[index % len(LANGUAGES)], clock, stats,
                random.Random(rng.random()), think)
        for index, (token, learner_id) in enumerate(accounts)))

    mix = ", ".join(f"{language} {len(range(n, args.learners, len(LANGUAGES)))}" for n, language in enumerate(LANGUAGES))
    print("# Lesson answers under load\n")
    print(f"{args.learners} simulated learners, one keep-alive HTTP/1.1 connection each, {pace(think, 'to answer')}: "
          f"start a teacher-mode lesson of {LESSON_LENGTH} questions, answer with an option drawn at random "
          f"among those not yet tried, start another once it is finished. "
          f"{args.warmup:g} s of warm-up discarded, then {args.duration:g} s measured; only "
          f"POST /v1/learners/{{id}}/lessons/{{id}}/answers is timed (lesson starts are not).\n")
    print(f"Learners per language: {mix}. Question types: {', '.join(TYPES)}.")
    print(f"The client (Python asyncio, one process) runs on the same {os.cpu_count()} cores as Parla and PostgreSQL; "
          "release build.\n")
    print(table_head("kind", "answers"))
    print(row("all answers", stats.right + stats.wrong, args.duration))
    print(row("right answers (learning-model updates, next question chosen)", stats.right, args.duration))
    print(row("wrong answers (same question back)", stats.wrong, args.duration))
    print()
    print(f"Errors (answers not 200, or broken, in the measured window): {stats.errors} "
          f"({stats.errors_total} including warm-up). Failed lesson starts: {stats.start_errors}.")
    print(f"Lessons completed in the measured window: {stats.lessons_completed}.")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
