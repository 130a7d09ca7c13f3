#!/usr/bin/env python3
"""Soak: a steady, realistic mixed load on one server for a long time, standard library only.

One asyncio process, each simulated person on a keep-alive HTTP/1.1
connection of its own (lesson_load.Connection):

- LEARNERS learners take teacher-mode lessons (lesson_load's lessons: 12
  choice questions, fr, it, de, es, en in turn), reading each question for
  THINK (1-3) s before answering with an option not yet tried, and rest a
  few seconds between lessons;
- PLAYERS learners play 8-pair card-matching games (word and translation;
  fr, it, de, es in turn), turn after turn: every other game is played live
  (POST .../flips, one flip every PLAYER_THINK (0.6-1.6) s, as
  Benchmarks/leaderboard_player.py does) and the others offline (the deal
  comes with its faces, the flips happen on the device over the same time
  and the log is sent once finished, as Benchmarks/game_logs.py prepares
  them). A player remembers the cards seen and knows the words (the
  corpus says which word goes with which translation): a card whose partner
  was seen is matched, otherwise an unseen card is tried, so games have
  mismatches as people's do. After each game the player looks at the
  leaderboard with its own rank;
- READERS readers ask, at a fixed pace (one request every READ_INTERVAL s
  each, whatever the answers' latency), for word-list pages, leaderboard
  pages and /v1/me.

Every account takes the trial first, which has no daily limit, so no answer
but a 2xx is expected: any other status, a broken connection or a request
not answered within 60 s is an error. Every request is recorded with its
kind, latency and outcome in the WINDOW (60 s) it finished in; at every
window's end the server's resident memory (VmRSS of --server-pid) and
PostgreSQL's (VmRSS and PSS summed over the postmaster of --postgres-pidfile
and its children) are sampled. With --disk-probe, the disk under the
database is timed too: every 0.2 s an 8 KB write and fdatasync of a file
beside it, as a commit's WAL flush does. A commit cannot be faster than
that, so a write's p99 that moves with the probe's is the machine's, not
Parla's; the report says, for each kind whose p99 was not stable, in how
many of its slow windows the disk stalled. A Markdown report goes to stdout
(problems to stderr); the exit status is 1 if any error occurred.
"""

import argparse
import asyncio
import glob
import json
import math
import os
import random
import re
import secrets
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lesson_load import LANGUAGES, LESSON_LENGTH, REQUEST_TIMEOUT, TYPES, Connection, HTTPError, nearest_rank, sign_up  # noqa: E402

GAME_LANGUAGES = ["fr", "it", "de", "es"]
GAME_PAIRS = 8
ERRORS_SHOWN = 5  # per kind, on stderr
MIN_FOR_P99 = 100  # answers in a third below which its p99 is little more than its maximum
DISK_PROBE_EVERY = 0.2  # seconds between two fdatasyncs of the disk probe
DISK_STALL_MS = 100  # a probe's fdatasync slower than this is a stall of the disk
# The report's columns, in order.
KINDS = ["lesson start", "lesson answer", "game start", "game flip", "game log", "leaderboard", "word-list page", "me"]
KIND_PATHS = {
    "lesson start": "POST /v1/learners/{id}/lessons",
    "lesson answer": "POST …/lessons/{id}/answers",
    "game start": "POST /v1/learners/{id}/games",
    "game flip": "POST …/games/{id}/flips (live games)",
    "game log": "POST …/games/{id}/log (offline games: replay, learning, leaderboards)",
    "leaderboard": "GET /v1/leaderboards/matching (players after a game, readers)",
    "word-list page": "GET /v1/languages/{lang}/wordlists/{list}/pages/{n}?learnerId=",
    "me": "GET /v1/me",
}
MB = 1024 * 1024


def word_concepts(languages):
    """For each language, which concepts (word-list keys) a word can stand for,
    read from Corpora/wordlists as Benchmarks/game_logs.py does."""
    concepts = {language: {} for language in languages}
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Corpora", "wordlists")
    for path in glob.glob(os.path.join(root, "*.yaml")):
        with open(path, encoding="utf-8") as file:
            blocks = file.read().split("\n  - key: ")[1:]
        for block in blocks:
            key = block.split("\n", 1)[0].strip()
            for language in languages:
                found = re.search(r"\n    %s: \{word: (\"[^\"]*\"|[^,}]*)" % language, block)
                if found:
                    concepts[language].setdefault(found.group(1).strip('"'), set()).add(key)
    return concepts


class Soak:
    """The clock, what every request did, and the memory samples."""

    def __init__(self, host, port, duration, window):
        self.host, self.port = host, port
        self.duration, self.window = duration, window
        self.windows = math.ceil(duration / window)
        self.started = self.end = None
        # per window: kind -> latencies (s) of the 2xx answers; kind -> errors
        self.latencies = [defaultdict(list) for _ in range(self.windows)]
        self.errors = [Counter() for _ in range(self.windows)]
        self.all = []  # (seconds from the start, kind, latency) of every 2xx answer
        self.error_kinds = Counter()  # (kind, status or exception name) -> count
        self.error_examples = {}  # (kind, status or exception name) -> the first one's detail
        self.shown = Counter()
        self.samples = []  # dicts, see sample()
        self.lessons_finished = self.live_games = self.offline_games = 0
        self.client_cpu = (0.0, 0.0)  # this process's CPU seconds at the start and at the end
        self.disk = [[] for _ in range(self.windows)]  # per window: the probe's fdatasync times (s)
        self.disk_all = []  # (seconds from the start, fdatasync time)

    def begin(self):
        self.started = time.perf_counter()
        self.end = self.started + self.duration

    def running(self):
        return time.perf_counter() < self.end

    def since_start(self):
        return time.perf_counter() - self.started

    async def pause(self, seconds):
        """Sleeps (never past the end); says whether the run goes on."""
        remaining = self.end - time.perf_counter()
        if remaining > 0:
            await asyncio.sleep(min(seconds, remaining))
        return self.running()

    def _window(self, moment):
        return min(self.windows - 1, max(0, int(moment / self.window)))

    def error(self, kind, what, detail):
        moment = self.since_start()
        self.errors[self._window(moment)][kind] += 1
        self.error_kinds[(kind, what)] += 1
        self.error_examples.setdefault((kind, what), f"at {moment:.1f} s: {detail[:300]}")
        if self.shown[kind] < ERRORS_SHOWN:
            self.shown[kind] += 1
            print(f"[{moment:7.1f} s] {kind}: {what}: {detail}", file=sys.stderr)

    async def call(self, connection, kind, method, path, body=None, headers=None, ok=(200,)):
        """One request, recorded under `kind`; its JSON body if the status is
        in `ok`, else None (an error, recorded)."""
        try:
            status, _, payload, elapsed = await asyncio.wait_for(
                connection.request(method, path, body, headers), REQUEST_TIMEOUT)
        except (HTTPError, asyncio.TimeoutError, OSError) as error:
            await connection.close()  # a request cut off midway leaves the connection unusable
            self.error(kind, type(error).__name__, repr(error))
            return None
        if status not in ok:
            self.error(kind, f"HTTP {status}", payload[:500].decode(errors="replace"))
            return None
        try:
            reply = json.loads(payload) if payload else {}
        except ValueError as error:
            self.error(kind, "not JSON", f"{error}: {payload[:200]!r}")
            return None
        moment = self.since_start()
        self.latencies[self._window(moment)][kind].append(elapsed)
        self.all.append((moment, kind, elapsed))
        return reply


# Memory ---------------------------------------------------------------------


def _status_kb(pid, field):
    try:
        with open(f"/proc/{pid}/status") as file:
            for line in file:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return 0  # a zombie has no VmRSS line


def _pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as file:
            for line in file:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return 0


def _cpu_ticks(pid):
    """utime + stime of a process, in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of proc(5), counted after the name


def _machine_ticks():
    """(busy, total) clock ticks of the whole machine, from /proc/stat."""
    with open("/proc/stat") as file:
        values = [int(value) for value in file.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


def _children(parent):
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == parent:
            found.append(int(stat.split("/")[2]))
    return found


def sample(server_pid, postgres_pidfile):
    """Resident memory of the server and of PostgreSQL (postmaster and children), now."""
    row = {"server_kb": _status_kb(server_pid, "VmRSS"), "server_ticks": _cpu_ticks(server_pid),
           "machine": _machine_ticks(), "postgres_kb": None, "postgres_pss_kb": None, "postgres_processes": 0}
    if postgres_pidfile:
        try:
            with open(postgres_pidfile) as file:
                postmaster = int(file.readline().strip())
        except (OSError, ValueError):
            return row
        rss = pss = processes = 0
        for pid in [postmaster] + _children(postmaster):
            kb = _status_kb(pid, "VmRSS")
            if kb is None:
                continue  # it ended meanwhile
            rss += kb
            pss += _pss_kb(pid) or 0
            processes += 1
        row.update(postgres_kb=rss, postgres_pss_kb=pss, postgres_processes=processes)
    return row


async def sampler(soak, server_pid, postgres_pidfile):
    """A sample at the start and at every window's end."""
    for index in range(soak.windows + 1):
        moment = min(index * soak.window, soak.duration)
        delay = soak.started + moment - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        row = await asyncio.to_thread(sample, server_pid, postgres_pidfile)
        row["at"] = soak.since_start()
        soak.samples.append(row)
        if row["server_kb"] is None:
            soak.error("server process", "gone", f"/proc/{server_pid} no longer exists")
        if index > 0:
            window = soak.latencies[index - 1]
            errors = sum(soak.errors[index - 1].values())
            print(f"[{row['at']:6.0f} s] {sum(map(len, window.values())) + errors} requests, {errors} errors; "
                  f"server {mb(row['server_kb'])} MB, PostgreSQL {mb(row['postgres_kb'])} MB", file=sys.stderr)


def _write_and_sync(fd, block):
    started = time.perf_counter()
    os.pwrite(fd, block, 0)
    os.fdatasync(fd)
    return time.perf_counter() - started


async def disk_prober(soak, path):
    """Times an 8 KB write and fdatasync of `path` every DISK_PROBE_EVERY s."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    block = os.urandom(8192)
    try:
        while await soak.pause(DISK_PROBE_EVERY):
            elapsed = await asyncio.to_thread(_write_and_sync, fd, block)
            moment = soak.since_start()
            soak.disk[soak._window(moment)].append(elapsed)
            soak.disk_all.append((moment, elapsed))
    finally:
        os.close(fd)
        os.unlink(path)


# Learners -------------------------------------------------------------------


async def lesson_learner(soak, token, learner_id, language, rng, think):
    connection = Connection(soak.host, soak.port)
    headers = {"Authorization": f"Bearer {token}"}
    lessons_path = f"/v1/learners/{learner_id}/lessons"
    start_body = {"language": language, "mode": "teacher", "length": LESSON_LENGTH, "types": TYPES}
    try:
        await soak.pause(rng.uniform(0, 3))  # not everyone at once
        while soak.running():
            lesson = await soak.call(connection, "lesson start", "POST", lessons_path, start_body, headers, ok=(200, 201))
            if lesson is None:
                await soak.pause(2)
                continue
            answers_path = f"{lessons_path}/{lesson['id']}/answers"
            while lesson.get("status") == "inProgress" and lesson.get("question"):
                question = lesson["question"]
                options = [option["id"] for option in question.get("options", []) if not option.get("disabled")]
                if not options:
                    soak.error("lesson answer", "no option left", json.dumps(question)[:500])
                    return  # resuming would bring the same question back
                pause = rng.uniform(*think)  # reading the question
                if not await soak.pause(pause):
                    return
                answer = {"questionId": question["id"], "optionId": rng.choice(options), "responseTimeMs": int(pause * 1000)}
                reply = await soak.call(connection, "lesson answer", "POST", answers_path, answer, headers)
                if reply is None:
                    break  # start (resume) the lesson again
                lesson = reply["lesson"]
                if lesson.get("status") == "finished":
                    soak.lessons_finished += 1
            await soak.pause(rng.uniform(2, 5))  # between lessons
    finally:
        await connection.close()


class Memory:
    """What a player knows of a deal: the faces seen, the pairs found, the
    pairs tried in vain. Words and translations pair by the corpus."""

    def __init__(self, positions, language, concepts):
        self.unmatched = set(positions)
        self.seen = {}  # position -> (face, concepts)
        self.tried = set()  # frozensets of two positions that did not match
        self.language, self.concepts = language, concepts

    def learn(self, card):
        face = card.get("face")
        words = self.concepts[self.language if face == "word" else "en"]
        self.seen[card["position"]] = (face, words.get(card.get("text"), set()))

    def partner(self, position):
        """A seen, unmatched card that goes with this one, if any."""
        face, concepts = self.seen[position]
        for other in sorted(self.unmatched):
            if other != position and other in self.seen:
                other_face, other_concepts = self.seen[other]
                if other_face != face and concepts & other_concepts:
                    return other
        return None

    def first(self, rng):
        """The turn's first card: one whose partner is known, else an unseen one."""
        for position in sorted(self.unmatched):
            if position in self.seen and self.partner(position) is not None:
                return position
        unseen = sorted(self.unmatched - set(self.seen))
        return rng.choice(unseen) if unseen else rng.choice(sorted(self.unmatched))

    def second(self, first, rng):
        """The turn's second card: the first one's partner if seen, else a card not seen
        (or, with words the corpus does not know, one not yet tried with it)."""
        known = self.partner(first)
        if known is not None:
            return known
        unseen = sorted(self.unmatched - set(self.seen) - {first})
        if unseen:
            return rng.choice(unseen)
        others = [p for p in sorted(self.unmatched) if p != first and frozenset((first, p)) not in self.tried]
        return rng.choice(others or [p for p in sorted(self.unmatched) if p != first])

    def turned(self, first, second, matched):
        if matched:
            self.unmatched -= {first, second}
        else:
            self.tried.add(frozenset((first, second)))


async def play_live(soak, connection, headers, game_path, game, memory, rng, think):
    flips_path = f"{game_path}/flips"
    while memory.unmatched:
        first = memory.first(rng)
        for position in (first, None):
            if not await soak.pause(rng.uniform(*think)):
                return False
            if position is None:
                position = memory.second(first, rng)
            reply = await soak.call(connection, "game flip", "POST", flips_path, {"position": position}, headers)
            if reply is None:
                return False  # abandon the game
            for card in reply.get("cards", []):
                memory.learn(card)
            if reply.get("outcome") in ("match", "mismatch"):
                memory.turned(first, position, reply["outcome"] == "match")
    return True


async def play_offline(soak, connection, headers, game_path, game, memory, rng, think):
    faces = {card["position"]: card for card in game["cards"]}
    flips, at = [], 0.0
    while memory.unmatched:
        first = memory.first(rng)
        second = None
        for position in (first, None):
            at += rng.uniform(*think)
            if position is None:
                position = second = memory.second(first, rng)
            memory.learn(faces[position])
            flips.append({"position": position, "at": round(at, 2)})
        first_face, first_concepts = memory.seen[first]
        second_face, second_concepts = memory.seen[second]
        memory.turned(first, second, first_face != second_face and bool(first_concepts & second_concepts))
        if len(flips) > 400:
            soak.error("game log", "no finishing log", f"the corpus pairs no cards of game {game['id']}")
            return False
    # The game is played on the device; the log is sent when it is over.
    if not await soak.pause(at):
        return False
    return await soak.call(connection, "game log", "POST", f"{game_path}/log", {"flips": flips}, headers) is not None


async def game_player(soak, token, learner_id, language, rng, think, concepts):
    connection = Connection(soak.host, soak.port)
    headers = {"Authorization": f"Bearer {token}"}
    games_path = f"/v1/learners/{learner_id}/games"
    board_path = f"/v1/leaderboards/matching?language={language}&learnerId={learner_id}"
    played = 0
    try:
        await soak.pause(rng.uniform(0, 3))
        while soak.running():
            offline = played % 2 == 1
            played += 1
            body = {"language": language, "kind": "matching", "pairs": GAME_PAIRS, "faces": "wordTranslation",
                    "offline": offline}
            game = await soak.call(connection, "game start", "POST", games_path, body, headers, ok=(201,))
            if game is None:
                await soak.pause(2)
                continue
            game_path = f"{games_path}/{game['id']}"
            memory = Memory([card["position"] for card in game["cards"]], language, concepts)
            play = play_offline if offline else play_live
            if not await play(soak, connection, headers, game_path, game, memory, rng, think):
                continue
            if offline:
                soak.offline_games += 1
            else:
                soak.live_games += 1
            if not await soak.pause(rng.uniform(1, 3)):
                return
            await soak.call(connection, "leaderboard", "GET", board_path, None, headers)  # where am I now?
            await soak.pause(rng.uniform(2, 5))  # between games
    finally:
        await connection.close()


async def reader(soak, token, learner_id, lists, rng, interval):
    """Open loop: a request every `interval` s, whatever the latency."""
    connection = Connection(soak.host, soak.port)
    headers = {"Authorization": f"Bearer {token}"}
    try:
        await soak.pause(rng.uniform(0, interval))
        next_at = time.perf_counter()
        while soak.running():
            draw = rng.random()
            if draw < 0.5:
                language = rng.choice(sorted(lists))
                list_id, pages = rng.choice(lists[language])
                await soak.call(connection, "word-list page", "GET",
                                f"/v1/languages/{language}/wordlists/{list_id}/pages/{rng.randint(1, pages)}?learnerId={learner_id}",
                                None, headers)
            elif draw < 0.75:
                query = (f"language={rng.choice(GAME_LANGUAGES)}&scope={rng.choice(['global', 'week'])}"
                         f"&metric={rng.choice(['score', 'time'])}")
                if rng.random() < 0.5:
                    query += f"&learnerId={learner_id}"
                await soak.call(connection, "leaderboard", "GET", f"/v1/leaderboards/matching?{query}", None, headers)
            else:
                await soak.call(connection, "me", "GET", "/v1/me", None, headers)
            next_at += interval
            await soak.pause(max(0.0, next_at - time.perf_counter()))
    finally:
        await connection.close()


# Report ---------------------------------------------------------------------


def percentile_ms(latencies, percent):
    return nearest_rank(sorted(latencies), percent) * 1000 if latencies else float("nan")


def least_squares(points):
    """Slope and its standard error of y on x, or (nan, nan) with fewer than 3 points."""
    n = len(points)
    if n < 3:
        return float("nan"), float("nan")
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    if sxx == 0:
        return float("nan"), float("nan")
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx
    residuals = sum((y - mean_y - slope * (x - mean_x)) ** 2 for x, y in points)
    return slope, math.sqrt(residuals / (n - 2) / sxx)


def mb(kb):
    return "-" if kb is None else f"{kb / 1024:.0f}"


def report(soak, args, setup_seconds, clock_ticks):
    duration = soak.duration
    total = len(soak.all)
    errors = sum(sum(counter.values()) for counter in soak.errors)
    print("# Soak: mixed load\n")
    if args.about:
        print(args.about + "\n")
    print(f"{args.learners} lesson learners (each answer after {args.think.replace(',', '-')} s), {args.players} game players "
          f"({GAME_PAIRS}-pair word-and-translation games, live and offline in turn, a flip every "
          f"{args.player_think.replace(',', '-')} s) "
          f"and {args.readers} readers (a word-list page, a leaderboard page or /v1/me every {args.read_interval:g} s each), "
          f"for {duration:g} s in windows of {soak.window:g} s; every account on the trial (no daily limits). "
          f"{args.learners + args.players + 1} sign-ups took {setup_seconds:.1f} s before the clock started. "
          f"The client (Python asyncio, one process) runs on the same {os.cpu_count()} cores as Parla and PostgreSQL.\n")

    print("## Per window\n")
    print("p50 / p99 ms of the 2xx answers. Memory is sampled at the window's end; CPU is the server's share of one "
          "core and the whole machine's share of all cores over the window.\n")
    print("| window (s) | requests | errors | " + " | ".join(KINDS)
          + " | disk fsync (probe) p50 / max | server RSS MB | server CPU % | machine CPU % | PostgreSQL RSS MB"
          + " | PostgreSQL PSS MB | PostgreSQL processes |")
    print("|---|---:|---:|" + "---:|" * len(KINDS) + "---:|---:|---:|---:|---:|---:|---:|")
    for index in range(soak.windows):
        start, stop = index * soak.window, min((index + 1) * soak.window, duration)
        cells = []
        for kind in KINDS:
            latencies = soak.latencies[index].get(kind, [])
            cells.append(f"{percentile_ms(latencies, 50):.1f} / {percentile_ms(latencies, 99):.1f}" if latencies else "-")
        requests = sum(len(latencies) for latencies in soak.latencies[index].values()) + sum(soak.errors[index].values())
        before, after = (soak.samples[index], soak.samples[index + 1]) if index + 1 < len(soak.samples) else (None, None)
        server_cpu = machine_cpu = "-"
        if after is not None:
            span = after["at"] - before["at"]
            if before["server_ticks"] is not None and after["server_ticks"] is not None and span > 0:
                server_cpu = f"{100 * (after['server_ticks'] - before['server_ticks']) / clock_ticks / span:.0f}"
            busy = after["machine"][0] - before["machine"][0]
            all_ticks = after["machine"][1] - before["machine"][1]
            machine_cpu = f"{100 * busy / all_ticks:.0f}" if all_ticks else "-"
        memory = after or {"server_kb": None, "postgres_kb": None, "postgres_pss_kb": None, "postgres_processes": 0}
        disk = soak.disk[index]
        disk_cell = f"{percentile_ms(disk, 50):.1f} / {max(disk) * 1000:.0f}" if disk else "-"
        print(f"| {start:g}-{stop:g} | {requests} | {sum(soak.errors[index].values())} | " + " | ".join(cells)
              + f" | {disk_cell} | {mb(memory['server_kb'])} | {server_cpu} | {machine_cpu} | {mb(memory['postgres_kb'])}"
              + f" | {mb(memory['postgres_pss_kb'])} | {memory['postgres_processes'] or '-'} |")

    print("\n## Summary\n")
    print(f"- Requests: {total + errors:,} ({(total + errors) / duration:.1f}/s); lessons finished "
          f"{soak.lessons_finished}, games finished {soak.live_games} live and {soak.offline_games} offline.")
    print(f"- **Errors: {errors}**" + (" (goal: 0)." if errors else "."))
    first_sample, last_sample = soak.samples[0], soak.samples[-1]
    span = last_sample["at"] - first_sample["at"]
    if span > 0:
        parts = []
        if first_sample["server_ticks"] is not None and last_sample["server_ticks"] is not None:
            parts.append(f"the Parla server {100 * (last_sample['server_ticks'] - first_sample['server_ticks']) / clock_ticks / span:.0f}% of one core")
        parts.append(f"this client {100 * (soak.client_cpu[1] - soak.client_cpu[0]) / span:.0f}% of one core")
        busy = last_sample["machine"][0] - first_sample["machine"][0]
        all_ticks = last_sample["machine"][1] - first_sample["machine"][1]
        if all_ticks:
            parts.append(f"the whole machine {100 * busy / all_ticks:.0f}% of its {os.cpu_count()} cores "
                         "(anything else running shows here, and in the latencies)")
        print(f"- CPU over the run: {'; '.join(parts)}.")
    if soak.error_kinds:
        for (kind, what), count in sorted(soak.error_kinds.items()):
            print(f"  - {kind}: {what} x{count}; the first {soak.error_examples[(kind, what)]}")
    # The p99s compared are those of the steady run, after the warm-up (as the memory fit's): the first
    # minutes fill caches and pools and say nothing about drift. A difference of under --stable-floor-ms
    # counts as stable whatever its ratio: a read's p99 of 3 ms moves by 1 ms with the scheduling of two
    # cores shared by the client, the server and PostgreSQL.
    steady = steady_start(args.warmup, duration, args.window)
    third = (duration - steady) / 3
    first_end, last_start = steady + third, duration - third

    def thirds(timed):
        """The latencies of (moment, latency) pairs in the steady run's first and last third."""
        return ([elapsed for moment, elapsed in timed if steady <= moment < first_end],
                [elapsed for moment, elapsed in timed if moment >= last_start])
    print(f"\np99 of the steady run's first third ({steady:.0f}-{first_end:.0f} s, after the warm-up) against its last "
          f"third ({last_start:.0f}-{duration:.0f} s); stable when the last is within ±{args.stable_percent:g}% of the "
          f"first, or within {args.stable_floor_ms:g} ms of it.\n")
    print("| kind | request | answers | p50 ms | p99 ms | p99 first third | p99 last third | last / first | stable |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    unstable = []
    for kind in KINDS:
        latencies = [elapsed for _, k, elapsed in soak.all if k == kind]
        first, last = thirds([(moment, elapsed) for moment, k, elapsed in soak.all if k == kind])
        if not latencies:
            print(f"| {kind} | {KIND_PATHS[kind]} | 0 | - | - | - | - | - | - |")
            continue
        p99_first, p99_last = percentile_ms(first, 99), percentile_ms(last, 99)
        ratio = p99_last / p99_first if first and last and p99_first > 0 else float("nan")
        if math.isnan(ratio):
            stable = "-"
        elif min(len(first), len(last)) < MIN_FOR_P99:
            stable = f"too few to say (under {MIN_FOR_P99})"
        else:
            within = abs(ratio - 1) * 100 <= args.stable_percent or abs(p99_last - p99_first) <= args.stable_floor_ms
            stable = "yes" if within else "**no**"
        if stable == "**no**":
            unstable.append(kind)
        print(f"| {kind} | {KIND_PATHS[kind]} | {len(latencies):,} | {percentile_ms(latencies, 50):.1f} | "
              f"{percentile_ms(latencies, 99):.1f} | {p99_first:.1f} ({len(first):,}) | {p99_last:.1f} ({len(last):,}) | "
              f"{ratio:.2f} | {stable} |")
    if soak.disk_all:
        first, last = thirds(soak.disk_all)
        p99_first, p99_last = percentile_ms(first, 99), percentile_ms(last, 99)
        ratio = p99_last / p99_first if first and last and p99_first > 0 else float("nan")
        stalls = sum(1 for _, elapsed in soak.disk_all if elapsed * 1000 > DISK_STALL_MS)
        print(f"| disk (not a request) | 8 KB write and fdatasync beside the database, every {DISK_PROBE_EVERY:g} s | "
              f"{len(soak.disk_all):,} | {percentile_ms([e for _, e in soak.disk_all], 50):.1f} | "
              f"{percentile_ms([e for _, e in soak.disk_all], 99):.1f} | {p99_first:.1f} ({len(first):,}) | "
              f"{p99_last:.1f} ({len(last):,}) | {ratio:.2f} | {stalls} over {DISK_STALL_MS} ms, "
              f"longest {max(e for _, e in soak.disk_all) * 1000:.0f} ms |")
    print()
    print("p99 stable for every kind." if not unstable else f"p99 not within ±{args.stable_percent:g}%: {', '.join(unstable)}.")
    if unstable and soak.disk_all:
        # A kind's slow windows: its p99 over twice the median of its windows' p99s.
        print(f"\nWhere the time went: a kind's slow windows are those whose p99 is over twice the median of its "
              f"windows' p99; a window with a disk stall is one where the probe's fdatasync took over {DISK_STALL_MS} ms.\n")
        stalled = {index for index in range(soak.windows) if soak.disk[index] and max(soak.disk[index]) * 1000 > DISK_STALL_MS}
        for kind in unstable:
            p99s = {index: percentile_ms(soak.latencies[index][kind], 99)
                    for index in range(soak.windows) if soak.latencies[index].get(kind)}
            if not p99s:
                continue
            median = sorted(p99s.values())[len(p99s) // 2]
            slow = [index for index, value in p99s.items() if value > 2 * median]
            print(f"- {kind}: {len(slow)} slow windows, {len([index for index in slow if index in stalled])} of them "
                  f"with a disk stall (the disk stalled in {len(stalled)} of {soak.windows} windows).")

    # Memory: a straight line through the samples after the warm-up.
    fitted = [row for row in soak.samples if row["at"] >= steady - 1e-6]
    if steady != args.warmup:
        print(f"\n(The run is too short for a {args.warmup:g} s warm-up: the steady run starts at {steady:g} s.)")
    print(f"\nResident memory: a least-squares line through the {len(fitted)} samples from {steady:g} s on "
          "(after the warm-up), slope ± its standard error.\n")
    print("| process | at the start MB | after the warm-up MB | at the end MB | lowest / highest after warm-up MB | slope MB/hour |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, field in (("Parla server (VmRSS)", "server_kb"), ("PostgreSQL, all processes (VmRSS summed)", "postgres_kb"),
                        ("PostgreSQL, all processes (PSS summed: shared memory counted once)", "postgres_pss_kb")):
        points = [(row["at"] / 3600, row[field] / 1024) for row in fitted if row[field] is not None]
        if not points:
            print(f"| {name} | - | - | - | - | - |")
            continue
        slope, error = least_squares(points)
        values = [y for _, y in points]
        print(f"| {name} | {mb(soak.samples[0][field])} | {values[0]:.0f} | {mb(soak.samples[-1][field])} | "
              f"{min(values):.0f} / {max(values):.0f} | {slope:+.1f} ± {error:.1f} |")
    return errors


def steady_start(warmup, duration, window):
    """When the steady run starts: after the warm-up, or at a quarter of a run too short to leave three windows after it."""
    return warmup if duration - warmup >= 3 * window else duration / 4


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=18084)
    parser.add_argument("--duration", type=float, default=1800, help="seconds of load")
    parser.add_argument("--window", type=float, default=60, help="seconds a report row covers")
    parser.add_argument("--warmup", type=float, default=300, help="seconds left out of the p99 comparison and the memory fit")
    parser.add_argument("--learners", type=int, default=24)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--readers", type=int, default=3)
    parser.add_argument("--read-interval", type=float, default=1.0, help="seconds between a reader's requests")
    parser.add_argument("--think", default="1,3", help="seconds before a lesson answer: MIN,MAX (uniform)")
    parser.add_argument("--player-think", default="0.6,1.6", help="seconds before a flip: MIN,MAX (uniform, at least 0.15)")
    parser.add_argument("--stable-percent", type=float, default=25, help="p99 stable when the last third is within this of the first")
    parser.add_argument("--stable-floor-ms", type=float, default=1,
                        help="p99 also stable when the last third is within this many ms of the first")
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--postgres-pidfile", help="the cluster's postmaster.pid")
    parser.add_argument("--disk-probe", help="a file to create beside the database and fdatasync every 0.2 s")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--about", help="Markdown printed under the title (machine, commit, parameters)")
    args = parser.parse_args()
    think = tuple(float(part) for part in args.think.split(","))
    player_think = tuple(float(part) for part in args.player_think.split(","))
    if len(think) != 2 or not 0 <= think[0] <= think[1] or len(player_think) != 2 or not 0.15 <= player_think[0] <= player_think[1]:
        parser.error("--think takes MIN,MAX with 0 <= MIN <= MAX; --player-think MIN,MAX with 0.15 <= MIN <= MAX")
    if args.duration <= 0 or args.window <= 0 or min(args.learners, args.players, args.readers) < 0:
        parser.error("duration and window must be positive, counts not negative")

    rng = random.Random(args.seed)
    concepts = word_concepts(GAME_LANGUAGES + ["en"])
    soak = Soak(args.host, args.port, args.duration, args.window)

    # Accounts first (bcrypt makes sign-ups slow on purpose), off the clock.
    suffix = secrets.token_hex(4)
    setup = Connection(args.host, args.port)
    setup_started = time.perf_counter()
    learners = [await sign_up(setup, f"soak{index}", suffix) for index in range(args.learners)]
    players = [await sign_up(setup, f"player{index}", suffix) for index in range(args.players)]
    reader_token, reader_learner = await sign_up(setup, "reader", suffix)
    lists = {}
    for language in GAME_LANGUAGES:
        status, _, payload, _ = await setup.request(
            "GET", f"/v1/languages/{language}/wordlists?learnerId={reader_learner}", None,
            {"Authorization": f"Bearer {reader_token}"})
        if status != 200:
            raise SystemExit(f"word lists of {language}: HTTP {status} {payload[:300]!r}")
        lists[language] = [(entry["id"], max(1, math.ceil(entry["wordCount"] / 35)))
                           for entry in json.loads(payload)["wordLists"]]
    await setup.close()
    setup_seconds = time.perf_counter() - setup_started
    print(f"{len(learners) + len(players) + 1} sign-ups in {setup_seconds:.1f} s; "
          f"soaking for {args.duration:g} s", file=sys.stderr)

    soak.begin()
    tasks = [sampler(soak, args.server_pid, args.postgres_pidfile)]
    if args.disk_probe:
        tasks.append(disk_prober(soak, args.disk_probe))
    tasks += [lesson_learner(soak, token, learner, LANGUAGES[index % len(LANGUAGES)], random.Random(rng.random()), think)
              for index, (token, learner) in enumerate(learners)]
    tasks += [game_player(soak, token, learner, GAME_LANGUAGES[index % len(GAME_LANGUAGES)], random.Random(rng.random()),
                          player_think, concepts)
              for index, (token, learner) in enumerate(players)]
    tasks += [reader(soak, reader_token, reader_learner, lists, random.Random(rng.random()), args.read_interval)
              for _ in range(args.readers)]
    client_started = sum(os.times()[:2])
    await asyncio.gather(*tasks)
    soak.client_cpu = (client_started, sum(os.times()[:2]))
    errors = report(soak, args, setup_seconds, os.sysconf("SC_CLK_TCK"))
    return 1 if errors else 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        sys.exit(130)
